// Program: what a front-end (GOAL schedule, TI trace, later online MPI code) gives the executor.
//
// A front-end owns the dependency structure of each rank and hands the executor only operations
// whose dependencies are met (Executor::ready). The executor reports back, per operation:
//   on_started(op, t)    the op has started: GOAL `irequires` successors may run from t on
//   on_completed(op, t)  the op is complete: GOAL `requires` successors may run from t on
// t is the earliest time a successor on the same rank may start (the rank's CPU is busy until
// then). After on_completed the executor never touches the op again, so the front-end may
// recycle it. Callbacks may call Executor::ready re-entrantly.
#pragma once

#include <string>

#include "core/sim_time.hpp"
#include "mpi/op.hpp"

namespace simfab {

class Executor;

class Program {
 public:
  virtual ~Program() = default;
  virtual int num_ranks() const = 0;
  // Number of CPUs and NICs per rank that ops refer to (GOAL `cpu N` / `nic N`).
  virtual int num_cpus() const { return 1; }
  virtual int num_nics() const { return 1; }
  // Called once at time 0: make each rank's initially runnable ops ready.
  virtual void start(Executor& ex) = 0;
  virtual void on_started(OpId op, SimTime t) = 0;
  virtual void on_completed(OpId op, SimTime t) = 0;
  // True when every op of the rank has completed.
  virtual bool rank_finished(RankId r) const = 0;
  // When rank r ended by the front-end's own clock (online mode: a rank may end after a wait
  // that moved no CPU timer, e.g. a Portals event wait); the finish time is the later of this and
  // the rank's CPU timers. Zero: the CPU timers alone.
  virtual SimTime end_time(RankId /*r*/) const { return SimTime::zero(); }
  // For the deadlock report: what an unfinished rank waits for, in one line.
  virtual std::string describe_blocked(RankId r) const = 0;
  // For MPI errors found by the executor (truncation): where op `id` was issued, e.g.
  // "trace.txt:12: rank 3 'recv 0 5 8'"; empty when the front-end cannot say.
  virtual std::string locate_op(OpId /*id*/) const { return {}; }
  // The fraction of the application done so far, in [0, 1], for progress output; negative when the
  // front-end cannot tell. May cost O(ranks).
  virtual double progress() const { return -1; }
  // Ranks moved to another host by load balancing (seed 001 §2.17), for the report.
  virtual uint64_t migrations() const { return 0; }
  // Receive `recv` has just matched a message whose send op carried Op::user = `send_user` when
  // it was sent (the send op may be gone by now). Front-ends that move real data (online mode)
  // copy the message's payload here; recv's peer, tag and amount already hold the status.
  virtual void on_matched(OpId /*recv*/, uint32_t /*send_user*/) {}
  // The engine has run out of events (the run is over, finished or deadlocked), before the
  // executor gathers its results. Online mode ends a run that ranks' failures stopped here.
  virtual void on_engine_done() {}
};

}  // namespace simfab
