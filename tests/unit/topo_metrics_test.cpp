// Whole-platform figures (topo/metrics.hpp): route statistics, exact and sampled, and bisection
// bandwidth as a max flow over graphs, half-duplex links, clusters with backbones, limiters and
// cabinets, fatpipes and links without endpoints. Expected values are worked out in the comments.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "topo/graph.hpp"
#include "topo/metrics.hpp"
#include "topo_test_support.hpp"

namespace simfab {
namespace {

using testing::checked_route;
using testing::topo_common;

constexpr double kBw = 10e9;  // topo_common's bandwidth everywhere

LinkSpec spec(double bw, bool fatpipe = false) {
  return LinkSpec{bw, SimTime::ps(100'000), fatpipe ? LinkSharing::kFatpipe : LinkSharing::kShared};
}

// Leaf-spine graph: `hosts` hosts, `per_leaf` on each leaf, `spines` spines, every leaf cabled to
// every spine with `uplink` bandwidth (host cables: host_bw).
void leaf_spine(Platform& p, const std::string& name, int hosts, int per_leaf, int spines, double uplink,
                double host_bw = kBw, bool full_duplex = true, GraphRouting routing = GraphRouting::kEcmp) {
  TopoCommon common = topo_common(name, full_duplex);
  GraphParams g;
  const int leaves = (hosts + per_leaf - 1) / per_leaf;
  std::vector<NodeId> leaf, spine;
  for (int j = 0; j < leaves; ++j) leaf.push_back(switch_node(add_topo_switch(p, name + "_l" + std::to_string(j))));
  for (int j = 0; j < spines; ++j) spine.push_back(switch_node(add_topo_switch(p, name + "_s" + std::to_string(j))));
  for (int i = 0; i < hosts; ++i) {
    const HostId h = add_topo_host(p, common.hosts, i);
    g.edges.push_back(GraphEdge{host_node(h), leaf[static_cast<size_t>(i / per_leaf)], "", spec(host_bw)});
  }
  for (NodeId l : leaf)
    for (NodeId s : spine) g.edges.push_back(GraphEdge{l, s, "", spec(uplink)});
  add_graph(p, common, g, routing);
}

// H8_S2 (seed 004 §3.2): two 4-host stars; the joining cable has bandwidth `join_bw` and is
// declared from the second star's switch to the first one's.
void h8_s2(Platform& p, double join_bw, bool full_duplex) {
  TopoCommon common = topo_common("S2", full_duplex);
  const NodeId s0 = switch_node(add_topo_switch(p, "S2_s0"));
  const NodeId s1 = switch_node(add_topo_switch(p, "S2_s1"));
  GraphParams g;
  for (int i = 0; i < 8; ++i) {
    const HostId h = add_topo_host(p, common.hosts, i);
    // Host cables declared switch -> host, against the direction the first half sends in.
    g.edges.push_back(GraphEdge{i < 4 ? s0 : s1, host_node(h), "", spec(kBw)});
  }
  g.edges.push_back(GraphEdge{s1, s0, "join", spec(join_bw)});
  add_graph(p, common, g, GraphRouting::kShortestPath);
}

TEST(TopoMetrics, RouteStatsExactThenSampled) {
  // 40 hosts, 10 leaves of 4, 2 spines: from each host 3 pairs of 2 hops and 36 of 4,
  // avg = (3 * 2 + 36 * 4) / 39 = 150 / 39 = 3.846..., diameter 4; 40 * 39 = 1560 ordered pairs.
  Platform p;
  leaf_spine(p, "R", 40, 4, 2, kBw);
  const RouteStats exact = route_stats(p, 1560);
  EXPECT_TRUE(exact.exact);
  EXPECT_EQ(exact.pairs, 1560u);
  EXPECT_EQ(exact.unrouted, 0u);
  EXPECT_EQ(exact.diameter, 4);
  EXPECT_DOUBLE_EQ(exact.avg_hops, 150.0 / 39);

  const RouteStats sampled = route_stats(p, 1559);  // one pair short: the sample
  EXPECT_FALSE(sampled.exact);
  EXPECT_EQ(sampled.pairs, 1559u);
  const RouteStats small = route_stats(p, 600);
  EXPECT_FALSE(small.exact);
  EXPECT_EQ(small.pairs, 600u);
  EXPECT_EQ(small.unrouted, 0u);
  EXPECT_EQ(small.diameter, 4);
  // Hops are 2 with probability 3/39, else 4: standard deviation 0.53, so the mean of 600 draws
  // is within 0.1 of 3.846 (~5 standard errors).
  EXPECT_NEAR(small.avg_hops, 150.0 / 39, 0.1);
  const RouteStats again = route_stats(p, 600);  // a fixed seed: the same sample
  EXPECT_EQ(again.avg_hops, small.avg_hops);
  EXPECT_EQ(again.diameter, small.diameter);

  const RouteStats none = route_stats(p, 0);
  EXPECT_FALSE(none.exact);
  EXPECT_EQ(none.pairs, 0u);
  EXPECT_EQ(none.avg_hops, 0);
}

TEST(TopoMetrics, RouteStatsCountsUnroutedPairs) {
  // Three standalone hosts and one one-way route 0 -> 1 over a link without endpoints (one hop):
  // 6 ordered pairs, 5 without a route, the routed one has 1 hop.
  Platform p;
  for (const char* n : {"a", "b", "c"}) p.add_host(Host{.name = n});
  Link l;
  l.name = "l";
  l.bandwidth_Bps = 1e9;
  const LinkId id = p.add_link(l);
  p.add_route(0, 1, {id}, /*one_way=*/true);
  const RouteStats st = route_stats(p);
  EXPECT_TRUE(st.exact);
  EXPECT_EQ(st.pairs, 6u);
  EXPECT_EQ(st.unrouted, 5u);
  EXPECT_EQ(st.diameter, 1);
  EXPECT_DOUBLE_EQ(st.avg_hops, 1.0);
  // Its link has no endpoints: not in the link graph, so no bisection.
  EXPECT_EQ(bisection_bandwidth(p), 0);

  Platform one;
  one.add_host(Host{.name = "solo"});
  EXPECT_EQ(route_stats(one).pairs, 0u);
  EXPECT_EQ(bisection_bandwidth(one), 0);
  EXPECT_EQ(route_stats(Platform{}).pairs, 0u);
}

TEST(TopoMetrics, BisectionOfTheH8Graphs) {
  {  // H8_S1: hosts 0-3 send up their own cable, 4-7 receive down theirs: 4 x 10 GB/s.
    Platform p;
    leaf_spine(p, "S1", 8, 8, 0, kBw);
    EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 4 * kBw);
  }
  {  // H8_S2: the halves are the two stars; the joining cable (2.5 GB/s) is the cut.
    Platform p;
    h8_s2(p, 2.5e9, true);
    EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 2.5e9);
  }
  {  // H8_S6, equal links: leaves 0-1 hold the first half, with 2 x 2 uplinks of 10 GB/s = 40 GB/s
     // and 4 host cables of 10 GB/s: full bisection, 4 x 10 GB/s.
    Platform p;
    leaf_spine(p, "S6", 8, 2, 2, kBw);
    EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 4 * kBw);
  }
  {  // H8_S6 with 3 GB/s uplinks: the 4 uplinks of leaves 0-1 bind, 12 GB/s.
    Platform p;
    leaf_spine(p, "S6t", 8, 2, 2, 3e9);
    EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 12e9);
  }
  {  // H8_S4, K4 of switches with two hosts each: switches 0-1 hold the first half; the cut is the
     // 4 cables {0,1} x {2,3} (40 GB/s), as are the 4 host cables (40 GB/s): 40 GB/s.
    Platform p;
    TopoCommon common = topo_common("S4");
    GraphParams g;
    std::vector<NodeId> sw;
    for (int j = 0; j < 4; ++j) sw.push_back(switch_node(add_topo_switch(p, "S4_s" + std::to_string(j))));
    for (int i = 0; i < 8; ++i)
      g.edges.push_back(GraphEdge{host_node(add_topo_host(p, common.hosts, i)), sw[static_cast<size_t>(i / 2)], "",
                                  spec(kBw)});
    for (int j = 0; j < 4; ++j)
      for (int k = j + 1; k < 4; ++k) g.edges.push_back(GraphEdge{sw[static_cast<size_t>(j)], sw[static_cast<size_t>(k)], "", spec(kBw)});
    add_graph(p, common, g, GraphRouting::kShortestPath);
    EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 4 * kBw);
  }
}

