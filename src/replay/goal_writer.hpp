// GoalWriter: writes GOAL text (the grammar of replay/goal_schedule.hpp, which is LogGOPSim's)
// one rank block at a time, as the ops are produced, so a writer holds nothing per op: exporting
// a trace of any length costs O(1) memory here (the exporter's own state aside).
//
// Output, for a 2-rank ping-pong (every line ends with '\n', no indentation, no comments):
//   num_ranks 2
//   rank 0 {
//   l1: send 8b to 1 tag 0
//   l2: recv 8b from 1 tag 0
//   l2 requires l1
//   }
//   rank 1 { ... }
// Labels are `l1`, `l2`, ... numbered from 1 in each block in the order the ops are written. A
// dependency line is written when it is added, so it always names ops already written (readers
// that resolve labels as they go, not at the block's end, can read it).
//
// Invariants (SIMFAB_CHECK, a caller bug otherwise): blocks come in rank order 0 .. num_ranks-1,
// each exactly once, before finish(); a dependency links two distinct ops already written in the
// open block. REQUIRES (not checked: the caller's graphs are acyclic by construction): no cycle.
// The text depends only on the calls, so equal calls give byte-identical files.
// Cost: O(length of the text); the text goes to the stream in chunks of about kChunkBytes.
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "mpi/op.hpp"

namespace simfab {

// A label of the open block: 1 for its first op.
using GoalLabel = uint64_t;

class GoalWriter {
 public:
  static constexpr size_t kChunkBytes = size_t{1} << 16;

  // Writes "num_ranks N". REQUIRES: num_ranks >= 1.
  GoalWriter(std::ostream& out, int num_ranks);
  GoalWriter(const GoalWriter&) = delete;
  GoalWriter& operator=(const GoalWriter&) = delete;

  // Opens the block of the next rank; returns its number.
  RankId begin_rank();
  GoalLabel calc(uint64_t ps);
  GoalLabel send(Bytes bytes, RankId to, int32_t tag);
  // `from` may be kAnySource and `tag` kAnyTag (each written `any`).
  GoalLabel recv(Bytes bytes, RankId from, int32_t tag);
  // `succ requires pred` (after pred completed) or, if immediate, `succ irequires pred` (after
  // pred started).
  void depend(GoalLabel succ, GoalLabel pred, bool immediate);
  void end_rank();
  // Flushes the text. REQUIRES: every rank's block was written.
  void finish();

  GoalLabel ops_in_block() const { return next_label_ - 1; }
  uint64_t ops_written() const { return ops_; }
  uint64_t dependencies_written() const { return deps_; }

 private:
  GoalLabel begin_op();
  void put(std::string_view s) { buf_.append(s); }
  void put(uint64_t v);
  void put_label(GoalLabel l);
  void end_line();

  std::ostream& out_;
  int num_ranks_;
  int rank_ = -1;         // the block open or last closed
  bool open_ = false;
  GoalLabel next_label_ = 1;
  uint64_t ops_ = 0;
  uint64_t deps_ = 0;
  std::string buf_;       // text not yet handed to out_
};

}  // namespace simfab
