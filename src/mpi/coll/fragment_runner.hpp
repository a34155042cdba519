// FragmentRunner: executes Fragments (one rank's share of a collective) on the Executor.
//
// start() turns a Fragment into live operations: one OpPool op per fragment op (stamped with the
// rank, the collective's tag and context), each with Op::pending = its number of incoming edges,
// and a per-run successor list in compressed-sparse-row form. Ops without dependencies are made
// ready at once, in fragment order. The front-end forwards the executor's callbacks for these ops:
//   on_started(run, op, t)     releases `irequires` successors
//   on_completed(run, op, t)   releases `requires` successors, recycles the op (OpPool::release),
//                              and returns true when it was the run's last op: the collective is
//                              complete on this rank and the run's slot is recycled.
// A run's ops are recognised by the flag kOpFlag in Op::user (the low bits are the op's index in
// the run); front-ends that share the pool keep their own Op::user values below kOpFlag. Which
// run an op belongs to is the front-end's business (replay: the one collective its rank is in).
//
// Memory: a run lives only while its collective runs on that rank: 4 B per op (OpId) + 4 B per op
// (CSR offset) + 4 B per edge, in vectors that are reused by later runs (no allocation once the
// pool of runs has grown to the number of ranks inside a collective at the same time).
// Complexity: start O(ops + edges); each callback O(out-degree).
#pragma once

#include <string>
#include <vector>

#include "core/slot_pool.hpp"
#include "mpi/coll/fragment.hpp"
#include "mpi/executor.hpp"
#include "mpi/group.hpp"

namespace simfab::coll {

class FragmentRunner {
 public:
  static constexpr uint32_t kOpFlag = 0x80000000u;

  explicit FragmentRunner(OpPool& ops) : ops_(ops) {}
  FragmentRunner(const FragmentRunner&) = delete;
  FragmentRunner& operator=(const FragmentRunner&) = delete;

  static bool owns(const Op& op) { return (op.user & kOpFlag) != 0; }

  // Starts fragment `f` for world rank `rank`; ops get (tag, context). A fragment built for a
  // sub-communicator names its peers by their ranks in `group`, which maps them to world ranks
  // (nullptr: the peers are world ranks). Returns the run id.
  // REQUIRES: f.size() > 0 (a closed fragment has at least its closing calc).
  uint32_t start(Executor& ex, const Fragment& f, RankId rank, int32_t tag, uint32_t context, SimTime t,
                 const mpi::Group* group = nullptr);
  // REQUIRES: owns(op) and op belongs to `run`.
  void on_started(Executor& ex, uint32_t run, OpId op, SimTime t);
  bool on_completed(Executor& ex, uint32_t run, OpId op, SimTime t);

  // Whether `op` is one of run `run`'s live ops (O(1): its index is in Op::user). Front-ends with
  // several runs per rank (non-blocking collectives) find an op's run with it.
  bool contains(uint32_t run, OpId op) const;
  // What an unfinished run waits for (its started-but-unfinished ops), for deadlock reports.
  std::string describe(uint32_t run) const;
  size_t live_runs() const { return runs_.live(); }
  size_t memory_bytes() const;

 private:
  static constexpr uint32_t kImmediate = 0x80000000u;  // edge flag: irequires
  static constexpr uint32_t kNoRun = UINT32_MAX;

  struct Run {
    std::vector<OpId> ops;             // fragment index -> OpId (kNoOp once recycled)
    std::vector<uint32_t> succ_begin;  // CSR offsets, ops.size() + 1 entries
    std::vector<uint32_t> succ;        // successor fragment index | kImmediate
    uint32_t remaining = 0;            // ops not yet completed
  };

  void release(Executor& ex, Run& run, uint32_t index, SimTime t, bool immediate);

  OpPool& ops_;
  SlotPool<Run> runs_;
};

}  // namespace simfab::coll
