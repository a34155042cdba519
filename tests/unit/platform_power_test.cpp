// Pstates and power in platform files (energy issue, seed 001): SimGrid XML's speed lists, pstate,
// wattage_per_state / watt_per_state, wattage_off / watt_off and wattage_range / watt_range props,
// simfab YAML's speed lists, pstate, power, power_off, link power and cluster link_power; and every
// bad value as an InputError naming the file, line (and column), the host or link and the key.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "platform/cpu_profile.hpp"
#include "platform/load_platform.hpp"
#include "platform/xml_platform.hpp"
#include "platform/yaml_platform.hpp"

namespace simfab {
namespace {

// Seed 001 Table 9.1 (taurus-7, NAS-EP, 12 cores busy), 2300 .. 1200 MHz; Idle 93.75 W (Fig. 9.3);
// OneCore = Idle + (AllCores - Idle) / 12, rounded to 2 decimals (examples/platforms/energy_taurus.*).
constexpr double kAll[12] = {179.25, 172.12, 166.25, 160.81, 155.12, 150.00,
                             144.75, 140.68, 136.00, 132.38, 128.88, 125.25};
constexpr double kOne[12] = {100.88, 100.28, 99.79, 99.34, 98.86, 98.44, 98.00, 97.66, 97.27, 96.97, 96.68, 96.38};

std::string example(const std::string& name) { return std::string(SIMFAB_SOURCE_DIR) + "/examples/platforms/" + name; }

HostId host(const Platform& p, const std::string& name) {
  auto h = p.find_host(name);
  EXPECT_TRUE(h.has_value()) << name;
  return h.value_or(0);
}

const Link& link(const Platform& p, const std::string& name) {
  auto l = p.find_link(name);
  EXPECT_TRUE(l.has_value()) << name;
  return p.link(l.value_or(0));
}

const CpuProfile& profile_of(const Platform& p, const std::string& name) {
  const Host& h = p.host(host(p, name));
  EXPECT_GE(h.cpu_profile, 0) << name << " has no CPU profile";
  return p.cpu_profile(h.cpu_profile < 0 ? 0 : h.cpu_profile);
}

void expect_taurus(const Platform& p) {
  ASSERT_EQ(p.host_count(), 16);
  ASSERT_EQ(p.cpu_profile_count(), 1);  // one profile, shared by the cluster's hosts
  for (const Host& h : p.hosts()) {
    EXPECT_EQ(h.cpu_profile, 0) << h.name;
    EXPECT_EQ(h.cores, 12);
    EXPECT_DOUBLE_EQ(h.speed_flops, 2.3e9);  // pstate 0
  }
  EXPECT_EQ(p.host(0).name, "taurus-1");
  EXPECT_EQ(p.host(15).name, "taurus-16");
  const CpuProfile& c = p.cpu_profile(0);
  ASSERT_EQ(c.pstates(), 12);
  ASSERT_EQ(c.power.size(), 12u);
  EXPECT_EQ(c.initial_pstate, 0);
  EXPECT_DOUBLE_EQ(c.power_off_w, 10);
  for (int i = 0; i < 12; ++i) {
    SCOPED_TRACE(i);
    EXPECT_DOUBLE_EQ(c.speeds[static_cast<size_t>(i)], (2300 - 100 * i) * 1e6);
    EXPECT_DOUBLE_EQ(c.power[static_cast<size_t>(i)].idle_w, 93.75);
    EXPECT_DOUBLE_EQ(c.power[static_cast<size_t>(i)].one_core_w, kOne[i]);
    EXPECT_DOUBLE_EQ(c.power[static_cast<size_t>(i)].all_cores_w, kAll[i]);
  }
}

// ---- valid SimGrid XML

std::string xml(const std::string& body) {
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n" + body + "</platform>\n";
}

TEST(PlatformPower, TaurusExampleXml) {
  Platform p = load_platform(example("energy_taurus.xml"));
  expect_taurus(p);
  // The cluster's links carry no power (SimGrid's cluster props are the hosts').
  for (const Link& l : p.links()) EXPECT_FALSE(l.has_power()) << l.name;
}

TEST(PlatformPower, TaurusExampleYamlMatchesXml) {
  Platform y = load_platform(example("energy_taurus.yaml"));
  expect_taurus(y);
  Platform x = load_platform(example("energy_taurus.xml"));
  for (int h = 0; h < 16; ++h) EXPECT_EQ(y.host(h).name, x.host(h).name);
  EXPECT_EQ(y.cpu_profile(0).speeds, x.cpu_profile(0).speeds);
  EXPECT_EQ(link(y, "taurus_link_3_UP").bandwidth_Bps, link(x, "taurus_link_3_UP").bandwidth_Bps);
}

TEST(PlatformPower, OnelinkExample) {
  Platform p = load_platform(example("onelink.xml"));
  ASSERT_EQ(p.host_count(), 2);
  EXPECT_EQ(p.host(0).name, "S1");
  EXPECT_EQ(p.host(1).name, "C1");
  EXPECT_DOUBLE_EQ(p.host(0).speed_flops, 1e9);
  EXPECT_EQ(p.host(0).cpu_profile, -1);  // one speed, no power: no profile
  EXPECT_EQ(p.cpu_profile_count(), 0);
  auto r = p.route(0, 1);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_DOUBLE_EQ(p.link((*r)[0]).bandwidth_Bps, 1e9);
  EXPECT_EQ(p.link((*r)[0]).latency, SimTime::from_seconds(0.025));
  EXPECT_TRUE(p.route(1, 0).has_value());
}

TEST(PlatformPower, XmlHostPstatesPowerAndInitialPstate) {
  Platform p = parse_platform_xml(xml(R"(<zone id="z" routing="Full">
  <host id="a" speed="2.3Gf,2.2Gf,1.2Gf" pstate="2" core="12">
    <prop id="wattage_per_state" value="93.75:100.88:179.25, 93.75:100.28:172.12,93.75 : 96.38 : 125.25"/>
    <prop id="wattage_off" value="10"/>
  </host>
  <host id="b" speed="1Gf,500Mf"/>
  <host id="c" speed="1Gf"/>
  <host id="d" speed="1Gf"><prop id="watt_per_state" value="90:120"/><prop id="watt_off" value="0"/></host>
</zone>
)"),
                                  "e.xml");
  const CpuProfile& a = profile_of(p, "a");
  EXPECT_EQ(a.initial_pstate, 2);
  EXPECT_DOUBLE_EQ(p.host(host(p, "a")).speed_flops, 1.2e9);  // speed[pstate]
  EXPECT_EQ(a.speeds, (std::vector<double>{2.3e9, 2.2e9, 1.2e9}));
  ASSERT_EQ(a.power.size(), 3u);
  EXPECT_DOUBLE_EQ(a.power[2].idle_w, 93.75);
  EXPECT_DOUBLE_EQ(a.power[2].one_core_w, 96.38);
  EXPECT_DOUBLE_EQ(a.power[2].all_cores_w, 125.25);
  EXPECT_DOUBLE_EQ(a.power_off_w, 10);
  // Several speeds without power: pstates, no power model.
  const CpuProfile& b = profile_of(p, "b");
  EXPECT_EQ(b.pstates(), 2);
  EXPECT_FALSE(b.has_power());
  EXPECT_DOUBLE_EQ(p.host(host(p, "b")).speed_flops, 1e9);
  EXPECT_EQ(p.host(host(p, "c")).cpu_profile, -1);
  // SimGrid's older names and Idle:AllCores pair.
  const CpuProfile& d = profile_of(p, "d");
  ASSERT_EQ(d.power.size(), 1u);
  EXPECT_DOUBLE_EQ(d.power[0].one_core_w, 90);
  EXPECT_DOUBLE_EQ(d.power[0].all_cores_w, 120);
  EXPECT_EQ(p.cpu_profile_count(), 3);
}

TEST(PlatformPower, XmlClusterPropsApplyToEveryHost) {
  // SimGrid's examples/platforms/energy_cluster.xml, inside a zone, next to a plain cluster.
  Platform p = parse_platform_xml(xml(R"(<zone id="world" routing="Full">
  <cluster id="cluster_with_energy" prefix="node-" suffix=".simgrid.org" radical="0-3"
           speed="100.0Mf,50.0Mf,20.0Mf" bw="125MBps" lat="50us">
    <prop id="wattage_per_state" value="100.0:93.33333333333333:200.0, 93.0:90.0:170.0, 90.0:90.0:150.0" />
    <prop id="wattage_off" value="10" />
  </cluster>
  <cluster id="plain" prefix="p" radical="0-1" speed="1Gf" bw="1GBps" lat="1us"/>
</zone>
)"),
                                  "c.xml");
  ASSERT_EQ(p.host_count(), 6);
  ASSERT_EQ(p.cpu_profile_count(), 1);
  for (int h = 0; h < 4; ++h) {
    EXPECT_EQ(p.host(h).cpu_profile, 0);
    EXPECT_DOUBLE_EQ(p.host(h).speed_flops, 100e6);
  }
  EXPECT_EQ(p.host(4).cpu_profile, -1);
  EXPECT_EQ(p.host(5).cpu_profile, -1);
  const CpuProfile& c = p.cpu_profile(0);
  ASSERT_EQ(c.power.size(), 3u);
  EXPECT_DOUBLE_EQ(c.power[0].one_core_w, 93.33333333333333);
  EXPECT_DOUBLE_EQ(c.power[2].all_cores_w, 150);
  EXPECT_DOUBLE_EQ(c.power_off_w, 10);
}

TEST(PlatformPower, XmlFatTreeClusterSharesOneProfile) {
  Platform p = parse_platform_xml(xml(R"(<cluster id="ft" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"
         prefix="n" radical="0-15" speed="2Gf,1Gf" core="4" bw="10Gbps" lat="1us">
  <prop id="wattage_per_state" value="90:100:180, 85:95:140"/>
</cluster>
)"),
                                  "f.xml");
  ASSERT_EQ(p.host_count(), 16);
  ASSERT_EQ(p.cpu_profile_count(), 1);
  for (const Host& h : p.hosts()) {
    EXPECT_EQ(h.cpu_profile, 0) << h.name;
    EXPECT_DOUBLE_EQ(h.speed_flops, 2e9);
  }
}

TEST(PlatformPower, XmlLinkWattageRange) {
  Platform p = parse_platform_xml(xml(R"(<zone id="z" routing="Full">
  <host id="a" speed="1Gf"/>
  <host id="b" speed="1Gf"/>
  <link id="shared" bandwidth="1GBps" latency="1us"><prop id="wattage_range" value="10.5:20"/></link>
  <link id="split" bandwidth="1GBps" sharing_policy="SPLITDUPLEX">
    <prop id="other" value="x"/>
    <prop id="watt_range" value=" 3 : 3 "/>
  </link>
  <link id="plain" bandwidth="1GBps"/>
  <link id="lo" bandwidth="10GBps" sharing_policy="FATPIPE"><prop id="wattage_range" value="1:2"/></link>
  <route src="a" dst="a"><link_ctn id="lo"/></route>
  <route src="a" dst="b"><link_ctn id="shared"/><link_ctn id="split" direction="UP"/><link_ctn id="plain"/></route>
</zone>
)"),
                                  "l.xml");
  const Link& s = link(p, "shared");
  ASSERT_TRUE(s.has_power());
  EXPECT_DOUBLE_EQ(s.idle_w, 10.5);
  EXPECT_DOUBLE_EQ(s.busy_w, 20);
  for (const char* name : {"split_UP", "split_DOWN"}) {  // both directions
    EXPECT_DOUBLE_EQ(link(p, name).idle_w, 3) << name;
    EXPECT_DOUBLE_EQ(link(p, name).busy_w, 3) << name;
  }
  EXPECT_FALSE(link(p, "plain").has_power());
  EXPECT_EQ(link(p, "plain").idle_w, -1);
  // A loopback built early (when its host is read, before its declaration) still takes the
  // declaration's props.
  EXPECT_DOUBLE_EQ(link(p, "lo").busy_w, 2);
  EXPECT_EQ(p.host(host(p, "a")).loopback, *p.find_link("lo"));
  EXPECT_EQ(p.cpu_profile_count(), 0);
}

// ---- valid YAML

TEST(PlatformPower, YamlHostsListAndStringForms) {
  Platform p = parse_platform_yaml(R"(hosts:
  - name: a
    speed: [2.3Gf, 2.2Gf, 1.2Gf]
    pstate: 1
    cores: 12
    power: [[93.75, 100.88, 179.25], [93.75, 100.28, 172.12], [93.75, 96.38, 125.25]]
    power_off: 10
  - name: b
    speed: [1Gf, 500Mf]
    power: "90:100:150, 80:85:110"
  - {name: c, speed: 1Gf}
  - {name: d, speed: [1Gf]}
  - {name: e, speed: 1Gf, pstate: 0, power: "90:150"}
)",
                                   "h.yaml");
  const CpuProfile& a = profile_of(p, "a");
  EXPECT_EQ(a.initial_pstate, 1);
  EXPECT_DOUBLE_EQ(p.host(host(p, "a")).speed_flops, 2.2e9);
  EXPECT_DOUBLE_EQ(a.power[1].all_cores_w, 172.12);
  EXPECT_DOUBLE_EQ(a.power[2].one_core_w, 96.38);
  EXPECT_DOUBLE_EQ(a.power_off_w, 10);
  const CpuProfile& b = profile_of(p, "b");
  ASSERT_EQ(b.power.size(), 2u);
  EXPECT_DOUBLE_EQ(b.power[1].idle_w, 80);
  EXPECT_DOUBLE_EQ(b.power[1].one_core_w, 85);
  EXPECT_DOUBLE_EQ(b.power_off_w, 0);
  EXPECT_EQ(p.host(host(p, "c")).cpu_profile, -1);
  EXPECT_EQ(p.host(host(p, "d")).cpu_profile, -1);  // a one-speed list is one speed
  EXPECT_DOUBLE_EQ(p.host(host(p, "d")).speed_flops, 1e9);
  const CpuProfile& e = profile_of(p, "e");
  EXPECT_DOUBLE_EQ(e.power[0].one_core_w, 90);  // Idle:AllCores
  EXPECT_EQ(p.cpu_profile_count(), 3);
}

TEST(PlatformPower, YamlClusterSharesProfileAndLinkPower) {
  Platform p = parse_platform_yaml(R"(clusters:
  - name: c
    prefix: n
    count: 4
    speed: [2Gf, 1Gf]
    pstate: 1
    power: [[90, 100, 180], [85, 95, 140]]
    power_off: 5
    bandwidth: 10Gbps
    latency: 1us
    sharing: splitduplex
    limiter_factor: 1.5
    loopback: {bandwidth: 20GBps, latency: 0}
    backbone: {bandwidth: 100Gbps, latency: 1us}
    cabinets: {count: 2, bandwidth: 10Gbps, latency: 1us, limiter: 13Gbps}
    link_power: [7, 12]
  - {name: d, prefix: m, count: 2, speed: 1Gf, bandwidth: 1Gbps, latency: 1us}
)",
                                   "c.yaml");
  ASSERT_EQ(p.host_count(), 6);
  ASSERT_EQ(p.cpu_profile_count(), 1);
  for (int h = 0; h < 4; ++h) {
    EXPECT_EQ(p.host(h).cpu_profile, 0);
    EXPECT_DOUBLE_EQ(p.host(h).speed_flops, 1e9);  // pstate 1
  }
  EXPECT_EQ(p.host(4).cpu_profile, -1);
  EXPECT_DOUBLE_EQ(p.cpu_profile(0).power_off_w, 5);
  for (const char* name : {"c_link_0_UP", "c_link_0_DOWN", "c_link_3_UP", "c_backbone", "c_cabinet_0_UP",
                           "c_cabinet_1_DOWN"}) {
    EXPECT_DOUBLE_EQ(link(p, name).idle_w, 7) << name;
    EXPECT_DOUBLE_EQ(link(p, name).busy_w, 12) << name;
  }
  for (const char* name : {"c_limiter_0", "c_loopback_0", "c_cabinet_0_limiter", "d_link_0"})
    EXPECT_FALSE(link(p, name).has_power()) << name;
}

