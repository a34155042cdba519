#include "report/link_timeline.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace simfab {

LinkTimeline::LinkTimeline(int bins) : bins_(bins) {
  SIMFAB_CHECK(bins >= 2 && bins % 2 == 0, "LinkTimeline: the bin count must be even and >= 2");
}

void LinkTimeline::double_width() {
  for (std::vector<uint64_t>& b : series_) {
    const size_t half = b.size() / 2;
    for (size_t i = 0; i < half; ++i) b[i] = b[2 * i] + b[2 * i + 1];
    std::fill(b.begin() + static_cast<std::ptrdiff_t>(half), b.end(), uint64_t{0});
  }
  width_ps_ *= 2;
}

void LinkTimeline::cover(SimTime t) {
  while (static_cast<__int128>(width_ps_) * bins_ < t.ps()) double_width();
  end_ps_ = std::max(end_ps_, t.ps());
}

void LinkTimeline::add(size_t series, uint64_t bytes, SimTime sent, SimTime arrived) {
  const int64_t a = sent.ps(), e = arrived.ps();
  cover(SimTime::ps(std::max(e, a + 1)));  // a zero-length message needs the bin holding a
  if (series >= series_.size()) series_.resize(series + 1);
  std::vector<uint64_t>& b = series_[series];
  if (b.empty()) b.assign(static_cast<size_t>(bins_), 0);
  if (e == a) {
    b[static_cast<size_t>(a / width_ps_)] += bytes;
    return;
  }
  // cum(t) = floor(bytes * (t - a) / (e - a)), exact in 128 bits.
  const auto cum = [&](int64_t t) {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(bytes) * static_cast<uint64_t>(t - a) /
                                 static_cast<uint64_t>(e - a));
  };
  const int64_t first = a / width_ps_, last = (e - 1) / width_ps_;
  for (int64_t i = first; i <= last; ++i) {
    const int64_t lo = std::max(a, i * width_ps_), hi = std::min(e, (i + 1) * width_ps_);
    b[static_cast<size_t>(i)] += cum(hi) - cum(lo);
  }
}

int LinkTimeline::used_bins() const {
  return static_cast<int>(std::min<int64_t>(bins_, (end_ps_ + width_ps_ - 1) / width_ps_));
}

std::vector<uint64_t> LinkTimeline::series(size_t s) const {
  if (s < series_.size() && !series_[s].empty()) return series_[s];
  return std::vector<uint64_t>(static_cast<size_t>(bins_), 0);
}

}  // namespace simfab
