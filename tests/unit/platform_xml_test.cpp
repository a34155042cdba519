// SimGrid platform XML (platform/xml_platform.hpp): what valid files produce, and every class of
// bad input as an InputError at file:line:column.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "platform/xml_platform.hpp"
#include "platform/yaml_platform.hpp"

namespace simfab {
namespace {

std::vector<std::string> names(const Platform& p, const std::optional<std::vector<LinkId>>& route) {
  std::vector<std::string> out;
  EXPECT_TRUE(route.has_value());
  if (route)
    for (LinkId l : *route) out.push_back(p.link(l).name);
  return out;
}

HostId host(const Platform& p, const std::string& name) {
  auto h = p.find_host(name);
  EXPECT_TRUE(h.has_value()) << name;
  return h.value_or(-1);
}

const Link& link(const Platform& p, const std::string& name) {
  auto l = p.find_link(name);
  EXPECT_TRUE(l.has_value()) << name;
  return p.link(l.value_or(0));
}

std::string wrap(const std::string& body) {
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n" + body + "</platform>\n";
}

TEST(PlatformXml, TwoHostsSplitDuplexRoute) {
  Platform p = parse_platform_xml(wrap(R"(  <config id="General">
    <prop id="flow/async-threshold" value="65536"/>
  </config>
  <zone id="AS0" routing="Full">
    <host id="a" speed="1Gf,500Mf" core="4">
      <prop id="wattage_per_state" value="100.0:120.0:200.0, 90.0:100.0:150.0"/>
    </host>
    <host id="b" speed="2Gf" pstate="0"/>
    <link id="l1" bandwidth="10Gbps" latency="1us" sharing_policy="SPLITDUPLEX"/>
    <link id="l2" bandwidth="1GBps" latency="2us"/>
    <link id="l3" bandwidth="1GBps" sharing_policy="FATPIPE"/>
    <route src="a" dst="b" symmetrical="NO">
      <link_ctn id="l1" direction="UP"/>
      <link_ctn id="l2"/>
    </route>
    <route src="b" dst="a" symmetrical="NO"><link_ctn id="l3"/></route>
  </zone>
)"),
                                  "two.xml");
  EXPECT_EQ(p.source(), "two.xml");
  ASSERT_EQ(p.host_count(), 2);
  EXPECT_EQ(p.host(0).name, "a");
  EXPECT_EQ(p.host(0).cores, 4);
  EXPECT_DOUBLE_EQ(p.host(0).speed_flops, 1e9);  // the first pstate
  EXPECT_DOUBLE_EQ(p.host(1).speed_flops, 2e9);
  ASSERT_EQ(p.links().size(), 4u);
  const Link& up = link(p, "l1_UP");
  const Link& down = link(p, "l1_DOWN");
  EXPECT_EQ(p.link(up.twin).name, "l1_DOWN");
  EXPECT_EQ(p.link(down.twin).name, "l1_UP");
  EXPECT_DOUBLE_EQ(up.bandwidth_Bps, 1.25e9);
  EXPECT_EQ(up.latency, SimTime::from_seconds(1e-6));
  EXPECT_EQ(link(p, "l3").sharing, LinkSharing::kFatpipe);
  EXPECT_EQ(link(p, "l3").latency, SimTime::zero());
  EXPECT_EQ(link(p, "l2").sharing, LinkSharing::kShared);
  EXPECT_EQ(names(p, p.route(0, 1)), (std::vector<std::string>{"l1_UP", "l2"}));
  // Two one-way routes (a symmetric a -> b would clash with b -> a, as in SimGrid).
  EXPECT_EQ(names(p, p.route(1, 0)), (std::vector<std::string>{"l3"}));
  ASSERT_EQ(p.settings().size(), 1u);
  EXPECT_EQ(p.settings()[0].key, "flow/async-threshold");
  EXPECT_EQ(p.settings()[0].value, "65536");
  EXPECT_EQ(p.settings()[0].loc.line, 4);
}

TEST(PlatformXml, SymmetricRouteSwapsTwins) {
  Platform p = parse_platform_xml(wrap(R"(<zone id="z" routing="Floyd">
<host id="a" speed="1Gf"/><host id="b" speed="1Gf"/>
<link id="l1" bandwidth="1GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
<link id="l2" bandwidth="1GBps" latency="1us"/>
<route src="a" dst="b"><link_ctn id="l1" direction="UP"/><link_ctn id="l2" direction="NONE"/></route>
</zone>
)"),
                                  "s.xml");
  EXPECT_EQ(names(p, p.route(1, 0)), (std::vector<std::string>{"l2", "l1_DOWN"}));
}

// SimGrid's small_platform.xml style: version "4", <AS>, a shared loopback link declared after
// the hosts and given to each by a route from the host to itself.
TEST(PlatformXml, SelfRoutesAreLoopbacks) {
  Platform p = parse_platform_xml(R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4">
 <AS id="AS0" routing="Full">
   <host id="Tremblay" speed="98.095Mf"/>
   <host id="Jupiter" speed="76.296Mf"/>
   <link id="9" bandwidth="7.20975MBps" latency="1.461517ms"/>
   <link id="loopback" bandwidth="498MBps" latency="15us" sharing_policy="FATPIPE"/>
   <route src="Tremblay" dst="Tremblay"><link_ctn id="loopback"/></route>
   <route src="Jupiter" dst="Jupiter"><link_ctn id="loopback"/></route>
   <route src="Tremblay" dst="Jupiter">
     <link_ctn id="9"/>
   </route>
 </AS>
</platform>
)",
                                  "small.xml");
  ASSERT_EQ(p.host_count(), 2);
  EXPECT_EQ(p.links().size(), 2u);
  EXPECT_EQ(names(p, p.route(0, 0)), (std::vector<std::string>{"loopback"}));
  EXPECT_EQ(names(p, p.route(1, 1)), (std::vector<std::string>{"loopback"}));
  EXPECT_EQ(link(p, "loopback").sharing, LinkSharing::kFatpipe);
  EXPECT_EQ(names(p, p.route(1, 0)), (std::vector<std::string>{"9"}));
  EXPECT_DOUBLE_EQ(p.host(0).speed_flops, 98.095e6);
}

TEST(PlatformXml, FlatClusterMatchesYaml) {
  Platform x = parse_platform_xml(wrap(R"(  <zone id="world" routing="Full">
    <cluster id="c0" prefix="node" suffix=".org" radical="0-2,5" speed="10Gf" core="4" bw="10Gbps" lat="1us"
             sharing_policy="SPLITDUPLEX" bb_bw="100Gbps" bb_lat="500ns" bb_sharing_policy="FATPIPE"
             limiter_link="15Gbps" loopback_bw="10GBps" loopback_lat="0"/>
  </zone>
)"),
                                  "c.xml");
  Platform y = parse_platform_yaml(R"(clusters:
  - name: c0
    prefix: node
    suffix: .org
    radical: "0-2,5"
    speed: 10Gf
    cores: 4
    bandwidth: 10Gbps
    latency: 1us
    sharing: splitduplex
    limiter_factor: 1.5
    loopback: {bandwidth: 10GBps, latency: 0}
    backbone: {bandwidth: 100Gbps, latency: 500ns, sharing: fatpipe}
)",
                                   "c.yaml");
  ASSERT_EQ(x.host_count(), 4);
  ASSERT_EQ(y.host_count(), 4);
  ASSERT_EQ(x.links().size(), y.links().size());
  // An XML cluster is a zone of the platform's zone tree (its routes are SimGrid's, in SimGrid's
  // order), not a Platform cluster.
  EXPECT_TRUE(x.clusters().empty());
  EXPECT_EQ(link(x, "c0_backbone").sharing, LinkSharing::kFatpipe);
  // The cluster's switch is SimGrid's router, prefix + id + "_router" + suffix.
  EXPECT_TRUE(x.find_switch("nodec0_router.org").has_value());
  const std::vector<std::string> idx = {"0", "1", "2", "5"};
  for (int h = 0; h < 4; ++h) {
    const Host& a = x.host(h);
    const Host& b = y.host(h);
    EXPECT_EQ(a.name, "node" + idx[h] + ".org");
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.cores, b.cores);
    EXPECT_DOUBLE_EQ(a.speed_flops, b.speed_flops);
    EXPECT_EQ(a.cluster, -1);
    EXPECT_EQ(x.link(a.up).name, y.link(b.up).name);
    EXPECT_EQ(x.link(a.down).name, y.link(b.down).name);
    EXPECT_EQ(x.link(a.up).name, "c0_link_" + idx[h] + "_UP");
    EXPECT_EQ(x.link(a.up).twin, a.down);
    // SimGrid's names for the limiter and loopback (simfab's YAML uses <c>_limiter_<i>).
    EXPECT_EQ(x.link(a.limiter).name, "c0_link_" + idx[h] + "_limiter");
    EXPECT_EQ(x.link(a.loopback).name, "c0_link_" + idx[h] + "_loopback");
    EXPECT_DOUBLE_EQ(x.link(a.limiter).bandwidth_Bps, y.link(b.limiter).bandwidth_Bps);
    EXPECT_EQ(x.link(a.loopback).sharing, LinkSharing::kFatpipe);
    EXPECT_EQ(x.link(a.up).from, host_node(h));
    for (int g = 0; g < 4; ++g) {
      auto sx = x.route_summary(h, g);
      auto sy = y.route_summary(h, g);
      ASSERT_TRUE(sx && sy);
      EXPECT_EQ(sx->latency, sy->latency);
      EXPECT_DOUBLE_EQ(sx->bandwidth_Bps, sy->bandwidth_Bps);
      EXPECT_EQ(sx->hops, sy->hops);
      EXPECT_EQ(x.route(h, g)->size(), y.route(h, g)->size());
    }
  }
  // SimGrid's order (checked against SimGrid 3.32's Host::route_to): each limiter on the host side.
  EXPECT_EQ(names(x, x.route(0, 3)),
            (std::vector<std::string>{"c0_link_0_limiter", "c0_link_0_UP", "c0_backbone", "c0_link_5_DOWN",
                                      "c0_link_5_limiter"}));
  EXPECT_EQ(names(x, x.route(1, 1)), (std::vector<std::string>{"c0_link_1_loopback"}));
}

