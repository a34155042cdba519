// Seed 003's contention topology in the platform model and the YAML format: link sharing policies,
// split-duplex links, per-host limiters and loopbacks, cabinets, and the `config` section.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/cabinet_split.hpp"
#include "platform/yaml_platform.hpp"

namespace simfab {
namespace {

std::vector<std::string> names(const Platform& p, const std::vector<LinkId>& links) {
  std::vector<std::string> out;
  for (LinkId l : links) out.push_back(p.link(l).name);
  return out;
}

std::vector<std::string> route_names(const Platform& p, const std::string& a, const std::string& b) {
  auto ha = p.find_host(a);
  auto hb = p.find_host(b);
  EXPECT_TRUE(ha && hb) << a << " -> " << b;
  if (!ha || !hb) return {};
  auto r = p.route(*ha, *hb);
  EXPECT_TRUE(r.has_value()) << a << " -> " << b;
  return r ? names(p, *r) : std::vector<std::string>{};
}

std::vector<std::string> all_link_names(const Platform& p) {
  std::vector<std::string> out;
  for (const Link& l : p.links()) out.push_back(l.name);
  return out;
}

using Names = std::vector<std::string>;

TEST(PlatformSharing, LinkSharingPolicies) {
  Platform p = parse_platform_yaml(R"(hosts: [{name: a, speed: 1Gf}, {name: b, speed: 1Gf}]
links:
  - {name: s, bandwidth: 1GBps, latency: 1us}
  - {name: f, bandwidth: 2GBps, latency: 2us, sharing: fatpipe}
  - {name: X, bandwidth: 3GBps, latency: 3us, sharing: splitduplex}
  - {name: s2, bandwidth: 1GBps, latency: 1us, sharing: shared}
)",
                                   "s.yaml");
  EXPECT_EQ(all_link_names(p), (Names{"s", "f", "X_UP", "X_DOWN", "s2"}));
  EXPECT_EQ(p.link(0).sharing, LinkSharing::kShared);
  EXPECT_EQ(p.link(1).sharing, LinkSharing::kFatpipe);
  EXPECT_EQ(p.link(4).sharing, LinkSharing::kShared);
  EXPECT_FALSE(p.find_link("X"));
  for (LinkId l : {2, 3}) {  // each direction: shared, with the full bandwidth and latency
    EXPECT_EQ(p.link(l).sharing, LinkSharing::kShared);
    EXPECT_DOUBLE_EQ(p.link(l).bandwidth_Bps, 3e9);
    EXPECT_EQ(p.link(l).latency, SimTime::ps(3'000'000));
  }
  EXPECT_EQ(p.link(2).twin, 3);
  EXPECT_EQ(p.link(3).twin, 2);
  EXPECT_EQ(p.link(0).twin, -1);
  EXPECT_EQ(p.link(1).twin, -1);
}

TEST(PlatformSharing, ReverseRouteTakesTheOtherDirection) {
  Platform p =
      parse_platform_yaml(R"(hosts: [{name: a, speed: 1Gf}, {name: b, speed: 1Gf}, {name: c, speed: 1Gf}]
links:
  - {name: X, bandwidth: 1GBps, latency: 1us, sharing: splitduplex}
  - {name: mid, bandwidth: 1GBps, latency: 1us}
  - {name: Y, bandwidth: 1GBps, latency: 1us, sharing: splitduplex}
routes:
  - {src: a, dst: b, links: [X_UP, mid, Y_DOWN]}
  - {src: a, dst: c, links: [X_DOWN], symmetric: false}
)",
                          "r.yaml");
  EXPECT_EQ(route_names(p, "a", "b"), (Names{"X_UP", "mid", "Y_DOWN"}));
  EXPECT_EQ(route_names(p, "b", "a"), (Names{"Y_UP", "mid", "X_DOWN"}));
  EXPECT_EQ(route_names(p, "a", "c"), (Names{"X_DOWN"}));
  EXPECT_FALSE(p.route(2, 0));  // one-way
}