TEST(TopoMetrics, BisectionOverHalfDuplexLinks) {
  {  // H8_S1 half-duplex: each host's one shared cable is used in one direction: 4 x 10 GB/s.
    Platform p;
    leaf_spine(p, "HS1", 8, 8, 0, kBw, kBw, /*full_duplex=*/false);
    EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 4 * kBw);
  }
  {  // H8_S2 half-duplex, every cable declared against the flow (switch -> host, s1 -> s0): the
     // shared joining cable still carries 2.5 GB/s from s0 to s1.
    Platform p;
    h8_s2(p, 2.5e9, false);
    EXPECT_EQ(p.links().size(), 9u);
    EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 2.5e9);
  }
  {  // A switch with a node capacity and a half-duplex cable (the gadget): X holds hosts 0, 1
     // (shared 10 GB/s cables) and an internal 15 GB/s link; Y holds hosts 2, 3; the X-Y cable
     // (30 GB/s, shared, declared Y -> X). Flow 0,1 -> X (20) -> through X (15) -> Y (30) -> 2,3
     // (20): 15 GB/s. Without X's internal link: 20 GB/s; with a 12 GB/s X-Y cable: 12 GB/s.
    for (const auto& [x_cap, xy, expected] : {std::tuple{15e9, 30e9, 15e9}, std::tuple{0.0, 30e9, 20e9},
                                              std::tuple{15e9, 12e9, 12e9}}) {
      Platform p;
      const NodeId x = switch_node(p.add_switch("X"));
      const NodeId y = switch_node(p.add_switch("Y"));
      auto link = [&](const std::string& name, double bw, NodeId from, NodeId to) {
        Link l;
        l.name = name;
        l.bandwidth_Bps = bw;
        const LinkId id = p.add_link(l);
        p.join(id, from, to);
      };
      for (int i = 0; i < 4; ++i) {
        const HostId h = p.add_host(Host{.name = "h" + std::to_string(i)});
        link("c" + std::to_string(i), kBw, host_node(h), i < 2 ? x : y);
      }
      if (x_cap > 0) link("x_internal", x_cap, x, x);
      link("xy", xy, y, x);
      EXPECT_DOUBLE_EQ(bisection_bandwidth(p), expected) << x_cap << " " << xy;
    }
  }
}

