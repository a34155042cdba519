// Dragonflies: groups of fully connected routers joined by global cables, with minimal, Valiant
// and UGAL routing. Kim, Dally, Scott and Abts, "Technology-Driven, Highly-Scalable Dragonfly
// Topology", ISCA 2008 (topology, §4.2 routing); global arrangements after Hastings et al.,
// "Comparing global link arrangements for Dragonfly networks", IEEE Cluster 2015, and Camarero,
// Vallejo and Beivide, "Topological characterization of Hamming and dragonfly networks and its
// implications on routing", ACM TACO 11(4), 2014.
//
// Coordinates. g groups of a routers, p hosts per router, h global ports per router. Router R of
// group G (0 <= R < a) has index r = G a + R; its hosts are i = r p + s (0 <= s < p), so hosts are
// in router order. Group G's global ports are numbered k = 0..a h - 1: port k sits on router
// k / h (slot k mod h). Names (T = the topology's name):
//   router (G, R)                      "T_g<G>_r<R>"
//   host i <-> its router (G, R)       cable "T_h<i>_g<G>_r<R>"            UP: host -> router
//   routers R1 < R2 of group G         cable "T_g<G>_r<R1>_r<R2>"          UP: R1 -> R2
//   global, group G < G'               cable "T_g<G>_r<R>_g<G'>_r<R'>" (+ "_c<c>" when m > 1)
//                                                                         UP: G -> G'
// Element counts: routers g a, hosts and host cables g a p, local cables g a (a - 1) / 2, global
// cables g a h / 2 = m g (g - 1) / 2; router radix p + (a - 1) + h. Kim's balanced dragonfly has
// a = 2p = 2h and the largest g = a h + 1 (m = 1).
//
// Global cables. For g >= 2 every pair of groups gets the same number of cables,
//   m = a h / (g - 1)            (REQUIRES a h a positive multiple of g - 1; g = 1 needs h = 0),
// in m copies: port k = c (g - 1) + j has copy c = k / (g - 1) and offset j = k mod (g - 1), and
// the arrangement fixes which group offset j of group G leads to, through j(G, T), the offset of
// group G's ports towards group T != G (d = (T - G) mod g):
//   absolute   j(G, T) = T if T < G, else T - 1       (offset j -> the j-th other group in
//                                                      increasing order: "consecutive")
//   relative   j(G, T) = d - 1                        (offset j -> group G + 1 + j mod g)
//   circulant  j(G, T) = 2 (d - 1)       if d < g - d (offsets in port order lead to
//              j(G, T) = 2 (g - d) - 1   if d > g - d  G + 1, G - 1, G + 2, G - 2, ...; for even g
//              j(G, T) = g - 2           if d = g - d  the last one, G + g/2, is its own mirror)
// Port c (g - 1) + j(G, T) of G is cabled to port c (g - 1) + j(T, G) of T. For each G, j(G, .)
// is a bijection from the other groups onto 0..g-2, so this pairs every port exactly once (a
// perfect matching of the g a h ports) and gives each group pair one cable per copy: m in all.
// (The partner offset j(T, G) is g - 2 - j for relative, and j + 1 / j - 1 for even / odd j in
// circulant, except j = g - 2 for even g, its own partner: Hastings et al.'s pairings for
// g = a h + 1, extended to m copies.) dragonfly_peer() evaluates the pairing.
// Write E(c) = (c (g - 1) + j(G, T)) / h (integer division), the router of G owning copy c's
// cable to T, and L(c) = (c (g - 1) + j(T, G)) / h, the router of T it lands on.
//
// Routing from host a on router (G, R) to host b on router (T, R2); "hops" counts router-to-router
// links (the route adds a's and b's host cables, 2 more). Same router: no hop.
//   minimal   same group: the local cable R -> R2 (1 hop). Other group: local R -> E(c) (unless
//             R = E(c)), the global cable of copy c, local L(c) -> R2 (unless L(c) = R2): 1 to 3
//             hops. The copy: let C_E = {c : E(c) = R} and C_L = {c : L(c) = R2}, intervals of
//             copies (E and L are non-decreasing in c); c = lo + (b mod size) in the first
//             non-empty one of C_E n C_L (1 hop), C_L (2 hops), C_E (2 hops), [0, m) (3 hops).
//             So the route has the fewest hops among the m paths with one global cable, and
//             different destinations spread over equally short copies (destination-based choice).
//             Paths through a third group (two global hops) can be shorter than 3 hops; minimal
//             routing does not take them.
//   valiant   (Valiant and Brebner 1981; Kim et al.'s VAL) through an intermediate group I: with
//             x = mix(a, b, salt) (topo/hash.hpp), I is the (x mod n)-th of the n = g - 2 groups
//             other than G and T in increasing order (n = 0: minimal); copy c1 = splitmix64(x)
//             mod m: local R -> E(c1) (unless equal), the global cable of copy c1 to I, then the
//             minimal route from its landing router in I to (T, R2). At most 5 hops (l g l g l).
//             Pairs of one group route minimally: a detour G -> I -> G could only return over
//             the cable it left by (one cable per group pair), visiting a router twice.
//   ugal      UGAL-L (Singh, PhD thesis, Stanford 2005; Kim et al. §4.2): the minimal path P_m and
//             the Valiant path P_v of the same (a, b, salt). With q(P) = request.load's load of
//             P's first router-to-router link (the source router's output port: its queue) and
//             H(P) its hops, take P_v iff
//               q(P_v) H(P_v) + ugal_threshold < q(P_m) H(P_m),
//             else P_m. No load (request.load null), equal costs and no intermediate group: P_m.
//             H(P_v) can be 2 where H(P_m) is 3, so a balanced load can pick the shorter detour.
// Diameter (minimal routing, in route links = hops + 2; one host: 0; Valiant/UGAL: nullopt):
//   hops 0 if g = a = 1;  1 if g = 1 < a or a = 1 < g;  2 if g, a >= 2 and g - 1 <= h;
//   3 if g, a >= 2 and g - 1 > h.
//   Why: with g - 1 <= h, the h consecutive ports of any router contain every offset mod g - 1,
//   so C_E and C_L are never empty (<= 2 hops), and |E(c) - L(c)| <= 1 with the sign of
//   j(T, G) - j(G, T) for every c, so (R, R2) = (0, 1) or (1, 0) never gets a 1-hop copy. With
//   g - 1 > h, m = a h / (g - 1) < a, so some router of G owns no cable to T and some router of T
//   receives none: 3 hops.
//
// Link blocks. Hosts first, then the routers, then the cables in blocks (w = 2 links per cable
// full duplex, UP then DOWN; 1 half duplex):
//   host cable i                 host_base   + i w
//   local (G, R1 < R2)           local_base  + (G a (a - 1) / 2 + R1 (2a - R1 - 1) / 2 + R2 - R1 - 1) w
//   global (G < G', copy c)      global_base + ((G (g - 1) - G (G - 1) / 2 + G' - G - 1) m + c) w
// The topology keeps g, a, p, h, m, the arrangement and these bases: memory O(1) beyond the host
// list, a route costs O(1) (at most 7 links), no per-pair table. Building costs O(hosts + cables)
// link insertions (g = 1025, a = h = 32, p = 1: 1.07 M cables, 2.1 M links).
// Invariants: routes satisfy the routing contract (topo/topology.hpp); minimal routes have the hop
// counts above; the same (a, b, salt) and loads give the same route. Thread-safety: immutable.
#pragma once

