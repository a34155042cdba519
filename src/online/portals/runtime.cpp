#include "online/portals/runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "nic/portals_network.hpp"
#include "online/mpi_fatal.hpp"
#include "online/portals/atomics.hpp"
#include "online/portals/initiator.hpp"
#include "online/portals/target.hpp"

namespace simfab::online::portals {

namespace {

constexpr nic::Fail kToNic[] = {nic::Fail::kOk,         nic::Fail::kUndeliverable, nic::Fail::kPtDisabled,
                                nic::Fail::kDropped,    nic::Fail::kPermViolation, nic::Fail::kOpViolation,
                                nic::Fail::kNoMatch,    nic::Fail::kSegv,          nic::Fail::kTargetInvalid};

nic::Fail to_nic(ptl_ni_fail_t f) { return f < std::size(kToNic) ? kToNic[f] : nic::Fail::kDropped; }

ptl_ni_fail_t to_ptl(nic::Fail f) {
  for (size_t i = 0; i < std::size(kToNic); ++i)
    if (kToNic[i] == f) return static_cast<ptl_ni_fail_t>(i);
  return PTL_NI_DROPPED;
}

nic::OpType nic_op(OpKind k) {
  switch (k) {
    case OpKind::kPut: return nic::OpType::kPut;
    case OpKind::kGet: return nic::OpType::kGet;
    case OpKind::kAtomic: return nic::OpType::kAtomic;
    case OpKind::kFetchAtomic: return nic::OpType::kFetchAtomic;
    case OpKind::kSwap: return nic::OpType::kSwap;
  }
  return nic::OpType::kPut;
}

bool has_put_md(OpKind k) { return k != OpKind::kGet; }
bool has_get_md(OpKind k) { return k == OpKind::kGet || k == OpKind::kFetchAtomic || k == OpKind::kSwap; }
bool fits(uint64_t offset, uint64_t length, uint64_t room) { return offset <= room && length <= room - offset; }

// Which operations each call takes (Portals 4.1 §3.15.4: the swaps only through PtlSwap).
bool op_allowed(OpKind k, ptl_op_t op, const void* operand) {
  const bool swap_family = op >= PTL_SWAP && op <= PTL_MSWAP;
  if (k != OpKind::kSwap) return !swap_family;
  return swap_family && (op == PTL_SWAP || operand != nullptr);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Set-up

PortalsRuntime& PortalsRuntime::get(const char* call) {
  static std::unique_ptr<PortalsRuntime> runtime;
  static OnlineProgram* owner = nullptr;
  OnlineProgram* p = OnlineProgram::active();
  if (!p || p->me() < 0) mpi_fatal(call, "called outside a rank of a simfab exec run");
  if (!runtime || owner != p) {
    auto* net = dynamic_cast<nic::PortalsNetwork*>(&p->executor().network());
    if (!net)
      mpi_fatal(call, "Portals 4 calls need the simulated Portals NIC: add --cfg nic/model=portals to simfab exec");
    runtime = std::make_unique<PortalsRuntime>(*p, net->nic());
    owner = p;
  }
  return *runtime;
}

PortalsRuntime::PortalsRuntime(OnlineProgram& program, nic::Nic& nic)
    : program_(program), nic_(nic), processes_(static_cast<size_t>(program.num_ranks())),
      pid_(static_cast<size_t>(program.num_ranks())), ranks_(static_cast<size_t>(program.num_ranks())) {
  for (int32_t r = 0; r < program.num_ranks(); ++r) {
    const HostId h = program.host_of(r);
    std::vector<int32_t>& on = ranks_on_[h];
    pid_[static_cast<size_t>(r)] = static_cast<ptl_pid_t>(on.size());
    by_phys_[{h, static_cast<ptl_pid_t>(on.size())}] = r;
    on.push_back(r);
  }
}

PortalsProcess& PortalsRuntime::process(int32_t rank) {
  std::optional<PortalsProcess>& p = processes_[static_cast<size_t>(rank)];
  if (!p) {
    ptl_process_t phys{};
    phys.phys.nid = static_cast<ptl_nid_t>(program_.host_of(rank));
    phys.phys.pid = pid_[static_cast<size_t>(rank)];
    p.emplace(rank, phys, static_cast<ptl_uid_t>(getuid()));
  }
  return *p;
}

PortalsProcess& PortalsRuntime::me() { return process(program_.me()); }

EventQueue* PortalsRuntime::eq_of(int32_t rank, ptl_handle_eq_t h) {
  NetworkInterface* n = process(rank).ni_of(h, HandleKind::kEq);
  return n ? n->eq(h) : nullptr;
}

CountingEvent* PortalsRuntime::ct_of(int32_t rank, ptl_handle_ct_t h) {
  NetworkInterface* n = process(rank).ni_of(h, HandleKind::kCt);
  return n ? n->ct(h) : nullptr;
}

std::optional<int32_t> PortalsRuntime::resolve(const NetworkInterface& ni, const ptl_process_t& p) const {
  if (ni.logical) {
    if (p.rank >= static_cast<ptl_rank_t>(program_.num_ranks())) return std::nullopt;
    return static_cast<int32_t>(p.rank);
  }
  auto it = by_phys_.find({static_cast<HostId>(p.phys.nid), p.phys.pid});
  if (it == by_phys_.end()) return std::nullopt;
  return it->second;
}

// ---------------------------------------------------------------------------------------------
// Time and wakes

SimTime PortalsRuntime::check_time() const {
  if (probing_) return probe_;
  return program_.me() >= 0 ? program_.now() : program_.executor().engine().now();
}

void PortalsRuntime::notify(int32_t rank, SimTime visible) {
  probing_ = true;
  probe_ = visible;
  program_.wake(rank, visible);
  probing_ = false;
}

void PortalsRuntime::poll_delay() {
  RankState& s = ranks_[static_cast<size_t>(program_.me())];
  ++s.polls;
  const int64_t d = nic_.params().polling_delay.ps();
  const int64_t extra = s.polls > 5 ? static_cast<int64_t>(s.polls - 5) : 0;
  program_.poll_sleep(SimTime::ps(d + extra * d));
}

void PortalsRuntime::skip_spin(const std::function<bool(SimTime)>& ready, const char* what) {
  RankState& s = ranks_[static_cast<size_t>(program_.me())];
  SimTime t = now();  // the last poll's time
  uint32_t k = s.polls;
  program_.wait_for([this, &ready] { return ready(check_time()); }, what);
  const SimTime found_at = now();
  const int64_t d = nic_.params().polling_delay.ps();
  while (t < found_at) {
    ++k;
    t = t + SimTime::ps(d + (k > 5 ? static_cast<int64_t>(k - 5) : 0) * d);
  }
  ranks_[static_cast<size_t>(program_.me())].polls = k;
  if (t > now()) program_.poll_sleep(t - now());
}

// ---------------------------------------------------------------------------------------------
// Issue

int PortalsRuntime::issue(const OpArgs& a, const char* call) {
  PortalsProcess& P = me();
  if (!P.initialized()) return PTL_NO_INIT;
  NetworkInterface* ni = nullptr;
  MemoryDescriptor* put = nullptr;
  MemoryDescriptor* get = nullptr;
  if (has_put_md(a.kind)) {
    ni = P.ni_of(a.put_md, HandleKind::kMd);
    put = ni ? ni->md(a.put_md) : nullptr;
    if (!put || !fits(a.put_offset, a.length, put->length)) return PTL_ARG_INVALID;
  }
  if (has_get_md(a.kind)) {
    NetworkInterface* gni = P.ni_of(a.get_md, HandleKind::kMd);
    get = gni ? gni->md(a.get_md) : nullptr;
    if (!get || (ni && gni != ni) || !fits(a.get_offset, a.length, get->length)) return PTL_ARG_INVALID;
    ni = gni;
  }
  if (a.length > ni->limits.max_msg_size || a.ack_req < PTL_NO_ACK_REQ || a.ack_req > PTL_OC_ACK_REQ)
    return PTL_ARG_INVALID;
  if (a.kind != OpKind::kPut && a.kind != OpKind::kGet) {
    const uint64_t limit = a.kind == OpKind::kAtomic ? ni->limits.max_atomic_size : ni->limits.max_fetch_atomic_size;
    if (a.length > limit || !atomic_valid(a.atomic_operation, a.atomic_type, a.length) ||
        !op_allowed(a.kind, a.atomic_operation, a.operand))
      return PTL_ARG_INVALID;
  }
  const std::optional<int32_t> target = resolve(*ni, a.target);
  if (!target) return PTL_ARG_INVALID;

  uint32_t index;
  if (!free_ops_.empty()) {
    index = free_ops_.back();
    free_ops_.pop_back();
  } else {
    index = static_cast<uint32_t>(ops_.size());
    ops_.emplace_back();
  }
  Operation& op = ops_[index];
  const uint32_t generation = op.generation;
  op = Operation{};
  op.generation = generation;
  op.live = true;
  op.args = a;
  op.initiator = program_.me();
  op.target = *target;
  op.ni = ni_index(ni->matching, ni->logical);
  if (put && a.length <= nic_.params().early_send) {
    op.snapshot = true;
    op.payload.resize(a.length);
    if (a.length) std::memcpy(op.payload.data(), static_cast<const std::byte*>(put->start) + a.put_offset, a.length);
  }
  if (a.operand) std::memcpy(op.compare.data(), a.operand, datatype_size(a.atomic_type));
  if (put) ++put->pending;
  if (get) ++get->pending;

  nic::Command c;
  c.op = nic_op(a.kind);
  c.initiator = program_.host_of(op.initiator);
  c.target = program_.host_of(op.target);
  c.initiator_pid = op.initiator;
  c.target_pid = op.target;
  c.length = a.length;
  c.matching = ni->matching;
  c.ack_req = (a.kind == OpKind::kPut || a.kind == OpKind::kAtomic) && a.ack_req != PTL_NO_ACK_REQ;
  c.client = this;
  c.user = (uint64_t{generation} << 32) | index;
  op.ack_req = c.ack_req;

  const SimTime cost = nic_.post_cost(c);
  if (cost > SimTime::zero()) program_.compute_seconds(cost.seconds());
  const HostId node = c.initiator;
  if (nic_.queue_full(node, false))
    program_.wait_for([this, node] { return !nic_.queue_full(node, false); },
                      std::string(call) + " (waiting for room in the NIC's command queue)");
  nic_.post(c, std::max(program_.now(), program_.executor().engine().now()));
  return PTL_OK;
}

// ---------------------------------------------------------------------------------------------
// The NIC's callbacks

PortalsRuntime::Operation* PortalsRuntime::find_op(uint64_t user) {
  const uint32_t index = static_cast<uint32_t>(user);
  if (index >= ops_.size()) return nullptr;
  Operation& op = ops_[index];
  return op.live && op.generation == static_cast<uint32_t>(user >> 32) ? &op : nullptr;
}

nic::TargetOutcome PortalsRuntime::on_target(const nic::Command& c, nic::NicTime when) {
  Operation* op = find_op(c.user);
  if (!op) return {};
  const OpArgs& a = op->args;
  PortalsProcess& I = process(op->initiator);
  NetworkInterface* ini = I.ni_at(op->ni);
  std::vector<std::byte> scratch;  // stands for an MD the initiator released meanwhile
  auto md_bytes = [&](ptl_handle_md_t h, uint64_t offset) -> std::byte* {
    if (MemoryDescriptor* md = ini ? ini->md(h) : nullptr) return static_cast<std::byte*>(md->start) + offset;
    scratch.assign(a.length, std::byte{0});
    return scratch.data();
  };
  Delivery d;
  d.max_memcpy = nic_.params().max_memcpy;
  d.msg.op = a.kind;
  if (ini) {
    d.msg.initiator = I.id(*ini);
  } else if (op->ni & 2u) {
    d.msg.initiator.rank = static_cast<ptl_rank_t>(op->initiator);
  } else {
    d.msg.initiator = I.phys();
  }
  d.msg.uid = I.uid();
  d.msg.match_bits = a.match_bits;
  d.msg.rlength = a.length;
  d.msg.remote_offset = a.remote_offset;
  d.ni = op->ni;
  d.pt_index = a.pt_index;
  d.hdr_data = a.hdr_data;
  d.atomic_operation = a.atomic_operation;
  d.atomic_type = a.atomic_type;
  d.compare = op->compare.data();
  if (has_put_md(a.kind)) d.payload = op->snapshot ? op->payload.data() : md_bytes(a.put_md, a.put_offset);
  if (has_get_md(a.kind)) d.reply_to = md_bytes(a.get_md, a.get_offset);
  const DeliveryResult r = deliver(process(op->target), d, when.visible);
  op->target_seen = true;
  op->mlength = r.mlength;
  op->target_offset = r.offset;
  op->target_ack = r.fail != PTL_NI_OK || !r.ack_disabled;
  nic::TargetOutcome out;
  out.fail = to_nic(r.fail);
  out.ack = op->target_ack;
  out.reply_bytes = has_get_md(a.kind) ? r.mlength : 0;
  const int32_t target = op->target;
  finish_if_done(static_cast<uint32_t>(c.user));
  notify(target, when.visible);
  return out;
}

void PortalsRuntime::on_initiator(const nic::Command& c, nic::InitiatorEvent e, nic::Fail fail, nic::NicTime when) {
  Operation* op = find_op(c.user);
  if (!op) return;
  const OpArgs& a = op->args;
  InitiatorNotice n;
  n.type = e == nic::InitiatorEvent::kSend ? PTL_EVENT_SEND : e == nic::InitiatorEvent::kAck ? PTL_EVENT_ACK : PTL_EVENT_REPLY;
  n.fail = to_ptl(fail);
  n.ack_req = a.ack_req;
  n.user_ptr = a.user_ptr;
  n.length = a.length;
  n.mlength = op->mlength;
  n.remote_offset = op->target_offset;
  n.pt_index = a.pt_index;
  n.match_bits = a.match_bits;
  n.hdr_data = a.hdr_data;
  n.atomic_operation = a.atomic_operation;
  n.atomic_type = a.atomic_type;
  NetworkInterface* ni = process(op->initiator).ni_at(op->ni);
  const ptl_handle_md_t h = e == nic::InitiatorEvent::kReply ? a.get_md : a.put_md;
  if (MemoryDescriptor* md = ni ? ni->md(h) : nullptr) raise_initiator(*ni, *md, n, when.visible);
  if (e == nic::InitiatorEvent::kSend) {
    op->send_seen = true;
    op->send_failed = n.fail != PTL_NI_OK;
  } else {
    op->final_seen = true;
  }
  const int32_t initiator = op->initiator;
  finish_if_done(static_cast<uint32_t>(c.user));
  notify(initiator, when.visible);
}

void PortalsRuntime::finish_if_done(uint32_t index) {
  Operation& op = ops_[index];
  bool done = false;
  switch (op.args.kind) {
    case OpKind::kGet: done = op.final_seen; break;
    case OpKind::kFetchAtomic:
    case OpKind::kSwap: done = op.final_seen && op.send_seen; break;
    case OpKind::kPut:
    case OpKind::kAtomic: {
      // What the NIC will still say: an ACK only when one was asked and the target grants it.
      const bool no_final = !op.ack_req ? (op.target_seen || op.send_failed) : (op.target_seen && !op.target_ack);
      done = op.send_seen && (op.final_seen || no_final);
      break;
    }
  }
  if (!done) return;
  if (NetworkInterface* ni = process(op.initiator).ni_at(op.ni)) {
    if (has_put_md(op.args.kind))
      if (MemoryDescriptor* md = ni->md(op.args.put_md); md && md->pending > 0) --md->pending;
    if (has_get_md(op.args.kind))
      if (MemoryDescriptor* md = ni->md(op.args.get_md); md && md->pending > 0) --md->pending;
  }
  op.live = false;
  op.payload = {};
  ++op.generation;
  free_ops_.push_back(index);
}

void PortalsRuntime::on_queue_space(HostId node, SimTime t) {
  auto it = ranks_on_.find(node);
  if (it == ranks_on_.end()) return;
  for (int32_t r : it->second) notify(r, t);
}

}  // namespace simfab::online::portals