// A cluster built through Platform as the YAML loader does (platform.hpp's route rule): a core
// switch with an optional backbone (internal link), split-duplex private links of 10 GB/s,
// optional per-host limiters, fatpipe loopbacks of 1 GB/s, optional cabinets (a switch each, an
// up/down pair of cab_bw, an optional limiter).
struct ClusterShape {
  int hosts = 8;
  double backbone = 0;         // 0: none
  double limiter = 0;          // 0: none
  std::vector<int> cabinets{};  // sizes; empty: flat
  double cab_bw = 20e9;
  double cab_limiter = 0;
  LinkSharing backbone_sharing = LinkSharing::kShared;
};

Platform make_cluster(const ClusterShape& shape) {
  Platform p;
  auto link = [&](const std::string& name, double bw, NodeId from, NodeId to,
                  LinkSharing sharing = LinkSharing::kShared) {
    Link l;
    l.name = name;
    l.bandwidth_Bps = bw;
    l.sharing = sharing;
    const LinkId id = p.add_link(l);
    p.join(id, from, to);
    return id;
  };
  const NodeId core = switch_node(p.add_switch("c_switch"));
  Cluster c;
  c.name = "c";
  if (shape.backbone > 0) c.backbone = link("c_backbone", shape.backbone, core, core, shape.backbone_sharing);
  std::vector<NodeId> cab_switch;
  for (size_t k = 0; k < shape.cabinets.size(); ++k) {
    const std::string base = "c_cabinet_" + std::to_string(k);
    const NodeId sw = switch_node(p.add_switch(base + "_switch"));
    cab_switch.push_back(sw);
    Cabinet cab;
    cab.up = link(base + "_UP", shape.cab_bw, sw, core);
    cab.down = link(base + "_DOWN", shape.cab_bw, core, sw);
    p.set_twins(cab.up, cab.down);
    if (shape.cab_limiter > 0) cab.limiter = link(base + "_limiter", shape.cab_limiter, sw, sw);
    c.cabinets.push_back(cab);
  }
  const int cluster = p.add_cluster(c);
  int cabinet = 0;
  int left = shape.cabinets.empty() ? 0 : shape.cabinets[0];
  for (int i = 0; i < shape.hosts; ++i) {
    const NodeId self = host_node(p.host_count());
    Host h;
    h.name = "c" + std::to_string(i);
    h.cluster = cluster;
    if (!shape.cabinets.empty()) {
      if (left == 0) left = shape.cabinets[static_cast<size_t>(++cabinet)];
      --left;
      h.cabinet = cabinet;
    }
    const NodeId attach = shape.cabinets.empty() ? core : cab_switch[static_cast<size_t>(cabinet)];
    h.up = link("c_link_" + std::to_string(i) + "_UP", kBw, self, attach);
    h.down = link("c_link_" + std::to_string(i) + "_DOWN", kBw, attach, self);
    p.set_twins(h.up, h.down);
    if (shape.limiter > 0) h.limiter = link("c_limiter_" + std::to_string(i), shape.limiter, self, self);
    h.loopback = link("c_loopback_" + std::to_string(i), 1e9, self, self, LinkSharing::kFatpipe);
    p.add_host(h);
  }
  return p;
}