TEST(PlatformSharing, AddRouteSwapsTwinsProgrammatically) {
  Platform p;
  HostId a = p.add_host(Host{"a", 1, 1e9});
  HostId b = p.add_host(Host{"b", 1, 1e9});
  LinkId up = p.add_link(Link{"u", 1e9, SimTime::zero()});
  LinkId down = p.add_link(Link{"d", 1e9, SimTime::zero()});
  LinkId plain = p.add_link(Link{"p", 1e9, SimTime::zero(), LinkSharing::kFatpipe});
  p.set_twins(up, down);
  p.add_route(a, b, {up, plain}, false);
  EXPECT_EQ(*p.route(a, b), (std::vector<LinkId>{up, plain}));
  EXPECT_EQ(*p.route(b, a), (std::vector<LinkId>{plain, down}));
}

constexpr const char* kLimitedCluster = R"(clusters:
  - name: c
    prefix: n
    count: 3
    speed: 1Gf
    bandwidth: 1Gbps
    latency: 10us
    sharing: splitduplex
    limiter_factor: 1.5
    backbone: {bandwidth: 10Gbps, latency: 1us, sharing: fatpipe}
)";

TEST(PlatformCluster, SplitDuplexLimitersAndTheirCreationOrder) {
  Platform p = parse_platform_yaml(kLimitedCluster, "c.yaml");
  EXPECT_EQ(all_link_names(p),
            (Names{"c_backbone", "c_link_0_UP", "c_link_0_DOWN", "c_limiter_0", "c_link_1_UP",
                   "c_link_1_DOWN", "c_limiter_1", "c_link_2_UP", "c_link_2_DOWN", "c_limiter_2"}));
  const Host& h = p.host(2);
  EXPECT_EQ(p.link(h.up).name, "c_link_2_UP");
  EXPECT_EQ(p.link(h.down).name, "c_link_2_DOWN");
  EXPECT_EQ(p.link(h.up).twin, h.down);
  EXPECT_DOUBLE_EQ(p.link(h.down).bandwidth_Bps, 1.25e8);
  const Link& lim = p.link(h.limiter);
  EXPECT_EQ(lim.name, "c_limiter_2");
  EXPECT_DOUBLE_EQ(lim.bandwidth_Bps, 1.875e8);  // 1.5 x 1 Gbps
  EXPECT_EQ(lim.latency, SimTime::zero());
  EXPECT_EQ(lim.sharing, LinkSharing::kShared);
  EXPECT_EQ(p.link(p.clusters()[0].backbone).sharing, LinkSharing::kFatpipe);

  EXPECT_EQ(route_names(p, "n0", "n2"),
            (Names{"c_link_0_UP", "c_limiter_0", "c_backbone", "c_limiter_2", "c_link_2_DOWN"}));
  EXPECT_EQ(route_names(p, "n2", "n0"),
            (Names{"c_link_2_UP", "c_limiter_2", "c_backbone", "c_limiter_0", "c_link_0_DOWN"}));
  auto s = p.route_summary(0, 2);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->latency, SimTime::ps(21'000'000));  // 10us + 0 + 1us + 0 + 10us
  EXPECT_DOUBLE_EQ(s->bandwidth_Bps, 1.25e8);
}

TEST(PlatformCluster, LimiterWithoutBackboneOrSplitDuplex) {
  Platform p = parse_platform_yaml(R"(clusters:
  - {name: c, prefix: n, count: 2, speed: 1Gf, bandwidth: 1GBps, latency: 0, limiter_factor: 2}
)",
                                   "c.yaml");
  EXPECT_EQ(route_names(p, "n0", "n1"), (Names{"c_link_0", "c_limiter_0", "c_limiter_1", "c_link_1"}));
  EXPECT_DOUBLE_EQ(p.link(p.host(1).limiter).bandwidth_Bps, 2e9);
}

