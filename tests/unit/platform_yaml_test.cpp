// The native YAML platform format (platform/yaml_platform.cpp): what valid files produce.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/yaml_platform.hpp"

namespace simfab {
namespace {

std::vector<std::string> link_names(const Platform& p, const std::vector<LinkId>& route) {
  std::vector<std::string> names;
  for (LinkId l : route) names.push_back(p.link(l).name);
  return names;
}

SimTime route_latency(const Platform& p, const std::vector<LinkId>& route) {
  SimTime sum = SimTime::zero();
  for (LinkId l : route) sum += p.link(l).latency;
  return sum;
}

HostId host_id(const Platform& p, const std::string& name) {
  auto h = p.find_host(name);
  EXPECT_TRUE(h.has_value()) << name;
  return h.value_or(-1);
}

TEST(PlatformYaml, ClusterWithBackbone) {
  Platform p = parse_platform_yaml(R"(version: 1
clusters:
  - name: c0
    prefix: node
    count: 4
    speed: 10Gf
    cores: 4
    bandwidth: 10Gbps
    latency: 1us
    backbone:
      bandwidth: 100Gbps
      latency: 500ns
)",
                                   "c.yaml");
  EXPECT_EQ(p.source(), "c.yaml");
  EXPECT_FALSE(p.is_ideal());
  ASSERT_EQ(p.host_count(), 4);
  ASSERT_EQ(p.clusters().size(), 1u);
  EXPECT_EQ(p.clusters()[0].name, "c0");
  for (int i = 0; i < 4; ++i) {
    const Host& h = p.host(i);
    EXPECT_EQ(h.name, "node" + std::to_string(i));
    EXPECT_EQ(h.cores, 4);
    EXPECT_DOUBLE_EQ(h.speed_flops, 10e9);
    EXPECT_EQ(h.cluster, 0);
    ASSERT_GE(h.up, 0);
    EXPECT_EQ(h.down, h.up);  // not split-duplex: one link both ways
    EXPECT_EQ(h.limiter, -1);
    EXPECT_EQ(h.loopback, -1);
    EXPECT_EQ(h.cabinet, -1);
    const Link& l = p.link(h.up);
    EXPECT_EQ(l.sharing, LinkSharing::kShared);
    EXPECT_EQ(l.twin, -1);
    EXPECT_EQ(l.name, "c0_link_" + std::to_string(i));
    EXPECT_DOUBLE_EQ(l.bandwidth_Bps, 1.25e9);
    EXPECT_EQ(l.latency, SimTime::ps(1'000'000));
  }
  LinkId bb = p.clusters()[0].backbone;
  ASSERT_GE(bb, 0);
  EXPECT_EQ(p.link(bb).name, "c0_backbone");
  EXPECT_DOUBLE_EQ(p.link(bb).bandwidth_Bps, 12.5e9);
  EXPECT_EQ(p.link(bb).latency, SimTime::ps(500'000));
  EXPECT_EQ(p.links().size(), 5u);

  auto r = p.route(0, 1);
  ASSERT_TRUE(r);
  EXPECT_EQ(link_names(p, *r), (std::vector<std::string>{"c0_link_0", "c0_backbone", "c0_link_1"}));
  EXPECT_EQ(route_latency(p, *r), SimTime::ps(2'500'000));
  auto back = p.route(3, 2);
  ASSERT_TRUE(back);
  EXPECT_EQ(link_names(p, *back), (std::vector<std::string>{"c0_link_3", "c0_backbone", "c0_link_2"}));
  ASSERT_TRUE(p.route(2, 2));
  EXPECT_TRUE(p.route(2, 2)->empty());
}

TEST(PlatformYaml, ClusterWithoutBackboneIsACrossbar) {
  Platform p = parse_platform_yaml(R"(clusters:
  - {name: x, prefix: h, suffix: -eth, count: 3, speed: 1e9, bandwidth: 1000, latency: 7}
)",
                                   "x.yaml");
  ASSERT_EQ(p.host_count(), 3);
  EXPECT_EQ(p.host(2).name, "h2-eth");
  EXPECT_EQ(p.host(2).cores, 1);  // default
  EXPECT_DOUBLE_EQ(p.host(2).speed_flops, 1e9);
  EXPECT_EQ(p.clusters()[0].backbone, -1);
  const Link& l = p.link(p.host(0).up);
  EXPECT_DOUBLE_EQ(l.bandwidth_Bps, 1000.0);  // bare bandwidth: bytes/s
  EXPECT_EQ(l.latency, SimTime::ps(7));       // bare latency: ps
  auto r = p.route(0, 2);
  ASSERT_TRUE(r);
  EXPECT_EQ(link_names(p, *r), (std::vector<std::string>{"x_link_0", "x_link_2"}));
}

TEST(PlatformYaml, StandaloneHostsAndExplicitRoutes) {
  Platform p = parse_platform_yaml(R"(hosts:
  - name: a
    speed: 2Gf
    cores: 2
  - name: b
    speed: 500Mflops
  - name: c
    speed: 1Tf
links:
  - {name: l0, bandwidth: 1GBps, latency: 1us}
  - {name: l1, bandwidth: 8Gbps, latency: 2ns}
routes:
  - {src: a, dst: b, links: [l0, l1]}
  - {src: b, dst: c, links: [l1], symmetric: false}
)",
                                   "s.yaml");
  ASSERT_EQ(p.host_count(), 3);
  EXPECT_EQ(p.host(0).cores, 2);
  EXPECT_DOUBLE_EQ(p.host(1).speed_flops, 500e6);
  EXPECT_DOUBLE_EQ(p.host(2).speed_flops, 1e12);
  EXPECT_EQ(p.host(0).cluster, -1);
  EXPECT_EQ(p.host(0).up, -1);
  EXPECT_EQ(p.host(0).down, -1);
  EXPECT_DOUBLE_EQ(p.link(1).bandwidth_Bps, 1e9);

