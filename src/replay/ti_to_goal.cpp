// TI trace -> GOAL text, one rank at a time (see ti_to_goal.hpp for the mapping).
#include "replay/ti_to_goal.hpp"

#include <string>
#include <vector>

#include "core/text_locator.hpp"
#include "mpi/coll/fragment.hpp"
#include "replay/goal_writer.hpp"
#include "replay/ti_action.hpp"
#include "replay/ti_duration.hpp"
#include "replay/ti_program.hpp"

namespace simfab {

namespace {

constexpr size_t kNoLine = SIZE_MAX;

class TiGoalExporter {
 public:
  TiGoalExporter(TiTrace& trace, const Platform& platform, std::span<const HostId> rank_host,
                 const coll::CollChoice& choice, GoalWriter& out)
      : trace_(trace), platform_(platform), rank_host_(rank_host), choice_(choice), out_(out) {}

  // Writes the block of the next rank.
  void export_rank();

 private:
  struct Dep {
    GoalLabel op;
    bool immediate;
  };
  struct Request {
    int32_t src, dst, tag;
    GoalLabel op;
  };

  void reset(RankId r);
  // Runs one action; false once the rank has finalized.
  bool action(const TiAction& a, const TiLine& line);
  // Makes `op` wait for the frontier (a root of the current action).
  void hang_on_frontier(GoalLabel op);
  // The next action also waits for the completion of `op` (a request).
  void also_require(GoalLabel op);
  void point_to_point(const TiAction& a, const TiLine& line);
  void wait(const TiAction& a, const TiLine& line);
  void collective(const TiAction& a, const TiLine& line);
  int32_t p2p_tag(const TiAction& a, const TiLine& line);
  void check_nothing_after_finalize(uint64_t pos, const TiLine& finalize_line) const;
  [[noreturn]] void fail(const TiLine& line, std::string what) const;
  const Host& host() const { return platform_.host(rank_host_[static_cast<size_t>(rank_)]); }
  std::string file_name(uint32_t file) const { return std::string(trace_.file_name(file)); }

  TiTrace& trace_;
  const Platform& platform_;
  std::span<const HostId> rank_host_;
  const coll::CollChoice& choice_;
  GoalWriter& out_;

  // The rank being written.
  RankId rank_ = 0;
  bool default_double_ = false;
  uint64_t colls_ = 0;                // collectives so far: the next one's number k
  size_t any_tag_line_ = kNoLine;     // offset of the first tag -1 receive
  size_t coll_line_ = kNoLine;        // offset of the first collective
  std::vector<Dep> frontier_;         // what the next action waits for
  std::vector<Request> requests_;     // not yet waited for, oldest first

