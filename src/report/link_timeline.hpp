// LinkTimeline: bytes per time bin for a set of series (links), for utilisation-over-time plots.
//
// Bins. A fixed count B (even; 200 by default) of bins of equal width w cover [0, B * w). w starts
// at 1 ps and doubles whenever a message ends past the span: adjacent bin pairs merge (bin i of
// the new width = bins 2i and 2i+1 of the old one), so memory stays B counters per series and
// w ends as the smallest power of two (in ps) with B * w >= the latest end seen (or the makespan,
// cover()'d at the end of a run).
//
// Spreading. A message of s bytes crossing a link during [a, e) puts
//     cum(t) = floor(s * (t - a) / (e - a))      bytes before time t, for t in [a, e]
// into the bins: bin [lo, hi) gets cum(min(hi, e)) - cum(max(lo, a)) (integers: the bins of one
// message sum to s exactly). A message with e = a puts its s bytes into the bin holding a.
// Because a bin's share depends only on cum at the bin's two edges, a merged bin holds exactly
// what the coarser bin would have got directly: the result does not depend on when the doublings
// happened or on the order messages arrive in (deterministic, and checked by the unit tests).
//
// Cost: O(bins the message covers) per (message, series), at most B; a doubling is O(B) per
// series, at most 63 doublings in a run.
#pragma once

#include <cstdint>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab {

class LinkTimeline {
 public:
  static constexpr int kDefaultBins = 200;
  // REQUIRES: bins >= 2 and even.
  explicit LinkTimeline(int bins = kDefaultBins);

  // Spreads `bytes` over [sent, arrived) on series `series` (created, all zeros, on first use).
  // REQUIRES: 0 <= sent <= arrived.
  void add(size_t series, uint64_t bytes, SimTime sent, SimTime arrived);
  // Widens the bins (doubling) until they cover [0, t).
  void cover(SimTime t);

  int bins() const { return bins_; }
  SimTime bin_width() const { return SimTime::ps(width_ps_); }
  // Bins before this one may hold bytes: ceil(latest end covered / width), at most bins().
  int used_bins() const;
  size_t series_count() const { return series_.size(); }
  // All bins() counters of a series (zeros if it never got bytes).
  std::vector<uint64_t> series(size_t s) const;

 private:
  void double_width();

  int bins_;
  int64_t width_ps_ = 1;
  int64_t end_ps_ = 0;  // the latest end cover()'d so far
  std::vector<std::vector<uint64_t>> series_;
};

}  // namespace simfab