// 10 hosts in 4 cabinets: 3, 3, 2, 2 (hosts h0-h2, h3-h5, h6-h7, h8-h9).
constexpr const char* kCabinetCluster = R"(clusters:
  - name: c
    prefix: h
    count: 10
    speed: 1Gf
    bandwidth: 1Gbps
    latency: 10us
    sharing: splitduplex
    limiter_factor: 1.5
    loopback: {bandwidth: 100Gbps, latency: 1ns}
    backbone: {bandwidth: 20Gbps, latency: 2us}
    cabinets: {count: 4, bandwidth: 10Gbps, latency: 1us, limiter: 13Gbps}
)";

TEST(PlatformCluster, CabinetsSplitEvenlyInHostOrder) {
  Platform p = parse_platform_yaml(kCabinetCluster, "k.yaml");
  std::vector<int> cab;
  for (const Host& h : p.hosts()) cab.push_back(h.cabinet);
  EXPECT_EQ(cab, (std::vector<int>{0, 0, 0, 1, 1, 1, 2, 2, 3, 3}));
  const Cluster& c = p.clusters()[0];
  ASSERT_EQ(c.cabinets.size(), 4u);
  const Cabinet& k2 = c.cabinets[2];
  EXPECT_EQ(p.link(k2.up).name, "c_cabinet_2_UP");
  EXPECT_EQ(p.link(k2.down).name, "c_cabinet_2_DOWN");
  EXPECT_EQ(p.link(k2.limiter).name, "c_cabinet_2_limiter");
  EXPECT_EQ(p.link(k2.up).twin, k2.down);
  EXPECT_DOUBLE_EQ(p.link(k2.up).bandwidth_Bps, 1.25e9);
  EXPECT_DOUBLE_EQ(p.link(k2.limiter).bandwidth_Bps, 1.625e9);
  EXPECT_EQ(p.link(k2.limiter).latency, SimTime::zero());
  // Creation order: backbone, cabinets, then per host private links, limiter, loopback.
  Names all = all_link_names(p);
  ASSERT_EQ(all.size(), 1u + 4 * 3 + 10 * 4);
  EXPECT_EQ(Names(all.begin(), all.begin() + 8),
            (Names{"c_backbone", "c_cabinet_0_UP", "c_cabinet_0_DOWN", "c_cabinet_0_limiter",
                   "c_cabinet_1_UP", "c_cabinet_1_DOWN", "c_cabinet_1_limiter", "c_cabinet_2_UP"}));
  EXPECT_EQ(Names(all.begin() + 13, all.begin() + 17),
            (Names{"c_link_0_UP", "c_link_0_DOWN", "c_limiter_0", "c_loopback_0"}));
}

TEST(PlatformCluster, RoutesWithinAndAcrossCabinets) {
  Platform p = parse_platform_yaml(kCabinetCluster, "k.yaml");
  EXPECT_EQ(route_names(p, "h3", "h5"),
            (Names{"c_link_3_UP", "c_limiter_3", "c_limiter_5", "c_link_5_DOWN"}));
  EXPECT_EQ(route_names(p, "h1", "h8"),
            (Names{"c_link_1_UP", "c_limiter_1", "c_cabinet_0_UP", "c_cabinet_0_limiter", "c_backbone",
                   "c_cabinet_3_limiter", "c_cabinet_3_DOWN", "c_limiter_8", "c_link_8_DOWN"}));
  EXPECT_EQ(route_names(p, "h8", "h1"),
            (Names{"c_link_8_UP", "c_limiter_8", "c_cabinet_3_UP", "c_cabinet_3_limiter", "c_backbone",
                   "c_cabinet_0_limiter", "c_cabinet_0_DOWN", "c_limiter_1", "c_link_1_DOWN"}));

  auto across = p.route_summary(1, 8);
  ASSERT_TRUE(across);
  // 10us + 0 + 1us + 0 + 2us + 0 + 1us + 0 + 10us
  EXPECT_EQ(across->latency, SimTime::ps(24'000'000));
  EXPECT_DOUBLE_EQ(across->bandwidth_Bps, 1.25e8);  // the 1 Gbps node links
  auto within = p.route_summary(3, 5);
  ASSERT_TRUE(within);
  EXPECT_EQ(within->latency, SimTime::ps(20'000'000));
  // route_summary agrees with the listed route.
  auto r = p.route(1, 8);
  SimTime sum = SimTime::zero();
  for (LinkId l : *r) sum += p.link(l).latency;
  EXPECT_EQ(sum, across->latency);
}

