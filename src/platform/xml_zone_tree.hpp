// ZoneTree: SimGrid's hierarchy of network zones, the RouteProvider of a platform read from
// SimGrid XML (platform/xml_platform.hpp builds it). It answers every host pair that is not in
// one <cluster>: routes inside a zone (Full tables, Floyd / Dijkstra shortest paths, routing=
// "Cluster" stars) and routes between zones (zoneRoutes, composed through their gateways), with
// SimGrid 3.32's links, in SimGrid's order.
//
// Zones form one tree. A zone holds either zones (child zones and clusters, which are zones too)
// or nodes (hosts and routers); members are numbered 0..n-1 per zone in declaration order, which
// is SimGrid's netpoint numbering (Floyd's tie-breaking depends on it). Routings:
//   kFull        the declared routes only: src -> dst is its table entry, or none
//   kFloyd, kDijkstra   shortest paths over the declared routes (xml_zone_graph.hpp)
//   kCluster     routing="Cluster" (SimGrid's StarZone): the source's links up, then the
//                destination's links down, each link once. A member given a <host_link> (or made
//                by a <cabinet>) goes up by [up, backbone] and down by [backbone, down]; any
//                other member (a router, a host without <host_link>) by nothing. So a -> b is
//                up(a), backbone, down(b) when both have private links.
//   kFlatCluster a FLAT <cluster>, the same star over its hosts' links (Host::up, down, limiter;
//                the cluster is not a Platform cluster, so its routes are SimGrid's): a host goes
//                up by [limiter, up, backbone] and down by [backbone, down, limiter], its router
//                (the switch its private links join) by nothing
//   kTopology    a FAT_TREE / TORUS / DRAGONFLY <cluster>: the topology's routing (hosts only:
//                SimGrid 3.32 gives these clusters no router, so their gateways are hosts);
//                these topologies (xml_fat_tree.hpp, xml_torus.hpp, xml_dragonfly.hpp) also
//                route a host to itself, as SimGrid does
//   kNone        no route
// A route declared in a zone of zones joins two child zones and names gateways: gw_src, a node
// inside src's subtree, and gw_dst, inside dst's (the builder checks it).
//
// The route s -> t between nodes (NetZoneImpl::get_global_route):
//   - s and t in the same zone Z: Z's route s -> t;
//   - otherwise let C be their deepest common ancestor and A, B the children of C holding s and
//     t. C's routing gives a sequence of declared zone routes e_1 .. e_k from A to B (k = 1 for
//     Full), and the route is
//       route(s, gw_src(e_1)), links(e_1), route(gw_dst(e_1), gw_src(e_2)), links(e_2), ...,
//       links(e_k), route(gw_dst(e_k), t)
//     where a route between equal points is empty (FloydZone composes the middle pieces the same
//     way; SimGrid 3.32's DijkstraZone dereferences a null gateway there and crashes, simfab
//     composes as Floyd does);
// Links that are off (RouteRequest::avoid, asked by the flow model when a route crosses a link
// whose state profile is off): Floyd and Dijkstra zones take the shortest path over the declared
// routes that avoid them, if any (simfab's addition: SimGrid 3.32 fails the communication); a
// zone route's own links are checked at its level, the pieces inside child zones at theirs.
// Bypass routes (NetZoneImpl::get_bypass_route) come first, at every level of the recursion: a
// <bypassRoute> s -> t of zone Z replaces Z's route s -> t (also as a piece of a longer route);
// a <bypassZoneRoute> A' -> B' of C is used for s -> t when C is their deepest common ancestor and
// A' lies on the way from s's zone up to A, B' on the way from t's zone up to B: with the zones
// numbered by their distance from s's (resp. t's) zone, the pair (i, j) tried first is the one
// with the smallest max(i, j), then (i < j before j < i, smaller first), then (m, m). The route
// is then route(s, gw_src), its links, route(gw_dst, t), where a gateway's route to itself is
// its self-route (below), as in SimGrid (a zoneRoute's gateway equal to s or t adds nothing).
// Routes are listed in path order, from s to t, which is SimGrid's list for Full, Floyd and
// cluster zones. SimGrid 3.32's DijkstraZone builds its list by inserting at the front
// (insert_link_latency): each declared route on the path comes out reversed, and the whole
// Dijkstra piece lands before the links already gathered for the route being built (for
// paris-0 -> lyon-3 of examples/platforms/two_sites.xml SimGrid lists wan-direct_UP before
// paris-uplink). simfab keeps the path order there too: the same links, the same latency and
// bottleneck, an order that follows the path.
// A node to itself (asked by the Platform for a host without loopback link, and on the way
// through a bypass route's gateway): the host's loopback link if it has one; else kCluster and
// kFlatCluster give the star's up and down links, each once (SimGrid's StarZone: c0 -> c0 is
// limiter, up, backbone, down); kTopology the topology's own self-route (FAT_TREE: the host's
// cable up and down, DRAGONFLY: its local link up and down, TORUS: its limiter or nothing);
// anything else an empty route (SimGrid 3.32 adds its network model's __loopback__ link in Full /
// Floyd / Dijkstra zones; simfab does not).
// Every nested route lies in a strictly smaller subtree (both ends inside one child of C), so
// the recursion ends after at most `depth` levels (zones nest at most kMaxZoneDepth deep).
// No route (false): a missing table entry or unreachable vertex anywhere on the way, a kNone
// zone, nodes in two different roots. (SimGrid 3.32 returns an empty route for a pair of a Full
// zone without declared route, and errors at use for the rest.)
//
// Storage: per node its zone and member number (O(hosts + routers)); per zone its declared routes
// (a hash map from the member pair to a route, O(R) links), Floyd's n^2 predecessors, Dijkstra's
// bounded cache, routing="Cluster"'s private links per member. Nothing per host pair.
// Cost: a route within one zone is O(1) (Full, clusters), O(path) (Floyd, cached Dijkstra) or
// O((n + e) log n) (uncached Dijkstra source); between zones, the sum over the pieces plus
// O(depth) to find C. No allocation once the caches are warm.
// Thread-safety: route() fills the Dijkstra caches: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "platform/platform.hpp"
#include "platform/xml_zone_graph.hpp"

