// Tori and meshes (topo/torus.hpp): element counts (4x4 torus, 2x3 mesh, rings of two, several
// hosts per router), the routing contract on every host pair of several instances, hop counts
// against ring distances computed here, dimension order and its tie rule, the closed-form
// diameter, forwarding tables, determinism, parameter errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "topo/torus.hpp"
#include "topo_test_support.hpp"

namespace simfab {
namespace {

using testing::checked_route;
using testing::hops;
using testing::topo_common;

struct Built {
  Platform p;
  int topo = -1;
  const Topology& t() const { return p.topology(topo); }
};

Built build(std::vector<int> dims, std::vector<bool> wrap, int hosts_per_router = 1, bool full_duplex = true) {
  Built b;
  const TorusParams t{std::move(dims), std::move(wrap), hosts_per_router};
  b.topo = add_torus(b.p, topo_common("T", full_duplex), t);
  return b;
}

int switch_links(const Platform& p) {
  int n = 0;
  for (const Link& l : p.links()) n += is_switch(l.from) && is_switch(l.to) ? 1 : 0;
  return n;
}

std::vector<std::string> route_names(const Built& b, int from, int to) {
  std::vector<std::string> out;
  for (LinkId l : checked_route(b.p, b.t().host(from), b.t().host(to))) out.push_back(b.p.link(l).name);
  return out;
}

// Independent of the implementation: 2 + the sum over dimensions of the ring (or line) distance.
int expected_hops(const std::vector<int>& dims, const std::vector<bool>& wrap, int per_router, int a, int b) {
  int ra = a / per_router, rb = b / per_router, sum = 2;
  for (size_t d = 0; d < dims.size(); ++d) {
    const int n = dims[d], xa = ra % n, xb = rb % n;
    ra /= n;
    rb /= n;
    const int line = std::abs(xa - xb);
    sum += wrap[d] ? std::min(line, n - line) : line;
  }
  return sum;
}

struct Case {
  std::vector<int> dims;
  std::vector<bool> wrap;
  int per_router = 1;
  bool full_duplex = true;
};

std::vector<Case> cases() {
  return {
      {{4, 4}, {true, true}},
      {{2, 3}, {false, false}},
      {{5, 3}, {true, false}},
      {{2, 2, 3}, {true, true, true}, 2},
      {{1, 4}, {true, true}},
      {{3, 4}, {true, true}, 1, false},
      {{6}, {true}, 3},
      {{3, 1, 2}, {false, true, true}, 2, false},
  };
}

TEST(TorusCounts, FourByFourTorus) {
  Built b = build({4, 4}, {true, true});
  EXPECT_EQ(b.t().kind(), "torus");
  EXPECT_EQ(b.t().routing(), "dimension-order");
  EXPECT_EQ(b.p.switch_count(), 16);
  EXPECT_EQ(b.t().host_count(), 16);
  EXPECT_EQ(switch_links(b.p), 2 * 32);  // 32 full-duplex router cables
  EXPECT_EQ(b.p.links().size(), 2u * (16 + 32));
  EXPECT_EQ(b.p.switch_name(0), "T_r0");
  EXPECT_TRUE(b.p.find_link("T_r3_r0_UP"));   // the wrap-around of the first row
  EXPECT_TRUE(b.p.find_link("T_r12_r0_UP"));  // ... and of the first column
  EXPECT_TRUE(b.p.find_link("T_h5_r5_DOWN"));
}

TEST(TorusCounts, TwoByThreeMesh) {
  Built b = build({2, 3}, {false, false});
  EXPECT_EQ(b.t().kind(), "mesh");
  EXPECT_EQ(b.p.switch_count(), 6);
  EXPECT_EQ(switch_links(b.p), 2 * 7);  // 3 lines of 2 (1 cable each) + 2 lines of 3 (2 each)
  EXPECT_FALSE(b.p.find_link("T_r4_r0_UP"));  // no wrap-around
}

TEST(TorusCounts, RingOfTwoHasOneCable) {
  EXPECT_EQ(switch_links(build({2}, {true}).p), 2);
  EXPECT_EQ(switch_links(build({2}, {false}).p), 2);
  EXPECT_EQ(switch_links(build({2, 2}, {true, true}).p), 2 * 4);
  EXPECT_EQ(switch_links(build({1, 3}, {true, true}).p), 2 * 3);  // size 1: no cable
  EXPECT_EQ(switch_links(build({1}, {true}).p), 0);
  EXPECT_EQ(switch_links(build({3, 3, 3}, {true, true, true}, 1, false).p), 81);  // half duplex: 1 link each
}

TEST(TorusCounts, HostsPerRouter) {
  Built b = build({3, 3}, {true, true}, 3);
  ASSERT_EQ(b.t().host_count(), 27);
  EXPECT_EQ(b.p.switch_count(), 9);
  for (int i = 0; i < 27; ++i) {
    const HostId h = b.t().host(i);
    EXPECT_EQ(b.p.host(h).name, "Th" + std::to_string(i));
    const Link& up = b.p.link(*b.p.find_link("T_h" + std::to_string(i) + "_r" + std::to_string(i / 3) + "_UP"));
    EXPECT_EQ(up.from, host_node(h));
    EXPECT_EQ(up.to, switch_node(*b.p.find_switch("T_r" + std::to_string(i / 3))));
  }
  const std::vector<std::string> same_router = route_names(b, 3, 5);
  EXPECT_EQ(same_router, (std::vector<std::string>{"T_h3_r1_UP", "T_h5_r1_DOWN"}));
}

TEST(TorusRouting, EveryPairHasRingDistanceHops) {
  for (const Case& c : cases()) {
    Built b = build(c.dims, c.wrap, c.per_router, c.full_duplex);
    const int n = b.t().host_count();
    int longest = 0;
    for (int x = 0; x < n; ++x)
      for (int y = 0; y < n; ++y) {
        if (x == y) continue;
        const std::vector<LinkId> r = checked_route(b.p, b.t().host(x), b.t().host(y));
        ASSERT_FALSE(r.empty());
        const int expected = expected_hops(c.dims, c.wrap, c.per_router, x, y);
        EXPECT_EQ(hops(b.p, r), expected) << x << " -> " << y;
        EXPECT_EQ(static_cast<int>(r.size()), expected);
        longest = std::max(longest, expected);
      }
    EXPECT_EQ(b.t().diameter(), longest);
  }
}

TEST(TorusRouting, DimensionZeroFirst) {
  Built b = build({4, 4}, {true, true});
  // Router 0 (0, 0) to router 5 (1, 1): along x first, then y.
  EXPECT_EQ(route_names(b, 0, 5), (std::vector<std::string>{"T_h0_r0_UP", "T_r0_r1_UP", "T_r1_r5_UP", "T_h5_r5_DOWN"}));
  // Back: x first again (r5 -> r4), then y (r4 -> r0).
  EXPECT_EQ(route_names(b, 5, 0),
            (std::vector<std::string>{"T_h5_r5_UP", "T_r4_r5_DOWN", "T_r0_r4_DOWN", "T_h0_r0_DOWN"}));
}

TEST(TorusRouting, ShorterWayAroundTiesGoPositive) {
  Built b = build({4}, {true});
  // 3 -> 1: two steps either way; + wins, through the wrap-around cable r3 -> r0.
  EXPECT_EQ(route_names(b, 3, 1), (std::vector<std::string>{"T_h3_r3_UP", "T_r3_r0_UP", "T_r0_r1_UP", "T_h1_r1_DOWN"}));
  // 0 -> 3: one step back beats three forward.
  EXPECT_EQ(route_names(b, 0, 3), (std::vector<std::string>{"T_h0_r0_UP", "T_r3_r0_DOWN", "T_h3_r3_DOWN"}));
  // A mesh never wraps: 0 -> 3 goes straight.
  Built m = build({4}, {false});
  EXPECT_EQ(route_names(m, 0, 3),
            (std::vector<std::string>{"T_h0_r0_UP", "T_r0_r1_UP", "T_r1_r2_UP", "T_r2_r3_UP", "T_h3_r3_DOWN"}));
  // A ring of two: one cable, crossed UP from 0 and DOWN from 1.
  Built two = build({2}, {true});
  EXPECT_EQ(route_names(two, 0, 1), (std::vector<std::string>{"T_h0_r0_UP", "T_r0_r1_UP", "T_h1_r1_DOWN"}));
  EXPECT_EQ(route_names(two, 1, 0), (std::vector<std::string>{"T_h1_r1_UP", "T_r0_r1_DOWN", "T_h0_r0_DOWN"}));
}

TEST(TorusRouting, DiameterClosedForm) {
  EXPECT_EQ(build({4, 4}, {true, true}).t().diameter(), 2 + 2 + 2);
  EXPECT_EQ(build({5, 3}, {true, false}).t().diameter(), 2 + 2 + 2);
  EXPECT_EQ(build({2, 3}, {false, false}).t().diameter(), 2 + 1 + 2);
  EXPECT_EQ(build({1}, {true}, 2).t().diameter(), 2);
  EXPECT_EQ(build({1}, {true}, 1).t().diameter(), 0);
  EXPECT_EQ(build({8, 8, 8}, {true, true, true}).t().diameter(), 2 + 12);
}

TEST(TorusRouting, ForwardingTableFollowsRoutes) {
  for (const Case& c : cases()) {
    Built b = build(c.dims, c.wrap, c.per_router, c.full_duplex);
    const int n = b.t().host_count();
    for (int x = 0; x < n; ++x)
      for (int y = 0; y < n; ++y) {
        if (x == y) continue;
        NodeId at = host_node(b.t().host(x));
        for (LinkId l : checked_route(b.p, b.t().host(x), b.t().host(y))) {
          const Link& k = b.p.link(l);
          if (is_switch(at)) {
            EXPECT_EQ(b.t().forward(switch_of(at), y), l) << x << " -> " << y;
          }
          at = k.from == at ? k.to : k.from;
        }
      }
  }
  Built b = build({3}, {true});
  EXPECT_EQ(b.t().forward(99, 0), std::nullopt);
}

TEST(TorusRouting, DeterministicAndObliviousOfTheRequest) {
  Built b1 = build({3, 4}, {true, false}, 2);
  Built b2 = build({3, 4}, {true, false}, 2);
  ASSERT_EQ(b1.p.links().size(), b2.p.links().size());
  for (size_t i = 0; i < b1.p.links().size(); ++i) EXPECT_EQ(b1.p.links()[i].name, b2.p.links()[i].name);
  for (int x = 0; x < b1.t().host_count(); ++x)
    for (int y = 0; y < b1.t().host_count(); ++y) {
      if (x == y) continue;
      const auto r = b1.p.route(b1.t().host(x), b1.t().host(y));
      EXPECT_EQ(r, b2.p.route(b2.t().host(x), b2.t().host(y)));
      EXPECT_EQ(r, b1.p.route(b1.t().host(x), b1.t().host(y), RouteRequest{12345, nullptr}));
    }
}

TopologyError torus_error(std::vector<int> dims, std::vector<bool> wrap, int per_router) {
  Platform p;
  try {
    add_torus(p, topo_common("T"), TorusParams{std::move(dims), std::move(wrap), per_router});
  } catch (const TopologyError& e) {
    return e;
  }
  ADD_FAILURE() << "no TopologyError";
  return TopologyError("", "");
}

TEST(TorusErrors, ParametersNameTheirKey) {
  TopologyError e = torus_error({0}, {true}, 1);
  EXPECT_EQ(e.param(), "dims");
  EXPECT_STREQ(e.what(), "dimension 0 has size 0; every dimension needs >= 1 router");
  e = torus_error({4, -1}, {true, true}, 1);
  EXPECT_EQ(e.param(), "dims");
  EXPECT_STREQ(e.what(), "dimension 1 has size -1; every dimension needs >= 1 router");
  EXPECT_EQ(torus_error({}, {}, 1).param(), "dims");
  e = torus_error({4, 4}, {true}, 1);
  EXPECT_EQ(e.param(), "wrap");
  EXPECT_NE(std::string(e.what()).find("1 values for 2 dimensions"), std::string::npos) << e.what();
  e = torus_error({4, 4}, {true, true}, 0);
  EXPECT_EQ(e.param(), "hosts_per_router");
  EXPECT_NE(std::string(e.what()).find(">= 1 host"), std::string::npos) << e.what();
  e = torus_error({4096, 4096}, {true, true}, 2);  // 2^25 hosts: refused before anything is built
  EXPECT_EQ(e.param(), "dims");
  EXPECT_NE(std::string(e.what()).find("16777216"), std::string::npos) << e.what();
}

TEST(TorusErrors, NamesAlreadyTaken) {
  Platform p;
  add_torus(p, topo_common("T"), TorusParams{{3}, {true}, 1});
  try {
    add_torus(p, topo_common("T"), TorusParams{{3}, {true}, 1});
    ADD_FAILURE() << "no TopologyError";
  } catch (const TopologyError& e) {
    EXPECT_EQ(e.param(), "prefix");  // hosts come first
  }
  TopoCommon other = topo_common("T");
  other.hosts.prefix = "U";
  try {
    add_torus(p, other, TorusParams{{3}, {true}, 1});
    ADD_FAILURE() << "no TopologyError";
  } catch (const TopologyError& e) {
    EXPECT_EQ(e.param(), "name");
  }
}

}  // namespace
}  // namespace simfab
