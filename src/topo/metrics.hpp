// Whole-platform figures for `simfab platform describe`: the diameter and average hop count of the
// routes the platform actually uses, and the bisection bandwidth of its link graph.
//
// Route statistics. Over a set P of ordered host pairs (a != b):
//   diameter = max_{(a,b) in P routed} hops(a, b)
//   avg_hops = (1 / |P_routed|) * sum_{(a,b) in P routed} hops(a, b)
// with hops from Platform::route_summary (links not internal to a node), the routing's own choice
// for request {} (salt 0, no load). P is every ordered pair when H (H - 1) <= max_pairs (exact),
// else a deterministic sample of max_pairs pairs: D = min(H, ceil(sqrt(max_pairs))) batches, each
// a destination b drawn uniformly and up to ceil(max_pairs / D) sources drawn uniformly from the
// other H - 1 hosts (with replacement; splitmix64 stream, fixed seed), so avg_hops is an unbiased
// estimate and the diameter a lower bound. Both orders are destination-major, so a routing that
// caches per-destination state (topo/graph.hpp) computes it once per batch. `pairs` counts P,
// `unrouted` the pairs of P without a route, which the averages exclude.
// Cost: |P| route_summary calls (no allocation), plus the routing's per-destination work.
//
// Bisection bandwidth: the max flow, in bytes/s, from a super-source s joined to hosts
// [0, H/2) to a super-sink t joined to hosts [H/2, H) (host id order; H < 2: 0), where every
// host is its own end of the cut (the arcs s -> h and h -> t are infinite unless the host has a
// limiter). The flow network over the platform's link graph:
//   - a link with from != to and a twin (a split-duplex direction) is the arc from -> to with
//     capacity B_l;
//   - a link with from != to and no twin (a half-duplex cable, crossed both ways) is an
//     undirected edge of capacity B_l shared by both directions: the arc pair u -> v, v -> u,
//     each the other's residual twin and both of capacity B_l. This is exact for one commodity:
//     flow both ways on an edge cancels in any max flow, so net flow <= B_l is all that matters.
//     When an end is split (below) the two directions run between different node copies, so the
//     edge becomes the gadget u_out -> x, v_out -> x, x -> y (B_l), y -> u_in, y -> v_in;
//   - hosts are endpoints, never transit (routes never cross a host): a source-side host keeps
//     only its outgoing arcs and a sink-side host its incoming ones, so its half-duplex link is
//     a one-way arc;
//   - a link with from == to is internal to its node, which the platform's route rule crosses on
//     every route through (or from, or to) that node: a cluster backbone is crossed by every
//     route through the cluster switch, a host limiter by every route to or from the host. So it
//     is a node capacity: a switch is split into in -> out with an arc of capacity B_l, a host's
//     s/t arc gets capacity B_l. Several internal links on one node: every route crosses all of
//     them, so the smallest binds: the node capacity is their minimum. Exceptions:
//       * a host's loopback (Host::loopback) carries only the route a -> a: ignored;
//       * a cabinet limiter is crossed only by routes leaving or entering its cabinet (not by
//         two hosts of the cabinet, which meet in its switch): it is a half-duplex edge of
//         capacity B_l between the cabinet switch and a gate node that takes over the cabinet's
//         up (gate -> core) and down (core -> gate) links, the exact route rule;
//   - a kFatpipe link bounds each flow, not their sum: infinite capacity (an aggregate made of
//     fatpipes only is +infinity);
//   - links with an unknown end (kNoNode: `links:` entries used by explicit routes) are not in
//     the link graph and are ignored, so explicit-route platforms measure 0 unless clusters or
//     topologies join their hosts.
// Algorithm: Dinic (blocking flows on BFS level graphs, current-arc iterative DFS, one path at a
// time), O(V^2 E) worst case, a few phases on fat-trees, tori and dragonflies. Capacities are
// doubles; a residual <= eps = 1e-12 * (largest finite capacity) counts as saturated. Infinite
// arcs are kept infinite; an s-t path of infinite arcs only is detected first and gives +inf.
// Memory: V + 2 E' arcs of 12 bytes plus CSR, E' <= links + 5 per split half-duplex link.
// Measured (Release): a 65,536-host 3-level k = 64 fat-tree given as a graph (70,658 nodes,
// 393,216 links) in 0.07-0.2 s; a 65,536-host leaf-spine (262,144 links) in 0.05-0.1 s.
// Thread-safety: both functions only read the platform (its topologies' caches aside).
#pragma once

#include <cstdint>

#include "platform/platform.hpp"

namespace simfab {

struct RouteStats {
  int diameter = 0;          // most hops over the routed pairs measured
  double avg_hops = 0;       // mean hops over the routed ordered pairs (a != b) measured
  uint64_t pairs = 0;        // pairs measured, routed or not
  bool exact = true;         // all ordered pairs (else a deterministic sample)
  uint64_t unrouted = 0;     // pairs measured without a route
};

// Over all ordered host pairs when hosts * (hosts - 1) <= max_pairs, else a deterministic sample
// of max_pairs pairs (the header explains the sample).
RouteStats route_stats(const Platform& p, uint64_t max_pairs = 4'000'000);

// Bisection bandwidth in bytes/s: the max flow from the first half of the hosts (host order) to
// the second half over the link graph (see the header for the network); +inf when only fatpipe
// links separate the halves.
double bisection_bandwidth(const Platform& p);

}  // namespace simfab
