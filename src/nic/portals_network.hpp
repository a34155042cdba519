// PortalsNetwork: MPI over simulated Portals (seed 000 §5.2-5.3: Open MPI's Portals 4 layer on
// S4BXI), network/model's contract implemented by the NIC model (nic.hpp) over a wire model.
// It is what `--cfg nic/model=portals` builds; every front-end's point-to-point messages, and the
// collectives' messages the selectors generate, go through it unchanged.
//
// A message of k bytes from rank a (host i) to rank b (host t):
//   k <= nic/eager-limit   eager: one Put of k bytes into b's matching list (the MPI envelope in
//                          the match bits), no Portals ACK (the NIC's BXI ACK only). The
//                          receiver's MPI sees it when the PUT event is visible; the send
//                          completes after its CPU cost (the eager protocol).
//   k >  nic/eager-limit   rendezvous (Protocol::kSynchronous): a Put of the header (0 bytes,
//                          inline), matched like an eager message; at the match the receiver
//                          issues a Get of the k bytes from a's exposed buffer, whose REPLY is
//                          the delivery. The send completes with the data's arrival.
// CPU: a send costs nic/mpi-overhead plus the Put's post cost (PIO's payload write); a receive
// costs nic/mpi-overhead. No NIC gaps: the NIC's queues and the wire model share the bandwidth.
// What is left to the MPI layer (mpi/executor): matching itself (priority list = posted
// receives in order, overflow list = unexpected messages), with the same first-match rule.
// Unexpected messages are not charged the copy out of an overflow buffer.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "core/slot_pool.hpp"
#include "net/network.hpp"
#include "nic/nic.hpp"
#include "platform/platform.hpp"

namespace simfab::nic {

class PortalsNetwork final : public Network, private NicClient {
 public:
  PortalsNetwork(Engine& engine, const Platform& platform, NicParams params, std::unique_ptr<Network> wire);
  ~PortalsNetwork() override;

  Nic& nic() { return nic_; }
  const Nic& nic() const { return nic_; }

  const char* name() const override { return name_.c_str(); }  // "portals over flow"
  Protocol protocol(Bytes size) const override;
  SimTime send_overhead(HostId src, HostId dst, Bytes size) const override;
  SimTime recv_overhead(HostId src, HostId dst, Bytes size) const override;
  SimTime send_gap(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  SimTime recv_gap(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  void transfer(const NetMessage& m) override;
  void control(const NetMessage& m) override;
  NetworkStats statistics() const override;
  std::string stuck() const override;
  std::vector<std::pair<std::string, std::string>> derived_parameters() const override;

 private:
  TargetOutcome on_target(const Command& c, NicTime when) override;
  void on_initiator(const Command& c, InitiatorEvent e, Fail fail, NicTime when) override;
  // A matching-NI command without its client (post() needs `this`; post_cost does not).
  static Command command(OpType op, HostId initiator, HostId target, Bytes length, uint64_t user);

  Engine& engine_;
  Nic nic_;
  std::string name_;
  struct Pending {
    uint64_t token = 0;  // the executor's
    bool data = false;   // a rendezvous payload (Get): delivered at REPLY
  };
  SlotPool<Pending> pending_;
  uint64_t outstanding_ = 0;
};

}  // namespace simfab::nic
