// <cluster> (FLAT, FAT_TREE, TORUS, DRAGONFLY), and the elements of routing="Cluster" zones: <cabinet>,
// <host_link>, <backbone>. Names and semantics are documented in xml_platform.hpp; FLAT clusters
// mirror yaml_platform.cpp's.
#include <utility>
#include <variant>

#include "platform/xml_builder.hpp"
#include "platform/xml_dragonfly.hpp"
#include "platform/xml_fat_tree.hpp"
#include "platform/xml_torus.hpp"

namespace simfab {

void XmlBuilder::read_cluster(const XmlAttrs& a) {
  check_attrs("cluster", a,
              {"id", "prefix", "suffix", "radical", "speed", "core", "bw", "lat", "sharing_policy", "bb_bw", "bb_lat",
               "bb_sharing_policy", "router_id", "loopback_bw", "loopback_lat", "limiter_link", "topology",
               "topo_parameters"});
  const std::string& id = require_id("cluster", a);
  int parent = -1;
  if (stack_.back() == "platform") {
    if (root_done_) throw error("a second top-level <cluster id='" + id + "'>: a platform has one root zone; wrap them in one");
  } else {
    parent = frame().zone;
    if (tree_.routing(parent) == ZoneTree::Routing::kCluster)
      throw error("<cluster id='" + id + "'> cannot appear in " + zone_tag(parent) +
                  ": a routing=\"Cluster\" zone holds hosts and routers");
    if (tree_.routing(parent) == ZoneTree::Routing::kFloyd && tree_.member_count(parent) >= kMaxFloydVertices)
      throw error("<cluster id='" + id + "'>: " + zone_tag(parent) + " uses Floyd routing over more than " +
                  std::to_string(kMaxFloydVertices) + " members (O(n^3) work); use routing=\"Dijkstra\"");
  }
  const std::string& prefix = require("cluster", a, "prefix", "host names are prefix + index + suffix");
  const std::string* suffix_p = a.get("suffix");
  const std::string suffix = suffix_p ? *suffix_p : "";
  const std::string& radical_text = require("cluster", a, "radical", "the host indices, e.g. \"0-15\"");
  Host proto;
  // A speed list is the pstates of every host (SimGrid's clusters start in pstate 0); their
  // power comes from the cluster's <prop>s (xml_power.cpp).
  std::vector<double> speeds = pstate_speeds("cluster", require("cluster", a, "speed", "e.g. 1Gf, or pstates 1Gf,500Mf"));
  proto.speed_flops = speeds.front();
  open_cpu("<cluster id='" + id + "'>", std::move(speeds), 0);
  proto.cores = cores("cluster", a);
  Link priv;
  priv.bandwidth_Bps = bandwidth("cluster", "bw", require("cluster", a, "bw", "each host's private link, e.g. 10Gbps"));
  priv.latency = latency("cluster", "lat", require("cluster", a, "lat", "each host's private link, e.g. 1us"));
  const Policy priv_policy = policy("cluster", a, "sharing_policy", true, Policy::kSplitDuplex);
  priv.sharing = priv_policy == Policy::kFatpipe ? LinkSharing::kFatpipe : LinkSharing::kShared;
  auto parsed = parse_radical(radical_text, kMaxPlatformHosts);
  if (auto* why = std::get_if<std::string>(&parsed)) throw error("bad 'radical' of <cluster id='" + id + "'>: " + *why);
  const Radical radical = std::get<Radical>(std::move(parsed));
  if (platform_.host_count() + radical.count > kMaxPlatformHosts)
    throw error("<cluster id='" + id + "'> brings the platform to more than " + std::to_string(kMaxPlatformHosts) + " hosts");
  const std::string* topo = a.get("topology");
  const std::string kind = topo ? *topo : "FLAT";
  if (kind != "FLAT" && kind != "FAT_TREE" && kind != "TORUS" && kind != "DRAGONFLY")
    throw error("'topology' of <cluster id='" + id + "'> must be FLAT, FAT_TREE, TORUS or DRAGONFLY, got '" + kind + "'");
  claim_zone_name("cluster", id);
  const bool flat = kind == "FLAT";
  const int zone = tree_.add_zone(id, parent, flat ? ZoneTree::Routing::kFlatCluster : ZoneTree::Routing::kTopology);
  zone_index_.emplace(id, zone);
  if (flat) {
    if (a.get("topo_parameters"))
      throw error("'topo_parameters' of <cluster id='" + id + "'> needs topology=\"FAT_TREE\", \"TORUS\" or \"DRAGONFLY\"");
    cluster_flat(a, zone, id, prefix, suffix, radical, proto, priv, priv_policy);
  } else {
    cluster_topology(a, zone, id, kind, prefix, suffix, radical, proto, priv, priv_policy);
  }
  tree_.seal(zone);
  if (parent < 0) root_done_ = true;
}

void XmlBuilder::cluster_flat(const XmlAttrs& a, int zone, const std::string& id, const std::string& prefix,
                              const std::string& suffix, const Radical& radical, Host proto, Link priv,
                              Policy priv_policy) {
  // As SimGrid: a backbone, loopback or limiter exists when its bandwidth is given and > 0 (a
  // latency alone, which SimGrid would pair with a zero bandwidth, is an error here).
  std::optional<Link> backbone;
  if (auto bw = optional_bandwidth(a, "bb_bw", "bb_lat", id)) {
    const std::string* lat = a.get("bb_lat");
    backbone = Link{id + "_backbone", *bw, lat ? latency("cluster", "bb_lat", *lat) : SimTime::zero(),
                    policy("cluster", a, "bb_sharing_policy", false, Policy::kShared) == Policy::kFatpipe
                        ? LinkSharing::kFatpipe
                        : LinkSharing::kShared};
  }
  std::optional<Link> loopback;
  if (auto bw = optional_bandwidth(a, "loopback_bw", "loopback_lat", id)) {
    const std::string* lat = a.get("loopback_lat");
    loopback = Link{"", *bw, lat ? latency("cluster", "loopback_lat", *lat) : SimTime::zero(), LinkSharing::kFatpipe};
  }
  std::optional<Link> limiter;
  if (auto bw = optional_bandwidth(a, "limiter_link", "", id)) limiter = Link{"", *bw, SimTime::zero()};
  const int64_t per_host = 2 + (limiter ? 1 : 0) + (loopback ? 1 : 0) + 1;
  if (platform_.element_count() + radical.count * per_host > platform_.element_limit())
    throw error("<cluster id='" + id + "'> needs more elements than the platform limit of " +
                std::to_string(platform_.element_limit()));
  const std::string what = "<cluster id='" + id + "'> generates link";
  const std::string origin = "generated by <cluster id='" + id + "'> at " + where(here());
  // The cluster's router (SimGrid's gateway name) is the switch every private link meets at.
  const std::string* router_id = a.get("router_id");
  const std::string router = router_id && !router_id->empty() ? *router_id : prefix + id + "_router" + suffix;
  check_node_name(router, "<cluster id='" + id + "'> generates router");
  decl_.emplace("r:" + router, origin);
  const SwitchId core_switch = platform_.add_switch(router);
  const NodeId core = switch_node(core_switch);
  // Not a Platform cluster: the zone tree routes it, in SimGrid's order (xml_zone_tree.hpp).
  if (backbone) {
    const LinkId bb = add_link(std::move(*backbone), what);
    platform_.join(bb, core, core);
    tree_.set_backbone(zone, bb);
  }
  for (const IndexRange& r : radical.ranges) {
    for (int64_t i = r.first; i <= r.last; ++i) {
      const std::string link_id = id + "_link_" + std::to_string(i);
      priv.name = link_id;
      Duplex d = add_duplex(priv, priv_policy == Policy::kSplitDuplex, what);
      proto.up = d.up;
      proto.down = d.down;
      const NodeId self = host_node(platform_.host_count());
      if (limiter) {
        limiter->name = link_id + "_limiter";
        proto.limiter = add_link(*limiter, what);
        platform_.join(proto.limiter, self, self);
      }
      if (loopback) {
        loopback->name = link_id + "_loopback";
        proto.loopback = add_link(*loopback, what);
        platform_.join(proto.loopback, self, self);
      }
      platform_.join(d.up, self, core);
      if (d.down != d.up) platform_.join(d.down, core, self);
      proto.name = prefix + std::to_string(i) + suffix;
      check_node_name(proto.name, "<cluster id='" + id + "'> generates host");
      add_host(proto, zone, origin);
    }
  }
  tree_.add_node(zone, core);
}

void XmlBuilder::cluster_topology(const XmlAttrs& a, int zone, const std::string& id, const std::string& kind,
                                  const std::string& prefix, const std::string& suffix, const Radical& radical,
                                  const Host& proto, const Link& priv, Policy priv_policy) {
  const std::string tag = "<cluster id='" + id + "' topology=\"" + kind + "\">";
  const std::optional<double> limiter_bw = optional_bandwidth(a, "limiter_link", "", id);
  const std::string& params = require("cluster", a, "topo_parameters",
                                      kind == "FAT_TREE"  ? "\"levels;down;up;link-count\", e.g. \"2;4,4;1,2;1,2\""
                                      : kind == "TORUS"   ? "the torus dimensions, e.g. \"4,4,4\""
                                                          : "\"groups,blue;chassis,black;blades,green;nodes\", e.g. \"3,1;2,1;3,1;2\"");
  TopoCommon common;
  common.name = id;
  common.hosts.prefix = prefix;
  common.hosts.suffix = suffix;
  common.hosts.speed_flops = proto.speed_flops;
  common.hosts.cores = proto.cores;
  common.host_link = LinkSpec{priv.bandwidth_Bps, priv.latency, priv.sharing};
  common.link = common.host_link;
  // SimGrid's SPLITDUPLEX cables are two directed links; SHARED and FATPIPE ones a single link.
  common.full_duplex = priv_policy == Policy::kSplitDuplex;
  // SimGrid's names for a cluster host's own links: "<id>_link_<i>_loopback", "_limiter".
  common.hosts.link_prefix = id + "_link_";
  if (limiter_bw) common.hosts.limiter = LinkSpec{*limiter_bw, SimTime::zero(), LinkSharing::kShared};
  if (auto bw = optional_bandwidth(a, "loopback_bw", "loopback_lat", id)) {
    const std::string* lat = a.get("loopback_lat");
    common.hosts.loopback =
        LinkSpec{*bw, lat ? latency("cluster", "loopback_lat", *lat) : SimTime::zero(), LinkSharing::kFatpipe};
  }
  auto check_radical = [&](int64_t n) {
    if (radical.count != n || radical.ranges.size() != 1 || radical.ranges[0].first != 0)
      throw error("'radical' of " + tag + " must be \"0-" + std::to_string(n - 1) + "\": topo_parameters \"" + params +
                  "\" give " + std::to_string(n) + " hosts, numbered from 0");
  };
  const HostId first_host = platform_.host_count();
  int t = -1;
  try {
    if (kind == "FAT_TREE") {
      auto parsed = parse_simgrid_fat_tree(params);
      if (auto* why = std::get_if<std::string>(&parsed))
        throw error("bad 'topo_parameters' \"" + params + "\" of " + tag + ": " + *why);
      const XgftParams& x = std::get<XgftParams>(parsed);
      check_radical(xgft_counts(x).hosts);
      t = add_simgrid_fat_tree(platform_, common, x, fat_tree_counters_);
    } else if (kind == "DRAGONFLY") {
      auto parsed = parse_simgrid_dragonfly(params);
      if (auto* why = std::get_if<std::string>(&parsed))
        throw error("bad 'topo_parameters' \"" + params + "\" of " + tag + ": " + *why);
      const SimgridDragonflyParams& d = std::get<SimgridDragonflyParams>(parsed);
      check_radical(d.hosts());
      t = add_simgrid_dragonfly(platform_, common, d, dragonfly_links_);
    } else {
      auto parsed = parse_simgrid_torus(params);
      if (auto* why = std::get_if<std::string>(&parsed))
        throw error("bad 'topo_parameters' \"" + params + "\" of " + tag + ": " + *why);
      const std::vector<int>& dims = std::get<std::vector<int>>(parsed);
      int64_t n = 1;
      for (int d : dims) n *= d;
      check_radical(n);
      t = add_simgrid_torus(platform_, common, dims);
    }
  } catch (const TopologyError& e) {
    throw error(tag + ": " + e.what());
  }
  platform_.set_topology_name(t, id);
  tree_.set_topology(zone, t);
  // SimGrid 3.32 gives these clusters no router (router_id is ignored): their gateways are hosts.
  for (HostId h = first_host; h < platform_.host_count(); ++h) {
    if (zone_decl_.count(platform_.host(h).name))
      throw error(tag + " generates host '" + platform_.host(h).name +
                  "', already the id of a zone or cluster (hosts, routers and zones share one namespace)");
    tree_.add_node(zone, host_node(h));
  }
}

void XmlBuilder::require_cluster_zone(const std::string& el) const {
  const int zone = zones_.back().zone;
  if (tree_.routing(zone) != ZoneTree::Routing::kCluster)
    throw error("<" + el + "> only belongs in a zone with routing=\"Cluster\"; " + zone_tag(zone) +
                " routes with its declared routes");
}

void XmlBuilder::read_cabinet(const XmlAttrs& a) {
  require_cluster_zone("cabinet");
  check_attrs("cabinet", a, {"id", "prefix", "suffix", "radical", "speed", "bw", "lat"});
  const std::string& id = require_id("cabinet", a);
  const std::string& prefix = require("cabinet", a, "prefix", "host names are prefix + index + suffix");
  const std::string& suffix = require("cabinet", a, "suffix", "host names are prefix + index + suffix; may be empty");
  Host proto;
  proto.speed_flops = speed("cabinet", "speed", require("cabinet", a, "speed", "e.g. 1Gf"));
  Link priv;
  priv.bandwidth_Bps = bandwidth("cabinet", "bw", require("cabinet", a, "bw", "each host's private link, e.g. 10Gbps"));
  priv.latency = latency("cabinet", "lat", require("cabinet", a, "lat", "each host's private link, e.g. 1us"));
  auto parsed = parse_radical(require("cabinet", a, "radical", "the host indices, e.g. \"0-15\""), kMaxPlatformHosts);
  if (auto* why = std::get_if<std::string>(&parsed)) throw error("bad 'radical' of <cabinet id='" + id + "'>: " + *why);
  const Radical radical = std::get<Radical>(std::move(parsed));
  if (platform_.element_count() + radical.count * 3 > platform_.element_limit())
    throw error("<cabinet id='" + id + "'> needs more elements than the platform limit of " +
                std::to_string(platform_.element_limit()));
  const int zone = frame().zone;
  const std::string origin = "generated by <cabinet id='" + id + "'> at " + where(here());
  for (const IndexRange& r : radical.ranges) {
    for (int64_t i = r.first; i <= r.last; ++i) {
      proto.name = prefix + std::to_string(i) + suffix;
      check_node_name(proto.name, "<cabinet id='" + id + "'> generates host");
      // SimGrid's cabinet: host prefix<i>suffix behind the split-duplex link "link_<host>".
      priv.name = "link_" + proto.name;
      const Duplex d = add_duplex(priv, true, "<cabinet id='" + id + "'> generates link");
      const NodeId n = host_node(add_host(proto, zone, origin));
      tree_.set_private_links(zone, n, d.up, d.down);
      host_links_.emplace(zone, tree_.member_of(n));
    }
  }
}

void XmlBuilder::read_host_link(const XmlAttrs& a) {
  require_cluster_zone("host_link");
  check_attrs("host_link", a, {"id", "up", "down"});
  const std::string& id = require_id("host_link", a);
  const int zone = frame().zone;
  const auto h = platform_.find_host(id);
  if (!h || tree_.zone_of(host_node(*h)) != zone)
    throw error("'id' of <host_link> must name a host declared before it in " + zone_tag(zone) + "; '" + id + "' is " +
                (h ? "in " + zone_tag(tree_.zone_of(host_node(*h))) : std::string("not a host")));
  auto link = [&](std::string_view key) {
    const std::string& name = require("host_link", a, key, "a link name; a split-duplex link's X_UP or X_DOWN");
    if (auto l = platform_.find_link(name)) return *l;
    throw error("unknown link '" + name + "' as '" + std::string(key) + "' of <host_link>" +
                (platform_.find_split_duplex(name) ? " (it is SPLITDUPLEX: name '" + name + "_UP' or '" + name + "_DOWN')"
                                                   : std::string()));
  };
  const LinkId up = link("up");
  const LinkId down = link("down");
  if (!host_links_.emplace(zone, tree_.member_of(host_node(*h))).second)
    throw error("host '" + id + "' already has its <host_link> (or comes from a <cabinet>)");
  tree_.set_private_links(zone, host_node(*h), up, down);
}

void XmlBuilder::read_backbone(const XmlAttrs& a) {
  require_cluster_zone("backbone");
  check_attrs("backbone", a, {"id", "bandwidth", "latency"});
  Link l;
  l.name = require_id("backbone", a);
  l.bandwidth_Bps = bandwidth("backbone", "bandwidth", require("backbone", a, "bandwidth", "e.g. 10Gbps"));
  l.latency = latency("backbone", "latency", require("backbone", a, "latency", "e.g. 1us"));
  if (frame().has_backbone) throw error(zone_tag(frame().zone) + " already has a <backbone>");
  const std::string name = l.name;
  tree_.set_backbone(frame().zone, add_link(std::move(l), "duplicate link id"));
  frame().has_backbone = true;
  decl_.emplace("l:" + name, "declared at " + where(here()));
}

}  // namespace simfab
