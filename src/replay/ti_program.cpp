// TiProgram: the per-rank replay state machine (see ti_program.hpp).
#include "replay/ti_program.hpp"

#include "mpi/op_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstdint>

#include "core/text_locator.hpp"
#include "replay/ti_duration.hpp"

namespace simfab {

std::unique_ptr<Program> make_ti_program(TiTrace& trace, OpPool& ops, const Platform& platform,
                                         const std::vector<HostId>& rank_host, const coll::CollChoice& choice,
                                         const energy::LbOptions& lb, const coll::FirstCallCosts& first_call) {
  return std::make_unique<TiProgram>(trace, ops, platform, rank_host, choice, lb, first_call);
}

TiProgram::TiProgram(TiTrace& trace, OpPool& ops, const Platform& platform, std::vector<HostId> rank_host,
                     coll::CollChoice choice, energy::LbOptions lb, coll::FirstCallCosts first_call)
    : trace_(trace), ops_(ops), platform_(platform), rank_host_(std::move(rank_host)), lb_(lb), runner_(ops), choice_(choice),
      first_call_(std::move(first_call)),
      comms_(trace.num_ranks()), world_(comms_.at(mpi::kCommWorld, "MPI_COMM_WORLD")), matcher_([this](int32_t r, uint64_t position) { return where(r, position); }),
      undefined_(TiUndefinedSources::scan(trace)) {
  SIMFAB_CHECK(rank_host_.size() == static_cast<size_t>(trace.num_ranks()),
               "make_ti_program: rank_host must have one host per rank");
  for (HostId h : rank_host_)
    SIMFAB_CHECK(h >= 0 && h < platform.host_count(), "make_ti_program: rank mapped to an unknown host");
  ranks_.resize(rank_host_.size());
  if (lb_.enabled) {
    lb_flops_.assign(rank_host_.size(), 0.0);
    lb_points_.assign(rank_host_.size(), 0);
  }
}

void TiProgram::start(Executor& ex) {
  ex_ = &ex;
  for (RankId r = 0; r < num_ranks(); ++r) advance(r, SimTime::zero());
}

void TiProgram::fail(const TiLine& line, size_t pos, std::string what) const {
  throw error_at(std::string(trace_.file_name(line.file)), line.text, pos, std::move(what));
}

SimTime TiProgram::compute_time(RankId r, double flops, const TiLine& line) const {
  return ti_compute_time(flops, platform_.host(rank_host_[static_cast<size_t>(r)]), trace_.file_name(line.file), line);
}

OpId TiProgram::issue(RankId r, OpKind kind, uint64_t amount, int32_t peer, int32_t tag, uint32_t user, SimTime t,
                      uint8_t flags, uint32_t context) {
  const OpId id = ops_.alloc();
  Op& op = ops_[id];
  op.kind = kind;
  op.flags = flags;
  op.context = context;
  op.amount = amount;
  op.peer = peer;
  op.tag = tag;
  op.rank = r;
  op.user = user;
  ex_->ready(id, t);
  return id;
}

void TiProgram::advance(RankId r, SimTime t) {
  RankState& s = rank(r);
  const int p = num_ranks();
  TiLine line;
  for (;;) {
    if (!trace_.next_line(r, s.pos, line)) {
      finish(r);
      return;
    }
    s.line = line.begin;
    const std::string_view file = trace_.file_name(line.file);
    const mpi::Comm& comm = member_comm(r, ti_line_comm(file, line), line);
    TiAction a = parse_ti_action(file, line, p, s.flags & kDefaultDouble, counts_, comm.size());
    undefined_.resolve(a, r);
    if (ex_->activity() && !ti_is_collective(a.kind)) report_call(r, t, a, comm, nullptr);
    CallSites& sites = ex_->call_sites();
    if (a.kind == TiKind::kCompute) {
      ex_->set_task(r, sites.task_before(r));
    } else if (a.kind == TiKind::kLocation) {
      sites.at_site(r, sites.site(a.text, a.tag));
      continue;
    } else if (a.kind != TiKind::kSleep) {
      sites.called(r);
    }
    switch (a.kind) {
      case TiKind::kInit:
        if (a.has_arg) s.flags |= kDefaultDouble;
        continue;
      case TiKind::kCommSize:
      case TiKind::kCommSplit:
      case TiKind::kCommDup:
        if (!a.has_arg) continue;  // SimGrid's argument-less form
        start_creation(r, a, comm, t);
        return;
      case TiKind::kLocation:  // above
      case TiKind::kTest:  // a completed request stays until waited for: nothing to do
      case TiKind::kTestany:
      case TiKind::kTestsome:
      case TiKind::kTestall:
      case TiKind::kIprobe:  // the real run's answer is already in the trace's next actions
        continue;
      case TiKind::kFinalize:
        check_nothing_after_finalize(r, line);
        finish(r);
        return;
      case TiKind::kCompute:
      case TiKind::kSleep: {
        SimTime d = a.kind == TiKind::kCompute ? compute_time(r, a.amount, line) : ti_sleep_time(a.amount, trace_.file_name(line.file), line);
        if (a.kind == TiKind::kCompute) d = SimTime::ps(static_cast<int64_t>(ex_->computation(r, static_cast<uint64_t>(d.ps()))));
        if (lb_.enabled && a.kind == TiKind::kCompute) lb_flops_[static_cast<size_t>(r)] += a.amount;
        s.state = State::kOp;
        s.wait = issue(r, OpKind::kCalc, static_cast<uint64_t>(d.ps()), 0, 0, kNoRequest, t,
                       a.kind == TiKind::kSleep ? op_flag::kDelay : uint8_t{0});
        return;
      }
      case TiKind::kMigrate:
        if (start_migrate(r, t)) return;
        continue;
      case TiKind::kWtime:  // a hybrid run's MPI_Wtime: the rank's virtual time, now
        if (wtime_) wtime_(r, t);
        continue;
      case TiKind::kSwitch:
        // The place is formatted only on an error, maybe later: from the trace's text then (a
        // stream's may have moved since).
        ex_->switch_point(r, t, a.text, [this, f = line.file, pos = line.begin] {
          const std::string name(trace_.file_name(f));
          return name + ":" + std::to_string(locate(name, trace_.text(f), pos).line);
        });
        continue;
      case TiKind::kHostOff:
      case TiKind::kHostOn: {
        // Applied when the rank gets there in simulated time: at the end of a zero calc.
        const std::optional<HostId> h = platform_.find_host(std::string(a.text));
        if (!h) fail(line, line.begin, std::string(ti_action_name(a.kind)) + ": no host '" + std::string(a.text) +
                                           "' in the platform");
        s.state = State::kOp;
        s.wait = issue(r, OpKind::kCalc, 0, 0, 0, kNoRequest, t, op_flag::kDelay);
        power_ops_[s.wait] = PowerSwitch{*h, a.kind == TiKind::kHostOn, line.file, line.begin};
        return;
      }
      case TiKind::kSetPstate: {
        // Applied when the rank gets there in simulated time: at the end of a zero calc.
        const HostId h = rank_host_[static_cast<size_t>(r)];
        const int n = ex_->cpus() ? ex_->cpus()->pstates(h) : 1;
        if (a.peer >= n)
          fail(line, line.begin, "set_pstate " + std::to_string(a.peer) + ": host '" + platform_.host(h).name +
                                     "' of rank " + std::to_string(r) + " has " + std::to_string(n) + " pstate" +
                                     (n == 1 ? "" : "s") + " (0 to " + std::to_string(n - 1) + ")");
        s.state = State::kOp;
        s.wait = issue(r, OpKind::kCalc, 0, 0, 0, kNoRequest, t, op_flag::kDelay);
        pstate_ops_[s.wait] = a.peer;
        return;
      }
      case TiKind::kSend:
      case TiKind::kRecv:
      case TiKind::kSsend:
      case TiKind::kBsend:
      case TiKind::kRsend:
      case TiKind::kSendrecv:
      case TiKind::kProbe:
      case TiKind::kIsend:
      case TiKind::kIrecv:
      case TiKind::kIssend:
      case TiKind::kIbsend:
      case TiKind::kIrsend:
        if (start_p2p(r, a, comm, t)) return;
        continue;
      case TiKind::kWait: {
        const uint32_t req = a.coll_request ? require_collective_request(r, a, line) : require_request(r, a, line);
        if (requests_[req].op == kNoOp) {
          remove_request(r, req);
          continue;
        }
        s.state = State::kWaitRequest;
        s.wait = req;
        return;
      }
      case TiKind::kWaitany:
      case TiKind::kWaitsome:
        if (wait_any(r, a, line, a.kind == TiKind::kWaitsome)) continue;
        s.state = State::kWaitAny;
        return;
      case TiKind::kCancel: {
        const uint32_t req = require_request(r, a, line);
        if (requests_[req].op == kNoOp || requests_[req].coll || ops_[requests_[req].op].kind != OpKind::kRecv)
          continue;  // nothing to cancel
        s.state = State::kCancel;
        s.wait = req;
        issue(r, OpKind::kCalc, 0, 0, 0, kSyncOp, t);
        return;
      }
      case TiKind::kWaitall:
        if (s.open_reqs == 0) {
          clear_requests(r);
          continue;
        }
        s.state = State::kWaitAll;
        return;
      case TiKind::kCommCreate:
        start_creation(r, a, comm, t);
        return;
      case TiKind::kCommFree:
        free_comm(r, a, line);
        continue;
      default: {
        SIMFAB_CHECK(ti_is_collective(a.kind), "TiProgram::advance: unhandled action");
        if (!a.nonblocking) {
          // The library sets this collective up on the rank's first call: a delay, then this line
          // again (charged once, so the second reading goes on).
          if (const SimTime setup = first_call_.charge(r, ti_coll_op(a.kind)); setup > SimTime::zero()) {
            s.pos = line.begin;
            s.state = State::kOp;
            s.wait = issue(r, OpKind::kCalc, static_cast<uint64_t>(setup.ps()), 0, 0, kNoRequest, t, op_flag::kDelay);
            return;
          }
        }
        SimTime closing = SimTime::zero();
        if (a.kind == TiKind::kReduce || a.kind == TiKind::kAllreduce || a.kind == TiKind::kReducescatter ||
            a.kind == TiKind::kScan || a.kind == TiKind::kExscan)
          closing = compute_time(r, a.amount, line);
        const RankId local = comm.group().local_rank(r);
        const CollEntry entry = enter_collective(r, ti_coll_signature(a, local, counts_), comm, t);
        const coll::CollChoice& choice = ex_->coll_choice(entry.choice, choice_);
        frag_.clear();
        bool* smp = choice.uses_smp_setup() ? &smp_ready_[smp_key(comm.id(), r)] : nullptr;
        const char* algorithm = build_ti_collective(frag_, a, local, comm.size(), counts_, closing, choice, smp);
        if (ex_->activity()) report_call(r, t, a, comm, algorithm);
        if (a.nonblocking) ex_->collective_done(r, t, ti_nonblocking_name(a.kind));
        if (start_collective(r, entry.seq, comm, t, a.nonblocking)) {
          s.coll = a.nonblocking ? TiKind::kCount : a.kind;
          return;
        }
        if (!a.nonblocking) ex_->collective_done(r, t, ti_action_name(a.kind));
        continue;
      }
    }
  }
}

bool TiProgram::start_p2p(RankId r, const TiAction& a, const mpi::Comm& comm, SimTime t) {
  RankState& s = rank(r);
  const uint32_t context = comm.p2p_context();
  const auto world = [&](RankId peer) { return to_world(comm, peer); };
  uint8_t mode = 0;
  if (a.kind == TiKind::kSsend || a.kind == TiKind::kIssend) mode = op_flag::kSynchronousMode;
  if (a.kind == TiKind::kBsend || a.kind == TiKind::kIbsend) mode = op_flag::kBufferedMode;
  switch (a.kind) {
    case TiKind::kSendrecv: {
      s.wait = 0;  // ops still running
      if (a.peer != kProcNull) {
        ++s.wait;
        issue(r, OpKind::kSend, a.bytes, world(a.peer), a.tag, kSendrecvOp, t, 0, context);
      }
      if (a.peer2 != kProcNull) {
        ++s.wait;
        issue(r, OpKind::kRecv, a.bytes2, world(a.peer2), a.tag2, kSendrecvOp, t, 0, context);
      }
      if (s.wait == 0) return false;
      s.state = State::kSendrecv;
      return true;
    }
    case TiKind::kIsend:
    case TiKind::kIrecv:
    case TiKind::kIssend:
    case TiKind::kIbsend:
    case TiKind::kIrsend: {
      const bool send = a.kind != TiKind::kIrecv;
      const uint32_t req = send ? add_request(r, r, world(a.peer), a.tag) : add_request(r, world(a.peer), r, a.tag);
      requests_[req].line = s.line;
      requests_[req].comm = a.comm;
      requests_[req].undefined_source = a.undefined_source;
      if (a.peer == kProcNull) {  // born completed
        --s.open_reqs;
        return false;
      }
      const OpId op = issue(r, send ? OpKind::kSend : OpKind::kRecv, a.bytes, world(a.peer), a.tag, req, t,
                            static_cast<uint8_t>(mode | (send ? op_flag::kImmediate : 0)), context);
      requests_[req].op = op;
      s.state = State::kStarting;
      s.wait = op;
      return true;
    }
    default: {
      if (a.peer == kProcNull) return false;
      const OpKind kind = a.kind == TiKind::kRecv ? OpKind::kRecv : a.kind == TiKind::kProbe ? OpKind::kProbe : OpKind::kSend;
      s.state = State::kOp;
      s.wait = issue(r, kind, a.bytes, world(a.peer), a.tag, kNoRequest, t, mode, context);
      return true;
    }
  }
}

uint32_t TiProgram::require_request(RankId r, const TiAction& a, const TiLine& line) const {
  const mpi::Comm& comm = member_comm(r, a.comm, line);
  const uint32_t req = find_request(r, to_world(comm, a.peer), to_world(comm, a.peer2), a.tag, a.comm);
  if (req != kNone) return req;
  const auto who = [](int32_t x) {
    return x == kAnySource ? std::string("any") : x == kProcNull ? std::string("MPI_PROC_NULL") : std::to_string(x);
  };
  fail(line, line.begin,
       std::string(ti_action_name(a.kind)) + " of rank " + std::to_string(r) + " for the request (src " + who(a.peer) +
           ", dst " + who(a.peer2) + ", tag " + (a.tag == kAnyTag ? std::string("any") : std::to_string(a.tag)) +
           "): no isend/irecv of this rank with that source, destination and tag is outstanding (it was never "
           "started, or an earlier wait, waitany, waitsome, waitall or finalize already completed it)");
}

uint32_t TiProgram::require_collective_request(RankId r, const TiAction& a, const TiLine& line) const {
  for (uint32_t q = rank(r).req_head; q != kNone; q = requests_[q].next)
    if (requests_[q].coll && requests_[q].comm == a.comm) return q;
  fail(line, line.begin,
       "wait of rank " + std::to_string(r) + " with SMPI's collective tag " + std::to_string(a.tag) +
           " (the wait for a non-blocking collective): this rank has no non-blocking collective outstanding (none "
           "was started, or an earlier wait, waitall or finalize already completed it)");
}

bool TiProgram::wait_any(RankId r, const TiAction& a, const TiLine& line, bool some) {
  RankState& s = rank(r);
  // The requests concerned: the listed keys, or every request of the rank.
  uint32_t listed = 0, consumed = 0;
  const auto visit = [&](uint32_t req) {
    ++listed;
    if (requests_[req].op != kNoOp) {
      requests_[req].marked = true;
      return;
    }
    if (consumed > 0 && !some) return;
    remove_request(r, req);
    ++consumed;
  };
  if (a.has_arg) {
    for (size_t i = 0; i < counts_.size(); i += 3) {
      TiAction key;
      key.kind = a.kind;
      key.comm = a.comm;
      key.peer = static_cast<int32_t>(counts_[i]);
      key.peer2 = static_cast<int32_t>(counts_[i + 1]);
      key.tag = static_cast<int32_t>(counts_[i + 2]);
      if (trace_.streaming()) {
        // A hybrid run's waitany lists every request that may still be outstanding here (the
        // real run completed one of them, the simulation completes whichever comes first):
        // keys the simulation already completed are skipped (apps/hybrid/lib/hybrid_state.hpp).
        const mpi::Comm& comm = member_comm(r, key.comm, line);
        const uint32_t req = find_request(r, to_world(comm, key.peer), to_world(comm, key.peer2), key.tag, key.comm);
        if (req != kNone) visit(req);
        continue;
      }
      visit(require_request(r, key, line));
    }
  } else {
    for (uint32_t q = s.req_head; q != kNone;) {
      const uint32_t next = requests_[q].next;
      visit(q);
      q = next;
    }
  }
  if (consumed > 0 || listed == 0) {
    for (uint32_t q = s.req_head; q != kNone; q = requests_[q].next) requests_[q].marked = false;
    return true;
  }
  return false;
}

void TiProgram::check_nothing_after_finalize(RankId r, const TiLine& finalize_line) {
  uint64_t pos = rank(r).pos;
  TiLine next;
  if (!trace_.next_line(r, pos, next)) return;
  const std::string name(trace_.file_name(finalize_line.file));
  const int at = locate(name, trace_.text(finalize_line.file), finalize_line.begin).line;  // (a stream may have grown)
  fail(next, next.begin,
       "action after 'finalize': rank " + std::to_string(r) + " already finalized at line " + std::to_string(at) +
           "; nothing of a rank may follow its finalize");
}

void TiProgram::finish(RankId r) {
  RankState& s = rank(r);
  if (s.open_reqs == 0) {
    clear_requests(r);
    s.state = State::kDone;
    if (++done_ == static_cast<size_t>(num_ranks()) && matcher_.pending() > 0) matcher_.fail_pending();
  } else {
    s.state = State::kFinalizing;
  }
}

void TiProgram::on_started(OpId id, SimTime t) {
  const Op& op = ops_[id];
  const RankId r = op.rank;
  RankState& s = rank(r);
  if (coll::FragmentRunner::owns(op)) {
    runner_.on_started(*ex_, run_of(r, id), id, t);
    return;
  }
  if (s.state == State::kStarting && s.wait == id) {
    s.state = State::kReady;
    advance(r, t);
  }
}

void TiProgram::on_completed(OpId id, SimTime t) {
  const Op& op = ops_[id];
  const RankId r = op.rank;
  RankState& s = rank(r);
  if (coll::FragmentRunner::owns(op)) {
    const uint32_t run = run_of(r, id);
    if (!runner_.on_completed(*ex_, run, id, t)) return;
    if (s.state == State::kCollective && s.wait == run) {
      s.state = State::kReady;
      if (s.coll != TiKind::kCount) ex_->collective_done(r, t, ti_action_name(s.coll));
      s.coll = TiKind::kCount;
      advance(r, t);
      return;
    }
    for (uint32_t q = s.req_head; q != kNone; q = requests_[q].next)
      if (requests_[q].coll && requests_[q].op == run) return complete_request(r, q, t);
    SIMFAB_CHECK(false, "TiProgram: a collective run ended that no rank state or request owns");
  }
  const uint32_t req = op.user;
  if (!migrate_ops_.empty() && migrate_ops_.erase(id)) {
    ops_.release(id);
    arrive_migrate(r);
    return;
  }
  if (!power_ops_.empty()) {
    if (auto it = power_ops_.find(id); it != power_ops_.end()) {
      const PowerSwitch sw = it->second;
      power_ops_.erase(it);
      if (std::string why = ex_->switch_host(sw.host, sw.on, t); !why.empty()) {
        const std::string name(trace_.file_name(sw.file));
        char at[48];
        std::snprintf(at, sizeof at, " at %.12g s: ", t.seconds());
        throw error_at(name, trace_.text(sw.file), sw.pos, (sw.on ? "host_on" : "host_off") + std::string(at) + why);
      }
    }
  }
  if (!pstate_ops_.empty()) {
    if (auto it = pstate_ops_.find(id); it != pstate_ops_.end()) {
      if (ex_->cpus()) ex_->cpus()->set_pstate(ex_->host_of(r), it->second);  // none: one pstate
      pstate_ops_.erase(it);
    }
  }
  ops_.release(id);
  if (req == kNoRequest) {
    if (s.state == State::kOp && s.wait == id) {
      s.state = State::kReady;
      advance(r, t);
    }
    return;
  }
  if (req == kSendrecvOp) {
    if (--s.wait > 0) return;
    s.state = State::kReady;
    advance(r, t);
    return;
  }
  if (req == kSyncOp) {  // kCancel: the engine is at the rank's time now
    const OpId target = requests_[s.wait].op;
    if (target != kNoOp) ex_->cancel(target);  // may complete the request (re-entrant callback)
    s.state = State::kReady;
    advance(r, t);
    return;
  }
  complete_request(r, req, t);
}

uint32_t TiProgram::run_of(RankId r, OpId id) const {
  const RankState& s = rank(r);
  if (s.state == State::kCollective && runner_.contains(s.wait, id)) return s.wait;
  for (uint32_t q = s.req_head; q != kNone; q = requests_[q].next)
    if (requests_[q].coll && requests_[q].op != kNoOp && runner_.contains(requests_[q].op, id)) return requests_[q].op;
  SIMFAB_CHECK(false, "TiProgram: a collective op belongs to no run of its rank");
  return kNone;
}

void TiProgram::complete_request(RankId r, uint32_t req, SimTime t) {
  RankState& s = rank(r);
  requests_[req].op = kNoOp;
  --s.open_reqs;
  switch (s.state) {
    case State::kWaitRequest:
      if (s.wait != req) return;
      remove_request(r, req);
      break;
    case State::kWaitAny:
      if (!requests_[req].marked) return;
      for (uint32_t q = s.req_head; q != kNone; q = requests_[q].next) requests_[q].marked = false;
      remove_request(r, req);
      break;
    case State::kWaitAll:
      if (s.open_reqs > 0) return;
      clear_requests(r);
      break;
    case State::kFinalizing:
      if (s.open_reqs == 0) finish(r);
      return;
    default:
      return;
  }
  s.state = State::kReady;
  advance(r, t);
}

uint32_t TiProgram::add_request(RankId r, int32_t src, int32_t dst, int32_t tag) {
  const uint32_t id = requests_.acquire();
  SIMFAB_CHECK(id < kSyncOp, "more than 2^31-3 outstanding requests");
  requests_[id] = Request{0, kNoOp, src, dst, tag, kNone, 0, false, false, false};
  RankState& s = rank(r);
  if (s.req_tail == kNone) s.req_head = id;
  else requests_[s.req_tail].next = id;
  s.req_tail = id;
  ++s.open_reqs;
  return id;
}

uint32_t TiProgram::find_request(RankId r, int32_t src, int32_t dst, int32_t tag, int32_t comm) const {
  for (uint32_t q = rank(r).req_head; q != kNone; q = requests_[q].next) {
    const Request& x = requests_[q];
    if (x.src == src && x.dst == dst && x.tag == tag && x.comm == comm) return q;
  }
  return kNone;
}

void TiProgram::remove_request(RankId r, uint32_t req) {
  RankState& s = rank(r);
  uint32_t prev = kNone;
  for (uint32_t q = s.req_head; q != kNone; prev = q, q = requests_[q].next) {
    if (q != req) continue;
    if (prev == kNone) s.req_head = requests_[q].next;
    else requests_[prev].next = requests_[q].next;
    if (s.req_tail == q) s.req_tail = prev;
    requests_.release(q);
    return;
  }
  SIMFAB_CHECK(false, "TiProgram::remove_request: request not on its rank's list");
}

// REQUIRES: every request of the rank has completed.
void TiProgram::clear_requests(RankId r) {
  RankState& s = rank(r);
  while (s.req_head != kNone) {
    const uint32_t q = s.req_head;
    SIMFAB_CHECK(requests_[q].op == kNoOp, "TiProgram::clear_requests: a request is still running");
    s.req_head = requests_[q].next;
    requests_.release(q);
  }
  s.req_tail = kNone;
}

std::string TiProgram::where(RankId r) const { return where(r, rank(r).line); }

std::string TiProgram::where(RankId r, uint64_t position) const {
  const uint32_t file = trace_.file_of(r);
  const std::string name(trace_.file_name(file));
  return name + ":" + std::to_string(locate(name, trace_.text(file), position).line);
}

std::string TiProgram::locate_op(OpId id) const {
  const Op& op = ops_[id];
  const uint32_t file = trace_.file_of(op.rank);
  const std::string name(trace_.file_name(file));
  const auto at = [&](uint64_t offset) {
    return name + ":" + std::to_string(locate(name, trace_.text(file), offset).line) + " (rank " +
           std::to_string(op.rank) + ")";
  };
  if (coll::FragmentRunner::owns(op))
    return at(rank(op.rank).line) + " collective (after " + std::to_string(rank(op.rank).colls) +
           " world collectives of this rank)";
  if (op.user < kSyncOp) return at(requests_[op.user].line);
  return at(rank(op.rank).line);
}

std::string TiProgram::describe_request(uint32_t req) const {
  const Request& q = requests_[req];
  if (q.undefined_source)  // TiUndefinedSources left it a wildcard: say what else it may have been
    return describe_op(q.op) +
           " (its source was written -333 in the trace, SMPI's value for MPI_PROC_NULL as well as for "
           "MPI_ANY_SOURCE: it may be an MPI_Irecv from MPI_PROC_NULL in the original program, which receives "
           "nothing; it is replayed as a wildcard because messages with its tag reach this rank)";
  if (!q.coll) return describe_op(q.op);
  const std::string d = runner_.describe(q.op);
  return "non-blocking collective" + (d.empty() ? std::string(" waits for other ranks") : ": " + d);
}

std::string TiProgram::describe_op(OpId id) const {
  return describe_stuck_op(ops_[id]);
}

std::string TiProgram::describe_blocked(RankId r) const {
  const RankState& s = rank(r);
  const std::string at = where(r) + ": ";
  switch (s.state) {
    case State::kOp:
    case State::kStarting:
      return at + describe_op(s.wait);
    case State::kCollective: {
      const uint32_t file = trace_.file_of(r);
      const std::string_view text = trace_.text(file);
      const std::string_view rest = text.substr(static_cast<size_t>(s.line));
      const std::string_view line = rest.substr(0, rest.find('\n'));
      std::string d = runner_.describe(s.wait);
      return at + "collective '" + std::string(line.substr(0, 60)) + "' (after " +
             std::to_string(s.colls) + " world collectives of this rank)" + (d.empty() ? " waits for other ranks" : ": " + d);
    }
    case State::kWaitRequest: {
      const Request& q = requests_[s.wait];
      return at + "wait for the request (src " + std::to_string(q.src) + ", dst " + std::to_string(q.dst) +
             ", tag " + std::to_string(q.tag) + "): " + describe_request(s.wait);
    }
    case State::kWaitAll:
    case State::kFinalizing: {
      std::string out = at + (s.state == State::kWaitAll ? "waitall" : "finalize (or end of trace)") + ": " +
                        std::to_string(s.open_reqs) + " request(s) never completed";
      int shown = 0;
      for (uint32_t q = s.req_head; q != kNone; q = requests_[q].next) {
        if (requests_[q].op == kNoOp) continue;
        if (shown++ == 3) {
          out += "; ...";
          break;
        }
        out += (shown == 1 ? ": " : "; ") + describe_request(q);
      }
      return out;
    }
    case State::kSendrecv:
      return at + "sendrecv: " + std::to_string(s.wait) + " of its send and receive never completed";
    case State::kWaitAny: {
      std::string out = at + "waitany/waitsome: none of its requests completed";
      int shown = 0;
      for (uint32_t q = s.req_head; q != kNone; q = requests_[q].next) {
        if (!requests_[q].marked || requests_[q].op == kNoOp) continue;
        if (shown++ == 3) {
          out += "; ...";
          break;
        }
        out += (shown == 1 ? ": " : "; ") + describe_request(q);
      }
      return out;
    }
    case State::kCancel:
      return at + "cancel: never reached its time (internal state kCancel)";
    case State::kMigrating:
      return at + "migrate: waits for every rank to reach its balancing point (" + std::to_string(lb_arrived_) +
             " of " + std::to_string(num_ranks()) + " have)";
    case State::kReady:
      return at + "never resumed (internal state kReady)";
    case State::kDone:
      return {};
  }
  return {};
}

size_t TiProgram::memory_bytes() const {
  return ranks_.capacity() * sizeof(RankState) + rank_host_.capacity() * sizeof(HostId) +
         requests_.memory_bytes() + runner_.memory_bytes() + counts_.capacity() * sizeof(Bytes);
}

}  // namespace simfab
