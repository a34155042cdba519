// LinkBytesTimeline: the bytes each link actually carried, per time bin, from the models that
// know when bytes cross a link: the flow models (flow, smpi) and the packet model. It feeds the
// report's "Link utilisation over time" (report/run_stats.hpp), replacing, for those models, the
// route-derived spread of each message over [sent, arrived) (report/link_traffic.hpp), which is
// only the offered load: under max-min sharing a flow's rate changes during its life, so a
// uniform spread can put more bytes in a bin than the link can carry.
//
// Feeding. A model calls add(key, bytes, from, to) for every span over which a link carried
// `bytes` at a constant rate: the flow models for each constant-rate segment of each flow (rate x
// span on every link of its route, closed at each rate change and at completion), the packet
// model for each packet serialised on a port. Bin i of link l then holds
//     carried_l(i) = sum over the spans of bytes * |span ∩ bin i| / |span|
// (RateBins, core/rate_bins.hpp, with the span's rate in bytes per ps). Hence:
//   * the bins of a link sum to the bytes it carried (the model's LinkUsage::bytes);
//   * for a shared link under max-min sharing (sum of the rates <= bandwidth at every instant),
//     carried_l(i) <= bandwidth_l x bin width: utilisation never exceeds 100 %. The flow models'
//     exceptions are documented where they arise (flow_network.hpp: fatpipe links, smpi's
//     bandwidth factors above 1); a packet port serialises one packet at a time, so it never
//     exceeds its bandwidth. Utilisation is against the link's nominal bandwidth: a bandwidth
//     profile (platform/availability.hpp) that raises a link above it can show more than 100 %.
//
// Bounds: series for the first kMaxLinks keys that carried traffic (in traffic order: deterministic),
// each kBins doubles (RateBins), so at most kMaxLinks x kBins x 8 B = 6.5 MB; one int per key for
// the key -> series map. A later key gets no series, so it cannot be among the plotted links.
// Cost: O(1 + bins crossed) per add. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/sim_time.hpp"
#include "core/rate_bins.hpp"

namespace simfab {

// One link (or packet port) and what it carried, per bin.
struct CarriedSeries {
  std::string name;
  double bandwidth_Bps = 0;
  bool fatpipe = false;  // the bandwidth caps each flow, not their sum (can exceed 100 %)
  double bytes = 0;      // the sum of the bins
  RateBins bins{1, 2};
};

class LinkBytesTimeline {
 public:
  static constexpr size_t kMaxLinks = 4096;
  static constexpr size_t kBins = 200;

  // Link `key` (the model's index of a link or port) carried `bytes` at a constant rate over
  // [from, to), or all at `from` when to == from. REQUIRES: 0 <= from <= to, bytes >= 0.
  void add(size_t key, double bytes, SimTime from, SimTime to);

  // The kept series in key order, each named by describe(key, CarriedSeries&) (name, bandwidth,
  // fatpipe).
  template <class Describe>
  std::vector<CarriedSeries> series(Describe describe) const {
    std::vector<std::pair<size_t, const CarriedSeries*>> order;
    for (size_t k = 0; k < index_.size(); ++k)
      if (index_[k] >= 0) order.emplace_back(k, &kept_[static_cast<size_t>(index_[k])]);
    std::vector<CarriedSeries> out;
    for (const auto& [key, s] : order) {
      out.push_back(*s);
      describe(key, out.back());
    }
    return out;
  }

 private:
  std::vector<int32_t> index_;  // per key: index in kept_, or -1
  std::vector<CarriedSeries> kept_;
};

}  // namespace simfab
