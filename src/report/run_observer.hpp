// RunObserver: an output of a run (timeline writers, statistics) fed by RunRecorder, which turns
// the ActivitySink stream (mpi/activity.hpp) into closed intervals and fans it out.
//
//   start_run(info)                 once, before any event
//   call_interval(r, begin, end, c) rank r was in call c during [begin, end] (begin <= end);
//                                   per rank in time order, intervals of one rank do not overlap
//                                   and cover [0, finish] when the front-end reports calls (TI)
//   cpu_busy(r, cpu, use, b, e)     as ActivitySink::cpu_busy
//   message(m)                      as ActivitySink::message
//   finish(result)                  once, after the run, with the complete results
// Observers never see a deadlocked run's end (the CLI reports the deadlock and writes nothing).
#pragma once

#include <string>
#include <vector>

#include "core/sim_time.hpp"
#include "mpi/activity.hpp"

namespace simfab {

struct RunResult;

// Which part of a run the timeline outputs keep (statistics always see everything): ranks
// [first_rank, last_rank] and what overlaps the window [from, to].
struct TraceFilter {
  RankId first_rank = 0;
  RankId last_rank = INT32_MAX;
  SimTime from = SimTime::zero();
  SimTime to = SimTime::never();
  bool keeps(RankId r) const { return r >= first_rank && r <= last_rank; }
  bool overlaps(SimTime begin, SimTime end) const { return end >= from && begin <= to; }
  // An interval of rank r; a message when either end's rank is kept.
  bool keeps(RankId r, SimTime begin, SimTime end) const { return keeps(r) && overlaps(begin, end); }
  bool keeps(const MessageRecord& m) const { return (keeps(m.src) || keeps(m.dst)) && overlaps(m.sent, m.arrived); }
};


class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void start_run(const RunInfo& info) = 0;
  virtual void call_interval(RankId r, SimTime begin, SimTime end, const CallInfo& c) = 0;
  virtual void cpu_busy(RankId r, uint8_t cpu, CpuUse use, SimTime begin, SimTime end) = 0;
  virtual void message(const MessageRecord& m) = 0;
  virtual void finish(const RunResult& result) = 0;
};

}  // namespace simfab
