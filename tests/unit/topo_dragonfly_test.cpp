// Dragonflies (topo/dragonfly.hpp): element counts, the three global arrangements against their
// definitions (m cables per group pair, a bijective port pairing), minimal routes with the fewest
// hops among the generated single-global paths (predicted here from the cables themselves), the
// closed-form diameter, Valiant through the hashed intermediate group and its spread over salts,
// UGAL's choice under no, balanced and skewed loads, determinism, parameter errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "topo/dragonfly.hpp"
#include "topo/hash.hpp"
#include "topo_test_support.hpp"

namespace simfab {
namespace {

using testing::checked_route;
using testing::hops;
using testing::topo_common;

struct Shape {
  int g = 1, a = 1, p = 1, h = 0;
  GlobalArrangement arrangement = GlobalArrangement::kAbsolute;
  bool full_duplex = true;
};

std::string text(const Shape& s) {
  static const char* names[] = {"absolute", "relative", "circulant"};
  return "g=" + std::to_string(s.g) + " a=" + std::to_string(s.a) + " p=" + std::to_string(s.p) +
         " h=" + std::to_string(s.h) + " " + names[static_cast<int>(s.arrangement)] +
         (s.full_duplex ? "" : " half-duplex");
}

DragonflyParams params(const Shape& s, double threshold = 0) {
  DragonflyParams d;
  d.groups = s.g;
  d.routers = s.a;
  d.hosts_per_router = s.p;
  d.global_per_router = s.h;
  d.arrangement = s.arrangement;
  d.ugal_threshold = threshold;
  return d;
}

struct Built {
  Platform p;
  int topo = -1;
  Shape shape;
  const Topology& t() const { return p.topology(topo); }
  HostId host(int i) const { return t().host(i); }
  // (group, router) of a switch node "T_g<G>_r<R>".
  std::pair<int, int> where(NodeId n) const {
    const std::string& name = p.switch_name(switch_of(n));
    const size_t r = name.find("_r");
    return {std::stoi(name.substr(3, r - 3)), std::stoi(name.substr(r + 2))};
  }
  bool global(LinkId l) const {
    const Link& k = p.link(l);
    return is_switch(k.from) && is_switch(k.to) && where(k.from).first != where(k.to).first;
  }
};

Built build(const Shape& s, DragonflyRouting r = DragonflyRouting::kMinimal, double threshold = 0) {
  Built b;
  b.shape = s;
  b.topo = add_dragonfly(b.p, topo_common("T", s.full_duplex), params(s, threshold), r);
  return b;
}

// The group that global port k of group G leads to, straight from the definitions.
int expected_target(const Shape& s, int G, int k) {
  const int j = k % (s.g - 1);
  switch (s.arrangement) {
    case GlobalArrangement::kAbsolute:
      return j < G ? j : j + 1;  // the j-th other group in increasing order
    case GlobalArrangement::kRelative:
      return (G + 1 + j) % s.g;
    case GlobalArrangement::kCirculant:  // offsets +1, -1, +2, -2, ...
      return j % 2 == 0 ? (G + j / 2 + 1) % s.g : ((G - (j + 1) / 2) % s.g + s.g) % s.g;
  }
  return -1;
}

// Instances with one, several and many cables per group pair, odd and even g, every arrangement.
std::vector<Shape> shapes() {
  std::vector<Shape> out;
  for (GlobalArrangement arr :
       {GlobalArrangement::kAbsolute, GlobalArrangement::kRelative, GlobalArrangement::kCirculant}) {
    out.push_back({9, 4, 2, 2, arr});  // Kim's balanced a = 2p = 2h, g = ah + 1: m = 1
    out.push_back({5, 4, 1, 2, arr});  // m = 2
    out.push_back({3, 2, 2, 4, arr});  // m = 4, several cables per router pair
    out.push_back({4, 3, 1, 2, arr});  // even g: m = 2
    out.push_back({7, 3, 1, 4, arr});  // m = 2, g - 1 > h
    out.push_back({2, 3, 2, 1, arr});  // two groups: m = 3
  }
  out.push_back({1, 4, 2, 0});               // one group
  out.push_back({3, 1, 2, 2});               // one router per group
  out.push_back({6, 5, 1, 1, GlobalArrangement::kCirculant, false});  // half duplex
  return out;
}

TEST(DragonflyCounts, BalancedDragonfly) {
  Built b = build({9, 4, 2, 2});
  EXPECT_EQ(b.t().kind(), "dragonfly");
  EXPECT_EQ(b.t().routing(), "minimal");
  EXPECT_EQ(b.p.switch_count(), 36);
  EXPECT_EQ(b.t().host_count(), 72);
  // Host cables 72, local 9 * 6, global 9 * 4 * 2 / 2: two links each.
  EXPECT_EQ(b.p.links().size(), 2u * (72 + 54 + 36));
  EXPECT_EQ(b.p.switch_name(5), "T_g1_r1");
  EXPECT_TRUE(b.p.find_link("T_h10_g1_r1_UP"));
  EXPECT_TRUE(b.p.find_link("T_g1_r0_r3_DOWN"));
  // Absolute: group 0's port 0 (router 0) -> group 1's port 0 (router 0).
  EXPECT_TRUE(b.p.find_link("T_g0_r0_g1_r0_UP"));
  EXPECT_EQ(build({9, 4, 2, 2}, DragonflyRouting::kValiant).t().routing(), "valiant");
  EXPECT_EQ(build({9, 4, 2, 2}, DragonflyRouting::kUgal).t().routing(), "ugal");
}

TEST(DragonflyCounts, OneGroupAndParallelCables) {
  Built one = build({1, 4, 3, 0});
  EXPECT_EQ(one.p.switch_count(), 4);
  EXPECT_EQ(one.p.links().size(), 2u * (12 + 6));
  Built two = build({2, 2, 1, 3});  // m = 6 cables between the two groups
  EXPECT_EQ(two.p.links().size(), 2u * (4 + 2 + 6));
  EXPECT_TRUE(two.p.find_link("T_g0_r1_g1_r1_c5_UP"));
}

TEST(DragonflyArrangement, EveryGroupPairGetsMCablesAsDefined) {
  for (const Shape& s : shapes()) {
    if (s.g < 2) continue;
    SCOPED_TRACE(text(s));
    Built b = build(s);
    const int m = s.a * s.h / (s.g - 1);
    std::map<std::pair<int, int>, int> per_pair;                 // directed (G, T) -> links
    std::map<std::pair<int, int>, std::multiset<int>> targets;  // router -> groups it reaches
    for (LinkId l = 0; l < static_cast<LinkId>(b.p.links().size()); ++l) {
      if (!b.global(l)) continue;
      const Link& k = b.p.link(l);
      const auto [G, R] = b.where(k.from);
      const int T = b.where(k.to).first;
      ++per_pair[{G, T}];
      targets[{G, R}].insert(T);
      if (!s.full_duplex) {  // a shared link is crossed both ways: count the other end too
        ++per_pair[{T, G}];
        targets[b.where(k.to)].insert(G);
      }
    }
    for (int G = 0; G < s.g; ++G)
      for (int T = 0; T < s.g; ++T)
        if (G != T) {
          EXPECT_EQ(per_pair[std::make_pair(G, T)], m) << G << " -> " << T;
        }
    for (int G = 0; G < s.g; ++G)
      for (int R = 0; R < s.a; ++R) {
        std::multiset<int> expected;
        for (int k = R * s.h; k < (R + 1) * s.h; ++k) expected.insert(expected_target(s, G, k));
        EXPECT_EQ(targets[std::make_pair(G, R)], expected) << "router " << G << "," << R;
      }
  }
}

TEST(DragonflyArrangement, PortPairingIsABijection) {
  for (const Shape& s : shapes()) {
    if (s.g < 2) continue;
    SCOPED_TRACE(text(s));
    const DragonflyParams d = params(s);
    std::set<std::pair<int, int>> seen;
    for (int G = 0; G < s.g; ++G)
      for (int k = 0; k < s.a * s.h; ++k) {
        const DragonflyPort to = dragonfly_peer(d, G, k);
        EXPECT_EQ(to.group, expected_target(s, G, k));
        ASSERT_TRUE(to.port >= 0 && to.port < s.a * s.h);
        EXPECT_TRUE(seen.insert({to.group, to.port}).second) << "port " << to.group << "/" << to.port << " twice";
        const DragonflyPort back = dragonfly_peer(d, to.group, to.port);
        EXPECT_EQ(back.group, G);
        EXPECT_EQ(back.port, k);
      }
    EXPECT_EQ(static_cast<int>(seen.size()), s.g * s.a * s.h);
  }
}

TEST(DragonflyArrangement, CablesJoinThePairedPortsRouters) {
  for (const Shape& s : shapes()) {
    if (s.g < 2) continue;
    SCOPED_TRACE(text(s));
    Built b = build(s);
    // Router pairs (G, R) -> (T, R') the pairing predicts, with multiplicity.
    std::multiset<std::pair<std::pair<int, int>, std::pair<int, int>>> predicted, built;
    const DragonflyParams d = params(s);
    for (int G = 0; G < s.g; ++G)
      for (int k = 0; k < s.a * s.h; ++k) {
        const DragonflyPort to = dragonfly_peer(d, G, k);
        if (G < to.group) predicted.insert({{G, k / s.h}, {to.group, to.port / s.h}});
      }
    for (LinkId l = 0; l < static_cast<LinkId>(b.p.links().size()); ++l) {
      const Link& k = b.p.link(l);
      if (!b.global(l) || b.where(k.from).first > b.where(k.to).first) continue;
      built.insert({b.where(k.from), b.where(k.to)});
    }
    EXPECT_EQ(built, predicted);
  }
}

// Fewest router hops from (G, R) to (T, R2) over paths with one global cable, from the cables.
int predicted_minimal_hops(const Built& b, int ra, int rb) {
  const int a = b.shape.a;
  const int G = ra / a, R = ra % a, T = rb / a, R2 = rb % a;
  if (ra == rb) return 0;
  if (G == T) return 1;
  int best = 99;
  for (const Link& k : b.p.links()) {
    if (!is_switch(k.from) || !is_switch(k.to)) continue;
    const auto from = b.where(k.from), to = b.where(k.to);
    if (from.first == G && to.first == T) best = std::min(best, (from.second != R) + 1 + (to.second != R2));
    if (!b.shape.full_duplex && to.first == G && from.first == T)
      best = std::min(best, (to.second != R) + 1 + (from.second != R2));
  }
  return best;
}

TEST(DragonflyMinimal, EveryPairTakesTheFewestHops) {
  for (const Shape& s : shapes()) {
    SCOPED_TRACE(text(s));
    Built b = build(s);
    const int n = b.t().host_count();
    int longest = 0;
    for (int x = 0; x < n; ++x)
      for (int y = 0; y < n; ++y) {
        if (x == y) continue;
        const std::vector<LinkId> r = checked_route(b.p, b.host(x), b.host(y));
        ASSERT_FALSE(r.empty());
        const int router_hops = hops(b.p, r) - 2;
        EXPECT_EQ(router_hops, predicted_minimal_hops(b, x / s.p, y / s.p)) << x << " -> " << y;
        EXPECT_LE(router_hops, 3);
        int globals = 0;
        for (LinkId l : r) globals += b.global(l) ? 1 : 0;
        EXPECT_EQ(globals, x / s.p / s.a == y / s.p / s.a ? 0 : 1);
        longest = std::max(longest, hops(b.p, r));
      }
    EXPECT_EQ(b.t().diameter(), longest);
  }
}

TEST(DragonflyMinimal, HopsBySituation) {
  Built b = build({9, 4, 2, 2});
  auto router_hops = [&](int x, int y) { return hops(b.p, checked_route(b.p, b.host(x), b.host(y))) - 2; };
  EXPECT_EQ(router_hops(0, 1), 0);  // same router
  EXPECT_EQ(router_hops(0, 7), 1);  // same group (routers 0 and 3)
  // Group 0 -> group 1 (absolute): the only cable joins router 0 of both groups.
  EXPECT_EQ(router_hops(0, 8), 1);   // (0, 0) -> (1, 0): the global cable alone
  EXPECT_EQ(router_hops(2, 8), 2);   // (0, 1) -> (1, 0)
  EXPECT_EQ(router_hops(0, 10), 2);  // (0, 0) -> (1, 1)
  EXPECT_EQ(router_hops(2, 10), 3);  // (0, 1) -> (1, 1)
}

TEST(DragonflyMinimal, DiameterClosedForm) {
  EXPECT_EQ(build({1, 1, 2, 0}).t().diameter(), 2);
  EXPECT_EQ(build({1, 1, 1, 0}).t().diameter(), 0);
  EXPECT_EQ(build({1, 4, 1, 0}).t().diameter(), 3);
  EXPECT_EQ(build({3, 1, 1, 2}).t().diameter(), 3);
  EXPECT_EQ(build({5, 2, 1, 4}).t().diameter(), 4);  // g - 1 <= h
  EXPECT_EQ(build({9, 4, 1, 2}).t().diameter(), 5);  // g - 1 > h
  EXPECT_EQ(build({9, 4, 1, 2}, DragonflyRouting::kValiant).t().diameter(), std::nullopt);
}

// The intermediate group of the documented rule: x = mix(a, b, salt), the (x mod n)-th group
// other than the source's and destination's.
int documented_intermediate(int groups, int G, int T, int a, int b, uint64_t salt) {
  std::vector<int> candidates;
  for (int I = 0; I < groups; ++I)
    if (I != G && I != T) candidates.push_back(I);
  const uint64_t x = mix(static_cast<uint64_t>(a), static_cast<uint64_t>(b), salt);
  return candidates[pick(x, candidates.size())];
}

// The groups a route from host `from` visits, in order, without repeating consecutive ones.
std::vector<int> groups_visited(const Built& b, int from, const std::vector<LinkId>& r) {
  std::vector<int> out;
  NodeId at = host_node(b.host(from));
  for (LinkId l : r) {
    const Link& k = b.p.link(l);
    at = k.from == at ? k.to : k.from;  // a half-duplex link may be crossed backwards
    if (is_switch(at) && (out.empty() || out.back() != b.where(at).first)) out.push_back(b.where(at).first);
  }
  return out;
}

TEST(DragonflyValiant, DetoursThroughTheHashedGroup) {
  for (const Shape& s : {Shape{9, 4, 2, 2}, Shape{5, 4, 1, 2, GlobalArrangement::kRelative},
                         Shape{4, 3, 1, 2, GlobalArrangement::kCirculant},
                         Shape{6, 5, 1, 1, GlobalArrangement::kAbsolute, false}}) {
    SCOPED_TRACE(text(s));
    Built b = build(s, DragonflyRouting::kValiant);
    const int n = b.t().host_count();
    for (uint64_t salt : {uint64_t{0}, uint64_t{7}})
      for (int x = 0; x < n; ++x)
        for (int y = 0; y < n; ++y) {
          if (x == y) continue;
          const std::vector<LinkId> r = checked_route(b.p, b.host(x), b.host(y), RouteRequest{salt, nullptr});
          ASSERT_FALSE(r.empty());
          EXPECT_LE(hops(b.p, r) - 2, 5);
          const int ra = x / s.p, rb = y / s.p;
          if (ra == rb) {
            EXPECT_EQ(r.size(), 2u);
            continue;
          }
          const int G = ra / s.a, T = rb / s.a;
          if (G == T) {  // one group: minimal, never out and back over the same cable
            EXPECT_EQ(groups_visited(b, x, r), std::vector<int>{G}) << x << " -> " << y;
            EXPECT_EQ(r.size(), 3u);
            continue;
          }
          const int I = documented_intermediate(s.g, G, T, x, y, salt);
          EXPECT_EQ(groups_visited(b, x, r), (std::vector<int>{G, I, T})) << x << " -> " << y << " salt " << salt;
        }
  }
}

TEST(DragonflyValiant, SaltsSpreadOverIntermediateGroups) {
  Built b = build({9, 4, 2, 2}, DragonflyRouting::kValiant);
  std::map<int, int> uses;
  for (uint64_t salt = 0; salt < 400; ++salt) {
    const std::vector<LinkId> r = checked_route(b.p, b.host(0), b.host(20), RouteRequest{salt, nullptr});
    const std::vector<int> visited = groups_visited(b, 0, r);
    ASSERT_EQ(visited.size(), 3u);
    ++uses[visited[1]];
  }
  EXPECT_EQ(uses.size(), 7u);  // every group but 0 and 2
  for (const auto& [group, count] : uses) {
    EXPECT_NE(group, 0);
    EXPECT_NE(group, 2);
    EXPECT_GT(count, 20) << "group " << group;  // about 400 / 7 each
  }
}

TEST(DragonflyValiant, NoIntermediateGroupFallsBackToMinimal) {
  // Two groups: a pair across them has no third group, and a pair inside one stays minimal (an
  // out-and-back detour would cross its one global cable twice), half duplex included.
  for (bool full : {true, false}) {
    const Shape s{2, 3, 2, 1, GlobalArrangement::kAbsolute, full};
    Built val = build(s, DragonflyRouting::kValiant);
    Built min = build(s);
    for (int x = 0; x < val.t().host_count(); ++x)
      for (int y = 0; y < val.t().host_count(); ++y) {
        if (x == y) continue;
        const std::vector<LinkId> r = checked_route(val.p, val.host(x), val.host(y), RouteRequest{5, nullptr});
        EXPECT_EQ(r, *min.p.route(min.host(x), min.host(y))) << x << " -> " << y;
      }
  }
  // One group: nowhere to detour.
  Built one_val = build({1, 4, 1, 0}, DragonflyRouting::kValiant);
  Built one_min = build({1, 4, 1, 0});
  for (int x = 0; x < 4; ++x)
    for (int y = 0; y < 4; ++y) {
      if (x != y) {
        EXPECT_EQ(one_val.p.route(one_val.host(x), one_val.host(y), RouteRequest{5, nullptr}),
                  one_min.p.route(one_min.host(x), one_min.host(y)));
      }
    }
}

// A load per link: `base` everywhere except the links given.
class FakeLoad final : public LinkLoad {
 public:
  explicit FakeLoad(double base) : base_(base) {}
  void set(LinkId l, double v) { loads_[l] = v; }
  double load(LinkId l) const override {
    auto it = loads_.find(l);
    return it == loads_.end() ? base_ : it->second;
  }

