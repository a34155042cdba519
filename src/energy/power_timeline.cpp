#include "energy/power_timeline.hpp"

#include <algorithm>

namespace simfab::energy {
namespace {

constexpr double kJoulesPerWattPs = 1e-12;

// Bins [0, used) of b at width w, as mean watts over each bin's part within [0, end).
PowerSeries series_of(std::string name, RateBins b, int64_t width, SimTime end) {
  b.coarsen_to(width);
  PowerSeries s{std::move(name), 0, {}};
  const size_t used = static_cast<size_t>((end.ps() + width - 1) / width);
  for (size_t i = 0; i < used; ++i) {
    const int64_t len = std::min(width, end.ps() - static_cast<int64_t>(i) * width);
    s.energy_j += b.integral(i) * kJoulesPerWattPs;
    s.watts.push_back(b.integral(i) / static_cast<double>(len));
  }
  return s;
}

}  // namespace

RateBins* PowerTimeline::host_bins(HostId h) {
  if (static_cast<size_t>(h) >= slot_.size()) slot_.resize(static_cast<size_t>(h) + 1, -1);
  int32_t& s = slot_[static_cast<size_t>(h)];
  if (s < 0) {
    if (hosts_.size() >= kMaxHosts) return nullptr;
    s = static_cast<int32_t>(hosts_.size());
    hosts_.emplace_back(1, kBins);
    host_of_.push_back(h);
  }
  return &hosts_[static_cast<size_t>(s)];
}

void PowerTimeline::add(HostId h, SimTime from, SimTime to, double watts) {
  if (to <= from || watts == 0) return;
  total_.add(from, to, watts);
  if (RateBins* b = host_bins(h)) b->add(from, to, watts);
}

void PowerTimeline::add_at(HostId h, SimTime t, double joules) {
  if (joules == 0) return;
  total_.add_at(t, joules / kJoulesPerWattPs);
  if (RateBins* b = host_bins(h)) b->add_at(t, joules / kJoulesPerWattPs);
}

void PowerTimeline::add_energy(HostId h, SimTime from, SimTime to, double joules) {
  if (to <= from) add_at(h, from, joules);
  else add(h, from, to, joules / (to - from).seconds());
}

PowerPlot PowerTimeline::plot(const Platform& platform, size_t count, SimTime end) const {
  RateBins span(1, kBins);
  span.cover(end);
  int64_t width = std::max(span.width(), total_.width());
  for (const RateBins& b : hosts_) width = std::max(width, b.width());
  PowerPlot p;
  p.bin = SimTime::ps(width);
  p.end = end;
  p.total = series_of("total", total_, width, end);
  std::vector<PowerSeries> all;
  for (size_t i = 0; i < hosts_.size(); ++i) all.push_back(series_of(platform.host(host_of_[i]).name, hosts_[i], width, end));
  std::vector<size_t> order(all.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Platform order first, then the most energy first (stable: ties keep platform order).
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return host_of_[a] < host_of_[b]; });
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return all[a].energy_j > all[b].energy_j; });
  if (order.size() > count) order.resize(count);
  for (size_t i : order) p.hosts.push_back(std::move(all[i]));
  return p;
}

}  // namespace simfab::energy
