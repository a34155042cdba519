// The `topology:` section of the YAML platform (platform/yaml_topology.cpp): every kind reads
// into its generator with its routing, a list declares several, clusters record their switches,
// and the element limit bounds what untrusted input can make the loader build.
#include <gtest/gtest.h>

#include "platform/yaml_platform.hpp"

namespace simfab {
namespace {

const char* kLink = "  link: {bandwidth: 1Gbps, latency: 1us}\n  prefix: n\n  speed: 1Gf\n";

TEST(TopoYaml, EveryKindWithItsRouting) {
  struct Case {
    std::string body, kind, routing;
    int hosts, switches;
  };
  const std::vector<Case> cases = {
      {"  kind: fat-tree\n  k: 4\n", "fat-tree", "d-mod-k", 16, 20},
      {"  kind: k-ary-n-tree\n  k: 2\n  n: 3\n  routing: s-mod-k\n", "fat-tree", "s-mod-k", 8, 12},
      {"  kind: xgft\n  simgrid: \"2;4,4;1,2;1,2\"\n", "fat-tree", "d-mod-k", 16, 6},
      {"  kind: xgft\n  down: [2, 2]\n  up: [1, 2]\n", "fat-tree", "d-mod-k", 4, 4},
      {"  kind: torus\n  dims: [3, 3]\n  hosts_per_router: 2\n", "torus", "dimension-order", 18, 9},
      {"  kind: mesh\n  dims: [2, 3]\n", "mesh", "dimension-order", 6, 6},
      {"  kind: dragonfly\n  groups: 5\n  routers: 2\n  global_links: 2\n  routing: valiant\n", "dragonfly",
       "valiant", 10, 10},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.body);
    Platform p = parse_platform_yaml("topology:\n  name: t\n" + c.body + kLink, "p.yaml");
    ASSERT_EQ(p.topology_count(), 1);
    EXPECT_EQ(p.topology(0).name(), "t");
    EXPECT_EQ(p.topology(0).kind(), c.kind);
    EXPECT_EQ(p.topology(0).routing(), c.routing);
    EXPECT_EQ(p.host_count(), c.hosts);
    EXPECT_EQ(p.switch_count(), c.switches);
    EXPECT_TRUE(p.route(0, p.host_count() - 1).has_value());
  }
}

TEST(TopoYaml, AListDeclaresSeveralAndHostsFollowClusters) {
  Platform p = parse_platform_yaml(
      "clusters:\n  - {name: c, prefix: c, count: 2, speed: 1Gf, bandwidth: 1Gbps, latency: 0}\n"
      "topology:\n  - {name: a, kind: torus, dims: [2], prefix: a, speed: 1Gf, link: {bandwidth: 1Gbps, latency: 0}}\n"
      "  - {name: b, kind: mesh, dims: [3], prefix: b, speed: 1Gf, link: {bandwidth: 1Gbps, latency: 0}}\n",
      "p.yaml");
  ASSERT_EQ(p.topology_count(), 2);
  EXPECT_EQ(p.host(0).name, "c0");
  EXPECT_EQ(p.host(2).name, "a0");
  EXPECT_EQ(p.host(4).name, "b0");
  EXPECT_FALSE(p.route(2, 4).has_value());  // no route between two topologies
  EXPECT_EQ(p.find_switch("c_switch"), std::optional<SwitchId>(0));
}

TEST(TopoYaml, HalfDuplexCablesAreOneSharedLink) {
  Platform p = parse_platform_yaml("topology:\n  name: t\n  kind: mesh\n  dims: [2]\n  duplex: half\n" + std::string(kLink),
                                   "p.yaml");
  EXPECT_EQ(p.links().size(), 3u);  // two host cables, one router cable
  EXPECT_EQ(p.route(0, 1)->size(), 3u);
  EXPECT_EQ(p.route(1, 0)->size(), 3u);
}

TEST(TopoYaml, KAryNTreeLevelErrorsPointAtN) {
  try {
    parse_platform_yaml("topology:\n  name: t\n  kind: k-ary-n-tree\n  k: 4\n  n: 40\n" + std::string(kLink), "p.yaml");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 5) << e.message();
  }
}

TEST(TopoYaml, ElementLimitStopsAHugeTopology) {
  const std::string text = "topology:\n  name: t\n  kind: k-ary-n-tree\n  k: 8\n  n: 6\n" + std::string(kLink);
  try {
    parse_platform_yaml(text, "p.yaml", 20'000);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("holds at most 20000"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace simfab
