// TiProgram: the per-rank replay state machine (see ti_program.hpp).
#include "replay/ti_program.hpp"

#include "mpi/op_text.hpp"

#include <cmath>
#include <cstdint>

#include "core/text_locator.hpp"

namespace simfab {

namespace {
// Longest single calc accepted, as for GOAL calc durations (about 26 days).
constexpr double kMaxCalcPs = static_cast<double>(INT64_MAX / 4);
}  // namespace

std::unique_ptr<Program> make_ti_program(TiTrace& trace, OpPool& ops, const Platform& platform,
                                         const std::vector<HostId>& rank_host, const coll::CollChoice& choice) {
  return std::make_unique<TiProgram>(trace, ops, platform, rank_host, choice);
}

TiProgram::TiProgram(TiTrace& trace, OpPool& ops, const Platform& platform, std::vector<HostId> rank_host,
                     coll::CollChoice choice)
    : trace_(trace), ops_(ops), platform_(platform), rank_host_(std::move(rank_host)), runner_(ops), choice_(choice) {
  SIMFAB_CHECK(rank_host_.size() == static_cast<size_t>(trace.num_ranks()),
               "make_ti_program: rank_host must have one host per rank");
  for (HostId h : rank_host_)
    SIMFAB_CHECK(h >= 0 && h < platform.host_count(), "make_ti_program: rank mapped to an unknown host");
  ranks_.resize(rank_host_.size());
}

void TiProgram::start(Executor& ex) {
  ex_ = &ex;
  for (RankId r = 0; r < num_ranks(); ++r) advance(r, SimTime::zero());
}

void TiProgram::fail(const TiLine& line, size_t pos, std::string what) const {
  throw error_at(std::string(trace_.file_name(line.file)), line.text, pos, std::move(what));
}

SimTime TiProgram::compute_time(RankId r, double flops, const TiLine& line) const {
  const Host& host = platform_.host(rank_host_[static_cast<size_t>(r)]);
  if (std::isinf(host.speed_flops) || flops == 0) return SimTime::zero();
  const double seconds = flops / host.speed_flops;
  if (!(seconds * 1e12 <= kMaxCalcPs))
    fail(line, line.begin,
         "computing " + std::to_string(flops) + " flops on host '" + host.name + "' (" +
             std::to_string(host.speed_flops) + " flop/s) takes longer than simfab's limit for one action "
             "(2^61 ps, about 26 days)");
  return SimTime::from_seconds(seconds);
}

SimTime TiProgram::sleep_time(double seconds, const TiLine& line) const {
  if (!(seconds * 1e12 <= kMaxCalcPs))
    fail(line, line.begin, "a sleep of " + std::to_string(seconds) +
                               " s is longer than simfab's limit for one action (2^61 ps, about 26 days)");
  return SimTime::from_seconds(seconds);
}

OpId TiProgram::issue(RankId r, OpKind kind, uint64_t amount, int32_t peer, int32_t tag, uint32_t user, SimTime t) {
  const OpId id = ops_.alloc();
  Op& op = ops_[id];
  op.kind = kind;
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
    const TiAction a = parse_ti_action(trace_.file_name(line.file), line, p, s.flags & kDefaultDouble, counts_);
    switch (a.kind) {
      case TiKind::kInit:
        if (a.has_arg) s.flags |= kDefaultDouble;
        continue;
      case TiKind::kCommSize:
      case TiKind::kCommSplit:
      case TiKind::kCommDup:
      case TiKind::kLocation:
      case TiKind::kTest:  // a completed request stays until waited for: nothing to do
        continue;
      case TiKind::kFinalize:
        check_nothing_after_finalize(r, line);
        finish(r);
        return;
      case TiKind::kCompute:
      case TiKind::kSleep: {
        const SimTime d = a.kind == TiKind::kCompute ? compute_time(r, a.amount, line) : sleep_time(a.amount, line);
        s.state = State::kOp;
        s.wait = issue(r, OpKind::kCalc, static_cast<uint64_t>(d.ps()), 0, 0, kNoRequest, t);
        return;
      }
      case TiKind::kSend:
      case TiKind::kRecv:
        s.state = State::kOp;
        s.wait = issue(r, a.kind == TiKind::kSend ? OpKind::kSend : OpKind::kRecv, a.bytes, a.peer,
                       a.tag < 0 ? kAnyTag : a.tag, kNoRequest, t);
        return;
      case TiKind::kIsend:
      case TiKind::kIrecv: {
        const bool send = a.kind == TiKind::kIsend;
        const uint32_t req = send ? add_request(r, r, a.peer, a.tag) : add_request(r, a.peer, r, a.tag);
        const OpId op = issue(r, send ? OpKind::kSend : OpKind::kRecv, a.bytes, a.peer,
                              a.tag < 0 ? kAnyTag : a.tag, req, t);
        requests_[req].op = op;
        if (send) ops_[op].flags |= op_flag::kImmediate;
        s.state = State::kStarting;
        s.wait = op;
        return;
      }
      case TiKind::kWait: {
        const uint32_t req = find_request(r, a.peer, a.peer2, a.tag);
        if (req == kNone) {
          s.state = State::kStuck;  // reported by describe_blocked when the run ends
          return;
        }
        if (requests_[req].op == kNoOp) {
          remove_request(r, req);
          continue;
        }
        s.state = State::kWaitRequest;
        s.wait = req;
        return;
      }
      case TiKind::kWaitall:
        if (s.open_reqs == 0) {
          clear_requests(r);
          continue;
        }
        s.state = State::kWaitAll;
        return;
      default: {
        SIMFAB_CHECK(ti_is_collective(a.kind), "TiProgram::advance: unhandled action");
        SimTime closing = SimTime::zero();
        if (a.kind == TiKind::kReduce || a.kind == TiKind::kAllreduce || a.kind == TiKind::kReducescatter)
          closing = compute_time(r, a.amount, line);
        frag_.clear();
        build_ti_collective(frag_, a, r, p, counts_, closing, choice_);
        const auto tag = static_cast<int32_t>(s.colls++ & INT32_MAX);
        s.state = State::kCollective;
        s.wait = runner_.start(*ex_, frag_, r, tag, kCollectiveContext, t);
        return;
      }
    }
  }
}

