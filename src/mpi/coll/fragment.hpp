// Fragment: one rank's share of one collective operation, as a small GOAL DAG (seed 004 §2.3):
// send / recv / calc operations with `requires` (start after the predecessor completed) and
// `irequires` (start once the predecessor has started) edges.
//
// ARCHITECTURE.md: "Collectives are compiled into point-to-point operation graphs". A generator
// (mpi/coll/dissemination.hpp, binomial.hpp, linear.hpp, reduce_scatter.hpp) appends the ops of
// ONE rank to a Fragment; the consumer decides what to do with them:
//   trace replay   FragmentRunner instantiates them in the OpPool and runs them (replay/ti_*)
//   GOAL export    print ops()/deps() as `lN: send ...` / `lX requires lY` lines
//   online mode    same as replay, from a fiber's collective call
// Generators know nothing about tags, contexts or the pool: the consumer stamps those.
//
// Closing (Schedgen's finish_coll, seed 004 §2.5, research notes B.5): close(d) appends one calc
// of duration d that `requires` every op that is nobody's `requires` predecessor (Schedgen's "end"
// set), so the collective completes on this rank when all of this rank's ops in it have completed.
// An `irequires` successor does not count: it may complete before its predecessor does (a send
// whose receive irequires it, a recv that the next posted recv irequires). Schedgen
// uses d = 0; replay passes the reduction's compute time (SimGrid's private_execute_flops).
//
// Example: dissemination on 4 ranks, rank 0, 8 bytes (ops in generation order):
//   0: send 8b to 1    1: recv 8b from 3    2: send 8b to 2    3: recv 8b from 2    4: calc 0
//   2 requires 1       4 requires 2, 3
// Op 0 (send_0) is nobody's predecessor either, so close() adds "4 requires 0" too.
//
// Data (for the checker, mpi/coll/check.hpp): a collective's buffer is cut into `segments()`
// numbered segments whose numbers name the data, not where a rank stores it (the layout of
// mpi/coll/check.hpp: P blocks for a gather, P*P for an alltoall, k chunks for a pipelined
// bcast...). A send lists the segments it carries (their value at the sender when the send
// starts); its recv lists the same segments and how they merge into the receiver's: kReplace (a
// copy, as in bcast/gather) or kReduce (combined with the receiver's own value). Synchronisation
// messages (barrier, handshakes) list none. Lists are only recorded while track_data(true) (the
// checker); replay leaves it off and pays nothing for them.
//
// Memory: 24 B per op, 12 B per edge, 4 B per listed segment when tracking; a Fragment is a scratch buffer reused for every collective
// (clear() keeps the capacity), so generating costs no allocation once it has grown.
// Thread-safety: none (one per simulation thread).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/sim_time.hpp"
#include "mpi/op.hpp"

namespace simfab::coll {

// A run of segments of the collective's buffer: [first, first + count).
struct Segs {
  uint32_t first = 0;
  uint32_t count = 0;
};
enum class Combine : uint8_t { kReplace, kReduce };

struct FragOp {
  uint64_t amount = 0;  // bytes (send, recv) or picoseconds (calc)
  int32_t peer = 0;     // destination (send) or source (recv) rank; 0 for calc
  OpKind kind = OpKind::kCalc;
  Combine combine = Combine::kReplace;  // recv: how the segments merge into the receiver's
  uint32_t data_begin = 0;              // send/recv: its segment list in data() (tracking only)
  uint32_t data_count = 0;
};

struct FragDep {
  uint32_t pred = 0;
  uint32_t succ = 0;
  bool immediate = false;  // irequires: succ may start once pred has started
};

class Fragment {
 public:
  void clear() {
    ops_.clear();
    deps_.clear();
    data_.clear();
  }

  // Data tracking (off by default; survives clear()).
  void track_data(bool on) { tracking_ = on; }
  bool tracking() const { return tracking_; }

  // Each returns the new op's index in this fragment. `segs`/`ids`: the data moved (tracking).
  uint32_t send(RankId to, Bytes bytes, Segs segs = {}) { return add(to, bytes, OpKind::kSend, Combine::kReplace, segs); }
  uint32_t send(RankId to, Bytes bytes, std::span<const uint32_t> ids) {
    return add(to, bytes, OpKind::kSend, Combine::kReplace, ids);
  }
  uint32_t recv(RankId from, Bytes bytes, Segs segs = {}, Combine combine = Combine::kReplace) {
    return add(from, bytes, OpKind::kRecv, combine, segs);
  }
  uint32_t recv(RankId from, Bytes bytes, std::span<const uint32_t> ids, Combine combine = Combine::kReplace) {
    return add(from, bytes, OpKind::kRecv, combine, ids);
  }
  uint32_t calc(SimTime duration) {
    return add(FragOp{static_cast<uint64_t>(duration.ps()), 0, OpKind::kCalc, Combine::kReplace, 0, 0});
  }
  // The segments op `i` moves (empty unless tracking).
  std::span<const uint32_t> data(uint32_t i) const {
    return std::span<const uint32_t>(data_).subspan(ops_[i].data_begin, ops_[i].data_count);
  }

  // GOAL `succ requires pred`. REQUIRES: both ops exist and the edges stay acyclic.
  void require(uint32_t succ, uint32_t pred) { deps_.push_back(FragDep{pred, succ, false}); }
  // GOAL `succ irequires pred`.
  void irequire(uint32_t succ, uint32_t pred) { deps_.push_back(FragDep{pred, succ, true}); }

  // The ops in [begin, end) that no `requires` edge names as predecessor (Schedgen's "end" set),
  // in index order. The span points into a scratch buffer valid until the next call. O(ops + edges).
  std::span<const uint32_t> end_ops(uint32_t begin, uint32_t end);

  // Appends a calc of `duration` that requires every end op; returns its index. Call once, last.
  uint32_t close(SimTime duration);

  uint32_t size() const { return static_cast<uint32_t>(ops_.size()); }
  std::span<const FragOp> ops() const { return ops_; }
  std::span<const FragDep> deps() const { return deps_; }
  const FragOp& op(uint32_t i) const { return ops_[i]; }

  // Counts, for tests and statistics.
  uint32_t count(OpKind kind) const;
  Bytes bytes(OpKind kind) const;

 private:
  uint32_t add(FragOp op) {
    ops_.push_back(op);
    return static_cast<uint32_t>(ops_.size() - 1);
  }
  uint32_t add(RankId peer, Bytes bytes, OpKind kind, Combine combine, Segs segs) {
    const uint32_t begin = static_cast<uint32_t>(data_.size());
    if (tracking_)
      for (uint32_t s = 0; s < segs.count; ++s) data_.push_back(segs.first + s);
    return add(FragOp{bytes, peer, kind, combine, begin, tracking_ ? segs.count : 0});
  }
  uint32_t add(RankId peer, Bytes bytes, OpKind kind, Combine combine, std::span<const uint32_t> ids) {
    const uint32_t begin = static_cast<uint32_t>(data_.size());
    if (tracking_) data_.insert(data_.end(), ids.begin(), ids.end());
    return add(FragOp{bytes, peer, kind, combine, begin, tracking_ ? static_cast<uint32_t>(ids.size()) : 0});
  }

  std::vector<FragOp> ops_;
  std::vector<FragDep> deps_;
  std::vector<uint32_t> data_;
  bool tracking_ = false;
  std::vector<uint32_t> ends_;   // scratch for end_ops()
  std::vector<uint8_t> marked_;  // scratch for end_ops()
};

}  // namespace simfab::coll