TEST(PlatformPower, YamlLinkPower) {
  Platform p = parse_platform_yaml(R"(hosts:
  - {name: a, speed: 1Gf}
  - {name: b, speed: 1Gf}
links:
  - {name: l1, bandwidth: 1GBps, latency: 1us, power: [10, 20.5]}
  - {name: l2, bandwidth: 1GBps, latency: 1us, power: "4:4", sharing: splitduplex}
  - {name: l3, bandwidth: 1GBps, latency: 1us}
routes:
  - {src: a, dst: b, links: [l1, l2_UP, l3]}
)",
                                   "l.yaml");
  EXPECT_DOUBLE_EQ(link(p, "l1").idle_w, 10);
  EXPECT_DOUBLE_EQ(link(p, "l1").busy_w, 20.5);
  EXPECT_DOUBLE_EQ(link(p, "l2_UP").busy_w, 4);
  EXPECT_DOUBLE_EQ(link(p, "l2_DOWN").idle_w, 4);
  EXPECT_FALSE(link(p, "l3").has_power());
}

TEST(PlatformPower, YamlTopologyHostsShareProfile) {
  Platform p = parse_platform_yaml(R"(topology:
  name: ft
  kind: fat-tree
  k: 4
  prefix: node
  speed: [2Gf, 1Gf]
  pstate: 1
  power: "90:100:180, 85:95:140"
  power_off: 3
  link: {bandwidth: 10Gbps, latency: 100ns}
)",
                                   "t.yaml");
  ASSERT_EQ(p.host_count(), 16);
  ASSERT_EQ(p.cpu_profile_count(), 1);
  for (const Host& h : p.hosts()) {
    EXPECT_EQ(h.cpu_profile, 0) << h.name;
    EXPECT_DOUBLE_EQ(h.speed_flops, 1e9);
  }
  EXPECT_DOUBLE_EQ(p.cpu_profile(0).power_off_w, 3);
}

