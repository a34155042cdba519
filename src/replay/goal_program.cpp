#include "replay/goal_program.hpp"

#include "mpi/op_text.hpp"

namespace simfab {

GoalProgram::GoalProgram(GoalSchedule& g) : g_(g) {
  remaining_.resize(static_cast<size_t>(g.num_ranks));
  for (size_t r = 0; r < remaining_.size(); ++r) remaining_[r] = g.rank_begin[r + 1] - g.rank_begin[r];
}

void GoalProgram::start(Executor& ex) {
  ex_ = &ex;
  for (OpId id = 0; id < g_.ops.size(); ++id)
    if (g_.ops[id].pending == 0) ex.ready(id, SimTime::zero());
}

void GoalProgram::release(OpId op, SimTime t, bool immediate) {
  for (uint32_t e = g_.succ_begin[op]; e < g_.succ_begin[op + 1]; ++e) {
    const uint32_t edge = g_.succ[e];
    if (((edge & GoalSchedule::kImmediate) != 0) != immediate) continue;
    const OpId s = edge & ~GoalSchedule::kImmediate;
    if (--g_.ops[s].pending == 0) ex_->ready(s, t);
  }
}

void GoalProgram::on_started(OpId op, SimTime t) {
  const Op& o = g_.ops[op];
  if (o.user != 0)  // a switch (goal_schedule.hpp): from now on the rank's messages use its model
    ex_->switch_point(o.rank, t, g_.switches[o.user - 1], [this, op] {
      return g_.path + ":" + std::to_string(g_.line[op]);
    });
  release(op, t, true);
}

void GoalProgram::on_completed(OpId op, SimTime t) {
  --remaining_[static_cast<size_t>(g_.ops[op].rank)];
  release(op, t, false);
}

std::string GoalProgram::describe_blocked(RankId r) const {
  std::string out;
  int shown = 0;
  for (OpId id = g_.rank_begin[static_cast<size_t>(r)]; id < g_.rank_begin[static_cast<size_t>(r) + 1]; ++id) {
    const Op& op = g_.ops[id];
    if (op.flags & op_flag::kDone) continue;
    // Report the ops that are stuck themselves, not those merely waiting for them.
    if (!(op.flags & op_flag::kStarted) && op.pending > 0) continue;
    if (shown++ == 3) { out += "; ..."; break; }
    if (shown > 1) out += "; ";
    out += g_.path + ":" + std::to_string(g_.line[id]) + ": ";
    out += describe_stuck_op(op);
  }
  if (out.empty()) out = "operations wait for dependencies that never complete";
  return out;
}

double GoalProgram::progress() const {
  uint64_t left = 0;
  for (uint32_t n : remaining_) left += n;
  const size_t total = g_.op_count();
  return total == 0 ? -1.0 : 1.0 - static_cast<double>(left) / static_cast<double>(total);
}

}  // namespace simfab
