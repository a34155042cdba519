// QueueTimeline: a port's buffer occupancy over time, as its mean per bin, in bounded memory.
//
// The packet model calls add(from, to, bytes) for every interval of constant occupancy: a
// RateBins (core/rate_bins.hpp) of the occupancy, whose integral is in byte-picoseconds and whose
// mean(i) = integral(i) / w is the mean occupancy of bin i. kBins bins from kFirstBin ps (about
// 1 us), doubling as the run grows; two timelines are put on one width with coarsen_to(w).
#pragma once

#include <cstdint>

#include "core/rate_bins.hpp"

namespace simfab::packet {

class QueueTimeline : public RateBins {
 public:
  static constexpr int64_t kFirstBin = 1 << 20;  // ps
  static constexpr size_t kBins = 128;

  QueueTimeline() : RateBins(kFirstBin, kBins) {}
};

}  // namespace simfab::packet