// ---- cpu_profile.hpp helpers

TEST(PlatformPower, ParseWattPerState) {
  std::string why;
  auto w = parse_watt_per_state("93.75:100.88:179.25, 90:120", &why);
  ASSERT_TRUE(w.has_value()) << why;
  ASSERT_EQ(w->size(), 2u);
  EXPECT_DOUBLE_EQ((*w)[1].one_core_w, 90);
  EXPECT_FALSE(parse_watt_per_state("1:2:3,", &why));
  EXPECT_NE(why.find("pstate 1: ''"), std::string::npos) << why;
  EXPECT_FALSE(parse_watt_per_state("1:2:3:4", &why));
  EXPECT_NE(why.find("has 4 values"), std::string::npos) << why;
  EXPECT_FALSE(parse_watt_per_state("1:nan:3", &why));
  auto r = parse_wattage_range("1:2", &why);
  ASSERT_TRUE(r.has_value());
  EXPECT_DOUBLE_EQ(r->second, 2);
  EXPECT_FALSE(parse_wattage_range("1:2:3", &why));
  EXPECT_FALSE(parse_wattage_range("12", &why));
  EXPECT_EQ(check_link_power(0, 0), "");
  EXPECT_NE(check_link_power(-1, 2), "");
}

// ---- bad input: file, line, column, the host (or link) and the attribute

