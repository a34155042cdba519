// The native YAML platform format: every class of bad input is an InputError at file:line:column
// that echoes the line and says what was expected.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "platform/yaml_platform.hpp"

namespace simfab {
namespace {

std::string line_of(const std::string& text, int line) {
  size_t b = 0;
  for (int l = 1; l < line; ++l) b = text.find('\n', b) + 1;
  size_t e = text.find('\n', b);
  std::string s = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return s;
}

// Parses `text` as "t.yaml" and checks the error's location, echoed line and message fragments.
void expect_error(const std::string& text, int line, int column,
                  std::initializer_list<std::string_view> parts) {
  SCOPED_TRACE(text);
  try {
    parse_platform_yaml(text, "t.yaml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    std::string what = e.what();
    std::string prefix = "t.yaml:" + std::to_string(line) + ":" + std::to_string(column) + ": ";
    EXPECT_EQ(what.substr(0, prefix.size()), prefix) << what;
    EXPECT_EQ(e.loc().file, "t.yaml");
    EXPECT_EQ(e.text(), line_of(text, line)) << what;
    for (std::string_view p : parts)
      EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
  }
}

constexpr std::string_view kCluster = R"(clusters:
  - name: c0
    prefix: node
    count: 4
    speed: 1Gf
    bandwidth: 10Gbps
    latency: 1us
)";

TEST(PlatformYamlError, EmptyFile) {
  expect_error("", 1, 1, {"empty platform file"});
  expect_error("# only a comment\n\n", 1, 1, {"empty platform file"});
}

TEST(PlatformYamlError, SyntaxError) {
  expect_error("hosts:\n  - {name: a, speed: 1Gf\n", 3, 1,
               {"YAML syntax error", "end of map flow not found"});
  expect_error("hosts: [\n", 2, 1, {"YAML syntax error"});
}

// Regression for yaml-cpp 0.7 looping forever (and allocating) on a stray ',' that starts a
// document (jbeder/yaml-cpp#1040): it must be a plain syntax error.
TEST(PlatformYamlError, YamlCppIssue1040StrayCommaIsASyntaxError) {
  expect_error(",", 1, 1, {"YAML syntax error: unexpected ','"});
  expect_error("# platform\n, hosts: []\n", 2, 1, {"YAML syntax error: unexpected ','"});
  expect_error("hosts: [{name: a, speed: 1}]\n---\n,\n", 3, 1, {"YAML syntax error: unexpected ','"});
}

TEST(PlatformYamlError, NestingTooDeep) {
  std::string deep = "hosts: " + std::string(3000, '[') + std::string(3000, ']') + "\n";
  try {
    parse_platform_yaml(deep, "t.yaml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 1);
    EXPECT_NE(std::string(e.what()).find("YAML nesting too deep"), std::string::npos) << e.what();
  }
}

TEST(PlatformYamlError, SecondDocument) {
  expect_error("hosts: []\n---\nhosts: []\n", 3, 1, {"single YAML document"});
}

TEST(PlatformYamlError, TopLevelNotAMapping) {
  expect_error("- a\n- b\n", 1, 1, {"the platform file must be a mapping", "got a list"});
}

TEST(PlatformYamlError, UnknownKeyListsValidKeysAndSuggests) {
  expect_error("host:\n  - {name: a, speed: 1Gf}\n", 1, 1,
               {"unknown key 'host' in the platform file", "did you mean 'hosts'?",
                "valid keys: version, hosts, links, routes, clusters"});
  std::string t(kCluster);
  t += "    bandwith: 1Gbps\n";
  expect_error(
      t, 8, 5,
      {"unknown key 'bandwith' in cluster 'c0'", "did you mean 'bandwidth'?",
       "valid keys: name, prefix, suffix, count, radical, speed, cores, bandwidth, latency, backbone"});
  expect_error("hosts:\n  - {name: a, speed: 1Gf, zzz: 1}\n", 2, 27,
               {"unknown key 'zzz' in host 'a'", "valid keys: name, speed, cores"});
  std::string bb(kCluster);
  bb += "    backbone: {bandwidth: 1Gbps, latency: 1us, lat: 1}\n";
  expect_error(bb, 8, 48,
               {"unknown key 'lat' in the backbone of cluster 'c0'", "valid keys: bandwidth, latency"});
}

TEST(PlatformYamlError, DuplicateKey) {
  expect_error("hosts:\n  - name: a\n    speed: 1Gf\n    speed: 2Gf\n", 4, 5,
               {"duplicate key 'speed' in host 'a'", "first given at t.yaml:3:5"});
}

TEST(PlatformYamlError, WrongType) {
  expect_error("hosts:\n  name: a\n  speed: 1Gf\n", 2, 3,
               {"'hosts' in the platform file must be a list of hosts", "got a mapping"});
  expect_error("hosts:\n  - just-a-name\n", 2, 5, {"host must be a mapping", "got 'just-a-name'"});
  expect_error("hosts:\n  - {name: [a], speed: 1Gf}\n", 2, 12, {"'name' in host must be a name, got a list"});
  expect_error("hosts:\n  - {name: a, speed: {v: 1}}\n", 2, 22,
               {"'speed' in host 'a' must be a speed", "got a mapping"});
  std::string t(kCluster);
  t += "    backbone: fast\n";
  expect_error(t, 8, 15, {"the backbone of cluster 'c0' must be a mapping", "got 'fast'"});
}

TEST(PlatformYamlError, MissingOrEmptyValue) {
  expect_error("hosts:\n  - name: a\n    cores: 2\n", 2, 5, {"host 'a' needs 'speed'", "2Gf"});
  expect_error("hosts:\n  - name: a\n    speed:\n    cores: 2\n", 3, 5,
               {"'speed' in host 'a' has no value", "expected a speed"});
  expect_error("clusters:\n  - {name: c, prefix: n, speed: 1Gf, bandwidth: 1Gbps, latency: 0}\n", 2, 5,
               {"cluster 'c' needs 'count' (number of hosts) or 'radical'"});
  expect_error("hosts:\n  -\n  - {name: a, speed: 1Gf}\n", 2, 3, {"host must be a mapping", "got nothing"});
}

TEST(PlatformYamlError, BadUnitQuotesValueAndUnits) {
  expect_error("hosts:\n  - {name: a, speed: 3GHz}\n", 2, 22,
               {"bad speed '3GHz'", "f kf Mf Gf Tf Pf", "a bare number is flop/s"});
  expect_error("links:\n  - {name: l, bandwidth: 10Gbs, latency: 1us}\n", 2, 26,
               {"bad bandwidth '10Gbs'", "Gbps", "GBps", "a bare number is bytes/s"});
  expect_error("links:\n  - {name: l, bandwidth: 10Gbps, latency: 1 sec}\n", 2, 43,
               {"bad latency '1 sec'", "ps ns us ms s", "a bare number is ps"});
  expect_error("links:\n  - {name: l, bandwidth: 10Gbps, latency: 1e10h}\n", 2, 43,
               {"latency '1e10h' is out of range"});
}

TEST(PlatformYamlError, FileNameComesFromLoad) {
  std::string path = SIMFAB_SOURCE_DIR "/tests/data/platforms/bad-unit.yaml";
  try {
    load_platform_yaml(path);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":3:12: bad speed '3 GHz'", 0), 0u) << e.what();
    EXPECT_EQ(e.text(), "    speed: 3 GHz");
    EXPECT_NE(format_error(e).find("           ^"), std::string::npos) << format_error(e);
  }
  EXPECT_THROW(load_platform_yaml(SIMFAB_SOURCE_DIR "/tests/data/platforms/no-such-file.yaml"), InputError);
}

TEST(PlatformYamlError, NonPositiveQuantities) {
  expect_error("hosts:\n  - {name: a, speed: 0Gf}\n", 2, 22, {"speed must be > 0, got '0Gf'"});
  expect_error("hosts:\n  - {name: a, speed: -1Gf}\n", 2, 22, {"speed must be > 0, got '-1Gf'"});
  expect_error("links:\n  - {name: l, bandwidth: 0, latency: 1us}\n", 2, 26,
               {"bandwidth must be > 0, got '0'"});
  expect_error("links:\n  - {name: l, bandwidth: 1Gbps, latency: -1us}\n", 2, 42,
               {"latency must not be negative, got '-1us'"});
}

TEST(PlatformYamlError, IntegerRanges) {
  expect_error("hosts:\n  - {name: a, speed: 1Gf, cores: 0}\n", 2, 34,
               {"'cores' in host 'a' must be an integer from 1 to 2147483647, got '0'"});
  expect_error("hosts:\n  - {name: a, speed: 1Gf, cores: 2.5}\n", 2, 34, {"got '2.5'"});
  std::string t(kCluster);
  t.replace(t.find("count: 4"), 8, "count: 16777217");
  expect_error(t, 4, 12, {"'count' in cluster 'c0' must be an integer from 1 to 16777216, got '16777217'"});
  t.replace(t.find("count: 16777217"), 15, "count: 0x10");
  expect_error(t, 4, 12, {"got '0x10'"});
  expect_error(
      "hosts: [{name: a, speed: 1}]\nclusters:\n  - {name: c, prefix: n, count: 16777216, speed: 1Gf, "
      "bandwidth: 1Gbps, latency: 0}\n",
      3, 33, {"brings the platform to 16777217 hosts; at most 16777216"});
}

TEST(PlatformYamlError, VersionAndBooleans) {
  expect_error("version: 2\nhosts: [{name: a, speed: 1}]\n", 1, 10,
               {"unsupported platform version '2'; this simfab reads version 1"});
  expect_error(
      "hosts: [{name: a, speed: 1}, {name: b, speed: 1}]\nlinks: [{name: l, bandwidth: 1, latency: 1}]\n"
      "routes: [{src: a, dst: b, links: [l], symmetric: maybe}]\n",
      3, 50, {"'symmetric' in route a -> b must be true or false, got 'maybe'"});
}

TEST(PlatformYamlError, CountAndRadical) {
  std::string both(kCluster);
  both += "    radical: 0-3\n";
  expect_error(both, 8, 14, {"cluster 'c0' has both 'count' and 'radical'; give exactly one"});
  std::string bad(kCluster);
  bad.replace(bad.find("count: 4"), 8, "radical: \"0-3,x\"");
  expect_error(bad, 4, 14, {"bad radical item 'x'", "\"0-3,8-11\""});
  std::string twice(kCluster);
  twice.replace(twice.find("count: 4"), 8, "radical: 0-3,2");
  expect_error(twice, 4, 14, {"index 2 appears twice in radical '0-3,2'"});
}

TEST(PlatformYamlError, NoHosts) {
  expect_error("version: 1\nlinks: []\n", 1, 1, {"no host", "'hosts', 'clusters' or 'topology'"});
}

TEST(PlatformYamlError, DuplicateHostNamesBothLocations) {
  expect_error("hosts:\n  - {name: a, speed: 1Gf}\n  - {name: a, speed: 1Gf}\n", 3, 12,
               {"duplicate host name 'a', already declared at t.yaml:2:12"});
  std::string t(kCluster);
  t += "hosts:\n  - {name: node2, speed: 1Gf}\n";
  expect_error(t, 2, 11, {"cluster 'c0' generates host 'node2', already declared at t.yaml:9:12"});
  std::string two(kCluster);
  two +=
      "  - {name: c1, prefix: no, suffix: de2, count: 1, speed: 1Gf, bandwidth: 1Gbps, latency: 0}\n"
      "  - {name: c2, prefix: node, radical: 7-9, speed: 1Gf, bandwidth: 1Gbps, latency: 0}\n"
      "  - {name: c3, prefix: n, suffix: ode3, count: 1, speed: 1Gf, bandwidth: 1Gbps, latency: 0}\n";
  // no0de2 is not node2; c2 is fine; c3 generates n0ode3, also fine. Now a real clash:
  two += "  - {name: c4, prefix: node, radical: 9-12, speed: 1Gf, bandwidth: 1Gbps, latency: 0}\n";
  expect_error(two, 11, 12,
               {"cluster 'c4' generates host 'node9', already generated by cluster 'c2' at t.yaml:9:12"});
}

TEST(PlatformYamlError, DuplicateLinkAndClusterNames) {
  expect_error(
      "hosts: [{name: a, speed: 1}]\nlinks:\n  - {name: l, bandwidth: 1, latency: 1}\n  - {name: l, "
      "bandwidth: 1, latency: 1}\n",
      4, 12, {"duplicate link name 'l', already declared at t.yaml:3:12"});
  std::string t(kCluster);
  t += "links:\n  - {name: c0_link_3, bandwidth: 1, latency: 1}\n";
  expect_error(t, 2, 11, {"cluster 'c0' generates link 'c0_link_3', already declared at t.yaml:9:12"});
  std::string bb(kCluster);
  bb +=
      "    backbone: {bandwidth: 1Gbps, latency: 0}\nlinks:\n  - {name: c0_backbone, bandwidth: 1, latency: "
      "1}\n";
  expect_error(bb, 2, 11, {"cluster 'c0' generates link 'c0_backbone', already declared at t.yaml:10:12"});
  std::string dup(kCluster);
  dup += "  - {name: c0, prefix: other, count: 1, speed: 1Gf, bandwidth: 1Gbps, latency: 0}\n";
  expect_error(dup, 8, 12, {"duplicate cluster name 'c0'; first declared at t.yaml:2:11"});
}

TEST(PlatformYamlError, RoutesNameKnownHostsAndLinks) {
  std::string t(kCluster);
  t += "links: [{name: up, bandwidth: 1, latency: 1}]\nroutes:\n";
  expect_error(t + "  - {src: nod1, dst: node2, links: [up]}\n", 10, 11,
               {"unknown host 'nod1' as src of a route (did you mean 'node1'?)"});
  expect_error(t + "  - {src: node1, dst: node2, links: [up, c0_link_2, upp]}\n", 10, 53,
               {"unknown link 'upp' in route node1 -> node2 (did you mean 'up'?)"});
  expect_error(t + "  - {src: node1, dst: node2, links: []}\n", 10, 37, {"route node1 -> node2 has no link"});
  expect_error(t + "  - {src: node1, dst: node2, links: up}\n", 10, 37,
               {"'links' in route node1 -> node2 must be a list of link names"});
  expect_error(t + "  - {src: node1, dst: node2, links: [[up]]}\n", 10, 38,
               {"expected a link name", "got a list"});
  expect_error(t + "  - {src: node1, dst: node1, links: [up]}\n", 10, 23, {"to itself"});
  expect_error(t + "  - {src: node1, links: [up]}\n", 10, 5, {"route needs 'dst'"});
  expect_error(t + "  - {src: node1, dst: node2, links: [up]}\n  - {src: node2, dst: node1, links: [up], "
                   "symmetric: false}\n",
               11, 5, {"route node2 -> node1 is already declared at t.yaml:10:5"});
}

// A cluster with a limiter factor given as `factor` on line 8.
std::string limiter_cluster(const std::string& factor) {
  return std::string(kCluster) + "    limiter_factor: " + factor + "\n";
}

TEST(PlatformYamlError, LimiterFactorOutOfRange) {
  for (const char* bad : {"0", "2.5", "-1", "1.5x", "fast", "nan", "inf", "1e999"})
    expect_error(
        limiter_cluster(bad), 8, 21,
        {"'limiter_factor' in cluster 'c0' must be a number in (0, 2]", "got '" + std::string(bad) + "'"});
  expect_error(std::string(kCluster) + "    limiter_factor: [1]\n", 8, 21,
               {"'limiter_factor' in cluster 'c0' must be a number in (0, 2]", "got a list"});
  EXPECT_NO_THROW(parse_platform_yaml(limiter_cluster("2"), "t.yaml"));
  EXPECT_NO_THROW(parse_platform_yaml(limiter_cluster("1e-3"), "t.yaml"));
}

TEST(PlatformYamlError, SplitDuplexLinkNeedsADirection) {
  const std::string hosts = "hosts: [{name: a, speed: 1}, {name: b, speed: 1}]\n";
  expect_error(hosts +
                   "links: [{name: X, bandwidth: 1, latency: 0, sharing: splitduplex}]\n"
                   "routes: [{src: a, dst: b, links: [X]}]\n",
               3, 35, {"link 'X' is split-duplex: name a direction, 'X_UP' or 'X_DOWN'"});
  std::string cluster(kCluster);
  cluster +=
      "    sharing: splitduplex\nroutes:\n  - {src: node0, dst: node1, links: [c0_link_0_UP, c0_link_1]}\n";
  expect_error(cluster, 10, 52,
               {"link 'c0_link_1' is split-duplex: name a direction, 'c0_link_1_UP' or "
                "'c0_link_1_DOWN'"});
  std::string cab(kCluster);
  cab +=
      "    cabinets: {count: 2, bandwidth: 1Gbps, latency: 0}\nroutes:\n"
      "  - {src: node0, dst: node1, links: [c0_cabinet_0]}\n";
  expect_error(cab, 10, 38, {"link 'c0_cabinet_0' is split-duplex"});
}

TEST(PlatformYamlError, SharingValues) {
  expect_error("hosts: [{name: a, speed: 1}]\nlinks: [{name: l, bandwidth: 1, latency: 0, sharing: half}]\n",
               2, 54, {"'sharing' in link 'l' must be shared, fatpipe or splitduplex, got 'half'"});
  std::string bb(kCluster);
  bb += "    backbone: {bandwidth: 1Gbps, latency: 0, sharing: splitduplex}\n";
  expect_error(bb, 8, 55,
               {"'sharing' in the backbone of cluster 'c0' must be shared or fatpipe, got 'splitduplex'"});
  std::string lo(kCluster);
  lo += "    loopback: {bandwidth: 1Gbps, latency: 0, sharing: fatpipe}\n";
  expect_error(lo, 8, 46,
               {"unknown key 'sharing' in the loopback of cluster 'c0'", "valid keys: bandwidth, latency"});
  expect_error("hosts: [{name: a, speed: 1, loopback: }]\n", 1, 29,
               {"'loopback' in host 'a' has no value; expected a mapping with bandwidth and latency"});
}

TEST(PlatformYamlError, SplitDuplexNamesClash) {
  expect_error(
      "hosts: [{name: a, speed: 1}]\nlinks:\n  - {name: X, bandwidth: 1, latency: 0, sharing: splitduplex}\n"
      "  - {name: X, bandwidth: 1, latency: 0}\n",
      4, 12, {"duplicate link name 'X', already declared at t.yaml:3:12"});
  expect_error(
      "hosts: [{name: a, speed: 1}]\nlinks:\n  - {name: X_DOWN, bandwidth: 1, latency: 0}\n"
      "  - {name: X, bandwidth: 1, latency: 0, sharing: splitduplex}\n",
      4, 12, {"duplicate link name 'X_DOWN', already declared at t.yaml:3:12"});
  expect_error(
      "hosts:\n  - {name: a, speed: 1, loopback: {bandwidth: 1, latency: 0}}\n"
      "links:\n  - {name: a_loopback, bandwidth: 1, latency: 0}\n",
      4, 12, {"duplicate link name 'a_loopback', already generated by host 'a' at t.yaml:2:12"});
}

TEST(PlatformYamlError, Cabinets) {
  std::string sizes(kCluster);
  sizes += "    cabinets: {sizes: [1, 2], bandwidth: 1Gbps, latency: 0}\n";
  expect_error(sizes, 8, 23,
               {"'sizes' in the cabinet layout of cluster 'c0' sum to 3 hosts, but the cluster has 4"});
  std::string zero(kCluster);
  zero += "    cabinets: {sizes: [4, 0], bandwidth: 1Gbps, latency: 0}\n";
  expect_error(zero, 8, 27,
               {"'sizes' in the cabinet layout of cluster 'c0' must be an integer from 1 to 4, got '0'"});
  std::string none(kCluster);
  none += "    cabinets: {sizes: [], bandwidth: 1Gbps, latency: 0}\n";
  expect_error(none, 8, 23, {"'sizes' in the cabinet layout of cluster 'c0' lists no cabinet"});
  std::string both(kCluster);
  both += "    cabinets: {count: 2, sizes: [2, 2], bandwidth: 1Gbps, latency: 0}\n";
  expect_error(both, 8, 33,
               {"the cabinet layout of cluster 'c0' has both 'count' and 'sizes'; give exactly one"});
  std::string neither(kCluster);
  neither += "    cabinets: {bandwidth: 1Gbps, latency: 0}\n";
  expect_error(neither, 8, 15, {"the cabinet layout of cluster 'c0' needs 'count'", "or 'sizes'"});
  std::string many(kCluster);
  many += "    cabinets: {count: 5, bandwidth: 1Gbps, latency: 0}\n";
  expect_error(many, 8, 23,
               {"'count' in the cabinet layout of cluster 'c0' must be an integer from 1 to 4, got '5'"});
  std::string nobw(kCluster);
  nobw += "    cabinets: {count: 2, latency: 0}\n";
  expect_error(nobw, 8, 15, {"the cabinet layout of cluster 'c0' needs 'bandwidth'"});
  std::string lim(kCluster);
  lim += "    cabinets: {count: 2, bandwidth: 1Gbps, latency: 0, limiter: 0}\n";
  expect_error(lim, 8, 65, {"bandwidth must be > 0, got '0'"});
  std::string empty(kCluster);
  empty += "    cabinets:\n";
  expect_error(empty, 8, 5, {"'cabinets' in cluster 'c0' has no value"});
}

TEST(PlatformYamlError, ConfigSection) {
  const std::string host = "hosts: [{name: a, speed: 1}]\n";
  expect_error(host + "config:\n  flow/os: 1\n  flow/os: 2\n", 4, 3,
               {"duplicate configuration key 'flow/os' in 'config'; first given at t.yaml:3:3"});
  expect_error(host + "config:\n  flow/os: [1, 2]\n", 3, 12,
               {"configuration key 'flow/os' in 'config' needs a single value", "got a list"});
  expect_error(host + "config:\n  flow/os:\n", 3, 3, {"configuration key 'flow/os'", "got nothing"});
  expect_error(host + "config: [a]\n", 2, 9,
               {"'config' in the platform file must be a mapping", "got a list"});
  expect_error(host + "config:\n  [a]: 1\n", 3, 3, {"expected a configuration key in 'config', got a list"});
}

}  // namespace
}  // namespace simfab