  auto ab = p.route(0, 1);
  ASSERT_TRUE(ab);
  EXPECT_EQ(link_names(p, *ab), (std::vector<std::string>{"l0", "l1"}));
  EXPECT_EQ(route_latency(p, *ab), SimTime::ps(1'002'000));
  auto ba = p.route(1, 0);  // symmetric by default: the reversed list
  ASSERT_TRUE(ba);
  EXPECT_EQ(link_names(p, *ba), (std::vector<std::string>{"l1", "l0"}));
  auto bc = p.route(1, 2);
  ASSERT_TRUE(bc);
  EXPECT_EQ(link_names(p, *bc), (std::vector<std::string>{"l1"}));
  EXPECT_FALSE(p.route(2, 1));  // one-way
  EXPECT_FALSE(p.route(0, 2));  // never declared
}

TEST(PlatformYaml, HostOrderIsHostsSectionThenClustersInDocumentOrder) {
  Platform p = parse_platform_yaml(R"(clusters:
  - {name: second, prefix: s, count: 2, speed: 1Gf, bandwidth: 1GBps, latency: 0}
  - {name: third, prefix: t, count: 1, speed: 1Gf, bandwidth: 1GBps, latency: 0}
hosts:
  - {name: first-b, speed: 1Gf}
  - {name: first-a, speed: 1Gf}
)",
                                   "o.yaml");
  std::vector<std::string> names;
  for (const Host& h : p.hosts()) names.push_back(h.name);
  EXPECT_EQ(names, (std::vector<std::string>{"first-b", "first-a", "s0", "s1", "t0"}));
  EXPECT_EQ(p.host(2).cluster, 0);
  EXPECT_EQ(p.host(4).cluster, 1);
  EXPECT_EQ(p.clusters()[1].name, "third");
}

TEST(PlatformYaml, RadicalNamesHostsAndLinksInWrittenOrder) {
  Platform p = parse_platform_yaml(R"(clusters:
  - name: r
    prefix: gpu
    radical: "8-9, 0-1,5"
    speed: 1Gf
    bandwidth: 1GBps
    latency: 1ns
    backbone: {bandwidth: 2GBps, latency: 1ns}
)",
                                   "r.yaml");
  std::vector<std::string> names;
  for (const Host& h : p.hosts()) names.push_back(h.name);
  EXPECT_EQ(names, (std::vector<std::string>{"gpu8", "gpu9", "gpu0", "gpu1", "gpu5"}));
  EXPECT_EQ(p.link(p.host(0).up).name, "r_link_8");
  EXPECT_EQ(p.link(p.host(4).up).name, "r_link_5");
  auto route = p.route(host_id(p, "gpu9"), host_id(p, "gpu5"));
  ASSERT_TRUE(route);
  EXPECT_EQ(link_names(p, *route), (std::vector<std::string>{"r_link_9", "r_backbone", "r_link_5"}));
}