void expect_xml_error(const std::string& body, int line, std::initializer_list<std::string_view> parts) {
  const std::string text = xml(body);
  SCOPED_TRACE(text);
  try {
    parse_platform_xml(text, "bad.xml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.loc().file, "bad.xml");
    EXPECT_EQ(e.loc().line, line) << what;
    EXPECT_EQ(what.rfind("bad.xml:" + std::to_string(line) + ":", 0), 0u) << what;
    for (std::string_view p : parts) EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
  }
}

// Lines 1-2: declaration and <platform>; line 3 the zone, line 4 the host, line 5 its first prop.
std::string xml_host(const std::string& attrs, const std::string& props) {
  return "<zone id=\"z\" routing=\"Full\">\n<host id=\"h1\" " + attrs + ">\n" + props + "</host>\n</zone>\n";
}

TEST(PlatformPowerErrors, XmlHost) {
  const std::string two = "speed=\"2Gf,1Gf\"";
  expect_xml_error(xml_host(two, "  <prop id=\"wattage_per_state\" value=\"-1:100:200, 90:95:100\"/>\n"), 5,
                   {"bad 'wattage_per_state' of <host id='h1'>", "pstate 0: Idle power -1 W must be a finite number >= 0"});
  expect_xml_error(xml_host(two, "  <prop id=\"wattage_per_state\" value=\"90:100:200, 90:95:94\"/>\n"), 5,
                   {"bad 'wattage_per_state' of <host id='h1'>", "pstate 1: AllCores 94 W is below OneCore 95 W"});
  expect_xml_error(xml_host(two, "  <prop id=\"watt_per_state\" value=\"90:100:200\"/>\n"), 5,
                   {"bad 'watt_per_state' of <host id='h1'>", "1 power triple for 2 speeds"});
  expect_xml_error(xml_host(two, "  <prop id=\"wattage_per_state\" value=\"90:1OO:200, 90:95:100\"/>\n"), 5,
                   {"bad 'wattage_per_state' of <host id='h1'>", "pstate 0: '90:1OO:200' is not Idle:OneCore:AllCores"});
  expect_xml_error(xml_host(two, "  <prop id=\"wattage_per_state\" value=\"90:100:150:200, 1:2:3\"/>\n"), 5,
                   {"bad 'wattage_per_state' of <host id='h1'>", "has 4 values"});
  expect_xml_error(xml_host(two, "  <prop id=\"wattage_per_state\" value=\"\"/>\n"), 5,
                   {"bad 'wattage_per_state' of <host id='h1'>", "pstate 0: ''"});
  expect_xml_error(xml_host("speed=\"2Gf,1Gf\" pstate=\"2\"", ""), 4,
                   {"bad 'pstate' '2' of <host id='h1'>", "pstate 2 is out of range: the host has 2 pstates (0 to 1)"});
  expect_xml_error(xml_host("speed=\"2Gf\" pstate=\"-1\"", ""), 4,
                   {"bad 'pstate' '-1' of <host id='h1'>", "out of range: the host has 1 pstate (0 to 0)"});
  expect_xml_error(xml_host("speed=\"2Gf\" pstate=\"one\"", ""), 4,
                   {"bad 'pstate' 'one' of <host id='h1'>", "expected an index into its speed list"});
  const std::string power = "  <prop id=\"wattage_per_state\" value=\"90:100:200\"/>\n";
  expect_xml_error(xml_host("speed=\"1Gf\"", power + "  <prop id=\"wattage_off\" value=\"-3\"/>\n"), 6,
                   {"bad 'wattage_off' of <host id='h1'>", "the power when off (-3 W) must be a finite number >= 0"});
  expect_xml_error(xml_host("speed=\"1Gf\"", power + "  <prop id=\"watt_off\" value=\"ten\"/>\n"), 6,
                   {"bad 'watt_off' 'ten' of <host id='h1'>", "expected a number of watts"});
  expect_xml_error(xml_host("speed=\"1Gf\"", "  <prop id=\"wattage_off\" value=\"10\"/>\n"), 5,
                   {"'wattage_off' of <host id='h1'> needs the power per pstate too"});
  expect_xml_error(xml_host("speed=\"1Gf\"", power + "  <prop id=\"watt_per_state\" value=\"90:100:200\"/>\n"), 6,
                   {"'watt_per_state' of <host id='h1'> repeats 'wattage_per_state' given at bad.xml:5:3"});
}

TEST(PlatformPowerErrors, XmlCluster) {
  expect_xml_error(R"(<cluster id="c" prefix="n" radical="0-3" speed="2Gf,1Gf,500Mf" bw="1GBps" lat="1us">
  <prop id="wattage_off" value="10"/>
  <prop id="wattage_per_state" value="90:100:200, 90:95:150"/>
</cluster>
)",
                   5, {"bad 'wattage_per_state' of <cluster id='c'>", "2 power triples for 3 speeds"});
  expect_xml_error(R"(<cluster id="c" prefix="n" radical="0-3" speed="2Gf" bw="1GBps" lat="1us">
  <prop id="wattage_per_state" value="90:100:-200"/>
</cluster>
)",
                   4, {"bad 'wattage_per_state' of <cluster id='c'>", "AllCores power -200 W"});
}

