#include "platform/platform.hpp"

#include <algorithm>
#include <limits>

#include "core/error.hpp"

namespace simfab {

Platform Platform::ideal(int n) {
  Platform p;
  p.ideal_ = true;
  p.source_ = "<ideal>";
  p.hosts_.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    p.hosts_.push_back(Host{"ideal" + std::to_string(i), 1, std::numeric_limits<double>::infinity(), -1, -1});
  return p;
}

HostId Platform::add_host(Host h) {
  SIMFAB_CHECK(!host_index_.count(h.name), "duplicate host " + h.name);
  HostId id = static_cast<HostId>(hosts_.size());
  host_index_.emplace(h.name, id);
  hosts_.push_back(std::move(h));
  return id;
}

LinkId Platform::add_link(Link l) {
  SIMFAB_CHECK(!link_index_.count(l.name), "duplicate link " + l.name);
  LinkId id = static_cast<LinkId>(links_.size());
  link_index_.emplace(l.name, id);
  links_.push_back(std::move(l));
  return id;
}

int Platform::add_cluster(Cluster c) {
  clusters_.push_back(std::move(c));
  return static_cast<int>(clusters_.size()) - 1;
}

void Platform::add_route(HostId a, HostId b, std::vector<LinkId> links, bool one_way) {
  if (!one_way) {
    std::vector<LinkId> back(links.rbegin(), links.rend());
    routes_[{b, a}] = std::move(back);
  }
  routes_[{a, b}] = std::move(links);
}

std::optional<HostId> Platform::find_host(const std::string& name) const {
  auto it = host_index_.find(name);
  if (it == host_index_.end()) return std::nullopt;
  return it->second;
}

std::optional<LinkId> Platform::find_link(const std::string& name) const {
  auto it = link_index_.find(name);
  if (it == link_index_.end()) return std::nullopt;
  return it->second;
}

template <class Fn>
bool Platform::for_each_route_link(HostId a, HostId b, Fn&& fn) const {
  if (a == b) return true;
  auto it = routes_.find({a, b});
  if (it != routes_.end()) {
    for (LinkId l : it->second) fn(l);
    return true;
  }
  const Host& ha = host(a);
  const Host& hb = host(b);
  if (ha.cluster < 0 || ha.cluster != hb.cluster) return false;
  fn(ha.private_link);
  if (LinkId bb = clusters_[static_cast<size_t>(ha.cluster)].backbone; bb >= 0) fn(bb);
  fn(hb.private_link);
  return true;
}

std::optional<std::vector<LinkId>> Platform::route(HostId a, HostId b) const {
  std::vector<LinkId> r;
  if (!for_each_route_link(a, b, [&](LinkId l) { r.push_back(l); })) return std::nullopt;
  return r;
}

std::optional<Platform::RouteSummary> Platform::route_summary(HostId a, HostId b) const {
  RouteSummary s{SimTime::zero(), std::numeric_limits<double>::infinity()};
  const bool found = for_each_route_link(a, b, [&](LinkId l) {
    s.latency = saturating_add(s.latency, link(l).latency);
    s.bandwidth_Bps = std::min(s.bandwidth_Bps, link(l).bandwidth_Bps);
  });
  if (!found) return std::nullopt;
  return s;
}

}  // namespace simfab
