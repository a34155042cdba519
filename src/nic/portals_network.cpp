#include "nic/portals_network.hpp"

#include "core/error.hpp"

namespace simfab::nic {

PortalsNetwork::PortalsNetwork(Engine& engine, const Platform& platform, NicParams params,
                               std::unique_ptr<Network> wire)
    : engine_(engine),
      nic_(engine, platform, std::move(params), std::move(wire)),
      name_(std::string("portals over ") + nic_.wire().name()) {}

PortalsNetwork::~PortalsNetwork() = default;

Protocol PortalsNetwork::protocol(Bytes size) const {
  return size <= nic_.params().eager_limit ? Protocol::kEager : Protocol::kSynchronous;
}

Command PortalsNetwork::command(OpType op, HostId initiator, HostId target, Bytes length, uint64_t user) {
  Command c;
  c.op = op;
  c.initiator = initiator;
  c.target = target;
  c.length = length;
  c.matching = true;
  c.user = user;
  return c;
}

SimTime PortalsNetwork::send_overhead(HostId src, HostId dst, Bytes size) const {
  const Bytes put = size <= nic_.params().eager_limit ? size : 0;  // rendezvous: the header Put
  return nic_.params().mpi_overhead + nic_.post_cost(command(OpType::kPut, src, dst, put, 0));
}

SimTime PortalsNetwork::recv_overhead(HostId, HostId, Bytes) const { return nic_.params().mpi_overhead; }

// Eager data: a Put of the message; its PUT event at the receiver is the delivery.
void PortalsNetwork::transfer(const NetMessage& m) {
  const uint32_t id = pending_.acquire();
  const bool data = protocol(m.size) != Protocol::kEager;
  pending_[id] = Pending{m.token, data};
  ++outstanding_;
  Command c = data ? command(OpType::kGet, m.dst, m.src, m.size, id)  // the receiver gets the payload
                   : command(OpType::kPut, m.src, m.dst, m.size, id);
  c.client = this;
  c.initiator_pid = static_cast<int32_t>(m.stream >> 32);
  c.target_pid = static_cast<int32_t>(m.stream & 0xFFFFFFFFu);
  if (data) std::swap(c.initiator_pid, c.target_pid);
  nic_.post(c, std::max(m.departs, engine_.now()));
}

// The envelope of a rendezvous: a Put of the header alone.
void PortalsNetwork::control(const NetMessage& m) {
  const uint32_t id = pending_.acquire();
  pending_[id] = Pending{m.token, false};
  ++outstanding_;
  Command c = command(OpType::kPut, m.src, m.dst, 0, id);
  c.client = this;
  c.initiator_pid = static_cast<int32_t>(m.stream >> 32);
  c.target_pid = static_cast<int32_t>(m.stream & 0xFFFFFFFFu);
  nic_.post(c, std::max(m.departs, engine_.now()));
}

TargetOutcome PortalsNetwork::on_target(const Command& c, NicTime when) {
  TargetOutcome out;
  out.ack = false;
  if (c.op == OpType::kGet) {
    out.reply_bytes = c.length;
    return out;
  }
  const Pending p = pending_[static_cast<uint32_t>(c.user)];
  pending_.release(static_cast<uint32_t>(c.user));
  --outstanding_;
  engine_.schedule(when.visible, kinds_.delivery, p.token);
  return out;
}

void PortalsNetwork::on_initiator(const Command& c, InitiatorEvent e, Fail, NicTime when) {
  if (c.op != OpType::kGet || e != InitiatorEvent::kReply) return;
  const Pending p = pending_[static_cast<uint32_t>(c.user)];
  pending_.release(static_cast<uint32_t>(c.user));
  --outstanding_;
  engine_.schedule(when.visible, kinds_.delivery, p.token);
}

NetworkStats PortalsNetwork::statistics() const { return nic_.wire().statistics(); }

std::string PortalsNetwork::stuck() const {
  std::string s = nic_.stuck();
  if (outstanding_ > 0) s = std::to_string(outstanding_) + " MPI message(s) never delivered" + (s.empty() ? "" : ": " + s);
  return s;
}

std::vector<std::pair<std::string, std::string>> PortalsNetwork::derived_parameters() const {
  return nic_.wire().derived_parameters();
}

}  // namespace simfab::nic
