// GoalProgram: executes a GoalSchedule (seed 004 §2.3): an op becomes ready when all its
// `requires` predecessors have completed and all its `irequires` predecessors have started.
// Each op keeps a count of unmet dependencies (Op::pending); starting or completing an op walks its
// CSR successor list and releases the successors whose count reaches zero. O(out-degree) per
// start/completion, no allocation during the run.
#pragma once

#include <vector>

#include "mpi/executor.hpp"
#include "mpi/program.hpp"
#include "replay/goal_schedule.hpp"

namespace simfab {

class GoalProgram final : public Program {
 public:
  explicit GoalProgram(GoalSchedule& g);

  int num_ranks() const override { return g_.num_ranks; }
  int num_cpus() const override { return g_.num_cpus; }
  int num_nics() const override { return g_.num_nics; }
  void start(Executor& ex) override;
  void on_started(OpId op, SimTime t) override;
  void on_completed(OpId op, SimTime t) override;
  bool rank_finished(RankId r) const override { return remaining_[static_cast<size_t>(r)] == 0; }
  std::string describe_blocked(RankId r) const override;
  // Ops completed over all ops (progress output). O(ranks).
  double progress() const override;

 private:
  void release(OpId op, SimTime t, bool immediate);

  GoalSchedule& g_;
  Executor* ex_ = nullptr;
  std::vector<uint32_t> remaining_;  // per rank: ops not yet completed
};

}  // namespace simfab