namespace simfab {

constexpr int kMaxZoneDepth = 256;

class ZoneTree final : public RouteProvider {
 public:
  enum class Routing : uint8_t { kFull, kFloyd, kDijkstra, kCluster, kFlatCluster, kTopology, kNone };

  // ---- building, in document order (the builder validates; violations here are SIMFAB_CHECKs)
  // A zone below `parent` (-1: the root, once); its index. REQUIRES: depth <= kMaxZoneDepth.
  int add_zone(std::string name, int parent, Routing routing);
  // Node n (a host, or a router: a switch) joins zone z; its member number.
  int add_node(int zone, NodeId n);
  // The Platform topology of a kTopology zone; its route() also answers a host to itself.
  void set_topology(int zone, int topology) { zone_at(zone).topology = topology; }
  // routing="Cluster": host n's private links (<host_link>). kCluster, kFlatCluster: the backbone.
  void set_private_links(int zone, NodeId n, LinkId up, LinkId down);
  void set_backbone(int zone, LinkId l) { zone_at(zone).backbone = l; }
  // The route src -> dst between members of zone z (gateways: kNoNode inside a zone of nodes).
  // False when src -> dst is already declared. REQUIRES: src != dst, links not empty.
  bool add_route(int zone, int src, int dst, NodeId gw_src, NodeId gw_dst, const std::vector<LinkId>& links);
  // A bypass route, asked before the routing (see above): in a zone of nodes between members
  // src and dst (<bypassRoute>, gateways kNoNode), in a zone of zones between zones src and dst
  // (zone indices, below it in two different children) through gw_src in src and gw_dst in dst
  // (<bypassZoneRoute>). One way. False when src -> dst already has one. REQUIRES: links not empty.
  bool add_bypass(int zone, int src, int dst, NodeId gw_src, NodeId gw_dst, const std::vector<LinkId>& links);
  // After the zone's last route (Floyd computes its tables).
  void seal(int zone);