TEST(TopoMetrics, BisectionOfClusters) {
  {  // Backbone 25 GB/s: every route between hosts crosses it: min(25, 4 x 10) = 25 GB/s. The
     // 1 GB/s loopbacks carry only a -> a and do not count.
    const Platform p = make_cluster({.backbone = 25e9});
    checked_route(p, 0, 7);
    EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 25e9);
  }
  {  // Backbone 100 GB/s: the 4 private up links bind, 40 GB/s. No backbone: the same.
    EXPECT_DOUBLE_EQ(bisection_bandwidth(make_cluster({.backbone = 100e9})), 40e9);
    EXPECT_DOUBLE_EQ(bisection_bandwidth(make_cluster({})), 40e9);
  }
  {  // A fatpipe backbone bounds each flow, not their sum: 40 GB/s.
    EXPECT_DOUBLE_EQ(bisection_bandwidth(make_cluster({.backbone = 1e9, .backbone_sharing = LinkSharing::kFatpipe})),
                     40e9);
  }
  {  // Limiters of 6 GB/s on every host (crossed by all its flows): 4 x 6 = 24 GB/s.
    EXPECT_DOUBLE_EQ(bisection_bandwidth(make_cluster({.backbone = 100e9, .limiter = 6e9})), 24e9);
  }
  {  // Two cabinets of 4, 20 GB/s up/down, limiter 12 GB/s: cabinet 0 holds the first half, its
     // 12 GB/s limiter binds: 12 GB/s.
    const Platform p = make_cluster({.cabinets = {4, 4}, .cab_limiter = 12e9});
    checked_route(p, 0, 7);
    checked_route(p, 0, 1);
    EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 12e9);
  }
  {  // Cabinets of 3 and 5: hosts 0-2 in cabinet 0, 3-7 in cabinet 1. Host 3 (first half) reaches
     // hosts 4-7 inside cabinet 1 without crossing its limiter: 10 GB/s (its private link); hosts
     // 0-2 send 30 GB/s through limiter 0 (12), up 0 (20), down 1 (20), limiter 1 (12): 12 GB/s.
     // Total 22 GB/s (a limiter modelled as a capacity on the whole cabinet switch would give 12).
    const Platform p = make_cluster({.cabinets = {3, 5}, .cab_limiter = 12e9});
    EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 22e9);
    // Without limiters: min(30, 20 up) + 10 = 30 GB/s.
    EXPECT_DOUBLE_EQ(bisection_bandwidth(make_cluster({.cabinets = {3, 5}})), 30e9);
  }
}

TEST(TopoMetrics, BisectionOfFatpipesIsInfinite) {
  // A star of fatpipe cables: no link bounds the aggregate.
  Platform p;
  leaf_spine(p, "FP", 4, 4, 0, kBw, kBw);
  Platform q;
  TopoCommon common = topo_common("FQ");
  const NodeId s = switch_node(add_topo_switch(q, "FQ_s"));
  GraphParams g;
  for (int i = 0; i < 4; ++i)
    g.edges.push_back(GraphEdge{host_node(add_topo_host(q, common.hosts, i)), s, "", spec(kBw, /*fatpipe=*/true)});
  add_graph(q, common, g, GraphRouting::kShortestPath);
  EXPECT_EQ(bisection_bandwidth(q), std::numeric_limits<double>::infinity());
  EXPECT_DOUBLE_EQ(bisection_bandwidth(p), 2 * kBw);
}

TEST(TopoMetrics, BisectionOfALargeLeafSpine) {
  // 4096 hosts on 64 leaves of 64, 32 spines, one 10 GB/s cable per leaf-spine pair: leaves 0-31
  // hold the first half; their 32 x 32 uplinks (10.24 TB/s) bind before their 2048 host cables
  // (20.48 TB/s).
  Platform p;
  leaf_spine(p, "L", 4096, 64, 32, kBw);
  const auto start = std::chrono::steady_clock::now();
  const double b = bisection_bandwidth(p);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NEAR(b, 32 * 32 * kBw, 1e-9 * b);
  EXPECT_LT(seconds, 2.0);
}

}  // namespace
}  // namespace simfab
