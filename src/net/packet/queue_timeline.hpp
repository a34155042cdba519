// QueueTimeline: a port's buffer occupancy over time, as its mean per bin, in bounded memory.
//
// The packet model calls add(from, to, bytes) for every interval of constant occupancy. The
// integral (byte-picoseconds) goes into bins of width w, starting at kFirstBin; when an interval
// ends beyond kBins x w, adjacent bins are merged pairwise and w doubles, so a run of any length
// keeps at most kBins bins, each w wide, w = kFirstBin x 2^k. mean(i) = integral(i) / w.
// Two timelines are put on one width with coarsen_to(w) (w a power-of-two multiple of theirs).
// Complexity: O(1 + bins crossed) per add, amortised; memory kBins doubles once used.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab::packet {

class QueueTimeline {
 public:
  static constexpr int64_t kFirstBin = 1 << 20;  // ps (about 1 us); shift_ below is its log2
  static constexpr size_t kBins = 128;

  void add(SimTime from, SimTime to, double bytes) {
    if (to <= from || bytes == 0) return;
    while (to.ps() > width_ * static_cast<int64_t>(kBins)) coarsen();
    if (bins_.empty()) bins_.assign(kBins, 0.0);
    int64_t t = from.ps();
    while (t < to.ps()) {  // the width is a power of two: bins by shifts, not divisions
      const int64_t bin = t >> shift_;
      const int64_t end = std::min(to.ps(), (bin + 1) << shift_);
      bins_[static_cast<size_t>(bin)] += bytes * static_cast<double>(end - t);
      t = end;
    }
  }
  void coarsen_to(int64_t width) {
    while (width_ < width) coarsen();
  }
  int64_t width() const { return width_; }
  // Mean occupancy (bytes) of bin i, for i < kBins.
  double mean(size_t i) const { return i < bins_.size() ? bins_[i] / static_cast<double>(width_) : 0.0; }

 private:
  void coarsen() {
    for (size_t i = 0; i < bins_.size() / 2; ++i) bins_[i] = bins_[2 * i] + bins_[2 * i + 1];
    std::fill(bins_.begin() + static_cast<std::ptrdiff_t>(bins_.size() / 2), bins_.end(), 0.0);
    width_ *= 2;
    ++shift_;
  }

  int64_t width_ = kFirstBin;
  int shift_ = 20;  // log2(width_)
  std::vector<double> bins_;
};

}  // namespace simfab::packet