  // Scratch, reused by every action.
  std::vector<Bytes> counts_;
  coll::Fragment frag_;
  std::vector<GoalLabel> labels_;     // fragment op -> label
  std::vector<uint32_t> pred_begin_;  // fragment ops' predecessors, CSR by successor
  std::vector<uint32_t> pred_;        // index into frag_.deps()
  std::vector<uint8_t> implied_;      // 0 / kStarted / kCompleted once the closing calc completed
  std::vector<uint32_t> stack_;
};

void TiGoalExporter::fail(const TiLine& line, std::string what) const {
  throw error_at(file_name(line.file), line.text, line.begin, std::move(what));
}

void TiGoalExporter::reset(RankId r) {
  rank_ = r;
  default_double_ = false;
  colls_ = 0;
  any_tag_line_ = coll_line_ = kNoLine;
  frontier_.clear();
  requests_.clear();
}

void TiGoalExporter::export_rank() {
  reset(out_.begin_rank());
  uint64_t pos = 0;
  TiLine line;
  while (trace_.next_line(rank_, pos, line)) {
    const TiAction a =
        parse_ti_action(trace_.file_name(line.file), line, trace_.num_ranks(), default_double_, counts_);
    if (!action(a, line)) {
      check_nothing_after_finalize(pos, line);
      break;
    }
  }
  out_.end_rank();
}

bool TiGoalExporter::action(const TiAction& a, const TiLine& line) {
  switch (a.kind) {
    case TiKind::kInit:
      default_double_ = default_double_ || a.has_arg;
      return true;
    case TiKind::kCommSize:
    case TiKind::kCommSplit:
    case TiKind::kCommDup:
    case TiKind::kLocation:
    case TiKind::kTest:
      return true;
    case TiKind::kFinalize:
      return false;
    case TiKind::kCompute:
    case TiKind::kSleep: {
      const SimTime d = a.kind == TiKind::kCompute ? ti_compute_time(a.amount, host(), trace_.file_name(line.file), line)
                                                   : ti_sleep_time(a.amount, trace_.file_name(line.file), line);
      const GoalLabel op = out_.calc(static_cast<uint64_t>(d.ps()));
      hang_on_frontier(op);
      frontier_.assign(1, Dep{op, false});
      return true;
    }
    case TiKind::kSend:
    case TiKind::kRecv:
    case TiKind::kIsend:
    case TiKind::kIrecv:
      point_to_point(a, line);
      return true;
    case TiKind::kWait:
      wait(a, line);
      return true;
    case TiKind::kWaitall:
      for (const Request& q : requests_) also_require(q.op);
      requests_.clear();
      return true;
    default:
      if (!ti_is_collective(a.kind))
        fail(line, "cannot export the action '" + std::string(ti_action_name(a.kind)) +
                       "' to GOAL: simfab goal does not know how to write it yet");
      collective(a, line);
      return true;
  }
}

void TiGoalExporter::hang_on_frontier(GoalLabel op) {
  for (const Dep& d : frontier_) out_.depend(op, d.op, d.immediate);
}

void TiGoalExporter::also_require(GoalLabel op) {
  // Only the frontier's first entry (the last op written) can name a request already: upgrade it.
  if (!frontier_.empty() && frontier_.front().op == op) frontier_.front().immediate = false;
  else frontier_.push_back(Dep{op, false});
}

int32_t TiGoalExporter::p2p_tag(const TiAction& a, const TiLine& line) {
  if (a.tag >= kCollTagBase)
    fail(line, "tag " + std::to_string(a.tag) + " is in the range GOAL export gives collectives (" +
                   std::to_string(kCollTagBase) + " and above: GOAL has no communicator contexts, tags keep "
                   "collective messages apart); point-to-point tags must stay below " + std::to_string(kCollTagBase));
  if (a.tag >= 0) return a.tag;
  if (coll_line_ != kNoLine)
    fail(line, "a receive with tag -1 (MPI_ANY_TAG) cannot be exported together with collectives (rank " +
                   std::to_string(rank_) + " has one at line " +
                   std::to_string(locate(file_name(line.file), line.text, coll_line_).line) +
                   "): GOAL has no communicator contexts, so 'tag any' could match a collective's message");
  if (any_tag_line_ == kNoLine) any_tag_line_ = line.begin;
  return kAnyTag;
}

void TiGoalExporter::point_to_point(const TiAction& a, const TiLine& line) {
  const bool send = a.kind == TiKind::kSend || a.kind == TiKind::kIsend;
  const bool immediate = a.kind == TiKind::kIsend || a.kind == TiKind::kIrecv;
  const int32_t tag = p2p_tag(a, line);
  const GoalLabel op = send ? out_.send(a.bytes, a.peer, tag) : out_.recv(a.bytes, a.peer, tag);
  hang_on_frontier(op);
  frontier_.assign(1, Dep{op, immediate});
  if (immediate) requests_.push_back(send ? Request{rank_, a.peer, a.tag, op} : Request{a.peer, rank_, a.tag, op});
}

void TiGoalExporter::wait(const TiAction& a, const TiLine& line) {
  for (auto it = requests_.begin(); it != requests_.end(); ++it) {
    if (it->src != a.peer || it->dst != a.peer2 || it->tag != a.tag) continue;
    also_require(it->op);
    requests_.erase(it);
    return;
  }
  fail(line, "wait for a request (src " + std::to_string(a.peer) + ", dst " + std::to_string(a.peer2) + ", tag " +
                 std::to_string(a.tag) + ") that was never started (no earlier isend/irecv of rank " +
                 std::to_string(rank_) + " has that source, destination and tag, or it was already waited for); "
                 "replay would block here for ever");
}

void TiGoalExporter::collective(const TiAction& a, const TiLine& line) {
  if (any_tag_line_ != kNoLine) {
    const std::string_view text = trace_.text(line.file);
    throw error_at(file_name(line.file), text, any_tag_line_,
                   "a receive with tag -1 (MPI_ANY_TAG) cannot be exported together with collectives (rank " +
                       std::to_string(rank_) + " has one at line " +
                       std::to_string(locate(file_name(line.file), text, line.begin).line) +
                       "): GOAL has no communicator contexts, so 'tag any' could match a collective's message");
  }
  if (coll_line_ == kNoLine) coll_line_ = line.begin;
  SimTime closing = SimTime::zero();
  if (a.kind == TiKind::kReduce || a.kind == TiKind::kAllreduce || a.kind == TiKind::kReducescatter)
    closing = ti_compute_time(a.amount, host(), trace_.file_name(line.file), line);
  frag_.clear();
  build_ti_collective(frag_, a, rank_, trace_.num_ranks(), counts_, closing, choice_);
  const auto tag = static_cast<int32_t>(kCollTagBase + static_cast<int64_t>(colls_++ % kCollTagBase));

  // Predecessors per op (CSR by successor): roots have none.
  const uint32_t n = frag_.size();
  const std::span<const coll::FragDep> deps = frag_.deps();
  pred_begin_.assign(n + 1, 0);
  for (const coll::FragDep& d : deps) ++pred_begin_[d.succ + 1];
  for (uint32_t i = 0; i < n; ++i) pred_begin_[i + 1] += pred_begin_[i];
  pred_.resize(deps.size());
  stack_.assign(pred_begin_.begin(), pred_begin_.end() - 1);  // fill cursors
  for (uint32_t e = 0; e < deps.size(); ++e) pred_[stack_[deps[e].succ]++] = e;

  labels_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const coll::FragOp& op = frag_.op(i);
    switch (op.kind) {
      case OpKind::kCalc: labels_[i] = out_.calc(op.amount); break;
      case OpKind::kSend: labels_[i] = out_.send(op.amount, op.peer, tag); break;
      case OpKind::kRecv: labels_[i] = out_.recv(op.amount, op.peer, tag); break;
      default: SIMFAB_CHECK(false, "write_ti_as_goal: a collective generated an op GOAL cannot express");
    }
    if (pred_begin_[i] == pred_begin_[i + 1]) hang_on_frontier(labels_[i]);
  }
  for (const coll::FragDep& d : deps) out_.depend(labels_[d.succ], labels_[d.pred], d.immediate);

