// PinnedIntervals: a closed-interval union that reports newly covered bytes (see the header).
#include "capture/pinned_intervals.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace simfab {

uint64_t PinnedIntervals::insert(uint64_t start, uint64_t end) {
  SIMFAB_CHECK(start <= end, "PinnedIntervals::insert: start after end");
  if (start == end) return 0;
  // The first stored interval that may overlap: the last one starting at or before `start` (it
  // overlaps if it ends at or after `start`), else the first one starting after it.
  auto it = by_start_.upper_bound(start);
  if (it != by_start_.begin()) {
    auto before = std::prev(it);
    if (before->second >= start) it = before;
  }
  uint64_t covered = 0;
  uint64_t lo = start, hi = end;
  while (it != by_start_.end() && it->first <= end) {
    const uint64_t a = it->first, b = it->second;
    covered += std::min(b, end) - std::max(a, start);  // closed overlap: may be 0 when touching
    lo = std::min(lo, a);
    hi = std::max(hi, b);
    it = by_start_.erase(it);
  }
  by_start_.emplace(lo, hi);
  return (end - start) - covered;
}

}  // namespace simfab
