// <route>, <zoneRoute> / <ASroute>, their bypass forms and their <link_ctn>: the declared routes
// of SimGrid zones, handed to the ZoneTree (xml_zone_tree.hpp), which composes host-to-host
// routes from them.
#include <algorithm>
#include <utility>

#include "platform/xml_builder.hpp"

namespace simfab {

bool XmlBuilder::read_symmetrical(const std::string& el, const XmlAttrs& a) const {
  const std::string* s = a.get("symmetrical");
  if (!s || *s == "YES" || *s == "yes") return true;
  if (*s == "NO" || *s == "no") return false;
  throw error("'symmetrical' of <" + el + "> must be YES or NO, got '" + *s + "'");
}

void XmlBuilder::claim_route(const PendingRoute& r, int src, int dst, const std::string& from, const std::string& to) {
  auto [it, fresh] = route_locs_.emplace(std::make_tuple(r.zone, src, dst, r.bypass), where(r.loc));
  if (!fresh) throw error(r.el + " " + from + " -> " + to + " is already declared at " + it->second);
}

void XmlBuilder::read_route(const std::string& el, const XmlAttrs& a) {
  const bool bypass = el == "bypassRoute";
  if (bypass) check_attrs(el, a, {"src", "dst"});
  else check_attrs(el, a, {"src", "dst", "symmetrical"});
  const int zone = frame().zone;
  const ZoneTree::Routing routing = tree_.routing(zone);
  if (!bypass && (routing == ZoneTree::Routing::kCluster || routing == ZoneTree::Routing::kNone))
    throw error("<route> cannot appear in " + zone_tag(zone) + " (routing=\"" +
                (routing == ZoneTree::Routing::kNone ? "None" : "Cluster") + "\"): " +
                (routing == ZoneTree::Routing::kNone ? "such a zone has no routes"
                                                     : "its routes come from <host_link> and <backbone>"));
  PendingRoute r;
  r.el = el;
  r.bypass = bypass;
  r.zone = zone;
  auto member = [&](std::string_view key, NodeId& node, std::string& name) {
    name = require(el, a, key, "a host or router of this zone");
    node = find_node(name, "'" + std::string(key) + "' of <" + el + ">");
    if (tree_.zone_of(node) != zone)
      throw error("'" + name + "' (" + std::string(key) + " of <" + el + ">) is in " + zone_tag(tree_.zone_of(node)) +
                  ", not in " + zone_tag(zone) + ": a <" + el + "> joins hosts and routers of its own zone; routes "
                  "between zones are <zoneRoute>s of their common parent zone");
    return tree_.member_of(node);
  };
  r.src = member("src", r.src_node, r.src_name);
  r.dst = member("dst", r.dst_node, r.dst_name);
  r.symmetric = !bypass && read_symmetrical(el, a);
  r.loc = here();
  if (!bypass && r.src == r.dst && is_switch(r.src_node))
    throw error("a <route> from router '" + r.src_name + "' to itself; only a host's route to itself (its loopback) "
                "is meaningful");
  claim_route(r, r.src, r.dst, r.src_name, r.dst_name);
  if (r.symmetric && r.src != r.dst) claim_route(r, r.dst, r.src, r.dst_name, r.src_name);
  route_ = std::move(r);
}

void XmlBuilder::read_zone_route(const std::string& el, const XmlAttrs& a) {
  const bool bypass = el == "bypassZoneRoute" || el == "bypassASroute";
  if (bypass) check_attrs(el, a, {"src", "dst", "gw_src", "gw_dst"});
  else check_attrs(el, a, {"src", "dst", "gw_src", "gw_dst", "symmetrical"});
  const int zone = frame().zone;
  if (!bypass && tree_.routing(zone) == ZoneTree::Routing::kNone)
    throw error("<" + el + "> cannot appear in " + zone_tag(zone) + " (routing=\"None\"): such a zone has no routes");
  PendingRoute r;
  r.el = el;
  r.bypass = bypass;
  r.zone = zone;
  auto child = [&](std::string_view key, std::string& name) {
    name = require(el, a, key, "a zone or cluster directly inside this zone");
    auto it = zone_index_.find(name);
    if (it == zone_index_.end() || tree_.parent(it->second) != zone)
      throw error("'" + std::string(key) + "' of <" + el + "> must name a zone or cluster declared directly inside " +
                  zone_tag(zone) + "; '" + name + "' is " +
                  (it == zone_index_.end()       ? std::string("not a zone")
                   : tree_.parent(it->second) < 0 ? std::string("the root zone")
                                                  : "declared inside " + zone_tag(tree_.parent(it->second))));
    return it->second;
  };
  auto gateway = [&](std::string_view key, int inside) {
    const std::string& name = require(el, a, key, "a host or router inside the zone it leaves or enters");
    const NodeId n = find_node(name, "'" + std::string(key) + "' of <" + el + ">");
    if (!tree_.within(tree_.zone_of(n), inside))
      throw error("gateway '" + name + "' ('" + std::string(key) + "' of <" + el + ">) is not inside " +
                  zone_tag(inside) + ": gw_src must be a host or router of src's zone (or below it), gw_dst of dst's");
    return n;
  };
  // A bypass joins zones anywhere below this one, in two different children (else no route
  // whose common ancestor is this zone could use it).
  auto below = [&](std::string_view key, std::string& name) {
    name = require(el, a, key, "a zone or cluster inside this zone");
    auto it = zone_index_.find(name);
    int z = it == zone_index_.end() ? -1 : it->second;
    if (z < 0 || z == zone || !tree_.within(z, zone))
      throw error("'" + std::string(key) + "' of <" + el + "> must name a zone or cluster inside " + zone_tag(zone) +
                  "; '" + name + "' is " + (z < 0 ? "not a zone" : "not inside it"));
    while (tree_.parent(z) != zone) z = tree_.parent(z);
    return std::make_pair(it->second, z);
  };
  int src = -1;
  int dst = -1;
  if (bypass) {
    const auto [s_zone, s_child] = below("src", r.src_name);
    const auto [d_zone, d_child] = below("dst", r.dst_name);
    if (s_child == d_child)
      throw error("<" + el + "> from '" + r.src_name + "' to '" + r.dst_name + "': both lie in " + zone_tag(s_child) +
                  ", so no route of " + zone_tag(zone) + " joins them; declare it in their common zone");
    src = s_zone;
    dst = d_zone;
    r.src = src;  // a bypass is keyed by zones
    r.dst = dst;
  } else {
    src = child("src", r.src_name);
    dst = child("dst", r.dst_name);
    if (src == dst) throw error("<" + el + "> from zone '" + r.src_name + "' to itself; it joins two different zones");
    r.src = tree_.member_number(src);
    r.dst = tree_.member_number(dst);
  }
  r.gw_src = gateway("gw_src", src);
  r.gw_dst = gateway("gw_dst", dst);
  r.symmetric = !bypass && read_symmetrical(el, a);
  r.loc = here();
  claim_route(r, r.src, r.dst, r.src_name, r.dst_name);
  if (r.symmetric) claim_route(r, r.dst, r.src, r.dst_name, r.src_name);
  route_ = std::move(r);
}

void XmlBuilder::read_link_ctn(const XmlAttrs& a) {
  check_attrs("link_ctn", a, {"id", "direction"});
  const std::string& id = require_id("link_ctn", a);
  std::string name = id;
  const std::string* dir = a.get("direction");
  if (dir && *dir == "UP") name += "_UP";
  else if (dir && *dir == "DOWN") name += "_DOWN";
  else if (dir && *dir != "NONE")
    throw error("'direction' of <link_ctn id='" + id + "'> must be UP, DOWN or NONE, got '" + *dir + "'");
  auto l = platform_.find_link(name);
  if (!l) {
    if (platform_.find_split_duplex(id))
      throw error("link '" + id + "' is SPLITDUPLEX: give <link_ctn id='" + id + "'> a direction=\"UP\" or \"DOWN\"");
    throw error("unknown link '" + name + "' in <" + route_->el + ">" +
                (name != id && platform_.find_link(id) ? " (link '" + id + "' is not SPLITDUPLEX: drop 'direction')"
                                                       : std::string()) +
                "; links must be declared (or generated by a <cluster>) before the route");
  }
  if (std::find(route_->links.begin(), route_->links.end(), *l) != route_->links.end())
    throw error("link '" + name + "' appears twice in the route; a route crosses each link at most once");
  route_->links.push_back(*l);
}

void XmlBuilder::finish_route() {
  PendingRoute r = std::move(*route_);
  route_.reset();
  if (r.links.empty()) throw error_at(r.loc, "<" + r.el + "> has no <link_ctn>; list the links from src to dst");
  if (r.bypass) {
    const bool added = tree_.add_bypass(r.zone, r.src, r.dst, r.gw_src, r.gw_dst, r.links);
    SIMFAB_CHECK(added, "bypass route claimed twice");
    return;
  }
  if (r.el == "route" && r.src == r.dst) {
    // Set as the host's loopback when the host was added (XmlPrescan); anything else cannot be.
    const HostId h = r.src_node;
    if (r.links.size() != 1 || platform_.host(h).loopback != r.links[0])
      throw error_at(r.loc, "a <route> from host '" + r.src_name +
                                "' to itself must list exactly one link (its loopback), declared in the file");
    return;
  }
  const bool added = tree_.add_route(r.zone, r.src, r.dst, r.gw_src, r.gw_dst, r.links);
  SIMFAB_CHECK(added, "route claimed twice");
  if (r.symmetric) {
    const bool back = tree_.add_route(r.zone, r.dst, r.src, r.gw_dst, r.gw_src, platform_.reversed_route(r.links));
    SIMFAB_CHECK(back, "route claimed twice");
  }
}

}  // namespace simfab
