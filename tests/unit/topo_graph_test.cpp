// Explicit graphs (topo/graph.hpp): seed 004's H8 verification topologies and their hop counts,
// shortest-path and ECMP routing, hosts as endpoints only, the connectivity check, forward() and
// the bounded distance cache.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "topo/graph.hpp"
#include "topo/metrics.hpp"
#include "topo_test_support.hpp"

namespace simfab {
namespace {

using testing::checked_route;
using testing::hops;
using testing::topo_common;

// A graph under construction: hosts "<name>h<i>", switches "<name>_s<j>", edges with the common
// host/switch link specs.
struct GraphBuilder {
  Platform& p;
  TopoCommon common;
  GraphParams params;
  std::vector<HostId> hosts;
  std::vector<SwitchId> switches;

  GraphBuilder(Platform& platform, const std::string& name, int n_hosts, int n_switches, bool full_duplex = true)
      : p(platform), common(topo_common(name, full_duplex)) {
    for (int i = 0; i < n_hosts; ++i) hosts.push_back(add_topo_host(p, common.hosts, i));
    for (int j = 0; j < n_switches; ++j) switches.push_back(add_topo_switch(p, name + "_s" + std::to_string(j)));
  }
  NodeId h(int i) const { return host_node(hosts[static_cast<size_t>(i)]); }
  NodeId s(int j) const { return switch_node(switches[static_cast<size_t>(j)]); }
  void edge(NodeId a, NodeId b, const LinkSpec& spec, std::string name = "") {
    params.edges.push_back(GraphEdge{a, b, std::move(name), spec});
  }
  void host_edge(int i, int j) { edge(h(i), s(j), common.host_link); }
  void switch_edge(int j, int k) { edge(s(j), s(k), common.link); }
  int build(GraphRouting routing = GraphRouting::kShortestPath) { return add_graph(p, common, params, routing); }
};

enum class H8 { kS1, kS2, kS4, kS6 };

// Seed 004 §3.2: H8_S1 a star; H8_S2 two 4-host stars joined by one cable; H8_S4 four switches of
// two hosts, a full mesh K4; H8_S6 four leaves of two hosts, each leaf cabled to both spines.
int build_h8(Platform& p, H8 kind, GraphRouting routing = GraphRouting::kShortestPath, const std::string& name = "T") {
  const int switches = kind == H8::kS1 ? 1 : kind == H8::kS2 ? 2 : kind == H8::kS4 ? 4 : 6;
  GraphBuilder g(p, name, 8, switches);
  for (int i = 0; i < 8; ++i) {
    const int sw = kind == H8::kS1 ? 0 : kind == H8::kS2 ? i / 4 : i / 2;
    g.host_edge(i, sw);
  }
  if (kind == H8::kS2) g.switch_edge(0, 1);
  if (kind == H8::kS4)
    for (int j = 0; j < 4; ++j)
      for (int k = j + 1; k < 4; ++k) g.switch_edge(j, k);
  if (kind == H8::kS6)
    for (int leaf = 0; leaf < 4; ++leaf)
      for (int spine = 4; spine < 6; ++spine) g.switch_edge(leaf, spine);
  return g.build(routing);
}

const GraphTopology& graph_of(const Platform& p, int t) {
  const auto* g = dynamic_cast<const GraphTopology*>(&p.topology(t));
  EXPECT_NE(g, nullptr);
  return *g;
}

// True when the route's inner nodes are all switches.
bool inner_nodes_are_switches(const Platform& p, const std::vector<LinkId>& route) {
  for (size_t i = 0; i + 1 < route.size(); ++i)
    if (!is_switch(p.link(route[i]).to)) return false;
  return true;
}

TEST(GraphTopology, H8HopCountsMatchSeed004) {
  // Ordered pairs from one host: S1 7 x 2 hops = 14; S2 3 x 2 + 4 x 3 = 18; S4 1 x 2 + 6 x 3 = 20;
  // S6 1 x 2 + 6 x 4 = 26; over 7 destinations: 2, 2.571, 2.857, 3.714 (seed 004 §3.2).
  const struct {
    H8 kind;
    double avg;
    int diameter;
  } cases[] = {{H8::kS1, 2.0, 2}, {H8::kS2, 18.0 / 7, 3}, {H8::kS4, 20.0 / 7, 3}, {H8::kS6, 26.0 / 7, 4}};
  for (GraphRouting routing : {GraphRouting::kShortestPath, GraphRouting::kEcmp})
    for (const auto& c : cases) {
      Platform p;
      const int t = build_h8(p, c.kind, routing);
      EXPECT_EQ(p.topology(t).kind(), "graph");
      EXPECT_EQ(p.topology(t).routing(), routing == GraphRouting::kEcmp ? "ecmp" : "shortest-path");
      EXPECT_EQ(p.topology(t).host_count(), 8);
      EXPECT_FALSE(p.topology(t).diameter().has_value());
      const RouteStats st = route_stats(p);
      EXPECT_TRUE(st.exact);
      EXPECT_EQ(st.pairs, 56u);
      EXPECT_EQ(st.unrouted, 0u);
      EXPECT_DOUBLE_EQ(st.avg_hops, c.avg);
      EXPECT_EQ(st.diameter, c.diameter);
      int hop_sum = 0;
      for (HostId a = 0; a < 8; ++a)
        for (HostId b = 0; b < 8; ++b) {
          if (a == b) continue;
          const std::vector<LinkId> r = checked_route(p, a, b);
          hop_sum += hops(p, r);
          EXPECT_TRUE(inner_nodes_are_switches(p, r));
        }
      EXPECT_DOUBLE_EQ(hop_sum / 56.0, c.avg);
    }
}

TEST(GraphTopology, HostsInIdOrderAndCableNames) {
  Platform p;
  add_topo_host(p, HostSpec{"other", "", 1e9, 1, std::nullopt, std::nullopt, "", -1}, 0);  // HostId 0: not in the graph
  GraphBuilder g(p, "G", 3, 1);
  g.host_edge(2, 0);  // edges name the hosts out of order
  g.host_edge(0, 0);
  g.host_edge(1, 0);
  const int t = g.build();
  EXPECT_EQ(p.topology(t).hosts(), (std::vector<HostId>{1, 2, 3}));
  EXPECT_EQ(p.host(3).topo_index, 2);
  EXPECT_EQ(p.host(0).topology, -1);
  EXPECT_TRUE(p.find_link("G_Gh2_G_s0_UP"));  // default name "<T>_<a>_<b>", full duplex
  EXPECT_TRUE(p.find_link("G_Gh2_G_s0_DOWN"));
  EXPECT_EQ(checked_route(p, 1, 3).size(), 2u);
}

TEST(GraphTopology, ShortestPathTakesTheLowestNextHop) {
  Platform p;
  const int t = build_h8(p, H8::kS6);
  const SwitchId spine0 = *p.find_switch("T_s4");
  for (HostId a = 0; a < 8; ++a)
    for (HostId b = 0; b < 8; ++b) {
      if (a / 2 == b / 2) continue;
      const std::vector<LinkId> r = checked_route(p, a, b);
      ASSERT_EQ(r.size(), 4u);
      EXPECT_EQ(p.link(r[1]).to, switch_node(spine0)) << a << " -> " << b;
    }
  (void)t;
}

TEST(GraphTopology, EcmpSpreadsPairsOverSpinesAndKeepsEachPairStable) {
  Platform p;
  build_h8(p, H8::kS6, GraphRouting::kEcmp);
  std::map<NodeId, int> per_spine;
  for (HostId a = 0; a < 8; ++a)
    for (HostId b = 0; b < 8; ++b) {
      if (a / 2 == b / 2) continue;  // 48 ordered pairs cross a spine
      const std::vector<LinkId> r = checked_route(p, a, b);
      ASSERT_EQ(r.size(), 4u);
      ++per_spine[p.link(r[1]).to];
      for (uint64_t salt : {0u, 1u, 12345u}) EXPECT_EQ(checked_route(p, a, b, RouteRequest{salt, nullptr}), r);
    }
  ASSERT_EQ(per_spine.size(), 2u);  // both spines carry pairs
  for (const auto& [spine, n] : per_spine) {
    EXPECT_TRUE(is_switch(spine));
    EXPECT_GE(n, 12) << p.node_name(spine);  // 24 each when perfectly balanced (hashing: 17 / 31)
    EXPECT_LE(n, 36) << p.node_name(spine);
  }
}

TEST(GraphTopology, EcmpSpreadsOverParallelCables) {
  // Two switches joined by 4 parallel cables, 8 hosts on each side: 2 x 64 ordered pairs cross.
  Platform p;
  GraphBuilder g(p, "P", 16, 2);
  for (int i = 0; i < 16; ++i) g.host_edge(i, i / 8);
  for (int k = 0; k < 4; ++k) g.edge(g.s(0), g.s(1), g.common.link, "P_par" + std::to_string(k));  // named: parallel
  g.build(GraphRouting::kEcmp);
  std::map<LinkId, int> per_cable;
  for (HostId a = 0; a < 8; ++a)
    for (HostId b = 8; b < 16; ++b) ++per_cable[checked_route(p, a, b)[1]];
  EXPECT_EQ(per_cable.size(), 4u);
  for (const auto& [l, n] : per_cable) EXPECT_GE(n, 6) << p.link(l).name;  // 16 each when balanced
}

TEST(GraphTopology, RoutesNeverCrossAHost) {
  // h0 - h1 directly and h1 - C: through h1, h0 would reach h2 in 3 hops (h0 h1 C h2); hosts do
  // not forward, so the route is h0 A B C h2 (4 hops). h0 -> h1 uses the direct cable (1 hop).
  Platform p;
  GraphBuilder g(p, "X", 3, 3);
  g.edge(g.h(0), g.h(1), g.common.host_link);
  g.host_edge(0, 0);
  g.switch_edge(0, 1);
  g.switch_edge(1, 2);
  g.host_edge(1, 2);
  g.host_edge(2, 2);
  g.build();
  const std::vector<LinkId> r02 = checked_route(p, 0, 2);
  EXPECT_EQ(hops(p, r02), 4);
  EXPECT_TRUE(inner_nodes_are_switches(p, r02));
  EXPECT_EQ(hops(p, checked_route(p, 0, 1)), 1);
  EXPECT_EQ(hops(p, checked_route(p, 2, 0)), 4);
  EXPECT_EQ(hops(p, checked_route(p, 1, 2)), 2);  // h1 C h2
  const RouteStats st = route_stats(p);
  EXPECT_EQ(st.diameter, 4);
}

TEST(GraphTopology, HalfDuplexCablesAreCrossedBothWays) {
  Platform p;
  const int t = [&] {
    GraphBuilder g(p, "HD", 4, 2, /*full_duplex=*/false);
    for (int i = 0; i < 4; ++i) g.host_edge(i, i / 2);
    g.switch_edge(1, 0);
    return g.build(GraphRouting::kEcmp);
  }();
  EXPECT_EQ(p.links().size(), 5u);
  const std::vector<LinkId> there = checked_route(p, 0, 3);
  const std::vector<LinkId> back = checked_route(p, 3, 0);
  ASSERT_EQ(there.size(), 3u);
  EXPECT_EQ(std::vector<LinkId>(there.rbegin(), there.rend()), back);  // the same shared links
  (void)t;
}

void expect_links_error(const std::function<void()>& build, const std::vector<std::string>& words) {
  try {
    build();
    ADD_FAILURE() << "no TopologyError";
  } catch (const TopologyError& e) {
    EXPECT_EQ(e.param(), "links") << e.what();
    for (const std::string& w : words) EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
  }
}

TEST(GraphTopology, DisconnectedGraphsNameTwoHosts) {
  // Two stars, no cable between them.
  expect_links_error(
      [] {
        Platform p;
        GraphBuilder g(p, "D", 8, 2);
        for (int i = 0; i < 8; ++i) g.host_edge(i, i / 4);
        g.build();
      },
      {"'Dh0'", "'Dh4'", "not connected"});
  // Connected only through a host: D1 h0 - s0 - h1 - s1 - h2. h0 and h2 do not meet.
  expect_links_error(
      [] {
        Platform p;
        GraphBuilder g(p, "E", 3, 2);
        g.host_edge(0, 0);
        g.host_edge(1, 0);
        g.host_edge(1, 1);
        g.host_edge(2, 1);
        g.build();
      },
      {"'Eh0'", "'Eh2'"});
  // A chain of hosts joined directly: h0 - h1 - h2.
  expect_links_error(
      [] {
        Platform p;
        GraphBuilder g(p, "F", 3, 0);
        g.edge(g.h(0), g.h(1), g.common.host_link);
        g.edge(g.h(1), g.h(2), g.common.host_link);
        g.build();
      },
      {"'Fh0'", "'Fh2'"});
}

TEST(GraphTopology, MultiHomedHostsWithoutACommonFabricAreConnectedPairwise) {
  // Three separate switches A, B, C (no switch-switch cable); x on A and B, y on B and C, z on A
  // and C: every pair shares a switch though no switch reaches all hosts.
  Platform p;
  GraphBuilder g(p, "M", 3, 3);
  g.host_edge(0, 0);
  g.host_edge(0, 1);
  g.host_edge(1, 1);
  g.host_edge(1, 2);
  g.host_edge(2, 0);
  g.host_edge(2, 2);
  g.build(GraphRouting::kEcmp);
  for (HostId a = 0; a < 3; ++a)
    for (HostId b = 0; b < 3; ++b)
      if (a != b) {
        EXPECT_EQ(hops(p, checked_route(p, a, b)), 2);
      }
  // A fourth host on A only does not meet y (on B and C).
  expect_links_error(
      [] {
        Platform q;
        GraphBuilder g2(q, "M", 4, 3);
        g2.host_edge(0, 0);
        g2.host_edge(0, 1);
        g2.host_edge(1, 1);
        g2.host_edge(1, 2);
        g2.host_edge(2, 0);
        g2.host_edge(2, 2);
        g2.host_edge(3, 0);
        g2.build();
      },
      {"'Mh1'", "'Mh3'"});
}

TEST(GraphTopology, BadEdgesAreTopologyErrors) {
  auto with = [](auto tweak) {
    return [tweak] {
      Platform p;
      GraphBuilder g(p, "B", 2, 1);
      g.host_edge(0, 0);
      g.host_edge(1, 0);
      tweak(p, g);
      g.build();
    };
  };
  expect_links_error(with([](Platform&, GraphBuilder& g) { g.edge(g.s(0), g.s(0), g.common.link); }), {"itself"});
  expect_links_error(with([](Platform&, GraphBuilder& g) { g.edge(g.h(0), kNoNode, g.common.link); }), {"neither"});
  expect_links_error(with([](Platform&, GraphBuilder& g) { g.edge(g.h(0), switch_node(99), g.common.link); }),
                     {"neither"});
  expect_links_error(with([](Platform&, GraphBuilder& g) { g.edge(g.h(0), 99, g.common.link); }), {"neither"});
  expect_links_error(with([](Platform&, GraphBuilder& g) {
                       g.edge(g.h(0), g.s(0), LinkSpec{0, SimTime::zero(), LinkSharing::kShared});
                     }),
                     {"bandwidth"});
  expect_links_error(with([](Platform& p, GraphBuilder& g) {
                       // A host already in another graph.
                       GraphBuilder other(p, "O", 1, 1);
                       other.host_edge(0, 0);
                       other.build();
                       g.edge(other.h(0), g.s(0), g.common.host_link);
                     }),
                     {"'Oh0'", "another topology"});
  expect_links_error(
      [] {
        Platform p;
        const SwitchId s = add_topo_switch(p, "lonely");
        const SwitchId s2 = add_topo_switch(p, "lonely2");
        GraphParams params;
        params.edges.push_back(GraphEdge{switch_node(s), switch_node(s2), "c", topo_common("Z").link});
        add_graph(p, topo_common("Z"), params, GraphRouting::kShortestPath);
      },
      {"no link to a host"});
  // A host of a cluster.
  expect_links_error(
      [] {
        Platform p;
        Link l;
        l.name = "priv";
        l.bandwidth_Bps = 1e9;
        const LinkId priv = p.add_link(l);
        const int c = p.add_cluster(Cluster{"cl", -1, {}});
        Host h;
        h.name = "ch";
        h.cluster = c;
        h.up = h.down = priv;
        const HostId ch = p.add_host(h);
        GraphBuilder g(p, "C", 1, 1);
        g.host_edge(0, 0);
        g.edge(host_node(ch), g.s(0), g.common.host_link);
        g.build();
      },
      {"'ch'", "cluster 'cl'"});
}

TEST(GraphTopology, ForwardAgreesWithRoute) {
  for (H8 kind : {H8::kS1, H8::kS2, H8::kS4, H8::kS6}) {
    Platform p;
    const int t = build_h8(p, kind);
    const Topology& topo = p.topology(t);
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b) {
        if (a == b) continue;
        for (LinkId l : checked_route(p, topo.host(a), topo.host(b))) {
          const NodeId at = p.link(l).from;
          if (!is_switch(at)) continue;
          EXPECT_EQ(topo.forward(switch_of(at), b), l) << p.link(l).name;
        }
      }
    EXPECT_FALSE(topo.forward(9999, 0).has_value());  // not a switch of the graph
    EXPECT_FALSE(topo.forward(0, 8).has_value());      // not a host of the graph
  }
  Platform p;
  const int t = build_h8(p, H8::kS6, GraphRouting::kEcmp);
  EXPECT_FALSE(p.topology(t).forward(0, 1).has_value());  // ECMP is not destination-based
}

TEST(GraphTopology, NextHopCacheIsBounded) {
  // 40 hosts on 10 leaves of 4, two spines; a cache of 3 destinations.
  Platform p;
  GraphBuilder g(p, "C", 40, 12);
  for (int i = 0; i < 40; ++i) g.host_edge(i, i / 4);
  for (int leaf = 0; leaf < 10; ++leaf) {
    g.switch_edge(leaf, 10);
    g.switch_edge(leaf, 11);
  }
  g.params.cache_destinations = 3;
  const int t = g.build(GraphRouting::kEcmp);
  const GraphTopology& topo = graph_of(p, t);
  EXPECT_EQ(topo.cache_capacity(), 3);
  EXPECT_EQ(topo.node_count(), 52);
  for (HostId a = 0; a < 40; ++a)  // source-major: a new destination nearly every route
    for (HostId b = 0; b < 40; ++b) {
      if (a == b) continue;
      checked_route(p, a, b);
      ASSERT_LE(topo.cached_destinations(), 3);
    }
  EXPECT_EQ(topo.cached_destinations(), 3);
  // Destination-major (route_stats' order): one BFS per destination.
  const uint64_t before = topo.bfs_runs();
  const RouteStats st = route_stats(p);
  EXPECT_EQ(topo.bfs_runs() - before, 40u);
  EXPECT_EQ(st.diameter, 4);
  EXPECT_DOUBLE_EQ(st.avg_hops, (3 * 2 + 36 * 4) / 39.0);

  // The default bound: 64 MiB of DAGs; a small graph keeps every destination, allocated only as
  // destinations are asked for.
  Platform q;
  GraphBuilder big(q, "D", 100, 1);
  for (int i = 0; i < 100; ++i) big.host_edge(i, 0);
  const GraphTopology& star = graph_of(q, big.build());
  EXPECT_GE(star.cache_capacity(), 100);  // 200 adjacency entries: 32 B per DAG
  for (HostId b = 0; b < 50; ++b) checked_route(q, (b + 1) % 100, b);
  EXPECT_EQ(star.cached_destinations(), 50);
}

}  // namespace
}  // namespace simfab