  // Replay leaves the collective when ALL its ops completed. The closing calc (the last op)
  // completing implies that its `requires` predecessors completed and its `irequires` ones
  // started, and so on backwards; the next action must also require every op left merely started.
  constexpr uint8_t kStarted = 1, kCompleted = 2;
  const uint32_t close = n - 1;
  implied_.assign(n, 0);
  implied_[close] = kCompleted;
  stack_.assign(1, close);
  while (!stack_.empty()) {
    const uint32_t s = stack_.back();
    stack_.pop_back();
    for (uint32_t k = pred_begin_[s]; k < pred_begin_[s + 1]; ++k) {
      const coll::FragDep& d = deps[pred_[k]];
      const uint8_t v = d.immediate ? kStarted : kCompleted;
      if (implied_[d.pred] == 0) stack_.push_back(d.pred);
      if (v > implied_[d.pred]) implied_[d.pred] = v;
    }
  }
  frontier_.assign(1, Dep{labels_[close], false});
  for (uint32_t i = 0; i < close; ++i)
    if (implied_[i] != kCompleted) frontier_.push_back(Dep{labels_[i], false});
}

void TiGoalExporter::check_nothing_after_finalize(uint64_t pos, const TiLine& finalize_line) const {
  TiLine next;
  if (!trace_.next_line(rank_, pos, next)) return;
  const std::string name = file_name(finalize_line.file);
  fail(next, "action after 'finalize': rank " + std::to_string(rank_) + " already finalized at line " +
                 std::to_string(locate(name, finalize_line.text, finalize_line.begin).line) +
                 "; nothing of a rank may follow its finalize");
}

}  // namespace

GoalExportStats write_ti_as_goal(TiTrace& trace, const Platform& platform, std::span<const HostId> rank_host,
                                 const coll::CollChoice& choice, std::ostream& out) {
  SIMFAB_CHECK(rank_host.size() == static_cast<size_t>(trace.num_ranks()),
               "write_ti_as_goal: rank_host must have one host per rank");
  for (HostId h : rank_host)
    SIMFAB_CHECK(h >= 0 && h < platform.host_count(), "write_ti_as_goal: rank mapped to an unknown host");
  GoalWriter writer(out, trace.num_ranks());
  TiGoalExporter exporter(trace, platform, rank_host, choice, writer);
  for (int r = 0; r < trace.num_ranks(); ++r) exporter.export_rank();
  writer.finish();
  return GoalExportStats{writer.ops_written(), writer.dependencies_written()};
}

}  // namespace simfab
