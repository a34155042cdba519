#include "noise/detour_trace.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace simfab::noise {

DetourTrace::DetourTrace(std::vector<Detour> detours, int64_t period_ps)
    : detours_(std::move(detours)), period_(period_ps) {
  SIMFAB_CHECK(!detours_.empty(), "DetourTrace: no detour");
  starts_.reserve(detours_.size() + 1);
  cum_.reserve(detours_.size() + 1);
  cum_.push_back(0);
  int64_t end = 0;
  for (const Detour& d : detours_) {
    SIMFAB_CHECK(d.start_ps >= end && d.duration_ps > 0, "DetourTrace: detours unsorted, overlapping or empty");
    end = d.start_ps + d.duration_ps;
    starts_.push_back(d.start_ps);
    cum_.push_back(cum_.back() + d.duration_ps);
  }
  SIMFAB_CHECK(end <= period_ && cum_.back() < period_, "DetourTrace: the detours do not fit the period");
  starts_.push_back(period_);
}

size_t DetourTrace::starts_below(int64_t x) const {
  return static_cast<size_t>(std::lower_bound(starts_.begin(), starts_.end() - 1, x) - starts_.begin());
}

int64_t DetourTrace::remainder(int64_t u) const {
  const size_t j = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end() - 1, u) - starts_.begin());
  if (j == 0) return 0;
  const Detour& d = detours_[j - 1];
  return u < d.start_ps + d.duration_ps ? d.start_ps + d.duration_ps - u : 0;
}

DetourSum DetourTrace::starts_before(__int128 x) const {
  const __int128 k = x / period_;
  const size_t i = starts_below(static_cast<int64_t>(x % period_));
  return {k * static_cast<__int128>(detours_.size()) + static_cast<__int128>(i),
          k * cum_.back() + cum_[i]};
}

int64_t DetourTrace::free_time(int64_t u) const {
  const size_t j = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end() - 1, u) - starts_.begin());
  if (j > 0 && remainder(u) > 0) return starts_[j - 1] - cum_[j - 1];
  return u - cum_[j];
}

__int128 DetourTrace::free_end(int64_t u, int64_t c) const {
  const int64_t phi = period_ - cum_.back();
  const __int128 target = static_cast<__int128>(free_time(u)) + c;
  const __int128 k = (target - 1) / phi;
  const int64_t r = static_cast<int64_t>(target - k * phi);
  // The smallest j with Fs_j = s_j - cum_j >= r (Fs is non-decreasing; Fs_n = phi >= r).
  size_t lo = 0, hi = detours_.size();
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (starts_[mid] - cum_[mid] >= r) hi = mid;
    else lo = mid + 1;
  }
  const int64_t fs = starts_[lo] - cum_[lo];
  return k * period_ + starts_[lo] - (fs - r);
}

}  // namespace simfab::noise
