#include "core/rate_bins.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace simfab {

RateBins::RateBins(int64_t first_width_ps, size_t bins) : bins_(bins), width_(first_width_ps) {
  SIMFAB_CHECK(first_width_ps > 0 && (first_width_ps & (first_width_ps - 1)) == 0,
               "RateBins: the first bin width must be a power of two");
  SIMFAB_CHECK(bins >= 2 && bins % 2 == 0, "RateBins: the bin count must be even and >= 2");
  while ((int64_t{1} << shift_) < width_) ++shift_;
}

void RateBins::coarsen() {
  for (size_t i = 0; i < sums_.size() / 2; ++i) sums_[i] = sums_[2 * i] + sums_[2 * i + 1];
  std::fill(sums_.begin() + static_cast<std::ptrdiff_t>(sums_.size() / 2), sums_.end(), 0.0);
  width_ *= 2;
  ++shift_;
}

void RateBins::allocate() {
  if (sums_.empty()) sums_.assign(bins_, 0.0);
}

void RateBins::cover(SimTime t) {
  while (static_cast<__int128>(width_) * static_cast<int64_t>(bins_) < t.ps()) coarsen();
}

void RateBins::coarsen_to(int64_t width) {
  while (width_ < width) coarsen();
}

void RateBins::add(SimTime from, SimTime to, double value) {
  if (to <= from || value == 0) return;
  cover(to);
  allocate();
  int64_t t = from.ps();
  while (t < to.ps()) {
    const int64_t bin = t >> shift_;
    const int64_t end = std::min(to.ps(), (bin + 1) << shift_);
    sums_[static_cast<size_t>(bin)] += value * static_cast<double>(end - t);
    t = end;
  }
}

void RateBins::add_at(SimTime t, double amount) {
  if (amount == 0) return;
  cover(SimTime::ps(t.ps() + 1));
  allocate();
  sums_[static_cast<size_t>(t.ps() >> shift_)] += amount;
}

}  // namespace simfab
