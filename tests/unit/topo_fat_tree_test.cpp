// Fat-trees (topo/fat_tree.hpp): element counts of known configurations, the routing contract on
// every host pair of several XGFTs (regular, irregular, parallel cables, half-duplex), hop counts,
// D-mod-K's even spread and forwarding tables, S-mod-K as reversed D-mod-K, parameter errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "topo/fat_tree.hpp"
#include "topo_test_support.hpp"

namespace simfab {
namespace {

using testing::checked_route;
using testing::hops;
using testing::topo_common;

XgftParams xgft(std::vector<int> down, std::vector<int> up, std::vector<int> parallel) {
  return XgftParams{std::move(down), std::move(up), std::move(parallel)};
}

std::string text(const XgftParams& x) {
  auto list = [](const std::vector<int>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s;
  };
  return "XGFT(" + std::to_string(x.levels()) + "; " + list(x.down) + "; " + list(x.up) + "; p " +
         list(x.parallel) + ")";
}

struct Built {
  Platform p;
  int topo = -1;
  const Topology& t() const { return p.topology(topo); }
};

Built build(const XgftParams& x, FatTreeRouting r = FatTreeRouting::kDModK, bool full_duplex = true) {
  Built b;
  b.topo = add_fat_tree(b.p, topo_common("T", full_duplex), x, r);
  return b;
}

// The level of a node of the fat-tree "T": 0 for a host, l for switch "T_L<l>_<n>".
int level(const Platform& p, NodeId n) {
  if (!is_switch(n)) return 0;
  const std::string& name = p.switch_name(switch_of(n));
  return std::stoi(name.substr(3, name.find('_', 3) - 3));
}

// Independent of the implementation: 1 + the highest level whose host digit differs.
int lca_level(const XgftParams& x, int a, int b) {
  int lca = 0;
  for (int i = 0; i < x.levels(); ++i) {
    const int m = x.down[static_cast<size_t>(i)];
    if (a % m != b % m) lca = i + 1;
    a /= m;
    b /= m;
  }
  return lca;
}

int64_t host_count(const XgftParams& x) {
  int64_t n = 1;
  for (int m : x.down) n *= m;
  return n;
}

// The header's sufficient condition for a spread of at most 1 (D-mod-K).
bool balanced(const XgftParams& x) {
  const int64_t n = host_count(x);
  int64_t m_prefix = 1;
  int64_t w_prefix = 1;
  for (size_t j = 0; j < x.down.size(); ++j) {
    if (m_prefix < n) {
      const int64_t r = w_prefix * x.up[j] * x.parallel[j];
      if (m_prefix % r != 0 && n % r != 0) return false;
    }
    m_prefix *= x.down[j];
    w_prefix *= x.up[j];
  }
  return true;
}

// One upward move of a route: the node it leaves, the link, and the route's source and destination.
struct UpMove {
  NodeId from;
  LinkId link;
};

// Walks route a -> b and returns its upward moves (the direction actually crossed, so half-duplex
// links crossed downwards are not counted).
std::vector<UpMove> up_moves(const Platform& p, HostId a, const std::vector<LinkId>& route) {
  std::vector<UpMove> moves;
  NodeId at = host_node(a);
  for (LinkId l : route) {
    const Link& k = p.link(l);
    const NodeId next = k.from == at ? k.to : k.from;
    if (level(p, next) > level(p, at)) moves.push_back(UpMove{at, l});
    at = next;
  }
  return moves;
}

// Each node's up-links (every direction of a cable that climbs from it).
std::map<NodeId, std::vector<LinkId>> up_links(const Platform& p) {
  std::map<NodeId, std::vector<LinkId>> up;
  for (LinkId l = 0; l < static_cast<LinkId>(p.links().size()); ++l) {
    const Link& k = p.link(l);
    if (level(p, k.to) > level(p, k.from)) up[k.from].push_back(l);
  }
  return up;
}

// For every node s with up-links and every up-link u of s: the number of distinct keys (the
// destination when by_destination, else the source) of the routes that leave s upwards by u.
// Checks that the key alone picks the up-link at s, and returns the largest max - min over nodes.
int up_spread(const Built& b, bool by_destination) {
  const Topology& t = b.t();
  std::map<std::pair<NodeId, int>, LinkId> chosen;
  std::map<LinkId, std::set<int>> keys;
  for (int x = 0; x < t.host_count(); ++x) {
    for (int y = 0; y < t.host_count(); ++y) {
      if (x == y) continue;
      const int key = by_destination ? y : x;
      for (const UpMove& m : up_moves(b.p, t.host(x), checked_route(b.p, t.host(x), t.host(y)))) {
        const auto [it, fresh] = chosen.emplace(std::make_pair(m.from, key), m.link);
        EXPECT_EQ(it->second, m.link) << "key " << key << " leaves " << b.p.node_name(m.from)
                                      << " by two up-links";
        (void)fresh;
        keys[m.link].insert(key);
      }
    }
  }
  int spread = 0;
  for (const auto& [node, links] : up_links(b.p)) {
    size_t lo = SIZE_MAX;
    size_t hi = 0;
    for (LinkId u : links) {
      const size_t c = keys[u].size();
      lo = std::min(lo, c);
      hi = std::max(hi, c);
    }
    spread = std::max(spread, static_cast<int>(hi - lo));
  }
  return spread;
}

// The XGFTs the property tests run on: presets, SimGrid's example, irregular ones (w != m,
// parallel cables, hosts with several up-links, levels with one child) and degenerate ones.
std::vector<XgftParams> instances() {
  return {k_port_fat_tree(4, 3),
          k_port_fat_tree(4, 2),
          k_port_fat_tree(6, 2),
          k_ary_n_tree(2, 3),
          k_ary_n_tree(3, 2),
          k_ary_n_tree(4, 3),
          std::get<XgftParams>(parse_simgrid_fat_tree("2;4,4;1,2;1,2")),
          xgft({4, 3, 2}, {2, 2, 3}, {1, 2, 1}),  // balanced, w != m, parallel cables, 2 host up-links
          xgft({3, 3}, {2, 2}, {1, 2}),           // unbalanced
          xgft({2, 2}, {3, 1}, {2, 1}),           // 6 up-links per host
          xgft({2, 1, 3}, {1, 2, 1}, {1, 1, 2}),  // a level with a single child
          xgft({3, 2}, {1, 1}, {1, 1}),           // a plain tree
          xgft({5}, {1}, {1}),                    // one switch
          xgft({4, 1}, {1, 2}, {1, 1})};          // the top level is never needed
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The TopologyError `fn` throws: its param and message (param "<none>" when nothing is thrown).
template <class Fn>
std::pair<std::string, std::string> topology_error(Fn&& fn) {
  try {
    fn();
  } catch (const TopologyError& e) {
    return {e.param(), e.what()};
  }
  return {"<none>", ""};
}

TEST(FatTreeCounts, KPortFatTree4x3) {
  const XgftParams x = k_port_fat_tree(4, 3);
  EXPECT_EQ(x.down, (std::vector<int>{2, 2, 4}));
  EXPECT_EQ(x.up, (std::vector<int>{1, 2, 2}));
  EXPECT_EQ(x.parallel, (std::vector<int>{1, 1, 1}));
  const Built b = build(x);
  EXPECT_EQ(b.p.host_count(), 16);
  EXPECT_EQ(b.p.switch_count(), 20);
  EXPECT_EQ(b.p.links().size(), 96u);  // 16 host + 16 + 16 cables, two directions each
  const XgftCounts c = xgft_counts(x);
  EXPECT_EQ(c.switches, (std::vector<int64_t>{8, 8, 4}));
  EXPECT_EQ(c.cables, (std::vector<int64_t>{16, 16, 16}));
  EXPECT_EQ(b.t().kind(), "fat-tree");
  EXPECT_EQ(b.t().routing(), "d-mod-k");
  EXPECT_EQ(b.t().diameter(), 6);
  EXPECT_TRUE(b.p.find_switch("T_L3_3"));
  EXPECT_FALSE(b.p.find_switch("T_L3_4"));
  EXPECT_TRUE(b.p.find_link("T_L1_15_7_UP"));  // host 15 -> leaf 7
  EXPECT_TRUE(b.p.find_link("T_L1_15_7_DOWN"));
}

TEST(FatTreeCounts, KPortFatTree2LevelsIsFourLeavesAndTwoSpines) {
  const Built b = build(k_port_fat_tree(4, 2));
  EXPECT_EQ(b.p.host_count(), 8);
  EXPECT_EQ(xgft_counts(k_port_fat_tree(4, 2)).switches, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(b.p.switch_count(), 6);
  EXPECT_EQ(b.p.links().size(), 2u * (8 + 4 * 2));
  EXPECT_EQ(b.t().diameter(), 4);
  // 64 ports, 3 levels: k^3/4 hosts, 5k^2/4 switches.
  const XgftCounts big = xgft_counts(k_port_fat_tree(64, 3));
  EXPECT_EQ(big.hosts, 65536);
  EXPECT_EQ(big.total_switches(), 5120);
}

TEST(FatTreeCounts, KAryNTrees) {
  const Built a = build(k_ary_n_tree(4, 3));
  EXPECT_EQ(a.p.host_count(), 64);
  EXPECT_EQ(a.p.switch_count(), 48);
  EXPECT_EQ(a.p.links().size(), 2u * 3 * 64);
  const Built b = build(k_ary_n_tree(2, 3));
  EXPECT_EQ(b.p.host_count(), 8);
  EXPECT_EQ(b.p.switch_count(), 12);
  const XgftCounts c = xgft_counts(k_ary_n_tree(16, 4));
  EXPECT_EQ(c.hosts, 65536);
  EXPECT_EQ(c.total_switches(), 4 * 4096);
  EXPECT_EQ(c.total_cables(), 4 * 65536);
}

TEST(FatTreeCounts, SimGridExampleWithParallelCables) {
  const Built b = build(std::get<XgftParams>(parse_simgrid_fat_tree("2;4,4;1,2;1,2")));
  EXPECT_EQ(b.p.host_count(), 16);
  EXPECT_EQ(b.p.switch_count(), 4 + 2);
  EXPECT_EQ(b.p.links().size(), 2u * (16 + 4 * 2 * 2));
  // Leaf 0 and spine 1 are joined by two cables.
  const auto first = b.p.find_link("T_L2_0_1_UP");
  const auto second = b.p.find_link("T_L2_0_1_1_UP");
  ASSERT_TRUE(first && second);
  EXPECT_EQ(b.p.link(*first).from, b.p.link(*second).from);
  EXPECT_EQ(b.p.link(*first).to, b.p.link(*second).to);
  EXPECT_EQ(b.p.node_name(b.p.link(*first).from), "T_L1_0");
  EXPECT_EQ(b.p.node_name(b.p.link(*first).to), "T_L2_1");
  EXPECT_FALSE(b.p.find_link("T_L2_0_1_2_UP"));
  EXPECT_FALSE(b.p.find_link("T_L1_0_0_1_UP"));  // hosts have one cable to their leaf
}

TEST(FatTreeCounts, HalfDuplexCablesAreOneLinkAndCountsMatchTheFormulas) {
  for (const XgftParams& x : instances()) {
    const XgftCounts c = xgft_counts(x);
    const Built full = build(x);
    const Built half = build(x, FatTreeRouting::kDModK, false);
    EXPECT_EQ(full.p.host_count(), c.hosts) << text(x);
    EXPECT_EQ(full.p.switch_count(), c.total_switches()) << text(x);
    EXPECT_EQ(static_cast<int64_t>(full.p.links().size()), 2 * c.total_cables()) << text(x);
    EXPECT_EQ(static_cast<int64_t>(half.p.links().size()), c.total_cables()) << text(x);
    for (const Link& l : half.p.links()) EXPECT_EQ(l.twin, -1);
  }
}

TEST(FatTreeRoutes, EveryPairFollowsTheContractAndClimbsToTheLca) {
  for (const XgftParams& x : instances()) {
    for (FatTreeRouting r : {FatTreeRouting::kDModK, FatTreeRouting::kSModK}) {
      for (bool full_duplex : {true, false}) {
        const Built b = build(x, r, full_duplex);
        const Topology& t = b.t();
        ASSERT_EQ(t.host_count(), host_count(x));
        for (int a = 0; a < t.host_count(); ++a) {
          for (int c = 0; c < t.host_count(); ++c) {
            if (a == c) continue;
            const auto route = checked_route(b.p, t.host(a), t.host(c));
            ASSERT_EQ(hops(b.p, route), 2 * lca_level(x, a, c))
                << text(x) << " " << fat_tree_routing_name(r) << " " << a << " -> " << c;
            ASSERT_LE(hops(b.p, route), *t.diameter());
          }
        }
      }
    }
  }
}

TEST(FatTreeRoutes, DiameterIsTwiceTheHighestLevelThatBranches) {
  EXPECT_EQ(build(k_ary_n_tree(2, 3)).t().diameter(), 6);
  EXPECT_EQ(build(xgft({5}, {1}, {1})).t().diameter(), 2);
  EXPECT_EQ(build(xgft({4, 1}, {1, 2}, {1, 1})).t().diameter(), 2);  // level 2 is never the LCA
  EXPECT_EQ(build(xgft({1, 3}, {1, 2}, {1, 1})).t().diameter(), 4);
  EXPECT_EQ(build(xgft({1}, {1}, {1})).t().diameter(), 0);  // one host: no route at all
  EXPECT_EQ(build(xgft({1, 1}, {2, 2}, {1, 1})).t().diameter(), 0);
}

TEST(FatTreeRoutes, DeterministicAcrossCallsAndBuilds) {
  for (FatTreeRouting r : {FatTreeRouting::kDModK, FatTreeRouting::kSModK}) {
    const XgftParams x = xgft({4, 3, 2}, {2, 2, 3}, {1, 2, 1});
    const Built one = build(x, r);
    const Built two = build(x, r);
    for (int a = 0; a < one.t().host_count(); ++a) {
      for (int c = 0; c < one.t().host_count(); ++c) {
        if (a == c) continue;
        const auto first = one.p.route(a, c);
        ASSERT_EQ(first, one.p.route(a, c, RouteRequest{12345, nullptr}));  // oblivious: salt ignored
        ASSERT_EQ(first, two.p.route(a, c));
      }
    }
  }
}

TEST(FatTreeDModK, ForwardingTablesAgreeWithRoutes) {
  for (const XgftParams& x : instances()) {
    for (bool full_duplex : {true, false}) {
      const Built b = build(x, FatTreeRouting::kDModK, full_duplex);
      const Topology& t = b.t();
      for (int a = 0; a < t.host_count(); ++a) {
        for (int c = 0; c < t.host_count(); ++c) {
          if (a == c) continue;
          NodeId at = host_node(t.host(a));
          for (LinkId l : checked_route(b.p, t.host(a), t.host(c))) {
            if (is_switch(at)) {
              ASSERT_EQ(t.forward(switch_of(at), c), l) << text(x) << " " << a << " -> " << c;
            }
            const Link& k = b.p.link(l);
            at = k.from == at ? k.to : k.from;
          }
        }
      }
    }
  }
}

TEST(FatTreeDModK, ForwardingFromAnySwitchReachesTheDestination) {
  for (const XgftParams& x : instances()) {
    const Built b = build(x);
    const Topology& t = b.t();
    const int h = x.levels();
    for (SwitchId s = 0; s < b.p.switch_count(); ++s) {
      for (int y = 0; y < t.host_count(); ++y) {
        NodeId at = switch_node(s);
        int steps = 0;
        while (at != host_node(t.host(y)) && steps <= 2 * h) {
          const auto l = t.forward(switch_of(at), y);
          ASSERT_TRUE(l) << text(x) << " " << b.p.node_name(at);
          ASSERT_EQ(b.p.link(*l).from, at);
          at = b.p.link(*l).to;
          ++steps;
          ASSERT_TRUE(is_switch(at) || at == host_node(t.host(y))) << "forwarded into another host";
        }
        EXPECT_LE(steps, 2 * h - level(b.p, switch_node(s)));
      }
    }
    EXPECT_FALSE(t.forward(0, t.host_count()));  // not a host of this topology
    EXPECT_FALSE(t.forward(b.p.switch_count(), 0));  // not a switch of this topology
  }
}

// Counts, per node and up-link, the destinations whose route from below leaves the node by that
// up-link: max - min <= 1 under the header's divisibility condition (every preset), <= 2 always.
TEST(FatTreeDModK, SpreadsDestinationsEvenlyOverUpLinks) {
  for (const XgftParams& x : instances()) {
    const int spread = up_spread(build(x), true);
    EXPECT_LE(spread, balanced(x) ? 1 : 2) << text(x);
  }
  EXPECT_TRUE(balanced(k_ary_n_tree(4, 3)));
  EXPECT_TRUE(balanced(k_port_fat_tree(6, 3)));
  EXPECT_TRUE(balanced(xgft({4, 3, 2}, {2, 2, 3}, {1, 2, 1})));
  EXPECT_EQ(up_spread(build(k_ary_n_tree(4, 3)), true), 0);  // 4 | 60, 4 | 48: exactly even
}

// The same bound over a sweep of small XGFTs: every 2-level one with m, w in 1..3 and p in 1..2,
// and 3-level ones drawn by a fixed generator.
TEST(FatTreeDModK, SpreadBoundHoldsOverASweep) {
  std::vector<XgftParams> sweep;
  for (int m1 = 1; m1 <= 3; ++m1)
    for (int m2 = 1; m2 <= 3; ++m2)
      for (int w1 = 1; w1 <= 3; ++w1)
        for (int w2 = 1; w2 <= 3; ++w2)
          for (int p1 = 1; p1 <= 2; ++p1)
            for (int p2 = 1; p2 <= 2; ++p2) sweep.push_back(xgft({m1, m2}, {w1, w2}, {p1, p2}));
  uint64_t state = 42;
  auto draw = [&](int n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return 1 + static_cast<int>((state >> 33) % static_cast<uint64_t>(n));
  };
  for (int i = 0; i < 30; ++i)
    sweep.push_back(xgft({draw(3), draw(3), draw(3)}, {draw(2), draw(3), draw(2)}, {draw(2), draw(2), draw(2)}));
  int unbalanced_at_two = 0;
  for (const XgftParams& x : sweep) {
    const int spread = up_spread(build(x), true);
    ASSERT_LE(spread, balanced(x) ? 1 : 2) << text(x);
    unbalanced_at_two += spread == 2 ? 1 : 0;
  }
  EXPECT_GT(unbalanced_at_two, 0);  // the bound 2 is reached
}

// XGFT(2; 1,3; 1,2): three leaves of one host each, two parents per leaf. Even spreading at leaf s
// needs the other two hosts on different parents; no function of the destination does that at all
// three leaves, so 2 is the best bound for destination-only up-choices.
TEST(FatTreeDModK, EvenSpreadIsImpossibleForSomeXgfts) {
  for (int f = 0; f < 8; ++f) {  // f's bit y: the parent destination y is sent to
    bool even_everywhere = true;
    for (int leaf = 0; leaf < 3; ++leaf) {
      const int y1 = (leaf + 1) % 3;
      const int y2 = (leaf + 2) % 3;
      if (((f >> y1) & 1) == ((f >> y2) & 1)) even_everywhere = false;
    }
    EXPECT_FALSE(even_everywhere) << f;
  }
  EXPECT_EQ(up_spread(build(xgft({1, 3}, {1, 2}, {1, 1})), true), 2);
}

TEST(FatTreeSModK, IsDModKReversed) {
  for (const XgftParams& x : instances()) {
    for (bool full_duplex : {true, false}) {
      const Built d = build(x, FatTreeRouting::kDModK, full_duplex);
      const Built s = build(x, FatTreeRouting::kSModK, full_duplex);
      EXPECT_EQ(s.t().routing(), "s-mod-k");
      for (int a = 0; a < s.t().host_count(); ++a) {
        for (int c = 0; c < s.t().host_count(); ++c) {
          if (a == c) continue;
          std::vector<LinkId> back = *d.p.route(c, a);
          std::reverse(back.begin(), back.end());
          for (LinkId& l : back)
            if (d.p.link(l).twin >= 0) l = d.p.link(l).twin;
          ASSERT_EQ(*s.p.route(a, c), back) << text(x) << " " << a << " -> " << c;
        }
      }
    }
  }
}

// S-mod-K picks every up-link by the source: at each node the up-link a source leaves by is the
// same for all its destinations, and sources spread over the up-links within 1 on every XGFT.
TEST(FatTreeSModK, UpLinksDependOnTheSourceAndSpreadSourcesEvenly) {
  for (const XgftParams& x : instances()) {
    const Built b = build(x, FatTreeRouting::kSModK);
    EXPECT_LE(up_spread(b, false), 1) << text(x);
    EXPECT_FALSE(b.t().forward(0, 0));  // not destination-based: no forwarding table
  }
  EXPECT_LE(up_spread(build(xgft({3, 3}, {2, 2}, {1, 2}), FatTreeRouting::kSModK), false), 1);
}

TEST(FatTreeSimGrid, ParsesLevelsDownUpAndLinkCount) {
  auto parsed = parse_simgrid_fat_tree("2;4,4;1,2;1,2");
  ASSERT_TRUE(std::holds_alternative<XgftParams>(parsed)) << std::get<std::string>(parsed);
  const XgftParams& x = std::get<XgftParams>(parsed);
  EXPECT_EQ(x.down, (std::vector<int>{4, 4}));
  EXPECT_EQ(x.up, (std::vector<int>{1, 2}));
  EXPECT_EQ(x.parallel, (std::vector<int>{1, 2}));
  auto spaced = parse_simgrid_fat_tree(" 3 ; 2, 2, 4 ;1,2,2; 1,1,1");
  ASSERT_TRUE(std::holds_alternative<XgftParams>(spaced)) << std::get<std::string>(spaced);
  EXPECT_EQ(std::get<XgftParams>(spaced).down, k_port_fat_tree(4, 3).down);
  EXPECT_EQ(std::get<XgftParams>(spaced).up, k_port_fat_tree(4, 3).up);
}

TEST(FatTreeSimGrid, RejectsBadStringsSayingWhichPartIsWrong) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"", {"4 parts", "has 1"}},
      {"2;4,4;1,2", {"4 parts", "has 3"}},
      {"2;4,4;1,2;1,2;9", {"4 parts", "has 5"}},
      {"x;4,4;1,2;1,2", {"part 1 (levels)", "\"x\""}},
      {"0;;;", {"part 1 (levels)", "\"0\""}},
      {"40;1;1;1", {"part 1 (levels)", "at most 32"}},
      {"2;4;1,2;1,2", {"part 2 (down", "1 value", "levels is 2"}},
      {"2;4,4,;1,2;1,2", {"part 2 (down", "3 value", "levels is 2"}},
      {"2;4,4;1,0;1,2", {"part 3 (up", "value 2", "\"0\""}},
      {"2;4,4;1,-2;1,2", {"part 3 (up", "\"-2\""}},
      {"2;4,4;1,2;1,b", {"part 4 (link-count", "value 2", "\"b\""}},
      {"2;4,4;1,2;1,99999999999", {"part 4 (link-count", "99999999999"}},
      {"2;4,4;1,2;1,2.5", {"part 4 (link-count", "\"2.5\""}},
  };
  for (const auto& [input, parts] : cases) {
    auto r = parse_simgrid_fat_tree(input);
    ASSERT_TRUE(std::holds_alternative<std::string>(r)) << "accepted \"" << input << "\"";
    for (const std::string& part : parts)
      EXPECT_TRUE(contains(std::get<std::string>(r), part)) << std::get<std::string>(r) << " lacks " << part;
  }
}

TEST(FatTreeErrors, ImpossibleParametersNameTheirKey) {
  struct Case {
    XgftParams x;
    std::string param;
    std::string says;
  };
  const std::vector<Case> cases = {
      {xgft({}, {}, {}), "levels", "at least 1 level"},
      {xgft(std::vector<int>(33, 1), std::vector<int>(33, 1), std::vector<int>(33, 1)), "levels", "at most 32"},
      {xgft({4, 4}, {1}, {1, 1}), "up", "down has 2"},
      {xgft({4, 4}, {1, 2}, {1, 1, 1}), "parallel", "give 2"},
      {xgft({4, 0}, {1, 2}, {1, 1}), "down", "level 2) is 0"},
      {xgft({4, 4}, {-1, 2}, {1, 1}), "up", "is -1"},
      {xgft({4, 4}, {1, 2}, {1, 0}), "parallel", "is 0"},
      {xgft({256, 256, 257}, {1, 1, 1}, {1, 1, 1}), "down", "16777216"},
      {xgft({2, 2}, {65536, 65536}, {1, 1}), "up", "switches"},
      {xgft({2, 2}, {1, 2}, {1, 1 << 30}), "parallel", "cables"},
      {xgft({4}, {1 << 29}, {1}), "up", "cables"},
  };
  for (const Case& c : cases) {
    Platform p;
    const auto [param, message] = topology_error([&] { add_fat_tree(p, topo_common("T"), c.x, FatTreeRouting::kDModK); });
    EXPECT_EQ(param, c.param) << text(c.x) << ": " << message;
    EXPECT_TRUE(contains(message, c.says)) << message;
    EXPECT_EQ(p.host_count(), 0) << "parameters are checked before the platform changes";
  }
  EXPECT_EQ(xgft_counts(xgft({256, 256, 256}, {1, 1, 1}, {1, 1, 1})).hosts, 16777216);  // the limit itself
}

TEST(FatTreeErrors, PresetsRejectImpossibleValues) {
  const std::vector<std::pair<std::pair<std::string, std::string>, std::pair<std::string, std::string>>> cases = {
      {topology_error([] { k_port_fat_tree(5, 3); }), {"k", "try 4 or 6"}},
      {topology_error([] { k_port_fat_tree(0, 3); }), {"k", "even k >= 2"}},
      {topology_error([] { k_port_fat_tree(-4, 3); }), {"k", "got -4"}},
      {topology_error([] { k_port_fat_tree(4, 0); }), {"levels", "got 0"}},
      {topology_error([] { k_port_fat_tree(64, 5); }), {"levels", "at most 4 levels"}},
      {topology_error([] { k_ary_n_tree(0, 3); }), {"k", "k >= 1"}},
      {topology_error([] { k_ary_n_tree(2, 0); }), {"levels", "got 0"}},
      {topology_error([] { k_ary_n_tree(2, 25); }), {"levels", "at most 24 levels"}},
      {topology_error([] { k_ary_n_tree(1 << 20, 2); }), {"levels", "at most 1 levels"}},
  };
  for (const auto& [got, want] : cases) {
    EXPECT_EQ(got.first, want.first) << got.second;
    EXPECT_TRUE(contains(got.second, want.second)) << got.second;
  }
  EXPECT_EQ(k_port_fat_tree(2, 1).down, (std::vector<int>{2}));
  EXPECT_EQ(k_ary_n_tree(1, 3).down, (std::vector<int>{1, 1, 1}));
}

TEST(FatTreeErrors, NameCollisions) {
  {
    Platform p;
    Host h;
    h.name = "Th3";
    p.add_host(h);
    EXPECT_EQ(topology_error([&] { add_fat_tree(p, topo_common("T"), k_ary_n_tree(2, 2), FatTreeRouting::kDModK); }).first,
              "prefix");
  }
  {
    Platform p;
    p.add_switch("T_L1_0");
    EXPECT_EQ(topology_error([&] { add_fat_tree(p, topo_common("T"), k_ary_n_tree(2, 2), FatTreeRouting::kDModK); }).first,
              "name");
  }
  {
    Platform p;
    add_fat_tree(p, topo_common("A"), k_ary_n_tree(2, 2), FatTreeRouting::kDModK);
    const int second = add_fat_tree(p, topo_common("B"), k_ary_n_tree(2, 2), FatTreeRouting::kSModK);
    EXPECT_EQ(second, 1);  // two fat-trees side by side
    EXPECT_EQ(p.topology(second).host(0), 4);
    EXPECT_EQ(checked_route(p, 4, 7).size(), 4u);
  }
}

TEST(FatTreeRouting, NamesRoundTrip) {
  for (FatTreeRouting r : {FatTreeRouting::kDModK, FatTreeRouting::kSModK})
    EXPECT_EQ(fat_tree_routing_from_name(fat_tree_routing_name(r)), r);
  EXPECT_FALSE(fat_tree_routing_from_name("dmodk"));
}

}  // namespace
}  // namespace simfab
