// RunRecorder: the ActivitySink a run is given when the user asks for timelines or statistics.
// It closes each rank's calls (a call ends where the rank's next one begins, the last one at the
// rank's finish time; a report flagged CallInfo::refines at the open call's instant replaces its
// details instead of opening a new call) and hands closed intervals, CPU use and messages to its observers, in the
// order they were added. Memory: one open call per rank (48 B); no event is buffered.
#pragma once

#include <vector>

#include "mpi/activity.hpp"
#include "report/run_observer.hpp"

namespace simfab {

class RunRecorder final : public ActivitySink {
 public:
  void add(RunObserver* o) { observers_.push_back(o); }
  bool empty() const { return observers_.empty(); }

  void start_run(const RunInfo& info) override;
  void call(RankId r, SimTime t, const CallInfo& info) override;
  void cpu_busy(RankId r, uint8_t cpu, CpuUse use, SimTime begin, SimTime end) override;
  void message(const MessageRecord& m) override;
  // After a successful run: closes every open call at its rank's finish time, then tells the
  // observers. REQUIRES: start_run was called with result.num_ranks ranks.
  void finish(const RunResult& result);

 private:
  struct Open {
    SimTime begin;
    CallInfo info;
    bool open = false;
  };
  std::vector<Open> open_;
  std::vector<RunObserver*> observers_;
};

}  // namespace simfab
