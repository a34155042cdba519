// SimGrid platform XML (v4.0/4.1) -> Platform: the element dispatch with the DTD's content model,
// and the document, zone, host, router and link elements. The supported subset and the names
// generated are documented in xml_platform.hpp; the reader's parts are listed in xml_builder.hpp.
#include "platform/xml_platform.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <unordered_map>
#include <utility>

#include "core/mapped_file.hpp"
#include "platform/xml_builder.hpp"

namespace simfab {

void XmlBuilder::expect_parent(const std::string& el, std::initializer_list<std::string_view> parents) const {
  const std::string& p = stack_.back();
  if (std::find(parents.begin(), parents.end(), p) != parents.end()) return;
  std::string names;
  for (std::string_view s : parents) names += (names.empty() ? "<" : ", <") + std::string(s) + ">";
  throw error("element <" + el + "> cannot appear inside <" + p + ">; it belongs in " + names);
}

void XmlBuilder::zone_content(const std::string& el) {
  using Holds = ZoneFrame::Holds;
  using Phase = ZoneFrame::Phase;
  ZoneFrame& f = frame();
  const std::string tag = zone_tag(f.zone);
  if (el == "prop") {
    if (f.phase != Phase::kProps)
      throw error("<prop> must come first in " + tag + ", before the zone's content (SimGrid's DTD)");
    return;
  }
  const bool node_route = el == "route" || el == "bypassRoute";
  const bool zone_route = el == "zoneRoute" || el == "ASroute" || el == "bypassZoneRoute" || el == "bypassASroute";
  Holds wants = Holds::kUnknown;  // link and backbone fit either kind of zone
  if (el == "zone" || el == "AS" || el == "cluster" || zone_route) wants = Holds::kZones;
  if (el == "host" || el == "router" || el == "cabinet" || el == "host_link" || node_route) wants = Holds::kNodes;
  if (!node_route && !zone_route && f.phase == Phase::kRoutes)
    throw error("<" + el + "> cannot follow the routes of " + tag +
                ": a zone declares its content first, then its routes (SimGrid's DTD)");
  if (wants != Holds::kUnknown && f.holds != Holds::kUnknown && f.holds != wants) {
    if (node_route)
      throw error("<" + el + "> joins hosts and routers, but " + tag +
                  " holds zones: routes between its zones are <zoneRoute>s with gw_src and gw_dst");
    if (zone_route)
      throw error("<" + el + "> joins zones, but " + tag + " holds hosts and routers: use <route>");
    throw error("<" + el + "> cannot appear in " + tag + ", which holds " +
                (f.holds == Holds::kZones ? "zones and clusters" : "hosts and routers") +
                ": a zone holds either zones and clusters, or hosts and routers (SimGrid's DTD)");
  }
  if (wants != Holds::kUnknown) f.holds = wants;
  f.phase = node_route || zone_route ? Phase::kRoutes : Phase::kContent;
}

void XmlBuilder::on_start(const std::string& el, const XmlAttrs& a) {
  // The elements a zone may hold; zone_content checks where (others are refused below).
  static const std::set<std::string, std::less<>> kZoneChildren = {
      "prop",  "zone",      "AS",      "cluster",     "host",            "router",       "link",     "cabinet",
      "host_link", "backbone", "route", "zoneRoute", "ASroute", "bypassRoute", "bypassZoneRoute", "bypassASroute"};
  if (!stack_.empty() && (stack_.back() == "zone" || stack_.back() == "AS") && kZoneChildren.count(el))
    zone_content(el);
  if (stack_.empty()) {
    if (el != "platform") throw error("the root element must be <platform>, got <" + el + ">");
    read_platform(a);
  } else if (el == "platform") {
    throw error("<platform> may only be the root element");
  } else if (el == "config") {
    expect_parent(el, {"platform"});
    if (root_done_ || !zones_.empty()) throw error("<config> must come before the platform's zones (SimGrid's DTD)");
    check_attrs(el, a, {"id"});
  } else if (el == "trace") {
    expect_parent(el, {"platform", "zone", "AS"});
    read_trace(a);
  } else if (el == "trace_connect") {
    expect_parent(el, {"platform", "zone", "AS"});
    read_trace_connect(a);
  } else if (el == "disk") {
    expect_parent(el, {"host"});
    read_disk(a);
  } else if (el == "prop") {
    expect_parent(el, {"platform", "config", "zone", "AS", "host", "link", "cluster", "disk"});
    check_attrs(el, a, {"id", "value"});
    const std::string& id = require_id(el, a);
    const std::string& value = require(el, a, "value", "the property's value");
    if (stack_.back() == "platform" || stack_.back() == "config")
      platform_.add_setting(PlatformSetting{id, value, here()});
    // Energy properties of hosts, clusters and links (xml_power.cpp); the others of those, and
    // every property of a zone, mean nothing to simfab and are ignored.
    else if (stack_.back() == "host" || stack_.back() == "cluster" || stack_.back() == "link")
      read_energy_prop(id, value);  // (a <disk>'s size, mount, content: ignored)
  } else if (el == "zone" || el == "AS") {
    expect_parent(el, {"platform", "zone", "AS"});
    read_zone(el, a);
  } else if (el == "host") {
    expect_parent(el, {"zone", "AS"});
    read_host(a);
  } else if (el == "router") {
    expect_parent(el, {"zone", "AS"});
    read_router(a);
  } else if (el == "link") {
    expect_parent(el, {"zone", "AS"});
    read_link(a);
  } else if (el == "cluster") {
    expect_parent(el, {"platform", "zone", "AS"});
    read_cluster(a);
  } else if (el == "cabinet" || el == "host_link" || el == "backbone") {
    expect_parent(el, {"zone", "AS"});
    if (el == "cabinet") read_cabinet(a);
    else if (el == "host_link") read_host_link(a);
    else read_backbone(a);
  } else if (el == "route" || el == "bypassRoute") {
    expect_parent(el, {"zone", "AS"});
    read_route(el, a);
  } else if (el == "zoneRoute" || el == "ASroute" || el == "bypassZoneRoute" || el == "bypassASroute") {
    expect_parent(el, {"zone", "AS"});
    read_zone_route(el, a);
  } else if (el == "link_ctn") {
    expect_parent(el, {"route", "zoneRoute", "ASroute", "bypassRoute", "bypassZoneRoute", "bypassASroute"});
    read_link_ctn(a);
  } else {
    throw error("element <" + el + "> is not supported by simfab");
  }
  stack_.push_back(el);
}

void XmlBuilder::on_end(const std::string& el) {
  stack_.pop_back();
  if (el == "route" || el == "zoneRoute" || el == "ASroute" || el == "bypassRoute" || el == "bypassZoneRoute" ||
      el == "bypassASroute")
    finish_route();
  if (el == "zone" || el == "AS") end_zone();
  if (el == "host" || el == "cluster") finish_cpu();
  if (el == "link") finish_link_power();
  if (el == "trace") end_trace();
  if (el == "platform") finish_trace_connects();
}

void XmlBuilder::read_platform(const XmlAttrs& a) {
  platform_loc_ = here();
  check_attrs("platform", a, {"version"});
  const std::string& v = require("platform", a, "version", "4.1");
  if (v != "4.1" && v != "4.0" && v != "4")
    throw error("unsupported platform version '" + v +
                "'; simfab reads SimGrid platform XML version 4.0 and 4.1 (upgrade older files with "
                "simgrid_update_xml)");
}

namespace {

std::optional<ZoneTree::Routing> routing_of(const std::string& r) {
  using R = ZoneTree::Routing;
  static const std::unordered_map<std::string, R> kRoutings = {
      {"Full", R::kFull},          {"Floyd", R::kFloyd},     {"Dijkstra", R::kDijkstra},
      {"DijkstraCache", R::kDijkstra}, {"Cluster", R::kCluster}, {"None", R::kNone}};
  auto it = kRoutings.find(r);
  if (it == kRoutings.end()) return std::nullopt;
  return it->second;
}

}  // namespace

void XmlBuilder::read_zone(const std::string& el, const XmlAttrs& a) {
  check_attrs(el, a, {"id", "routing"});
  const std::string& id = require_id(el, a);
  const std::string& r = require(el, a, "routing", "Full, Floyd, Dijkstra, DijkstraCache, Cluster or None");
  const auto routing = routing_of(r);
  if (!routing)
    throw error("routing '" + r + "' of <" + el + " id='" + id +
                "'> is not supported by simfab; supported: Full, Floyd, Dijkstra, DijkstraCache, Cluster, None");
  int parent = -1;
  if (stack_.back() == "platform") {
    if (root_done_) throw error("a second top-level <" + el + ">: a platform has one root zone; wrap them in one");
  } else {
    parent = frame().zone;
    if (tree_.routing(parent) == ZoneTree::Routing::kCluster)
      throw error("<" + el + " id='" + id + "'> cannot appear in " + zone_tag(parent) +
                  ": a routing=\"Cluster\" zone holds hosts and routers");
    if (tree_.depth(parent) >= kMaxZoneDepth)
      throw error("<" + el + " id='" + id + "'> nests zones more than " + std::to_string(kMaxZoneDepth) + " deep");
    if (tree_.routing(parent) == ZoneTree::Routing::kFloyd && tree_.member_count(parent) >= kMaxFloydVertices)
      throw error("<" + el + " id='" + id + "'>: " + zone_tag(parent) + " uses Floyd routing over more than " +
                  std::to_string(kMaxFloydVertices) + " members (O(n^3) work); use routing=\"Dijkstra\"");
  }
  claim_zone_name(el, id);
  const int z = tree_.add_zone(id, parent, *routing);
  zone_index_.emplace(id, z);
  zones_.push_back(ZoneFrame{z});
}

void XmlBuilder::end_zone() {
  tree_.seal(frame().zone);
  zones_.pop_back();
  if (zones_.empty()) root_done_ = true;
}

HostId XmlBuilder::add_host(Host h, int zone, const std::string& origin) {
  if (platform_.host_count() >= kMaxPlatformHosts) throw error("too many hosts; at most " + std::to_string(kMaxPlatformHosts));
  if (tree_.routing(zone) == ZoneTree::Routing::kFloyd && tree_.member_count(zone) >= kMaxFloydVertices)
    throw error(zone_tag(zone) + " uses Floyd routing over more than " + std::to_string(kMaxFloydVertices) +
                " hosts and routers (O(n^3) work); use routing=\"Dijkstra\"");
  decl_.emplace("h:" + h.name, origin);
  const HostId id = platform_.add_host(std::move(h));
  tree_.add_node(zone, host_node(id));
  return id;
}

void XmlBuilder::read_host(const XmlAttrs& a) {
  check_attrs("host", a, {"id", "speed", "core", "pstate", "speed_file", "state_file"});
  Host h;
  h.name = require_id("host", a);
  check_node_name(h.name, "duplicate host id");
  // A speed list is the host's pstates; it runs at speed[pstate] (xml_power.cpp reads the power).
  std::vector<double> speeds = pstate_speeds("host", require("host", a, "speed", "e.g. 1Gf, or pstates 1Gf,500Mf"));
  int pstate = 0;
  if (const std::string* p = a.get("pstate")) {
    char* end = nullptr;
    const long v = std::strtol(p->c_str(), &end, 10);
    if (p->empty() || *end != '\0')
      throw error("bad 'pstate' '" + *p + "' of <host id='" + h.name + "'>; expected an index into its speed list, from 0 to " +
                  std::to_string(speeds.size() - 1));
    CpuProfile probe;
    probe.speeds = speeds;
    probe.initial_pstate = static_cast<int>(std::clamp<long>(v, -1, 1L << 30));
    if (std::string bad = check_cpu_profile(probe); !bad.empty())
      throw error("bad 'pstate' '" + *p + "' of <host id='" + h.name + "'>: " + bad);
    pstate = probe.initial_pstate;
  }
  h.speed_flops = speeds[static_cast<size_t>(pstate)];
  open_cpu("<host id='" + h.name + "'>", std::move(speeds), pstate);
  h.cores = cores("host", a);
  if (auto it = prescan_.self_routes.find(h.name); it != prescan_.self_routes.end()) {
    // Its loopback: <route src=h dst=h> with one link; build that link now if it comes later.
    std::optional<LinkId> l = platform_.find_link(it->second);
    if (!l) {
      if (auto d = prescan_.links.find(it->second); d != prescan_.links.end()) {
        loc_override_ = SourceLoc{name_, d->second.line, d->second.column};
        read_link(d->second.attrs);
        loc_override_.reset();
        early_links_.insert(it->second);
        l = platform_.find_link(it->second);
      }
    }
    if (l) {
      h.loopback = *l;
      const NodeId self = host_node(platform_.host_count());
      if (platform_.link(*l).from == kNoNode) platform_.join(*l, self, self);
    }
  }
  read_profile_files(a, "host", add_host(std::move(h), frame().zone, "declared at " + where(here())));
}

void XmlBuilder::read_router(const XmlAttrs& a) {
  check_attrs("router", a, {"id", "coordinates"});  // coordinates: Vivaldi zones only, unsupported
  const std::string& id = require_id("router", a);
  check_node_name(id, "duplicate router id");
  const int zone = frame().zone;
  if (tree_.routing(zone) == ZoneTree::Routing::kFloyd && tree_.member_count(zone) >= kMaxFloydVertices)
    throw error(zone_tag(zone) + " uses Floyd routing over more than " + std::to_string(kMaxFloydVertices) +
                " hosts and routers (O(n^3) work); use routing=\"Dijkstra\"");
  if (platform_.over_element_limit())
    throw error("too many elements; at most " + std::to_string(platform_.element_limit()));
  decl_.emplace("r:" + id, "declared at " + where(here()));
  tree_.add_node(zone, switch_node(platform_.add_switch(id)));
}

void XmlBuilder::read_link(const XmlAttrs& a) {
  if (const std::string* id = a.get("id"); id && !loc_override_ && early_links_.erase(*id)) {  // built
    std::optional<LinkId> l = platform_.find_link(*id);
    if (!l) l = platform_.find_split_duplex(*id);
    if (l) link_power_ = PendingLink{*l, "<link id='" + *id + "'>", std::nullopt, std::nullopt};
    return;
  }
  check_attrs("link", a, {"id", "bandwidth", "latency", "sharing_policy", "bandwidth_file", "latency_file", "state_file"});
  Link l;
  l.name = require_id("link", a);
  l.bandwidth_Bps = bandwidth("link", "bandwidth", require("link", a, "bandwidth", "e.g. 10Gbps"));
  const std::string* lat = a.get("latency");
  l.latency = lat ? latency("link", "latency", *lat) : SimTime::zero();
  const Policy p = policy("link", a, "sharing_policy", true, Policy::kShared);
  l.sharing = p == Policy::kFatpipe ? LinkSharing::kFatpipe : LinkSharing::kShared;
  const std::string name = l.name;
  if (platform_.over_element_limit())
    throw error("too many elements; at most " + std::to_string(platform_.element_limit()));
  const Duplex d = add_duplex(std::move(l), p == Policy::kSplitDuplex, "duplicate link id");
  decl_.emplace("l:" + name, "declared at " + where(here()));
  read_profile_files(a, "link", d.up);
  // Built early for a host's loopback (loc_override_): its props come when it is declared.
  if (!loc_override_) link_power_ = PendingLink{d.up, "<link id='" + name + "'>", std::nullopt, std::nullopt};
}

Platform parse_platform_xml(std::string_view text, const std::string& name) {
  return XmlBuilder(text, name).build();
}

Platform load_platform_xml(const std::string& path) {
  MappedFile file(path);
  return parse_platform_xml(file.text(), path);
}

}  // namespace simfab