TEST(PlatformYaml, RoutesReachClusterHostsAndGeneratedLinks) {
  Platform p = load_platform_yaml(SIMFAB_SOURCE_DIR "/tests/data/platforms/mixed.yaml");
  EXPECT_EQ(p.source(), SIMFAB_SOURCE_DIR "/tests/data/platforms/mixed.yaml");
  ASSERT_EQ(p.host_count(), 5);
  EXPECT_EQ(p.host(0).name, "login0");  // the hosts section comes first although written later
  EXPECT_EQ(p.host(0).cores, 4);
  EXPECT_EQ(p.host(1).name, "n0.lab");
  EXPECT_EQ(p.host(3).name, "n8.lab");
  HostId login = host_id(p, "login0");
  auto to_n0 = p.route(login, host_id(p, "n0.lab"));
  ASSERT_TRUE(to_n0);
  EXPECT_EQ(link_names(p, *to_n0), (std::vector<std::string>{"uplink", "rack_link_0"}));
  auto from_n0 = p.route(host_id(p, "n0.lab"), login);
  ASSERT_TRUE(from_n0);
  EXPECT_EQ(link_names(p, *from_n0), (std::vector<std::string>{"rack_link_0", "uplink"}));
  EXPECT_EQ(route_latency(p, *from_n0), SimTime::ps(1'100'000));
  EXPECT_TRUE(p.route(login, host_id(p, "n8.lab")));
  EXPECT_FALSE(p.route(host_id(p, "n8.lab"), login));
  EXPECT_FALSE(p.route(login, host_id(p, "n1.lab")));
  auto in_rack = p.route(host_id(p, "n1.lab"), host_id(p, "n9.lab"));
  ASSERT_TRUE(in_rack);
  EXPECT_EQ(link_names(p, *in_rack), (std::vector<std::string>{"rack_link_1", "rack_link_9"}));
}

TEST(PlatformYaml, ExplicitRouteOverridesClusterRoute) {
  Platform p = parse_platform_yaml(R"(clusters:
  - {name: c, prefix: n, count: 2, speed: 1Gf, bandwidth: 1GBps, latency: 1ns}
links:
  - {name: direct, bandwidth: 2GBps, latency: 0}
routes:
  - {src: n0, dst: n1, links: [direct]}
)",
                                   "o.yaml");
  auto r = p.route(1, 0);
  ASSERT_TRUE(r);
  EXPECT_EQ(link_names(p, *r), (std::vector<std::string>{"direct"}));
}

TEST(PlatformYaml, ExamplesLoad) {
  Platform c = load_platform_yaml(SIMFAB_SOURCE_DIR "/examples/platforms/cluster16.yaml");
  ASSERT_EQ(c.host_count(), 16);
  EXPECT_EQ(c.host(15).name, "node15");
  EXPECT_EQ(c.host(15).cores, 4);
  EXPECT_DOUBLE_EQ(c.host(15).speed_flops, 10e9);
  auto r = c.route(0, 15);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->size(), 3u);
  EXPECT_DOUBLE_EQ(c.link((*r)[0]).bandwidth_Bps, 12.5e9);
  EXPECT_DOUBLE_EQ(c.link((*r)[1]).bandwidth_Bps, 50e9);
  EXPECT_EQ(route_latency(c, *r), SimTime::ps(2'500'000));

  Platform t = load_platform_yaml(SIMFAB_SOURCE_DIR "/examples/platforms/two-hosts.yaml");
  ASSERT_EQ(t.host_count(), 2);
  EXPECT_EQ(t.host(0).name, "alice");
  ASSERT_TRUE(t.route(1, 0));
  EXPECT_EQ(link_names(t, *t.route(1, 0)), (std::vector<std::string>{"cable"}));
}

TEST(PlatformYaml, TolerantSpellings) {
  // Quoted numbers, CRLF line ends, a BOM, a trailing empty document, yes/no booleans and null
  // sections are all fine.
  Platform p = parse_platform_yaml(
      "\xEF\xBB\xBFhosts:\r\n  - {name: a, speed: \"1Gf\", cores: \"2\"}\r\n  - {name: b, speed: 1Gf}\r\n"
      "links:\r\n  - {name: l, bandwidth: 1GBps, latency: 1ms}\r\nclusters:\r\n"
      "routes:\r\n  - {src: a, dst: b, links: [l], symmetric: no}\r\n---\r\n",
      "t.yaml");
  EXPECT_EQ(p.host_count(), 2);
  EXPECT_EQ(p.host(0).cores, 2);
  EXPECT_EQ(p.link(0).latency, SimTime::ps(1'000'000'000));
  EXPECT_TRUE(p.route(0, 1));
  EXPECT_FALSE(p.route(1, 0));
}

}  // namespace
}  // namespace simfab