TEST(PlatformPowerErrors, XmlLink) {
  auto with = [](const std::string& prop) {
    return "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n<link id=\"l9\" bandwidth=\"1GBps\">\n" +
           prop + "</link>\n</zone>\n";
  };
  expect_xml_error(with("  <prop id=\"wattage_range\" value=\"-1:20\"/>\n"), 6,
                   {"bad 'wattage_range' of <link id='l9'>", "idle power -1 W must be a finite number >= 0"});
  expect_xml_error(with("  <prop id=\"wattage_range\" value=\"10:-2\"/>\n"), 6,
                   {"bad 'wattage_range' of <link id='l9'>", "busy power -2 W"});
  expect_xml_error(with("  <prop id=\"watt_range\" value=\"20:10\"/>\n"), 6,
                   {"bad 'watt_range' of <link id='l9'>", "busy power 10 W is below idle power 20 W"});
  expect_xml_error(with("  <prop id=\"wattage_range\" value=\"10:20:30\"/>\n"), 6,
                   {"bad 'wattage_range' of <link id='l9'>", "'10:20:30' is not Idle:Busy"});
  expect_xml_error(with("  <prop id=\"wattage_range\" value=\"1:2\"/>\n  <prop id=\"watt_range\" value=\"1:2\"/>\n"), 7,
                   {"'watt_range' of <link id='l9'> repeats 'wattage_range'"});
}