TEST(PlatformCluster, CabinetSlowerThanNodesIsTheBottleneck) {
  Platform p = parse_platform_yaml(R"(clusters:
  - name: c
    prefix: h
    count: 4
    speed: 1Gf
    bandwidth: 10Gbps
    latency: 0
    cabinets: {sizes: [1, 3], bandwidth: 4Gbps, latency: 5us, limiter: 2Gbps}
)",
                                   "k.yaml");
  std::vector<int> cab;
  for (const Host& h : p.hosts()) cab.push_back(h.cabinet);
  EXPECT_EQ(cab, (std::vector<int>{0, 1, 1, 1}));
  // No backbone: the cabinets meet directly.
  EXPECT_EQ(route_names(p, "h0", "h2"), (Names{"c_link_0", "c_cabinet_0_UP", "c_cabinet_0_limiter",
                                               "c_cabinet_1_limiter", "c_cabinet_1_DOWN", "c_link_2"}));
  auto s = p.route_summary(0, 2);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->latency, SimTime::ps(10'000'000));
  EXPECT_DOUBLE_EQ(s->bandwidth_Bps, 2.5e8);  // the 2 Gbps cabinet limiter
  EXPECT_EQ(route_names(p, "h1", "h3"), (Names{"c_link_1", "c_link_3"}));
}

