#include "report/link_traffic.hpp"

#include <algorithm>
#include <numeric>

namespace simfab {

double link_utilisation(double bytes, double bandwidth_Bps, SimTime makespan) {
  const double capacity = bandwidth_Bps * makespan.seconds();
  return capacity > 0 ? bytes / capacity : 0;
}

void LinkTraffic::start(const Platform* platform) {
  platform_ = platform;
  routes_ = RouteCache{};
  index_.assign(platform ? platform->links().size() : 0, -1);
  links_.clear();
  timeline_ = LinkTimeline(timeline_.bins());
}

void LinkTraffic::add(HostId src, HostId dst, const MessageRecord& m) {
  if (!platform_) return;
  for (LinkId l : routes_.route(*platform_, src, dst)) {
    int32_t& i = index_[static_cast<size_t>(l)];
    if (i < 0) {
      i = static_cast<int32_t>(links_.size());
      const Link& k = platform_->link(l);
      links_.push_back({l, k.name, k.bandwidth_Bps, 0, links_.size() < kTimelineLinks});
    }
    Carried& link = links_[static_cast<size_t>(i)];
    link.bytes += m.bytes;
    if (link.timeline) timeline_.add(static_cast<size_t>(i), m.bytes, m.sent, max(m.sent, m.arrived));
  }
}

std::vector<LinkRow> LinkTraffic::rows(SimTime makespan) const {
  std::vector<const Carried*> order;
  for (const Carried& l : links_) order.push_back(&l);
  std::sort(order.begin(), order.end(), [](const Carried* a, const Carried* b) { return a->id < b->id; });
  std::vector<LinkRow> out;
  for (const Carried* l : order)
    out.push_back({l->name, l->bandwidth_Bps, l->bytes, std::nullopt,
                   link_utilisation(static_cast<double>(l->bytes), l->bandwidth_Bps, makespan)});
  return out;
}

SimTime LinkTraffic::bin_width(SimTime makespan) {
  timeline_.cover(makespan);
  return timeline_.bin_width();
}

std::vector<TimelineSeries> LinkTraffic::busiest(SimTime makespan) {
  timeline_.cover(makespan);
  std::vector<size_t> order;
  for (size_t i = 0; i < links_.size(); ++i)
    if (links_[i].timeline) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Carried &x = links_[a], &y = links_[b];
    return x.bytes != y.bytes ? x.bytes > y.bytes : x.id < y.id;
  });
  if (order.size() > kPlottedLinks) order.resize(kPlottedLinks);
  std::vector<TimelineSeries> out;
  for (size_t i : order) {
    const std::vector<uint64_t> bins = timeline_.series(i);
    TimelineSeries t{links_[i].name, {}, false};
    t.bytes.assign(bins.begin(), bins.begin() + timeline_.used_bins());
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace simfab