std::string line_of(const std::string& text, int line) {
  size_t b = 0;
  for (int l = 1; l < line; ++l) b = text.find('\n', b) + 1;
  const size_t e = text.find('\n', b);
  return text.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

void expect_yaml_error(const std::string& text, int line, int column, std::initializer_list<std::string_view> parts) {
  SCOPED_TRACE(text);
  try {
    parse_platform_yaml(text, "bad.yaml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    const std::string prefix = "bad.yaml:" + std::to_string(line) + ":" + std::to_string(column) + ": ";
    EXPECT_EQ(what.substr(0, prefix.size()), prefix) << what;
    EXPECT_EQ(e.text(), line_of(text, line)) << what;
    for (std::string_view p : parts) EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
  }
}

TEST(PlatformPowerErrors, YamlHost) {
  const std::string h = "hosts:\n  - name: h1\n    speed: [2Gf, 1Gf]\n";  // keys from line 4, column 5
  expect_yaml_error(h + "    power: [[90, 100, 200], [-1, 95, 100]]\n", 4, 29,
                    {"bad 'power' in host 'h1'", "pstate 1: Idle power -1 W must be a finite number >= 0"});
  expect_yaml_error(h + "    power: [[90, 100, 200],\n            [90, 95, 94]]\n", 5, 13,
                    {"bad 'power' in host 'h1'", "pstate 1: AllCores 94 W is below OneCore 95 W"});
  expect_yaml_error(h + "    power: \"90:100:200, 90:95:94\"\n", 4, 12,
                    {"bad 'power' in host 'h1'", "pstate 1: AllCores 94 W is below OneCore 95 W"});
  expect_yaml_error(h + "    power: [[90, 100, 200]]\n", 4, 12,
                    {"bad 'power' in host 'h1'", "1 power triple for 2 speeds"});
  expect_yaml_error(h + "    power: [[90, 100, 200], [90, 100]]\n", 4, 29,
                    {"'power' in host 'h1', pstate 1: expected [Idle, OneCore, AllCores]", "with 2 values"});
  expect_yaml_error(h + "    power: [[90, 100, 200], [90, lots, 150]]\n", 4, 34,
                    {"'power' in host 'h1'", "pstate 1", "got 'lots'"});
  expect_yaml_error(h + "    power: \"90:100:200, 90;95;100\"\n", 4, 12,
                    {"bad 'power' in host 'h1'", "pstate 1: '90;95;100' is not Idle:OneCore:AllCores"});
  expect_yaml_error(h + "    power: {idle: 90}\n", 4, 12, {"'power' in host 'h1' must be a list of [Idle, OneCore, AllCores]"});
  expect_yaml_error(h + "    power: []\n", 4, 12, {"'power' in host 'h1' is empty"});
  expect_yaml_error(h + "    pstate: 2\n", 4, 13,
                    {"bad 'pstate' in host 'h1'", "pstate 2 is out of range: the host has 2 pstates (0 to 1)"});
  expect_yaml_error(h + "    pstate: -1\n", 4, 13, {"bad 'pstate' in host 'h1'", "pstate -1 is out of range"});
  expect_yaml_error(h + "    pstate: first\n", 4, 13, {"'pstate' in host 'h1' must be an integer"});
  expect_yaml_error(h + "    power: \"90:100:200, 90:95:100\"\n    power_off: -10\n", 5, 16,
                    {"bad 'power_off' in host 'h1'", "the power when off (-10 W) must be a finite number >= 0"});
  expect_yaml_error(h + "    power_off: 10\n", 4, 16, {"'power_off' in host 'h1' needs 'power' too"});
  expect_yaml_error("hosts:\n  - {name: h1, speed: []}\n", 2, 23, {"'speed' in host 'h1' lists no speed"});
  expect_yaml_error("hosts:\n  - {name: h1, speed: [1Gf, -2Gf]}\n", 2, 29, {"speed must be > 0, got '-2Gf'"});
}

TEST(PlatformPowerErrors, YamlClusterAndTopology) {
  expect_yaml_error(R"(clusters:
  - name: c
    prefix: n
    count: 2
    speed: [2Gf, 1Gf, 500Mf]
    power: [[90, 100, 200], [90, 95, 150]]
    bandwidth: 1Gbps
    latency: 1us
)",
                    6, 12, {"bad 'power' in cluster 'c'", "2 power triples for 3 speeds"});
  expect_yaml_error(R"(clusters:
  - {name: c, prefix: n, count: 2, speed: 1Gf, bandwidth: 1Gbps, latency: 1us, link_power: [5, 1]}
)",
                    2, 92, {"bad 'link_power' in cluster 'c'", "busy power 1 W is below idle power 5 W"});
  expect_yaml_error(R"(topology:
  name: t
  kind: torus
  dims: [2, 2]
  prefix: n
  speed: [2Gf, 1Gf]
  pstate: 5
  link: {bandwidth: 1Gbps, latency: 1us}
)",
                    7, 11, {"bad 'pstate' in topology 't'", "pstate 5 is out of range"});
}

TEST(PlatformPowerErrors, YamlLink) {
  const std::string h = "hosts:\n  - {name: a, speed: 1Gf}\nlinks:\n";
  expect_yaml_error(h + "  - {name: l9, bandwidth: 1GBps, latency: 0, power: [-5, 10]}\n", 4, 53,
                    {"bad 'power' in link 'l9'", "idle power -5 W must be a finite number >= 0"});
  expect_yaml_error(h + "  - {name: l9, bandwidth: 1GBps, latency: 0, power: [20, 10]}\n", 4, 53,
                    {"bad 'power' in link 'l9'", "busy power 10 W is below idle power 20 W"});
  expect_yaml_error(h + "  - {name: l9, bandwidth: 1GBps, latency: 0, power: [1, 2, 3]}\n", 4, 53,
                    {"'power' in link 'l9' must be [idle, busy]", "with 3 values"});
  expect_yaml_error(h + "  - {name: l9, bandwidth: 1GBps, latency: 0, power: \"1-2\"}\n", 4, 53,
                    {"bad 'power' in link 'l9'", "'1-2' is not Idle:Busy"});
}

}  // namespace
}  // namespace simfab