#include <optional>

#include "topo/topo_build.hpp"

namespace simfab {

// How the a*h global ports of each group are wired to the other groups.
enum class GlobalArrangement { kAbsolute, kRelative, kCirculant };
enum class DragonflyRouting { kMinimal, kValiant, kUgal };

struct DragonflyParams {
  int groups = 0;              // g >= 1
  int routers = 0;             // a: routers per group, >= 1
  int hosts_per_router = 1;    // p >= 1
  int global_per_router = 0;   // h: global links per router; a*h a positive multiple of g - 1 (0 if g = 1)
  GlobalArrangement arrangement = GlobalArrangement::kAbsolute;
  std::optional<LinkSpec> global_link;  // default: common.link
  double ugal_threshold = 0;            // UGAL takes Valiant only if its cost is lower by more
};

// One global port: group G's port k (on router k / h).
struct DragonflyPort {
  int group = 0;
  int port = 0;
};

// The port that global port `port` of group `group` is cabled to (see "Global cables").
// REQUIRES: valid parameters with groups >= 2, 0 <= group < groups, 0 <= port < a*h.
DragonflyPort dragonfly_peer(const DragonflyParams& params, int group, int port);

// Adds the routers, hosts and cables, and the topology; returns its index in the platform.
// kind() is "dragonfly"; routing() "minimal", "valiant" or "ugal".
// Throws TopologyError for impossible parameters (param "groups", "routers", "hosts_per_router",
// "global_links"; more than 16777216 hosts is "groups", more than 2^30 links "routers").
int add_dragonfly(Platform& p, const TopoCommon& common, const DragonflyParams& params, DragonflyRouting routing);

}  // namespace simfab
