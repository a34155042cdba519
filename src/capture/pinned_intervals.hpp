// PinnedIntervals: the buffer bytes a rank has already handed to MPI, for memory-pinning
// compensation (seed 004 §2.5 extension 1 and §4.4; the thesis's Appendix F, reimplemented from
// its semantics, not its code: Appendix F erases set elements and then increments the erased
// iterator).
//
// An RDMA network pins (registers) a user buffer the first time MPI transfers from or into it;
// later transfers of the same bytes are free. `simfab convert --pinning A,B` charges A + B*n µs
// before a transfer whose buffer brings n bytes not seen before.
//
// The set holds disjoint closed intervals [start, end] (byte addresses). insert(start, end) adds
// [start, end] and returns how many bytes of it no stored interval covered (end - start minus the
// lengths of its overlaps). Overlap is CLOSED: [a, b] and [c, d] overlap when c <= b && d >= a, so
// intervals that merely touch merge too, and a new interval may merge a chain of stored ones.
// Worked example (seed 004 §6 test 8), with the set after each call:
//   insert(0, 100)   -> 100   {[0,100]}
//   insert(50, 150)  ->  50   {[0,150]}
//   insert(0, 150)   ->   0   {[0,150]}
//   insert(200, 300) -> 100   {[0,150], [200,300]}
//   insert(140, 210) ->  50   {[0,300]}   (the 50 bytes (150, 200) were new; the chain merged)
//   flush(); insert(0, 10) -> 10
// Invariants: stored intervals are disjoint and separated by at least one byte address (touching
// ones are merged); each has start < end (an empty insert stores nothing and returns 0).
// Cost: O(log n + k) per insert, k = intervals merged (amortised O(log n): each interval is merged
// away at most once). Memory: one map node per stored interval. Thread-safety: none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

namespace simfab {

class PinnedIntervals {
 public:
  // REQUIRES: start <= end.
  uint64_t insert(uint64_t start, uint64_t end);
  // Forgets every interval (Appendix F's pin_flush).
  void flush() { by_start_.clear(); }
  size_t size() const { return by_start_.size(); }

 private:
  std::map<uint64_t, uint64_t> by_start_;  // start -> end
};

}  // namespace simfab