void TiProgram::check_nothing_after_finalize(RankId r, const TiLine& finalize_line) {
  uint64_t pos = rank(r).pos;
  TiLine next;
  if (!trace_.next_line(r, pos, next)) return;
  const std::string name(trace_.file_name(finalize_line.file));
  const int at = locate(name, finalize_line.text, finalize_line.begin).line;
  fail(next, next.begin,
       "action after 'finalize': rank " + std::to_string(r) + " already finalized at line " + std::to_string(at) +
           "; nothing of a rank may follow its finalize");
}

void TiProgram::finish(RankId r) {
  RankState& s = rank(r);
  if (s.open_reqs == 0) {
    clear_requests(r);
    s.state = State::kDone;
  } else {
    s.state = State::kFinalizing;
  }
}

void TiProgram::on_started(OpId id, SimTime t) {
  const Op& op = ops_[id];
  const RankId r = op.rank;
  RankState& s = rank(r);
  if (coll::FragmentRunner::owns(op)) {
    runner_.on_started(*ex_, s.wait, id, t);
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
    if (runner_.on_completed(*ex_, s.wait, id, t)) {
      s.state = State::kReady;
      advance(r, t);
    }
    return;
  }
  const uint32_t req = op.user;
  ops_.release(id);
  if (req == kNoRequest) {
    if (s.state == State::kOp && s.wait == id) {
      s.state = State::kReady;
      advance(r, t);
    }
    return;
  }
  requests_[req].op = kNoOp;
  --s.open_reqs;
  switch (s.state) {
    case State::kWaitRequest:
      if (s.wait != req) return;
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
  SIMFAB_CHECK(id < kNoRequest, "more than 2^31-1 outstanding requests");
  requests_[id] = Request{kNoOp, src, dst, tag, kNone};
  RankState& s = rank(r);
  if (s.req_tail == kNone) s.req_head = id;
  else requests_[s.req_tail].next = id;
  s.req_tail = id;
  ++s.open_reqs;
  return id;
}

uint32_t TiProgram::find_request(RankId r, int32_t src, int32_t dst, int32_t tag) const {
  for (uint32_t q = rank(r).req_head; q != kNone; q = requests_[q].next) {
    const Request& x = requests_[q];
    if (x.src == src && x.dst == dst && x.tag == tag) return q;
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

std::string TiProgram::where(RankId r) const {
  const uint32_t file = trace_.file_of(r);
  const std::string name(trace_.file_name(file));
  return name + ":" + std::to_string(locate(name, trace_.text(file), rank(r).line).line);
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
      return at + "collective '" + std::string(line.substr(0, 60)) + "' (collective #" +
             std::to_string(s.colls) + " of this rank)" + (d.empty() ? " waits for other ranks" : ": " + d);
    }
    case State::kWaitRequest: {
      const Request& q = requests_[s.wait];
      return at + "wait for the request (src " + std::to_string(q.src) + ", dst " + std::to_string(q.dst) +
             ", tag " + std::to_string(q.tag) + "): " + describe_op(q.op);
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
        out += (shown == 1 ? ": " : "; ") + describe_op(requests_[q].op);
      }
      return out;
    }
    case State::kStuck: {
      const uint32_t file = trace_.file_of(r);
      const std::string_view text = trace_.text(file);
      const size_t end = text.find('\n', static_cast<size_t>(s.line));
      TiLine line{text, static_cast<size_t>(s.line), end == std::string_view::npos ? text.size() : end, file};
      while (line.end > line.begin && (text[line.end - 1] == '\r' || text[line.end - 1] == ' ' ||
                                       text[line.end - 1] == '\t'))
        --line.end;
      std::vector<Bytes> scratch;
      const TiAction a = parse_ti_action(trace_.file_name(file), line, num_ranks(), false, scratch);
      return at + "wait for a request (src " + std::to_string(a.peer) + ", dst " + std::to_string(a.peer2) +
             ", tag " + std::to_string(a.tag) + ") that was never started (no earlier isend/irecv of rank " +
             std::to_string(r) + " has that source, destination and tag)";
    }
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
