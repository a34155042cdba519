#include "net/link_bytes_timeline.hpp"

#include "core/error.hpp"

namespace simfab {

void LinkBytesTimeline::add(size_t key, double bytes, SimTime from, SimTime to) {
  SIMFAB_CHECK(from <= to && bytes >= 0, "LinkBytesTimeline: a span ends before it starts");
  if (bytes == 0) return;
  if (key >= index_.size()) index_.resize(key + 1, -1);
  int32_t& i = index_[key];
  if (i < 0) {
    if (kept_.size() >= kMaxLinks) return;
    i = static_cast<int32_t>(kept_.size());
    kept_.push_back(CarriedSeries{{}, 0, false, 0, RateBins(1, kBins)});
  }
  CarriedSeries& s = kept_[static_cast<size_t>(i)];
  s.bytes += bytes;
  if (to == from) s.bins.add_at(from, bytes);
  else s.bins.add(from, to, bytes / static_cast<double>((to - from).ps()));
}

}  // namespace simfab
