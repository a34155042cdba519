// RateBins: the integral over time of a piecewise-constant value, per time bin, in bounded memory.
//
// add(from, to, v) says the value was v over [from, to); bin i, covering [i * w, (i + 1) * w),
// accumulates
//     integral(i) = sum over the adds of v * |[from, to) ∩ [i * w, (i + 1) * w)|   (ps)
// so a rate in bytes per ps integrates to bytes, an occupancy in bytes to byte-picoseconds. An
// amount at one instant (add_at) goes whole into the bin holding it.
//
// Bins. A fixed count B (even) of bins of width w, w = w0 x 2^k: when an add ends beyond B x w,
// adjacent bins merge pairwise (bin i of the new width = bins 2i and 2i + 1 of the old) and w
// doubles. A merged bin holds exactly the sum the coarser bin would have got directly, up to the
// order of floating-point additions, which is fixed by the order of the adds: the result is
// deterministic for a deterministic caller.
//
// Invariant: sum over i of integral(i) = sum over the adds of v * (to - from) (+ the add_at
// amounts), every add lying inside [0, B x w).
// Cost: O(1 + bins crossed) per add, at most B; a doubling is O(B). Memory: B doubles, allocated
// on the first add. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab {

class RateBins {
 public:
  // REQUIRES: first_width_ps is a power of two; bins >= 2 and even.
  RateBins(int64_t first_width_ps, size_t bins);

  // The value was `value` over [from, to); nothing when to <= from or value == 0.
  // REQUIRES: 0 <= from.
  void add(SimTime from, SimTime to, double value);
  // `amount` at the instant t, into the bin holding t. REQUIRES: 0 <= t.
  void add_at(SimTime t, double amount);
  // Widens the bins (doubling) until they cover [0, t).
  void cover(SimTime t);
  // Widens the bins to `width`. REQUIRES: width = width() x a power of two.
  void coarsen_to(int64_t width);

  int64_t width() const { return width_; }
  size_t bins() const { return bins_; }
  double integral(size_t i) const { return i < sums_.size() ? sums_[i] : 0.0; }
  double mean(size_t i) const { return integral(i) / static_cast<double>(width_); }

 private:
  void coarsen();
  void allocate();

  size_t bins_;
  int64_t width_;
  int shift_ = 0;  // log2(width_): bins by shifts, not divisions
  std::vector<double> sums_;
};

}  // namespace simfab
