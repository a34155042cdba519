#include "platform/platform.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "core/error.hpp"

namespace simfab {

Platform Platform::ideal(int n) {
  Platform p;
  p.ideal_ = true;
  p.source_ = "<ideal>";
  p.hosts_.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    p.hosts_.push_back(Host{"ideal" + std::to_string(i), 1, std::numeric_limits<double>::infinity()});
  return p;
}

HostId Platform::add_host(Host h) {
  auto known = [&](LinkId l) { return l >= -1 && l < static_cast<LinkId>(links_.size()); };
  SIMFAB_CHECK(known(h.up) && known(h.down) && known(h.limiter) && known(h.loopback),
               "host " + h.name + " names an unknown link");
  if (h.cluster >= 0) {
    SIMFAB_CHECK(static_cast<size_t>(h.cluster) < clusters_.size(), "host " + h.name + ": unknown cluster");
    SIMFAB_CHECK(h.up >= 0 && h.down >= 0, "cluster host " + h.name + " needs up and down links");
    const size_t cabinets = clusters_[static_cast<size_t>(h.cluster)].cabinets.size();
    const bool in_cabinet = h.cabinet >= 0 && static_cast<size_t>(h.cabinet) < cabinets;
    SIMFAB_CHECK(cabinets == 0 ? h.cabinet == -1 : in_cabinet, "host " + h.name + ": bad cabinet");
  }
  SIMFAB_CHECK(h.cpu_profile >= -1 && h.cpu_profile < cpu_profile_count(), "host " + h.name + " names an unknown CPU profile");
  HostId id = static_cast<HostId>(hosts_.size());
  SIMFAB_CHECK(host_index_.try_emplace(h.name, id).second, "duplicate host " + h.name);
  hosts_.push_back(std::move(h));
  return id;
}

LinkId Platform::add_link(Link l) {
  LinkId id = static_cast<LinkId>(links_.size());
  SIMFAB_CHECK(link_index_.try_emplace(l.name, id).second, "duplicate link " + l.name);
  links_.push_back(std::move(l));
  return id;
}

void Platform::set_twins(LinkId a, LinkId b) {
  Link& la = links_[static_cast<size_t>(a)];
  Link& lb = links_[static_cast<size_t>(b)];
  SIMFAB_CHECK(a != b && la.twin < 0 && lb.twin < 0, "links " + la.name + ", " + lb.name + " already paired");
  la.twin = b;
  lb.twin = a;
}

int Platform::add_cpu_profile(CpuProfile p) {
  SIMFAB_CHECK(check_cpu_profile(p).empty(), "an invalid CPU profile: " + check_cpu_profile(p));
  cpu_profiles_.push_back(std::move(p));
  return static_cast<int>(cpu_profiles_.size()) - 1;
}

void Platform::set_cpu_profile(HostId h, int profile) {
  SIMFAB_CHECK(h >= 0 && h < host_count(), "set_cpu_profile of an unknown host");
  SIMFAB_CHECK(profile >= 0 && profile < cpu_profile_count(), "set_cpu_profile with an unknown profile");
  const CpuProfile& p = cpu_profiles_[static_cast<size_t>(profile)];
  Host& host = hosts_[static_cast<size_t>(h)];
  host.cpu_profile = profile;
  host.speed_flops = p.speeds[static_cast<size_t>(p.initial_pstate)];
}

int Platform::intern_noise_class(const std::string& name) {
  auto it = std::find(noise_classes_.begin(), noise_classes_.end(), name);
  if (it == noise_classes_.end()) it = noise_classes_.insert(noise_classes_.end(), name);
  return static_cast<int>(it - noise_classes_.begin());
}

void Platform::set_noise_class(HostId h, const std::string& name) {
  SIMFAB_CHECK(h >= 0 && h < host_count(), "Platform::set_noise_class: no such host");
  hosts_[static_cast<size_t>(h)].noise_class = intern_noise_class(name);
}

std::string Platform::noise_class_name_error(std::string_view name) {
  if (name.empty()) return "a noise class needs a name";
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      return "a noise class name holds letters, digits, '_', '-' and '.' only (not '" + std::string(1, c) + "')";
  return "";
}

void Platform::set_link_power(LinkId l, double idle_w, double busy_w) {
  SIMFAB_CHECK(l >= 0 && l < static_cast<LinkId>(links_.size()), "set_link_power of an unknown link");
  SIMFAB_CHECK(check_link_power(idle_w, busy_w).empty(), "an invalid link power: " + check_link_power(idle_w, busy_w));
  for (LinkId k : {l, links_[static_cast<size_t>(l)].twin}) {
    if (k < 0) continue;
    links_[static_cast<size_t>(k)].idle_w = idle_w;
    links_[static_cast<size_t>(k)].busy_w = busy_w;
  }
}

void Platform::set_profile(ProfileKind kind, int32_t element, int a) {
  SIMFAB_CHECK(a >= -1 && a < availability_count(), "set_profile of an unknown profile");
  if (kind == ProfileKind::kSpeed || kind == ProfileKind::kHostState) {
    SIMFAB_CHECK(element >= 0 && element < host_count(), "set_profile of an unknown host");
    Host& h = hosts_[static_cast<size_t>(element)];
    (kind == ProfileKind::kSpeed ? h.speed_profile : h.state_profile) = a;
    return;
  }
  SIMFAB_CHECK(element >= 0 && element < static_cast<int32_t>(links_.size()), "set_profile of an unknown link");
  for (LinkId k : {element, links_[static_cast<size_t>(element)].twin}) {
    if (k < 0) continue;
    Link& l = links_[static_cast<size_t>(k)];
    (kind == ProfileKind::kBandwidth ? l.bandwidth_profile
                                     : kind == ProfileKind::kLatency ? l.latency_profile : l.state_profile) = a;
  }
}

double Platform::bandwidth_at(LinkId l, SimTime t) const {
  const Link& k = link(l);
  if (k.bandwidth_profile < 0) return k.bandwidth_Bps;
  return availability(k.bandwidth_profile).value_at(t).value_or(k.bandwidth_Bps);
}

SimTime Platform::latency_at(LinkId l, SimTime t) const {
  const Link& k = link(l);
  if (k.latency_profile < 0) return k.latency;
  const std::optional<double> v = availability(k.latency_profile).value_at(t);
  return v ? SimTime::from_seconds(*v) : k.latency;
}

bool Platform::has_profiles(ProfileKind kind) const {
  if (kind == ProfileKind::kSpeed || kind == ProfileKind::kHostState)
    return std::any_of(hosts_.begin(), hosts_.end(), [&](const Host& h) {
      return (kind == ProfileKind::kSpeed ? h.speed_profile : h.state_profile) >= 0;
    });
  return std::any_of(links_.begin(), links_.end(), [&](const Link& l) {
    return (kind == ProfileKind::kBandwidth ? l.bandwidth_profile
                                            : kind == ProfileKind::kLatency ? l.latency_profile : l.state_profile) >= 0;
  });
}

int Platform::add_cluster(Cluster c) {
  for (const Cabinet& k : c.cabinets)
    SIMFAB_CHECK(k.up >= 0 && k.down >= 0, "a cabinet of cluster " + c.name + " lacks its up or down link");
  clusters_.push_back(std::move(c));
  return static_cast<int>(clusters_.size()) - 1;
}

void Platform::add_route(HostId a, HostId b, std::vector<LinkId> links, bool one_way) {
  if (!one_way) routes_[{b, a}] = reversed_route(links);
  routes_[{a, b}] = std::move(links);
}

std::vector<LinkId> Platform::reversed_route(const std::vector<LinkId>& links) const {
  std::vector<LinkId> back;
  back.reserve(links.size());
  for (auto it = links.rbegin(); it != links.rend(); ++it) {
    const LinkId twin = link(*it).twin;
    back.push_back(twin >= 0 ? twin : *it);
  }
  return back;
}

void Platform::join(LinkId l, NodeId from, NodeId to) {
  Link& k = links_[static_cast<size_t>(l)];
  k.from = from;
  k.to = to;
}

void Platform::reserve(int64_t hosts, int64_t switches, int64_t links) {
  hosts_.reserve(hosts_.size() + static_cast<size_t>(hosts));
  host_index_.reserve(hosts_.capacity());
  switches_.reserve(switches_.size() + static_cast<size_t>(switches));
  switch_index_.reserve(switches_.capacity());
  links_.reserve(links_.size() + static_cast<size_t>(links));
  link_index_.reserve(links_.capacity());
}

SwitchId Platform::add_switch(std::string name) {
  const SwitchId id = static_cast<SwitchId>(switches_.size());
  SIMFAB_CHECK(switch_index_.try_emplace(name, id).second, "duplicate switch " + name);
  switches_.push_back(std::move(name));
  return id;
}

int Platform::add_topology(std::unique_ptr<Topology> t, std::vector<HostId> hosts) {
  const int id = static_cast<int>(topologies_.size());
  for (size_t i = 0; i < hosts.size(); ++i) {
    Host& h = hosts_[static_cast<size_t>(hosts[i])];
    SIMFAB_CHECK(h.topology < 0 && h.cluster < 0, "host " + h.name + " already belongs to a network");
    h.topology = id;
    h.topo_index = static_cast<int>(i);
  }
  t->set_hosts(std::move(hosts));
  topologies_.push_back(std::move(t));
  return id;
}

std::optional<SwitchId> Platform::find_switch(const std::string& name) const {
  auto it = switch_index_.find(name);
  if (it == switch_index_.end()) return std::nullopt;
  return it->second;
}

const std::string& Platform::node_name(NodeId n) const {
  return is_switch(n) ? switch_name(switch_of(n)) : host(n).name;
}

std::optional<LinkId> Platform::find_split_duplex(const std::string& name) const {
  auto up = find_link(name + "_UP");
  if (!up) return std::nullopt;
  const LinkId twin = link(*up).twin;
  if (twin < 0 || link(twin).name != name + "_DOWN") return std::nullopt;
  return up;
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
bool Platform::for_each_route_link(HostId a, HostId b, const RouteRequest& request, Fn&& fn) const {
  const Host& ha = host(a);
  if (a == b) {  // the loopback; without one, the loader's rule (SimGrid's clusters), else nothing
    if (ha.loopback >= 0) fn(ha.loopback);
    else if (provider_) provider_->route(*this, a, a, request, fn);
    return true;
  }
  auto it = routes_.find({a, b});
  if (it != routes_.end()) {
    for (LinkId l : it->second) fn(l);
    return true;
  }
  const Host& hb = host(b);
  if (ha.cluster >= 0 && ha.cluster == hb.cluster) {
    for_each_cluster_link(ha, hb, fn);
    return true;
  }
  if (ha.topology >= 0 && ha.topology == hb.topology) {
    topologies_[static_cast<size_t>(ha.topology)]->route(ha.topo_index, hb.topo_index, request, fn);
    return true;
  }
  return provider_ && provider_->route(*this, a, b, request, fn);
}

template <class Fn>
void Platform::for_each_cluster_link(const Host& a, const Host& b, Fn&& fn) const {
  auto maybe = [&](LinkId l) {
    if (l >= 0) fn(l);
  };
  const Cluster& c = clusters_[static_cast<size_t>(a.cluster)];
  fn(a.up);
  maybe(a.limiter);
  if (c.cabinets.empty()) {
    maybe(c.backbone);
  } else if (a.cabinet != b.cabinet) {
    const Cabinet& from = c.cabinets[static_cast<size_t>(a.cabinet)];
    const Cabinet& to = c.cabinets[static_cast<size_t>(b.cabinet)];
    fn(from.up);
    maybe(from.limiter);
    maybe(c.backbone);
    maybe(to.limiter);
    fn(to.down);
  }
  maybe(b.limiter);
  fn(b.down);
}

std::optional<std::vector<LinkId>> Platform::route(HostId a, HostId b, const RouteRequest& request) const {
  std::vector<LinkId> r;
  if (!route_into(a, b, r, request)) return std::nullopt;
  return r;
}

bool Platform::route_into(HostId a, HostId b, std::vector<LinkId>& out, const RouteRequest& request) const {
  out.clear();
  return for_each_route_link(a, b, request, [&](LinkId l) { out.push_back(l); });
}

std::optional<Platform::RouteSummary> Platform::route_summary(HostId a, HostId b, const RouteRequest& request,
                                                              SimTime at) const {
  RouteSummary s{SimTime::zero(), std::numeric_limits<double>::infinity(), 0};
  const bool nominal = at == SimTime::never();
  const bool found = for_each_route_link(a, b, request, [&](LinkId l) {
    s.latency = saturating_add(s.latency, nominal ? link(l).latency : latency_at(l, at));
    s.bandwidth_Bps = std::min(s.bandwidth_Bps, nominal ? link(l).bandwidth_Bps : bandwidth_at(l, at));
    s.hops += is_hop(l) ? 1 : 0;
  });
  if (!found) return std::nullopt;
  return s;
}

}  // namespace simfab