  // ---- queries
  int zone_count() const { return static_cast<int>(zones_.size()); }
  const std::string& name(int zone) const { return zone_at(zone).name; }
  int parent(int zone) const { return zone_at(zone).parent; }
  int depth(int zone) const { return zone_at(zone).depth; }
  int member_number(int zone) const { return zone_at(zone).number; }  // in its parent
  int member_count(int zone) const { return zone_at(zone).members; }
  Routing routing(int zone) const { return zone_at(zone).routing; }
  // The zone holding node n and n's member number there; -1 when n belongs to no zone.
  int zone_of(NodeId n) const;
  int member_of(NodeId n) const;
  // True when `zone` is `ancestor` or lies below it.
  bool within(int zone, int ancestor) const;

  bool route(const Platform& p, HostId a, HostId b, const RouteRequest& request, LinkSink sink) const override;

 private:
  struct DeclaredRoute {
    NodeId gw_src = kNoNode;
    NodeId gw_dst = kNoNode;
    uint32_t first = 0;  // into links_
    uint32_t count = 0;
  };
  struct Zone {
    std::string name;
    int parent = -1;
    int number = -1;
    int depth = 0;
    Routing routing = Routing::kFull;
    int members = 0;
    int topology = -1;
    LinkId backbone = -1;
    std::vector<LinkId> up, down;  // kCluster, by member number (-1: none)
    std::unordered_map<uint64_t, int32_t> routes;  // (src << 32 | dst) -> index into routes_
    std::unordered_map<uint64_t, int32_t> bypass;  // the same for bypass routes (zone indices in a zone of zones)
    std::unique_ptr<ZoneGraph> graph;             // kFloyd, kDijkstra
  };
  struct Place {
    int32_t zone = -1;
    int32_t member = -1;
  };

  Zone& zone_at(int z) {
    SIMFAB_CHECK(z >= 0 && static_cast<size_t>(z) < zones_.size(), "no such zone");
    return zones_[static_cast<size_t>(z)];
  }
  const Zone& zone_at(int z) const {
    SIMFAB_CHECK(z >= 0 && static_cast<size_t>(z) < zones_.size(), "no such zone");
    return zones_[static_cast<size_t>(z)];
  }
  Place place(NodeId n) const;
  // The route s -> t between any two nodes (the rule above).
  bool global(const Platform& p, NodeId s, NodeId t, const RouteRequest& request, LinkSink sink) const;
  // The route between two nodes of zone z (members ms, mt).
  bool local(const Platform& p, const Zone& z, NodeId s, int ms, NodeId t, int mt, const RouteRequest& request,
             LinkSink sink) const;
  // Calls fn for each declared route of z's path from member s to member t; false if none. With
  // request.avoid, a Floyd or Dijkstra zone's path uses only declared routes none of whose links
  // it avoids (ZoneGraph::path_avoiding).
  template <class Fn>
  bool declared_path(const Zone& z, int s, int t, const RouteRequest& request, Fn&& fn) const;
  // A declared route's links.
  void emit(const DeclaredRoute& r, LinkSink sink) const;
  const DeclaredRoute* find(const std::unordered_map<uint64_t, int32_t>& table, int s, int t) const;
  // C's bypass route for nodes in zones zs (below C's child x) and zt (below y), in SimGrid's
  // search order; null when none.
  const DeclaredRoute* zone_bypass(const Zone& c, int zs, int x, int zt, int y) const;
  // The route s -> t through bypass route r's gateways.
  bool through(const Platform& p, NodeId s, NodeId t, const DeclaredRoute& r, const RouteRequest& request,
               LinkSink sink) const;

  std::vector<Zone> zones_;
  std::vector<DeclaredRoute> routes_;
  std::vector<LinkId> links_;
  std::vector<Place> hosts_;     // by HostId
  std::vector<Place> switches_;  // by SwitchId (routers only; -1 for other switches)
};

}  // namespace simfab
