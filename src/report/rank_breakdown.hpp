// RankBreakdown: where each rank's time goes, accumulated during a run (one of RunStats' parts).
//
// Two sources, chosen per rank:
//   calls  (the front-end reports them: TI replay) the call intervals tile [0, finish]; each
//          interval's length goes to its CallInfo::cls: compute, p2p, collective, wait, other.
//          Time in [0, finish] that no interval covers (none with TI replay) counts as other, so
//          the five always sum to finish.
//   CPU    (no call reached the rank: GOAL schedules) compute = CPU busy with
//          CpuUse::kCompute, p2p = CPU busy with send/receive overheads, collective = other = 0,
//          wait = max(0, finish - compute - p2p): the time the rank's CPU was not busy before it
//          finished (waiting for messages, NIC gaps).
// Both: idle = makespan - finish (the rank had finished, others had not).
// Memory: 64 B per rank; O(1) per event.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "mpi/activity.hpp"
#include "report/stats_report.hpp"

namespace simfab {

class RankBreakdown {
 public:
  void reset(int num_ranks);
  void add_call(RankId r, CallClass cls, SimTime length);
  void add_cpu(RankId r, CpuUse use, SimTime length);
  // Rank r's row (host left empty) once it finished at `finish` in a run of `makespan`.
  RankTimes times(RankId r, SimTime finish, SimTime makespan) const;

 private:
  struct Rank {
    std::array<int64_t, kCallClasses> by_class{};  // ps per CallClass
    int64_t cpu_compute = 0;                       // ps of CpuUse::kCompute
    int64_t cpu_overhead = 0;                      // ps of send/receive overheads
    bool has_calls = false;
  };
  std::vector<Rank> ranks_;
};

}  // namespace simfab
