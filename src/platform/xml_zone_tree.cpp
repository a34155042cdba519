// SimGrid's zone hierarchy as a route provider; the rules are in xml_zone_tree.hpp.
#include "platform/xml_zone_tree.hpp"

#include <algorithm>
#include <initializer_list>
#include <utility>

#include "core/error.hpp"

namespace simfab {
namespace {

uint64_t pair_key(int s, int t) { return static_cast<uint64_t>(static_cast<uint32_t>(s)) << 32 | static_cast<uint32_t>(t); }

// A star's route (SimGrid's StarZone): the source's links up, then the destination's links down,
// each link at most once (a backbone in both lists, a link two hosts share). -1: absent.
void star(std::initializer_list<LinkId> up, std::initializer_list<LinkId> down, LinkSink sink) {
  LinkId seen[6];
  int n = 0;
  for (const auto* list : {&up, &down})
    for (LinkId l : *list)
      if (l >= 0 && std::find(seen, seen + n, l) == seen + n) {
        seen[n++] = l;
        sink(l);
      }
}

}  // namespace

int ZoneTree::add_zone(std::string name, int parent, Routing routing) {
  Zone z;
  z.name = std::move(name);
  z.parent = parent;
  z.routing = routing;
  if (parent >= 0) {
    Zone& p = zone_at(parent);
    z.number = p.members++;
    z.depth = p.depth + 1;
  } else {
    SIMFAB_CHECK(zones_.empty(), "a second root zone");
  }
  SIMFAB_CHECK(z.depth <= kMaxZoneDepth, "zones nested too deep");
  if (routing == Routing::kFloyd) z.graph = std::make_unique<ZoneGraph>(ZoneGraph::Kind::kFloyd);
  if (routing == Routing::kDijkstra) z.graph = std::make_unique<ZoneGraph>(ZoneGraph::Kind::kDijkstra);
  zones_.push_back(std::move(z));
  return static_cast<int>(zones_.size()) - 1;
}

int ZoneTree::add_node(int zone, NodeId n) {
  std::vector<Place>& places = is_switch(n) ? switches_ : hosts_;
  const size_t i = static_cast<size_t>(is_switch(n) ? switch_of(n) : n);
  if (places.size() <= i) places.resize(i + 1);
  SIMFAB_CHECK(places[i].zone < 0, "node already in a zone");
  const int m = zone_at(zone).members++;
  places[i] = Place{zone, m};
  return m;
}

void ZoneTree::set_private_links(int zone, NodeId n, LinkId up, LinkId down) {
  Zone& z = zone_at(zone);
  const size_t m = static_cast<size_t>(place(n).member);
  SIMFAB_CHECK(place(n).zone == zone, "private links of a node outside the zone");
  if (z.up.size() <= m) {
    z.up.resize(m + 1, -1);
    z.down.resize(m + 1, -1);
  }
  z.up[m] = up;
  z.down[m] = down;
}

bool ZoneTree::add_route(int zone, int src, int dst, NodeId gw_src, NodeId gw_dst, const std::vector<LinkId>& links) {
  SIMFAB_CHECK(src != dst && !links.empty(), "bad declared route");
  Zone& z = zone_at(zone);
  if (!z.routes.emplace(pair_key(src, dst), static_cast<int32_t>(routes_.size())).second) return false;
  routes_.push_back(DeclaredRoute{gw_src, gw_dst, static_cast<uint32_t>(links_.size()), static_cast<uint32_t>(links.size())});
  links_.insert(links_.end(), links.begin(), links.end());
  if (z.graph) z.graph->add_edge(src, dst, static_cast<int64_t>(links.size()));
  return true;
}

bool ZoneTree::add_bypass(int zone, int src, int dst, NodeId gw_src, NodeId gw_dst, const std::vector<LinkId>& links) {
  SIMFAB_CHECK(!links.empty(), "bad bypass route");
  Zone& z = zone_at(zone);
  if (!z.bypass.emplace(pair_key(src, dst), static_cast<int32_t>(routes_.size())).second) return false;
  routes_.push_back(DeclaredRoute{gw_src, gw_dst, static_cast<uint32_t>(links_.size()), static_cast<uint32_t>(links.size())});
  links_.insert(links_.end(), links.begin(), links.end());
  return true;
}

void ZoneTree::seal(int zone) {
  Zone& z = zone_at(zone);
  if (z.graph) z.graph->seal(z.members);
}

ZoneTree::Place ZoneTree::place(NodeId n) const {
  const std::vector<Place>& places = is_switch(n) ? switches_ : hosts_;
  const size_t i = static_cast<size_t>(is_switch(n) ? switch_of(n) : n);
  return n != kNoNode && i < places.size() ? places[i] : Place{};
}

int ZoneTree::zone_of(NodeId n) const { return place(n).zone; }
int ZoneTree::member_of(NodeId n) const { return place(n).member; }

bool ZoneTree::within(int zone, int ancestor) const {
  while (zone >= 0 && depth(zone) > depth(ancestor)) zone = parent(zone);
  return zone == ancestor;
}

bool ZoneTree::route(const Platform& p, HostId a, HostId b, const RouteRequest& request, LinkSink sink) const {
  return global(p, host_node(a), host_node(b), request, sink);
}

template <class Fn>
bool ZoneTree::declared_path(const Zone& z, int s, int t, const RouteRequest& request, Fn&& fn) const {
  auto declared = [&](int x, int y) -> const DeclaredRoute& { return routes_[static_cast<size_t>(z.routes.at(pair_key(x, y)))]; };
  switch (z.routing) {
    case Routing::kFull: {
      auto it = z.routes.find(pair_key(s, t));
      if (it == z.routes.end()) return false;
      fn(routes_[static_cast<size_t>(it->second)]);
      return true;
    }
    case Routing::kFloyd:
    case Routing::kDijkstra: {
      auto emit_edge = [&](int x, int y) { fn(declared(x, y)); };
      if (!request.avoid) return z.graph->path(s, t, emit_edge);
      auto usable = [&](int x, int y) {
        const DeclaredRoute& r = declared(x, y);
        for (uint32_t i = 0; i < r.count; ++i)
          if (request.avoid->avoid(links_[r.first + i])) return false;
        return true;
      };
      return z.graph->path_avoiding(s, t, usable, emit_edge);
    }
    default:
      return false;
  }
}

void ZoneTree::emit(const DeclaredRoute& r, LinkSink sink) const {
  for (uint32_t i = 0; i < r.count; ++i) sink(links_[r.first + i]);
}

const ZoneTree::DeclaredRoute* ZoneTree::find(const std::unordered_map<uint64_t, int32_t>& table, int s, int t) const {
  if (table.empty()) return nullptr;
  auto it = table.find(pair_key(s, t));
  return it == table.end() ? nullptr : &routes_[static_cast<size_t>(it->second)];
}

const ZoneTree::DeclaredRoute* ZoneTree::zone_bypass(const Zone& c, int zs, int x, int zt, int y) const {
  if (c.bypass.empty()) return nullptr;
  const int ns = depth(zs) - depth(x) + 1;  // zones from zs up to x
  const int nt = depth(zt) - depth(y) + 1;
  auto up = [&](int z, int steps) {
    while (steps-- > 0) z = parent(z);
    return z;
  };
  auto lookup = [&](int i, int j) { return i < ns && j < nt ? find(c.bypass, up(zs, i), up(zt, j)) : nullptr; };
  for (int m = 0; m < std::max(ns, nt); ++m) {
    for (int i = 0; i < m; ++i) {
      if (const DeclaredRoute* r = lookup(i, m)) return r;
      if (const DeclaredRoute* r = lookup(m, i)) return r;
    }
    if (const DeclaredRoute* r = lookup(m, m)) return r;
  }
  return nullptr;
}

bool ZoneTree::through(const Platform& p, NodeId s, NodeId t, const DeclaredRoute& r, const RouteRequest& request,
                       LinkSink sink) const {
  // As SimGrid, even from a gateway to itself (a host's route to itself: a cluster's up and down).
  if (r.gw_src != kNoNode && !global(p, s, r.gw_src, request, sink)) return false;
  emit(r, sink);
  return r.gw_dst == kNoNode || global(p, r.gw_dst, t, request, sink);
}

bool ZoneTree::local(const Platform& p, const Zone& z, NodeId s, int ms, NodeId t, int mt,
                     const RouteRequest& request, LinkSink sink) const {
  if (s == t && !is_switch(s) && p.host(s).loopback >= 0) {
    sink(p.host(s).loopback);
    return true;
  }
  switch (z.routing) {
    case Routing::kFull:
    case Routing::kFloyd:
    case Routing::kDijkstra:
      return s == t || declared_path(z, ms, mt, request, [&](const DeclaredRoute& r) { emit(r, sink); });
    case Routing::kCluster: {
      // Only members given a <host_link> (or a <cabinet>) have links, the backbone among them.
      auto link = [&](const std::vector<LinkId>& v, int m) {
        return static_cast<size_t>(m) < v.size() ? v[static_cast<size_t>(m)] : LinkId{-1};
      };
      const LinkId up = link(z.up, ms);
      const LinkId down = link(z.down, mt);
      star({up, up >= 0 ? z.backbone : -1}, {down >= 0 ? z.backbone : -1, down}, sink);
      return true;
    }
    case Routing::kFlatCluster: {
      const LinkId bb = z.backbone;
      const Host* a = is_switch(s) ? nullptr : &p.host(s);
      const Host* b = is_switch(t) ? nullptr : &p.host(t);
      star({a ? a->limiter : -1, a ? a->up : -1, a ? bb : -1}, {b ? bb : -1, b ? b->down : -1, b ? b->limiter : -1},
           sink);
      return true;
    }
    case Routing::kTopology:
      if (is_switch(s) || is_switch(t)) return false;
      p.topology(z.topology).route(p.host(s).topo_index, p.host(t).topo_index, request, sink);
      return true;
    case Routing::kNone:
      return s == t;
  }
  return false;
}

bool ZoneTree::global(const Platform& p, NodeId s, NodeId t, const RouteRequest& request, LinkSink sink) const {
  const Place ps = place(s);
  const Place pt = place(t);
  if (ps.zone < 0 || pt.zone < 0) return false;
  if (ps.zone == pt.zone) {
    const Zone& z = zone_at(ps.zone);
    if (const DeclaredRoute* r = find(z.bypass, ps.member, pt.member)) return through(p, s, t, *r, request, sink);
    return local(p, z, s, ps.member, t, pt.member, request, sink);
  }
  // The children A (x) and B (y) of the deepest common ancestor C. Nodes live in zones of nodes,
  // which have no child zones, so neither zone is an ancestor of the other.
  int x = ps.zone;
  int y = pt.zone;
  while (depth(x) > depth(y)) x = parent(x);
  while (depth(y) > depth(x)) y = parent(y);
  while (x != y && parent(x) != parent(y)) {
    x = parent(x);
    y = parent(y);
  }
  if (x == y || parent(x) < 0) return false;
  const Zone& c = zone_at(parent(x));
  if (const DeclaredRoute* r = zone_bypass(c, ps.zone, x, pt.zone, y)) return through(p, s, t, *r, request, sink);
  NodeId at = s;  // where the route has got to
  bool ok = true;
  const bool found = declared_path(c, member_number(x), member_number(y), request, [&](const DeclaredRoute& r) {
    if (!ok) return;
    if (at != r.gw_src && !global(p, at, r.gw_src, request, sink)) ok = false;
    emit(r, sink);
    at = r.gw_dst;
  });
  return found && ok && (at == t || global(p, at, t, request, sink));
}

}  // namespace simfab