 private:
  double base_;
  std::map<LinkId, double> loads_;
};

// The first router-to-router link of a route (the source router's output port).
LinkId first_router_link(const Platform& p, const std::vector<LinkId>& r) {
  for (LinkId l : r)
    if (is_switch(p.link(l).from) && is_switch(p.link(l).to)) return l;
  return -1;
}

TEST(DragonflyUgal, NoLoadOrBalancedLoadStaysMinimal) {
  const Shape s{9, 4, 2, 2};
  Built ugal = build(s, DragonflyRouting::kUgal);
  Built min = build(s);
  const FakeLoad balanced(3.0);
  const int n = ugal.t().host_count();
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y) {
      if (x == y) continue;
      const auto minimal = min.p.route(min.host(x), min.host(y));
      EXPECT_EQ(ugal.p.route(ugal.host(x), ugal.host(y), RouteRequest{1, nullptr}), minimal);
      const std::vector<LinkId> r = checked_route(ugal.p, ugal.host(x), ugal.host(y), RouteRequest{1, &balanced});
      // Equal queues: UGAL compares hop counts, and a detour has >= 2 router hops.
      const int min_hops = hops(min.p, *minimal);
      EXPECT_LE(hops(ugal.p, r), min_hops);
      if (min_hops <= 4) {
        EXPECT_EQ(r, *minimal) << x << " -> " << y;
      }
    }
}

TEST(DragonflyUgal, CongestedMinimalPortTakesValiant) {
  const Shape s{9, 4, 2, 2};
  Built ugal = build(s, DragonflyRouting::kUgal);
  Built val = build(s, DragonflyRouting::kValiant);
  Built strict = build(s, DragonflyRouting::kUgal, 1000.0);
  int checked = 0;
  for (int x = 0; x < ugal.t().host_count(); x += 3)
    for (int y = 0; y < ugal.t().host_count(); y += 5) {
      if (x / s.p == y / s.p) continue;
      const RouteRequest plain{9, nullptr};
      const std::vector<LinkId> minimal = checked_route(ugal.p, ugal.host(x), ugal.host(y), plain);
      const std::vector<LinkId> detour = checked_route(val.p, val.host(x), val.host(y), plain);
      FakeLoad load(1.0);
      load.set(first_router_link(ugal.p, minimal), 100.0);
      if (first_router_link(ugal.p, detour) == first_router_link(ugal.p, minimal)) continue;  // same port
      const RouteRequest loaded{9, &load};
      EXPECT_EQ(checked_route(ugal.p, ugal.host(x), ugal.host(y), loaded), detour) << x << " -> " << y;
      // 100 * H_min vs 1 * H_val (<= 5): a threshold of 1000 keeps the minimal path.
      EXPECT_EQ(checked_route(strict.p, strict.host(x), strict.host(y), loaded), minimal) << x << " -> " << y;
      ++checked;
    }
  EXPECT_GT(checked, 50);
}

TEST(DragonflyDeterminism, SameParametersSameLinksAndRoutes) {
  const Shape s{5, 4, 1, 2, GlobalArrangement::kCirculant};
  Built b1 = build(s, DragonflyRouting::kValiant);
  Built b2 = build(s, DragonflyRouting::kValiant);
  ASSERT_EQ(b1.p.links().size(), b2.p.links().size());
  for (size_t i = 0; i < b1.p.links().size(); ++i) EXPECT_EQ(b1.p.links()[i].name, b2.p.links()[i].name);
  for (int x = 0; x < b1.t().host_count(); ++x)
    for (int y = 0; y < b1.t().host_count(); ++y) {
      if (x == y) continue;
      const RouteRequest req{42, nullptr};
      const auto r = b1.p.route(b1.host(x), b1.host(y), req);
      EXPECT_EQ(r, b1.p.route(b1.host(x), b1.host(y), req));
      EXPECT_EQ(r, b2.p.route(b2.host(x), b2.host(y), req));
    }
}

TopologyError dragonfly_error(const DragonflyParams& d) {
  Platform p;
  try {
    add_dragonfly(p, topo_common("T"), d, DragonflyRouting::kMinimal);
  } catch (const TopologyError& e) {
    return e;
  }
  ADD_FAILURE() << "no TopologyError";
  return TopologyError("", "");
}

bool contains(const TopologyError& e, const std::string& text) {
  return std::string(e.what()).find(text) != std::string::npos;
}

TEST(DragonflyErrors, ParametersNameTheirKey) {
  EXPECT_EQ(dragonfly_error(params({0, 4, 1, 2})).param(), "groups");
  EXPECT_EQ(dragonfly_error(params({9, 0, 1, 2})).param(), "routers");
  EXPECT_EQ(dragonfly_error(params({9, 4, 0, 2})).param(), "hosts_per_router");
  EXPECT_EQ(dragonfly_error(params({9, 4, 1, -1})).param(), "global_links");
  TopologyError e = dragonfly_error(params({1, 4, 1, 2}));
  EXPECT_EQ(e.param(), "global_links");
  EXPECT_TRUE(contains(e, "single group")) << e.what();
  e = dragonfly_error(params({3, 4, 1, 0}));
  EXPECT_EQ(e.param(), "global_links");
  EXPECT_TRUE(contains(e, "disconnected")) << e.what();
  e = dragonfly_error(params({4096, 4096, 2, 1}));
  EXPECT_EQ(e.param(), "groups");
  EXPECT_TRUE(contains(e, "16777216")) << e.what();
}

TEST(DragonflyErrors, GlobalLinksMustFitTheGroups) {
  // a h = 8 global ports per group cannot be spread evenly over 7 other groups.
  TopologyError e = dragonfly_error(params({8, 4, 1, 2}));
  EXPECT_EQ(e.param(), "global_links");
  EXPECT_TRUE(contains(e, "4 x 2 = 8 global ports per group is not a multiple of groups - 1 = 7")) << e.what();
  EXPECT_TRUE(contains(e, "groups can be 2, 3, 5 or 9")) << e.what();  // divisors of 8, plus one
  EXPECT_TRUE(contains(e, "global_links must be a multiple of 7")) << e.what();
  e = dragonfly_error(params({7, 4, 1, 2}));  // 8 ports over 6 groups: h a multiple of 6 / gcd(4, 6) = 3
  EXPECT_TRUE(contains(e, "global_links must be a multiple of 3")) << e.what();
  // Every valid combination builds.
  for (int g : {2, 3, 5, 9}) {
    Platform p;
    EXPECT_NO_THROW(add_dragonfly(p, topo_common("T"), params({g, 4, 1, 2}), DragonflyRouting::kMinimal)) << g;
  }
}

}  // namespace
}  // namespace simfab