TEST(PlatformCluster, LoopbackRoutes) {
  Platform p = parse_platform_yaml(std::string(kCabinetCluster) + R"(hosts:
  - {name: solo, speed: 1Gf, loopback: {bandwidth: 1GBps, latency: 3ns}}
  - {name: plain, speed: 1Gf}
)",
                                   "k.yaml");
  EXPECT_EQ(route_names(p, "h4", "h4"), (Names{"c_loopback_4"}));
  EXPECT_EQ(route_names(p, "solo", "solo"), (Names{"solo_loopback"}));
  EXPECT_EQ(route_names(p, "plain", "plain"), (Names{}));
  const Link& lo = p.link(*p.find_link("c_loopback_4"));
  EXPECT_EQ(lo.sharing, LinkSharing::kFatpipe);
  EXPECT_DOUBLE_EQ(lo.bandwidth_Bps, 12.5e9);
  EXPECT_EQ(lo.latency, SimTime::ps(1'000));
  auto s = p.route_summary(*p.find_host("solo"), *p.find_host("solo"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->latency, SimTime::ps(3'000));
  EXPECT_DOUBLE_EQ(s->bandwidth_Bps, 1e9);
  EXPECT_EQ(p.link(p.host(0).loopback).name, "solo_loopback");  // standalone hosts come first
}

TEST(PlatformCluster, EvenCabinetSizes) {
  EXPECT_EQ(even_cabinet_sizes(144, 4), (std::vector<int64_t>{36, 36, 36, 36}));
  EXPECT_EQ(even_cabinet_sizes(10, 4), (std::vector<int64_t>{3, 3, 2, 2}));
  EXPECT_EQ(even_cabinet_sizes(7, 7), (std::vector<int64_t>{1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(even_cabinet_sizes(5, 1), (std::vector<int64_t>{5}));
  Platform p = parse_platform_yaml(R"(clusters:
  - {name: c, prefix: n, radical: "1-144", speed: 1Gf, bandwidth: 1Gbps, latency: 0,
     cabinets: {count: 4, bandwidth: 10Gbps, latency: 0}}
)",
                                   "k.yaml");
  std::vector<int> per_cabinet(4);
  for (const Host& h : p.hosts()) ++per_cabinet[static_cast<size_t>(h.cabinet)];
  EXPECT_EQ(per_cabinet, (std::vector<int>{36, 36, 36, 36}));
  EXPECT_EQ(p.host(*p.find_host("n36")).cabinet, 0);
  EXPECT_EQ(p.host(*p.find_host("n37")).cabinet, 1);
}

TEST(PlatformConfig, SettingsKeepTextAndLocation) {
  Platform p = parse_platform_yaml(R"(hosts: [{name: a, speed: 1Gf}]
config:
  flow/async-threshold: 65536
  flow/os: "0:1e-6:0;1420:2e-6:1e-9"
  network/model: flow
)",
                                   "cfg.yaml");
  const auto& s = p.settings();
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].key, "flow/async-threshold");
  EXPECT_EQ(s[0].value, "65536");
  EXPECT_EQ(s[0].loc.file, "cfg.yaml");
  EXPECT_EQ(s[0].loc.line, 3);
  EXPECT_EQ(s[0].loc.column, 25);
  EXPECT_EQ(s[1].key, "flow/os");
  EXPECT_EQ(s[1].value, "0:1e-6:0;1420:2e-6:1e-9");
  EXPECT_EQ(s[1].loc.line, 4);
  EXPECT_EQ(s[1].loc.column, 12);
  EXPECT_EQ(s[2].value, "flow");
  EXPECT_EQ(s[2].loc.line, 5);
  EXPECT_TRUE(parse_platform_yaml("hosts: [{name: a, speed: 1Gf}]\nconfig:\n", "e.yaml").settings().empty());
}

TEST(PlatformExample, GrapheneLoads) {
  Platform p = load_platform_yaml(SIMFAB_SOURCE_DIR "/examples/platforms/graphene.yaml");
  ASSERT_EQ(p.host_count(), 144);
  EXPECT_EQ(p.host(0).name, "graphene-1");
  EXPECT_EQ(p.host(143).name, "graphene-144");
  EXPECT_EQ(p.host(0).cores, 4);
  EXPECT_DOUBLE_EQ(p.host(0).speed_flops, 2.53e9);
  std::vector<int> per_cabinet(4);
  for (const Host& h : p.hosts()) ++per_cabinet[static_cast<size_t>(h.cabinet)];
  EXPECT_EQ(per_cabinet, (std::vector<int>{39, 35, 30, 40}));
  // Seed 003's Fig. 5 example: node 40 (cabinet 1) to node 104 (cabinet 2).
  EXPECT_EQ(route_names(p, "graphene-40", "graphene-104"),
            (Names{"graphene_link_40_UP", "graphene_limiter_40", "graphene_cabinet_1_UP",
                   "graphene_cabinet_1_limiter", "graphene_backbone", "graphene_cabinet_2_limiter",
                   "graphene_cabinet_2_DOWN", "graphene_limiter_104", "graphene_link_104_DOWN"}));
  auto s = p.route_summary(*p.find_host("graphene-40"), *p.find_host("graphene-104"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->latency, SimTime::ps(103'000'000));  // 50 + 1 + 1 + 1 + 50 us
  EXPECT_DOUBLE_EQ(s->bandwidth_Bps, 1.25e8);
  EXPECT_DOUBLE_EQ(p.link(*p.find_link("graphene_limiter_7")).bandwidth_Bps, 1.875e8);
  EXPECT_DOUBLE_EQ(p.link(*p.find_link("graphene_cabinet_3_limiter")).bandwidth_Bps, 1.625e9);
}

}  // namespace
}  // namespace simfab
