#include "mpi/executor.hpp"

#include <algorithm>

#include "mpi/op_text.hpp"
#include "noise/noise_model.hpp"

namespace simfab {

Executor::Executor(Engine& engine, Network& net, OpPool& ops, Program& program,
                   std::vector<HostId> rank_host)
    : engine_(engine), net_(net), ops_(ops), program_(program), rank_host_(std::move(rank_host)),
      ncpus_(static_cast<size_t>(std::max(1, program.num_cpus()))),
      nnics_(static_cast<size_t>(std::max(1, program.num_nics()))) {
  const size_t n = static_cast<size_t>(program.num_ranks());
  SIMFAB_CHECK(rank_host_.size() == n, "rank_host size differs from the rank count");
  nexto_.assign(n * ncpus_, SimTime::zero());
  nextgs_.assign(n * nnics_, SimTime::zero());
  nextgr_.assign(n * nnics_, SimTime::zero());
  rq_.resize(n);
  task_.assign(n, CallSites::kUnknown);
  uq_.resize(n);
  pq_.resize(n);
  calc_wait_.resize(n * ncpus_);
  send_wait_.resize(n * ncpus_ * nnics_);
  waiting_.resize(n);
  op_handler_.ex = this;
  delivery_handler_.ex = this;
  engine_.set_handler(EventKind::kOpReady, &op_handler_);
  engine_.set_handler(EventKind::kDelivery, &delivery_handler_);
}

void Executor::switch_point(RankId r, SimTime t, std::string_view changes, SwitchWhere where) {
  if (!selector_)
    throw InputError(SourceLoc{where(), 0, 0}, "a model switch needs simfab run or simfab exec (no model selector)");
  selector_->switch_point(r, t, changes, std::move(where));
}

void Executor::pcontrol(RankId r, SimTime t, int level, SwitchWhere where) {
  if (selector_) selector_->pcontrol(r, t, level, std::move(where));
}

void Executor::set_cpus(cpu::HostCpus* cpus) {
  cpus_ = cpus;
  if (!cpus_) return;
  cpus_->set_client(this);
  if (!cpus_->any_dynamic()) return;
  parked_calc_.assign(calc_wait_.size(), 0);
  parked_send_.assign(send_wait_.size(), 0);
  parked_wait_.assign(waiting_.size(), 0);
}

void Executor::ready(OpId id, SimTime t) {
  const Op& op = ops_[id];
  // Push at the earliest time the op's resources allow (LogGOPSim does the same), never earlier
  // than its dependencies allow.
  SimTime at = cpu_or(op.rank, op.cpu, t);
  if (op.kind == OpKind::kSend) at = max(at, nic_send(op.rank, op.nic));
  engine_.schedule(max(at, engine_.now()), EventKind::kOpReady, id);
}

void Executor::on_op(SimTime t, OpId id) {
  switch (ops_[id].kind) {
    case OpKind::kCalc: run_calc(t, id); return;
    case OpKind::kSend: run_send(t, id); return;
    case OpKind::kRecv: run_recv(t, id); return;
    case OpKind::kProbe: run_probe(t, id); return;
  }
}

std::string Executor::switch_host(HostId h, bool on, SimTime t) {
  if (!host_power_) return "this run cannot switch hosts off and on";
  if (on) return host_power_->turn_on(h, t);
  std::vector<RankId> here;
  for (RankId r = 0; r < static_cast<RankId>(rank_host_.size()); ++r)
    if (rank_host_[static_cast<size_t>(r)] == h && !finished_by(r, t)) here.push_back(r);
  return host_power_->turn_off(h, t, here);
}

void Executor::run_calc(SimTime t, OpId id) {
  Op& op = ops_[id];
  const RankId r = op.rank;
  const uint8_t ci = op.cpu;
  Queue& q = calc_wait_[calc_slot(r, ci)];
  uint8_t& pk = parked(parked_calc_, calc_slot(r, ci));
  SimTime& c = cpu(r, ci);
  const bool head = op.flags & op_flag::kQueued;
  if (must_wait(q, id, c, t, pk)) return;
  const HostId h = host_of(r);
  const bool computes = cpus_ && op.amount > 0 && !(op.flags & op_flag::kDelay);
  if (computes && cpus_->dynamic(h)) {
    // Its end depends on what else the host runs and on its pstate: computation_done tells.
    c = SimTime::never();
    op.flags |= op_flag::kStarted;
    if (sink_) calc_begin_[calc_slot(r, ci)] = t;
    cpus_->start(h, id, op.amount, task_[static_cast<size_t>(r)]);
    if (head) wake_next(q, c, pk);
    return;
  }
  c = cpu_end(t, SimTime::ps(static_cast<int64_t>(op.amount)), r, op.context & 1u);
  if (computes) cpus_->fixed(h, t, c);
  if (sink_ && op.amount > 0 && !(op.flags & op_flag::kDelay)) sink_->cpu_busy(r, ci, CpuUse::kCompute, t, c);
  op.flags |= op_flag::kStarted | op_flag::kDone;
  SimTime end = c;
  program_.on_started(id, end);
  program_.on_completed(id, end);
  if (head) wake_next(q, cpu(r, ci), pk);
}

void Executor::computation_done(uint32_t token, SimTime t) {
  const OpId id = token;
  Op& op = ops_[id];
  const RankId r = op.rank;
  const uint8_t ci = op.cpu;
  cpu(r, ci) = t;
  op.flags |= op_flag::kDone;
  if (sink_) sink_->cpu_busy(r, ci, CpuUse::kCompute, calc_begin_[calc_slot(r, ci)], t);
  // In the order a fixed host gives: the front-end's successors (released when a timed calc
  // starts), then the ops queued behind it, then the messages that arrived meanwhile.
  SimTime end = t;
  program_.on_started(id, end);
  program_.on_completed(id, end);
  // What waited for this CPU goes on: its calc queue, its send queues, arrived messages.
  auto unpark = [&](uint8_t& flag, OpId head) {
    if (!flag) return;
    flag = 0;
    engine_.schedule(t, EventKind::kOpReady, head);
  };
  unpark(parked_calc_[calc_slot(r, ci)], calc_wait_[calc_slot(r, ci)].head);
  for (uint8_t ni = 0; ni < nnics_; ++ni)
    unpark(parked_send_[send_slot(r, ci, ni)], send_wait_[send_slot(r, ci, ni)].head);
  uint8_t& pw = parked_wait_[static_cast<size_t>(r)];
  if (pw) {
    const uint32_t m = waiting_[static_cast<size_t>(r)].head;
    pw = 0;
    schedule_or_park(max(t, receiver_free(msgs_[m])), EventKind::kDelivery, m, pw);
  }
}

void Executor::schedule_or_park(SimTime avail, EventKind kind, uint64_t index, uint8_t& parked) {
  if (busy_until_done(avail)) parked = 1;
  else engine_.schedule(avail, kind, index);
}

void Executor::run_send(SimTime t, OpId id) {
  Op& op = ops_[id];
  const RankId r = op.rank;
  const uint8_t ci = op.cpu, ni = op.nic;
  Queue& q = send_wait_[send_slot(r, ci, ni)];
  uint8_t& pk = parked(parked_send_, send_slot(r, ci, ni));
  SimTime& c = cpu(r, ci);
  SimTime& n = nic_send(r, ni);
  const bool head = op.flags & op_flag::kQueued;
  if (must_wait(q, id, max(c, n), t, pk)) return;
  start_send(t, id);
  if (head) wake_next(q, max(cpu(r, ci), nic_send(r, ni)), pk);
}

bool Executor::must_wait(Queue& q, OpId id, SimTime avail, SimTime t, uint8_t& parked) {
  Op& op = ops_[id];
  if (avail > t) {
    if (!(op.flags & op_flag::kQueued)) {
      op.flags |= op_flag::kQueued;
      const bool first = q.head == kNoOp;
      append_op(q, id);
      if (!first) return true;  // behind others: woken when it reaches the head
    }
    schedule_or_park(avail, EventKind::kOpReady, id, parked);  // the head: retry when they free up
    return true;
  }
  if (op.flags & op_flag::kQueued) {
    SIMFAB_CHECK(q.head == id, "Executor: a queued op ran out of turn");
    q.head = op.next;
    if (q.head == kNoOp) q.tail = kNoOp;
    op.next = kNoOp;
    op.flags = static_cast<uint8_t>(op.flags & ~op_flag::kQueued);
  }
  return false;
}

void Executor::wake_next(const Queue& q, SimTime avail, uint8_t& parked) {
  if (q.head != kNoOp) schedule_or_park(max(avail, engine_.now()), EventKind::kOpReady, q.head, parked);
}

void Executor::set_activity(ActivitySink* sink) {
  sink_ = sink;
  calc_begin_.assign(sink ? nexto_.size() : 0, SimTime::zero());
}

void Executor::note_sent(uint32_t msg_id, SimTime t) {
  if (msg_sent_.size() <= msg_id) msg_sent_.resize(std::max<size_t>(msg_id + 1, msg_sent_.size() * 2));
  msg_sent_[msg_id] = t;
}

void Executor::note_phase(uint32_t msg_id, uint32_t phase) {
  if (msg_phase_.size() <= msg_id) msg_phase_.resize(std::max<size_t>(msg_id + 1, msg_phase_.size() * 2));
  msg_phase_[msg_id] = phase;
}

void Executor::report_message(const Msg& m, uint32_t msg_id, SimTime arrived) {
  sink_->message(
      MessageRecord{m.src, m.dst, m.size, m.tag, m.context, msg_sent_[msg_id], arrived, m.cpu, msg_phase_[msg_id]});
}

void Executor::start_send(SimTime t, OpId id) {
  Op& op = ops_[id];
  SimTime& c = cpu(op.rank, op.cpu);
  SimTime& n = nic_send(op.rank, op.nic);
  const HostId hs = rank_host_[static_cast<size_t>(op.rank)];
  const HostId hd = rank_host_[static_cast<size_t>(op.peer)];
  const uint8_t model = selector_ ? selector_->model(op.rank, t, op.amount) : 0;
  Network& net = this->net(model);
  c = cpu_end(t, op.flags & op_flag::kImmediate ? net.isend_overhead(hs, hd, op.amount)
                                               : net.send_overhead(hs, hd, op.amount), op.rank, op.context & 1u);
  n = later(t, net.send_gap(hs, hd, op.amount), op.rank);
  if (sink_) sink_->cpu_busy(op.rank, op.cpu, CpuUse::kSendOverhead, t, c);
  Protocol protocol = net.protocol(op.amount);
  if (op.flags & op_flag::kSynchronousMode) {
    if (protocol == Protocol::kEager) protocol = Protocol::kRendezvous;
    if (protocol == Protocol::kDetached) protocol = Protocol::kSynchronous;
  } else if (op.flags & op_flag::kBufferedMode) {
    if (protocol == Protocol::kRendezvous) protocol = Protocol::kEager;
    if (protocol == Protocol::kSynchronous) protocol = Protocol::kDetached;
  }
  const bool eager = protocol == Protocol::kEager || protocol == Protocol::kDetached;
  const bool envelope = protocol == Protocol::kDetached || protocol == Protocol::kSynchronous;
  uint32_t m = msgs_.acquire();
  msgs_[m] = Msg{op.amount, op.rank, op.peer, op.tag, eager ? kNoOp : id, kNoOp, kNoOp,
                 op.context, op.cpu, op.nic, 0, model, envelope ? MsgPhase::kEnvelope : MsgPhase::kData, op.user};
  ++messages_;
  if (__builtin_add_overflow(bytes_, op.amount, &bytes_))
    throw InputError(SourceLoc{}, "the total size of all messages exceeds 2^64 bytes (rank " +
                                      std::to_string(op.rank) + " sends " + std::to_string(op.amount) + " B)");
  if (sink_) note_phase(m, selector_ ? selector_->counted_phase() : 0);
  if (sink_ && !envelope) note_sent(m, t);
  const NetMessage nm{t, c, hs, hd, op.amount, stream(op.rank, op.peer), m, (op.context & 1u) != 0};
  if (envelope) net.control(nm);
  else net.transfer(nm);
  op.flags |= op_flag::kStarted;
  SimTime after = c;
  program_.on_started(id, after);
  if (eager) {
    ops_[id].flags |= op_flag::kDone;
    program_.on_completed(id, after);
  }
}

void Executor::complete_rendezvous_sender(const Msg& m, SimTime t) {
  if (m.send_op == kNoOp) return;
  Op& s = ops_[m.send_op];
  SimTime& c = cpu(s.rank, s.cpu);
  SimTime& n = nic_send(s.rank, s.nic);
  n = max(n, t);
  s.flags |= op_flag::kDone;
  if (busy_until_done(c)) {  // its rank computes meanwhile
    program_.on_completed(m.send_op, t);
    return;
  }
  c = max(c, t);
  program_.on_completed(m.send_op, c);
}

void Executor::start_matched_data(SimTime t, uint32_t msg_id, OpId recv) {
  Msg& msg = msgs_[msg_id];
  msg.phase = MsgPhase::kMatched;
  msg.recv_op = recv;
  if (sink_) note_sent(msg_id, t);
  net(msg.model).transfer(NetMessage{t, t, rank_host_[static_cast<size_t>(msg.src)], rank_host_[static_cast<size_t>(msg.dst)],
                           msg.size, stream(msg.src, msg.dst), msg_id, (msg.context & 1u) != 0});
}

uint32_t Executor::take_unexpected(RankId r, const Op& recv) {
  Queue& q = uq_[static_cast<size_t>(r)];
  uint32_t prev = kNoOp;
  for (uint32_t m = q.head; m != kNoOp; prev = m, m = msgs_[m].next) {
    if (!matches(recv, msgs_[m])) continue;
    if (prev == kNoOp) q.head = msgs_[m].next; else msgs_[prev].next = msgs_[m].next;
    if (q.tail == m) q.tail = prev;
    return m;
  }
  return kNoOp;
}

void Executor::run_recv(SimTime t, OpId id) {
  const RankId r = ops_[id].rank;
  ops_[id].flags |= op_flag::kStarted;
  program_.on_started(id, cpu_or(r, ops_[id].cpu, t));
  // Search the unexpected queue, oldest first.
  if (const uint32_t m = take_unexpected(r, ops_[id]); m != kNoOp) {
    match(id, msgs_[m]);
    if (msgs_[m].phase == MsgPhase::kEnvelope) {  // the data moves from now on
      start_matched_data(t, m, id);
      return;
    }
    Msg msg = msgs_[m];
    msgs_.release(m);
    complete_rendezvous_sender(msg, t);
    Op& recv = ops_[id];
    recv.flags |= op_flag::kDone;
    program_.on_completed(id, cpu_or(r, recv.cpu, t));
    return;
  }
  // Post it. (Re-read the op: the callback above may have grown the pool.)
  ops_[id].flags |= op_flag::kPosted;
  append_op(rq_[static_cast<size_t>(r)], id);
}

void Executor::append_msg(Queue& q, uint32_t m) {
  msgs_[m].next = kNoOp;
  if (q.tail == kNoOp) q.head = m; else msgs_[q.tail].next = m;
  q.tail = m;
}

SimTime Executor::receiver_free(const Msg& m) {
  return max(cpu(m.dst, m.cpu), nic_recv(m.dst, m.nic));
}

// A message reaches its receiver (first call), or the receiver wakes the oldest waiting message
// (later calls). Messages are processed in arrival order: one that arrives while older ones wait
// for the receiver's CPU/NIC queues behind them, so no message overtakes another (MPI's
// non-overtaking rule, even when an arrival coincides with a busy receiver's wake-up).
void Executor::on_delivery(SimTime t, uint32_t msg_id) {
  const RankId r = msgs_[msg_id].dst;
  Queue& w = waiting_[static_cast<size_t>(r)];
  if (!msgs_[msg_id].waiting) {
    if (sink_ && msgs_[msg_id].phase != MsgPhase::kEnvelope) report_message(msgs_[msg_id], msg_id, t);
    if (msgs_[msg_id].phase == MsgPhase::kMatched) {  // a synchronous send is done when its data is
      complete_rendezvous_sender(msgs_[msg_id], t);
      msgs_[msg_id].send_op = kNoOp;
    }
    // Matching an envelope needs no CPU (it charges nothing): unless older arrivals wait, it is
    // matched now, so a posted irecv overlaps a computation with the data transfer.
    const bool envelope = msgs_[msg_id].phase == MsgPhase::kEnvelope;
    if (w.head != kNoOp || (!envelope && receiver_free(msgs_[msg_id]) > t)) {
      msgs_[msg_id].waiting = 1;
      const bool first = w.head == kNoOp;
      append_msg(w, msg_id);
      if (first) schedule_or_park(receiver_free(msgs_[msg_id]), EventKind::kDelivery, msg_id, parked(parked_wait_, r));
      return;
    }
    process_message(t, msg_id);
    return;
  }
  SIMFAB_CHECK(w.head == msg_id, "a waiting message woke out of turn");
  const SimTime avail = receiver_free(msgs_[msg_id]);
  if (avail > t) {  // the receiver became busy again meanwhile
    schedule_or_park(avail, EventKind::kDelivery, msg_id, parked(parked_wait_, r));
    return;
  }
  w.head = msgs_[msg_id].next;
  if (w.head == kNoOp) w.tail = kNoOp;
  msgs_[msg_id].waiting = 0;
  process_message(t, msg_id);
  if (w.head != kNoOp)
    schedule_or_park(max(t, receiver_free(msgs_[w.head])), EventKind::kDelivery, w.head, parked(parked_wait_, r));
}

// The receiver's CPU and NIC are free at t: charge the receive (not for an envelope) and match
// against posted receives (not for the data of a matched envelope: it completes its receive).
void Executor::process_message(SimTime t, uint32_t msg_id) {
  const Msg msg = msgs_[msg_id];
  const RankId r = msg.dst;
  SimTime& c = cpu(r, msg.cpu);
  SimTime& n = nic_recv(r, msg.nic);
  const HostId hs = rank_host_[static_cast<size_t>(msg.src)];
  const HostId hd = rank_host_[static_cast<size_t>(r)];
  if (msg.phase != MsgPhase::kEnvelope) {
    Network& net = this->net(msg.model);
    c = cpu_end(t, net.recv_overhead(hs, hd, msg.size), r, msg.context & 1u);
    n = later(t, net.recv_gap(hs, hd, msg.size), r);
    if (sink_) sink_->cpu_busy(r, msg.cpu, CpuUse::kRecvOverhead, t, c);
  }
  if (msg.phase == MsgPhase::kMatched) {
    msgs_.release(msg_id);
    complete_rendezvous_sender(msg, t);
    Op& recv = ops_[msg.recv_op];
    recv.flags |= op_flag::kDone;
    program_.on_completed(msg.recv_op, cpu(r, recv.cpu));
    return;
  }
  // Search the posted receives, oldest first.
  Queue& rq = rq_[static_cast<size_t>(r)];
  OpId prev = kNoOp;
  for (OpId o = rq.head; o != kNoOp; prev = o, o = ops_[o].next) {
    if (!matches(ops_[o], msg)) continue;
    if (prev == kNoOp) rq.head = ops_[o].next; else ops_[prev].next = ops_[o].next;
    if (rq.tail == o) rq.tail = prev;
    ops_[o].flags = static_cast<uint8_t>(ops_[o].flags & ~op_flag::kPosted);
    ops_[o].next = kNoOp;
    match(o, msg);
    if (msg.phase == MsgPhase::kEnvelope) {
      start_matched_data(t, msg_id, o);
      return;
    }
    msgs_.release(msg_id);
    complete_rendezvous_sender(msg, t);
    Op& recv = ops_[o];
    recv.flags |= op_flag::kDone;
    program_.on_completed(o, cpu(r, recv.cpu));
    return;
  }
  append_msg(uq_[static_cast<size_t>(r)], msg_id);
  if (pq_[static_cast<size_t>(r)].head != kNoOp) wake_probes(t, msg_id);
}

void Executor::match(OpId recv, const Msg& m) {
  Op& op = ops_[recv];
  if (m.size > op.amount) {
    std::string send_at;
    if (m.send_op != kNoOp) send_at = program_.locate_op(m.send_op);
    std::string recv_at = program_.locate_op(recv);
    throw InputError(SourceLoc{}, "MPI_ERR_TRUNCATE: " + (recv_at.empty() ? std::string() : recv_at + ": ") +
                                      "rank " + std::to_string(m.dst) + " receives " + std::to_string(m.size) +
                                      " B from rank " + std::to_string(m.src) + " tag " + std::to_string(m.tag) +
                                      context_text(m.context) + " into a buffer of " + std::to_string(op.amount) +
                                      " B" + (send_at.empty() ? std::string() : " (sent at " + send_at + ")") +
                                      "; the receive must be at least as large as the message");
  }
  op.peer = m.src;
  op.tag = m.tag;
  op.amount = m.size;
  program_.on_matched(recv, m.send_user);
}

void Executor::append_op(Queue& q, OpId id) {
  ops_[id].next = kNoOp;
  if (q.tail == kNoOp) q.head = id; else ops_[q.tail].next = id;
  q.tail = id;
}

void Executor::run_probe(SimTime t, OpId id) {
  Op& op = ops_[id];
  const RankId r = op.rank;
  op.flags |= op_flag::kStarted;
  program_.on_started(id, cpu_or(r, op.cpu, t));
  MsgStatus st;
  if (iprobe(r, ops_[id].peer, ops_[id].tag, ops_[id].context, &st)) {
    Op& p = ops_[id];
    p.peer = st.source;
    p.tag = st.tag;
    p.amount = st.size;
    p.flags |= op_flag::kDone;
    program_.on_completed(id, cpu_or(r, p.cpu, t));
    return;
  }
  ops_[id].flags |= op_flag::kPosted;
  append_op(pq_[static_cast<size_t>(r)], id);
}

void Executor::wake_probes(SimTime t, uint32_t msg_id) {
  const Msg m = msgs_[msg_id];
  Queue& q = pq_[static_cast<size_t>(m.dst)];
  OpId prev = kNoOp;
  for (OpId o = q.head; o != kNoOp;) {
    const OpId next = ops_[o].next;
    if (!matches(ops_[o], m)) {
      prev = o;
      o = next;
      continue;
    }
    if (prev == kNoOp) q.head = next; else ops_[prev].next = next;
    if (q.tail == o) q.tail = prev;
    Op& p = ops_[o];
    p.next = kNoOp;
    p.flags = static_cast<uint8_t>((p.flags & ~op_flag::kPosted) | op_flag::kDone);
    p.peer = m.src;
    p.tag = m.tag;
    p.amount = m.size;
    program_.on_completed(o, cpu_or(m.dst, p.cpu, t));
    o = next;
  }
}

bool Executor::iprobe(RankId r, int32_t source, int32_t tag, uint32_t context, MsgStatus* status) const {
  for (uint32_t m = uq_[static_cast<size_t>(r)].head; m != kNoOp; m = msgs_[m].next) {
    const Msg& msg = msgs_[m];
    if (!matches(source, tag, context, msg)) continue;
    if (status) *status = MsgStatus{msg.src, msg.tag, msg.size};
    return true;
  }
  return false;
}

bool Executor::cancel(OpId id) {
  Op& op = ops_[id];
  if (op.kind != OpKind::kRecv || !(op.flags & op_flag::kPosted)) return false;
  Queue& q = rq_[static_cast<size_t>(op.rank)];
  OpId prev = kNoOp;
  for (OpId o = q.head; o != kNoOp; prev = o, o = ops_[o].next) {
    if (o != id) continue;
    if (prev == kNoOp) q.head = op.next; else ops_[prev].next = op.next;
    if (q.tail == id) q.tail = prev;
    op.next = kNoOp;
    op.flags = static_cast<uint8_t>((op.flags & ~op_flag::kPosted) | op_flag::kCancelled | op_flag::kDone);
    program_.on_completed(id, cpu_or(op.rank, op.cpu, engine_.now()));
    return true;
  }
  SIMFAB_CHECK(false, "Executor::cancel: a posted receive is not in its rank's posted queue");
  return false;
}

SimTime Executor::later(SimTime t, SimTime d, RankId rank) const {
  if (auto sum = checked_add(t, d)) return *sum;
  throw InputError(SourceLoc{}, "simulated time overflows 64-bit picoseconds (about 106 days) on rank " +
                                    std::to_string(rank) + " at " + std::to_string(t.ps()) +
                                    " ps: an operation lasts too long (check calc durations, compute "
                                    "amounts and message sizes)");
}

SimTime Executor::cpu_end(SimTime t, SimTime d, RankId rank, bool collective) {
  return later(t, noise_ ? noise_->stretch(rank, t, d, collective) : d, rank);
}

std::string Executor::describe_rq(RankId r) const {
  std::string out;
  int shown = 0;
  for (OpId o = rq_[static_cast<size_t>(r)].head; o != kNoOp; o = ops_[o].next) {
    const Op& op = ops_[o];
    if (shown++ == 3) { out += "; ..."; break; }
    out += shown > 1 ? "; " : "";
    out += describe_stuck_op(op);
  }
  return out;
}

// Messages that reached the rank but match no receive: the usual culprit of a deadlock is a tag or
// source that differs between the two sides, and these show it.
std::string Executor::describe_uq(RankId r) const {
  std::string out;
  int shown = 0;
  for (uint32_t m = uq_[static_cast<size_t>(r)].head; m != kNoOp; m = msgs_[m].next) {
    const Msg& msg = msgs_[m];
    if (shown++ == 3) { out += ", ..."; break; }
    out += shown > 1 ? ", " : "arrived but never received: ";
    out += std::to_string(msg.size) + " B from rank " + std::to_string(msg.src) + " tag " + std::to_string(msg.tag) +
           context_text(msg.context);
  }
  return out;
}

SimTime Executor::rank_end(RankId r) const {
  SimTime f = SimTime::zero();
  for (size_t c = 0; c < ncpus_; ++c) f = max(f, nexto_[static_cast<size_t>(r) * ncpus_ + c]);
  return f == SimTime::never() ? f : max(f, program_.end_time(r));
}

bool Executor::finished_by(RankId r, SimTime t) const {
  // A front-end may have read a rank to its end ahead of the engine (CPU timers): its last
  // computation can still end after t.
  return program_.rank_finished(r) && rank_end(r) <= t;
}

ExecutionResult Executor::run(Engine::Monitor* monitor) {
  program_.start(*this);
  ExecutionResult res;
  res.events = monitor ? engine_.run(*monitor) : engine_.run();
  program_.on_engine_done();
  res.network_stuck = net_.stuck();
  for (size_t m = 1; selector_ && m < selector_->model_count(); ++m)
    if (std::string s = selector_->network(static_cast<uint8_t>(m)).stuck(); !s.empty())
      res.network_stuck += (res.network_stuck.empty() ? "" : "; ") + s;
  const size_t n = rank_host_.size();
  res.finish.resize(n);
  for (size_t r = 0; r < n; ++r) {
    const SimTime f = rank_end(static_cast<RankId>(r));
    res.finish[r] = f;
    res.makespan = max(res.makespan, f);
    for (uint32_t m = uq_[r].head; m != kNoOp; m = msgs_[m].next) ++res.unmatched_messages;
    const RankId rank = static_cast<RankId>(r);
    if (!program_.rank_finished(rank)) {
      std::string why = program_.describe_blocked(rank);
      std::string rq = describe_rq(rank);
      if (!rq.empty() && why.find("recv") == std::string::npos) why += (why.empty() ? "" : "; ") + rq;
      std::string uq = describe_uq(rank);
      if (!uq.empty()) why += (why.empty() ? "" : "; ") + uq;
      res.blocked.push_back({rank, why});
    }
  }
  res.messages = messages_;
  res.bytes = bytes_;
  return res;
}

}  // namespace simfab