TEST(PlatformXml, ClusterWithoutOptions) {
  // Zero bandwidths mean "none", as in SimGrid; sharing_policy defaults to SPLITDUPLEX (SimGrid's
  // DTD; SimGrid 3.32 names these links c_link_0_UP / c_link_0_DOWN).
  Platform p = parse_platform_xml(wrap(R"(<zone id="w" routing="Full">
<cluster id="c" prefix="n" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="1us" bb_bw="0" loopback_bw="0"
         limiter_link="0"/>
</zone>
)"),
                                  "c.xml");
  ASSERT_EQ(p.host_count(), 2);
  EXPECT_EQ(p.link(p.host(0).up).twin, p.host(0).down);
  EXPECT_EQ(p.host(0).limiter, -1);
  EXPECT_EQ(p.host(0).loopback, -1);
  EXPECT_FALSE(p.find_link("c_backbone").has_value());
  EXPECT_EQ(names(p, p.route(0, 1)), (std::vector<std::string>{"c_link_0_UP", "c_link_1_DOWN"}));
}

TEST(PlatformXml, FatTreeCluster) {
  Platform p = parse_platform_xml(wrap(R"(<zone id="w" routing="Full">
<cluster id="ft" prefix="node-" suffix=".simgrid.org" radical="0-15" speed="1Gf" bw="125MBps" lat="50us"
         topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2" loopback_bw="100MBps" loopback_lat="0"/>
</zone>
)"),
                                  "ft.xml");
  EXPECT_EQ(p.host_count(), 16);
  EXPECT_EQ(p.switch_count(), 6);
  ASSERT_EQ(p.topology_count(), 1);
  EXPECT_EQ(p.topology(0).name(), "ft");
  EXPECT_EQ(p.host(3).name, "node-3.simgrid.org");
  EXPECT_GE(p.host(3).loopback, 0);
  auto r = p.route(host(p, "node-0.simgrid.org"), host(p, "node-15.simgrid.org"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->size(), 4u);
  EXPECT_EQ(p.route(0, 1)->size(), 2u);
  EXPECT_DOUBLE_EQ(p.link((*r)[0]).bandwidth_Bps, 125e6);
}

TEST(PlatformXml, TorusCluster) {
  Platform p = parse_platform_xml(wrap(R"(<zone id="w" routing="Full">
<cluster id="t" prefix="n" suffix="" radical="0-11" speed="1Gf" bw="1GBps" lat="1us"
         topology="TORUS" topo_parameters="2,3,2"/>
</zone>
)"),
                                  "t.xml");
  EXPECT_EQ(p.host_count(), 12);
  EXPECT_EQ(p.switch_count(), 0);  // as in SimGrid, every host is its own router
  ASSERT_EQ(p.topology_count(), 1);
  EXPECT_EQ(p.topology(0).name(), "t");
  // Hosts 0 and 1 are neighbours in dimension 0: one link, SimGrid's name.
  ASSERT_EQ(p.route(0, 1)->size(), 1u);
  EXPECT_EQ(p.link(p.route(0, 1)->front()).name, "t_link_from_0_to_1_UP");
}

double bw(const std::string& value) {
  Platform p = parse_platform_xml(
      wrap("<zone id=\"z\" routing=\"Full\"><host id=\"h\" speed=\"1f\"/><link id=\"l\" bandwidth=\"" + value +
           "\"/></zone>\n"),
      "u.xml");
  return p.link(0).bandwidth_Bps;
}
SimTime lat(const std::string& value) {
  Platform p = parse_platform_xml(wrap("<zone id=\"z\" routing=\"Full\"><host id=\"h\" speed=\"1f\"/><link id=\"l\" "
                                       "bandwidth=\"1Bps\" latency=\"" +
                                       value + "\"/></zone>\n"),
                                  "u.xml");
  return p.link(0).latency;
}
double speed(const std::string& value) {
  Platform p = parse_platform_xml(wrap("<zone id=\"z\" routing=\"Full\"><host id=\"h\" speed=\"" + value + "\"/></zone>\n"),
                                  "u.xml");
  return p.host(0).speed_flops;
}

TEST(PlatformXml, Units) {
  EXPECT_DOUBLE_EQ(bw("1.25GBps"), bw("10Gbps"));
  EXPECT_DOUBLE_EQ(bw("1.25GBps"), 1.25e9);
  EXPECT_DOUBLE_EQ(bw("1000"), 1000);
  EXPECT_DOUBLE_EQ(bw("1KiBps"), 1024);
  EXPECT_DOUBLE_EQ(bw("8Mbps"), 1e6);
  EXPECT_DOUBLE_EQ(bw("1Kibps"), 128);
  EXPECT_EQ(lat("1us"), SimTime::ps(1'000'000));
  EXPECT_EQ(lat("500ns"), SimTime::ps(500'000));
  EXPECT_EQ(lat("0.001"), SimTime::ps(1'000'000'000));  // bare = seconds, as in SimGrid
  EXPECT_EQ(lat("0"), SimTime::zero());
  EXPECT_EQ(lat("2ms"), SimTime::ps(2'000'000'000));
  EXPECT_DOUBLE_EQ(speed("100Mf"), 1e8);
  EXPECT_DOUBLE_EQ(speed("2Gflops"), 2e9);
  EXPECT_DOUBLE_EQ(speed("1Ef"), 1e18);
  EXPECT_DOUBLE_EQ(speed("42"), 42);
  EXPECT_DOUBLE_EQ(speed("16.673E9"), 16.673e9);
  EXPECT_DOUBLE_EQ(bw("1.25E8"), 1.25e8);
  EXPECT_DOUBLE_EQ(bw("1PBps"), 1e15);
  EXPECT_DOUBLE_EQ(bw("2GiBps"), 2.0 * 1073741824.0);
  EXPECT_EQ(lat("2.4E-5"), SimTime::ps(24'000'000));
  EXPECT_EQ(lat("1h"), SimTime::from_seconds(3600));
}

std::string line_of(const std::string& text, int line) {
  size_t b = 0;
  for (int l = 1; l < line; ++l) b = text.find('\n', b) + 1;
  size_t e = text.find('\n', b);
  return text.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

void expect_error(const std::string& text, int line, int column, std::initializer_list<std::string_view> parts) {
  SCOPED_TRACE(text);
  try {
    parse_platform_xml(text, "t.xml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    std::string what = e.what();
    std::string prefix = "t.xml:" + std::to_string(line) + ":" + std::to_string(column) + ": ";
    EXPECT_EQ(what.substr(0, prefix.size()), prefix) << what;
    EXPECT_EQ(e.loc().file, "t.xml");
    EXPECT_EQ(e.text(), line_of(text, line)) << what;
    for (std::string_view p : parts) EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
  }
}

// Lines 1-2 are the XML declaration and <platform>; the body starts on line 3.
const std::string kZone = "<zone id=\"z\" routing=\"Full\">\n";
const std::string kHosts = "  <host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n";

TEST(PlatformXmlErrors, Syntax) {
  expect_error(wrap(kZone + "  <host id=\"a\" speed=\"1Gf\">\n</zone>\n"), 5, 3, {"XML syntax error", "mismatched tag"});
  expect_error("", 1, 1, {"XML syntax error"});
}

TEST(PlatformXmlErrors, Version) {
  expect_error("<platform version=\"3\">\n</platform>\n", 1, 1, {"unsupported platform version '3'", "4.1"});
  expect_error("<platform>\n</platform>\n", 1, 1, {"needs the attribute 'version'"});
  expect_error("<zone id=\"z\" routing=\"Full\"/>\n", 1, 1, {"root element must be <platform>"});
}

TEST(PlatformXmlErrors, Attributes) {
  expect_error(wrap(kZone + "  <host id=\"a\" speed=\"1Gf\" colour=\"red\"/>\n</zone>\n"), 4, 3,
               {"unknown attribute 'colour' of <host>", "valid attributes: id, speed, core, pstate"});
  expect_error(wrap(kZone + "  <host id=\"a\"/>\n</zone>\n"), 4, 3, {"<host> needs the attribute 'speed'"});
  expect_error(wrap(kZone + "  <link id=\"l\" latency=\"1us\"/>\n</zone>\n"), 4, 3,
               {"<link> needs the attribute 'bandwidth'"});
  expect_error(wrap("<zone id=\"z\">\n</zone>\n"), 3, 1, {"<zone> needs the attribute 'routing'"});
  expect_error(wrap("<zone id=\"z\" routing=\"Vivaldi\">\n</zone>\n"), 3, 1, {"routing 'Vivaldi'", "not supported"});
  expect_error(wrap(kZone + "  <link id=\"l\" bandwidth=\"1GBps\" sharing_policy=\"WIFI\"/>\n</zone>\n"), 4, 3,
               {"'sharing_policy' of <link>", "WIFI"});
}

TEST(PlatformXmlErrors, Units) {
  expect_error(wrap(kZone + "  <host id=\"a\" speed=\"1GHz\"/>\n</zone>\n"), 4, 3,
               {"bad speed '1GHz'", "'speed' of <host>", "Gf"});
  expect_error(wrap(kZone + "  <link id=\"l\" bandwidth=\"10Gb\"/>\n</zone>\n"), 4, 3,
               {"bad bandwidth '10Gb'", "Gbps", "GBps"});
  expect_error(wrap(kZone + "  <link id=\"l\" bandwidth=\"1GBps\" latency=\"1 sec\"/>\n</zone>\n"), 4, 3,
               {"bad latency '1 sec'", "us", "bare number is seconds"});
  expect_error(wrap(kZone + "  <link id=\"l\" bandwidth=\"0\"/>\n</zone>\n"), 4, 3, {"positive"});
  expect_error(wrap(kZone + "  <host id=\"a\" speed=\"1Gf\" core=\"0\"/>\n</zone>\n"), 4, 3, {"bad 'core' '0'"});
}

TEST(PlatformXmlErrors, Duplicates) {
  expect_error(wrap(kZone + kHosts + "  <host id=\"a\" speed=\"1Gf\"/>\n</zone>\n"), 5, 3,
               {"duplicate host id 'a'", "already declared at t.xml:4:3"});
  expect_error(wrap(kZone + kHosts + "  <link id=\"l\" bandwidth=\"1GBps\" sharing_policy=\"SPLITDUPLEX\"/>\n" +
                    "  <link id=\"l\" bandwidth=\"1GBps\"/>\n</zone>\n"),
               6, 3, {"duplicate link id 'l'", "already declared at t.xml:5:3"});
  expect_error(wrap(kZone + "<zone id=\"z\" routing=\"Full\">\n</zone>\n</zone>\n"), 4, 1, {"duplicate id 'z'"});
  expect_error(wrap(kZone + "  <cluster id=\"c\" prefix=\"\" suffix=\"\" radical=\"0-1\" speed=\"1f\" " +
                    "bw=\"1Bps\" lat=\"0\"/>\n  <zone id=\"y\" routing=\"Full\">\n  <host id=\"1\" speed=\"1Gf\"/>\n" +
                    "</zone>\n</zone>\n"),
               6, 3, {"duplicate host id '1'", "generated by <cluster id='c'>"});
  expect_error(wrap(kZone + kHosts + "  <link id=\"l\" bandwidth=\"1GBps\"/>\n" +
                    "  <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n" +
                    "  <route src=\"b\" dst=\"a\"><link_ctn id=\"l\"/></route>\n</zone>\n"),
               7, 3, {"route b -> a is already declared at t.xml:6:3"});
}

TEST(PlatformXmlErrors, Routes) {
  const std::string links = "  <link id=\"l\" bandwidth=\"1GBps\" sharing_policy=\"SPLITDUPLEX\"/>\n";
  expect_error(wrap(kZone + kHosts + links + "  <route src=\"a\" dst=\"c\"><link_ctn id=\"l\"/></route>\n</zone>\n"), 6,
               3, {"unknown host or router 'c' as 'dst' of <route>"});
  expect_error(wrap(kZone + kHosts + links + "  <route src=\"a\" dst=\"b\">\n    <link_ctn id=\"m\"/>\n" +
                    "  </route>\n</zone>\n"),
               7, 5, {"unknown link 'm'"});
  expect_error(wrap(kZone + kHosts + links + "  <route src=\"a\" dst=\"b\">\n    <link_ctn id=\"l\"/>\n" +
                    "  </route>\n</zone>\n"),
               7, 5, {"link 'l' is SPLITDUPLEX", "direction"});
  expect_error(wrap(kZone + kHosts + links + "  <route src=\"a\" dst=\"b\">\n  </route>\n</zone>\n"), 6, 3,
               {"<route> has no <link_ctn>"});
  expect_error(wrap(kZone + kHosts + links + "  <route src=\"a\" dst=\"b\" symmetrical=\"MAYBE\"/>\n</zone>\n"), 6, 3,
               {"'symmetrical' of <route> must be YES or NO"});
  expect_error(wrap(kZone + kHosts + "  <link_ctn id=\"l\"/>\n</zone>\n"), 5, 3,
               {"element <link_ctn> cannot appear inside <zone>", "<route>"});
}

TEST(PlatformXmlErrors, SelfRoute) {
  expect_error(wrap(kZone + kHosts + "  <link id=\"l\" bandwidth=\"1GBps\"/><link id=\"m\" bandwidth=\"1GBps\"/>\n" +
                    "  <route src=\"a\" dst=\"a\"><link_ctn id=\"l\"/><link_ctn id=\"m\"/></route>\n</zone>\n"),
               6, 3, {"to itself must list exactly one link"});
  // A loopback link built early (before its declaration) reports its errors at the declaration.
  expect_error(wrap(kZone + kHosts + "  <link id=\"l\" bandwidth=\"1Gb\"/>\n" +
                    "  <route src=\"a\" dst=\"a\"><link_ctn id=\"l\"/></route>\n</zone>\n"),
               5, 3, {"bad bandwidth '1Gb'"});
}

TEST(PlatformXmlErrors, Unsupported) {
  expect_error(wrap(kZone + kHosts + "  <disk id=\"d\" read_bw=\"1GBps\" write_bw=\"1GBps\"/>\n</zone>\n"), 5, 3,
               {"element <disk> cannot appear inside <zone>; it belongs in <host>"});
  expect_error(wrap(kZone + kHosts + "</zone>\n<actor host=\"a\" function=\"f\"/>\n"), 6, 1,
               {"element <actor> is not supported by simfab"});
  expect_error(wrap(kZone + kHosts + "  <storage id=\"s\"/>\n</zone>\n"), 5, 3,
               {"element <storage> is not supported by simfab"});
  expect_error(wrap(kZone + kHosts + "  <trace id=\"t\"/>\n</zone>\n"), 5, 3,
               {"<trace> needs the attribute 'periodicity'"});
}

TEST(PlatformXmlErrors, Clusters) {
  const std::string head = "  <cluster id=\"c\" prefix=\"n\" suffix=\"\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" ";
  expect_error(wrap(kZone + head + "radical=\"0-7\" topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\"/>\n</zone>\n"),
               4, 3, {"'radical' of <cluster id='c' topology=\"FAT_TREE\">", "\"0-15\"", "16 hosts"});
  expect_error(wrap(kZone + head + "radical=\"0-15\" topology=\"FAT_TREE\" topo_parameters=\"2;4,4\"/>\n</zone>\n"), 4,
               3, {"bad 'topo_parameters' \"2;4,4\""});
  expect_error(wrap(kZone + head + "radical=\"0-3\" topology=\"TORUS\" topo_parameters=\"2,x\"/>\n</zone>\n"), 4, 3,
               {"bad 'topo_parameters' \"2,x\"", "'x'"});
  expect_error(wrap(kZone + head + "radical=\"0-3\" topology=\"RING\"/>\n</zone>\n"), 4, 3,
               {"'topology' of <cluster id='c'> must be FLAT, FAT_TREE, TORUS or DRAGONFLY"});
  expect_error(wrap(kZone + head + "radical=\"3-1\"/>\n</zone>\n"), 4, 3, {"bad 'radical'"});
  expect_error(wrap(kZone + head + "radical=\"0-1\" bb_lat=\"1us\"/>\n</zone>\n"), 4, 3, {"has 'bb_lat' but no positive 'bb_bw'"});
  expect_error(wrap(kZone + "  <cluster id=\"c\" prefix=\"n\" radical=\"0-1\" speed=\"1Gf\" lat=\"1us\"/>\n</zone>\n"), 4,
               3, {"<cluster> needs the attribute 'bw'"});
}

TEST(PlatformXmlErrors, NoHost) {
  expect_error(wrap(kZone + "</zone>\n"), 2, 1, {"the platform has no host"});
}

TEST(PlatformXml, MissingFileIsInputError) {
  EXPECT_THROW(load_platform_xml("/nonexistent/platform.xml"), InputError);
}

}  // namespace
}  // namespace simfab
