// SimGrid platform XML routing (platform/xml_zone_tree.hpp, xml_zone_graph.hpp): routers,
// Floyd / Dijkstra zones, zoneRoutes between zones, routing="Cluster" zones, clusters inside
// zones, checked against SimGrid 3.32.
//
// How the expectations were obtained: each platform below was loaded by SimGrid 3.32 (libsimgrid
// 3.32, s4u::Engine::load_platform then seal_platform) and, for every ordered pair of distinct
// hosts, Host::route_to(dst, links, &latency) printed as "src dst latency_in_us : link names"
// (a 30-line s4u program in the spirit of bench/peer/sg_routes.cpp). The tables are that output,
// verbatim. simfab must give the same links in the same order, except where SimGrid's
// DijkstraZone lists a path out of order (xml_zone_tree.hpp): there the tables are compared as
// link sets (same latency, same links), and simfab's path order is checked separately.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "platform/load_platform.hpp"
#include "platform/xml_platform.hpp"
#include "platform/xml_zone_tree.hpp"  // kMaxZoneDepth, kMaxFloydVertices

namespace simfab {
namespace {

std::string head() { return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"; }

std::string with_routing(std::string text, std::string_view routing) {
  const std::string key = "ROUTING";
  for (size_t at = text.find(key); at != std::string::npos; at = text.find(key)) text.replace(at, key.size(), routing);
  return text;
}

// "src dst latency_us : links" for one pair, as the SimGrid tables print it; "src dst none" when
// simfab has no route.
std::string route_line(const Platform& p, HostId a, HostId b) {
  std::string line = p.host(a).name + " " + p.host(b).name;
  auto r = p.route(a, b);
  auto s = p.route_summary(a, b);
  if (!r || !s) return line + " none";
  char lat[32];
  std::snprintf(lat, sizeof lat, " %g :", static_cast<double>(s->latency.ps()) / 1e6);
  line += lat;
  for (LinkId l : *r) line += " " + p.link(l).name;
  return line;
}

// Every ordered pair of distinct hosts, in host order.
std::vector<std::string> route_table(const Platform& p) {
  std::vector<std::string> out;
  for (HostId a = 0; a < p.host_count(); ++a)
    for (HostId b = 0; b < p.host_count(); ++b)
      if (a != b) out.push_back(route_line(p, a, b));
  return out;
}

// The same lines with the links after ':' sorted: the comparison for Dijkstra zones.
std::vector<std::string> as_sets(std::vector<std::string> table) {
  for (std::string& line : table) {
    const size_t colon = line.find(" :");
    if (colon == std::string::npos) continue;
    std::istringstream in(line.substr(colon + 2));
    std::vector<std::string> links;
    for (std::string l; in >> l;) links.push_back(l);
    std::sort(links.begin(), links.end());
    line.resize(colon + 2);
    for (const std::string& l : links) line += " " + l;
  }
  return table;
}

std::string route_of(const Platform& p, const std::string& a, const std::string& b) {
  return route_line(p, p.find_host(a).value(), p.find_host(b).value());
}

// ---- routers in one Floyd / Dijkstra zone

// a -> b: a-r1-b and a-r2-b (2 links each) beat the direct a-b route (3 links); weights are link
// counts, not latencies. c reaches r2 over two links, declared c -> r2.
const std::string kLeafGraph = head() + R"(  <zone id="z" routing="ROUTING">
    <host id="a" speed="1Gf"/>
    <host id="b" speed="1Gf"/>
    <host id="c" speed="1Gf"/>
    <router id="r1"/>
    <router id="r2"/>
    <link id="l_ar1" bandwidth="1GBps" latency="1us"/>
    <link id="l_r1b" bandwidth="1GBps" latency="2us"/>
    <link id="l_ar2" bandwidth="1GBps" latency="3us"/>
    <link id="l_r2b" bandwidth="1GBps" latency="4us"/>
    <link id="x1" bandwidth="1GBps" latency="10us"/>
    <link id="x2" bandwidth="1GBps" latency="10us"/>
    <link id="x3" bandwidth="1GBps" latency="10us" sharing_policy="SPLITDUPLEX"/>
    <link id="l_cr2a" bandwidth="1GBps" latency="5us"/>
    <link id="l_cr2b" bandwidth="1GBps" latency="6us"/>
    <route src="a" dst="r2"><link_ctn id="l_ar2"/></route>
    <route src="r2" dst="b"><link_ctn id="l_r2b"/></route>
    <route src="a" dst="r1"><link_ctn id="l_ar1"/></route>
    <route src="r1" dst="b"><link_ctn id="l_r1b"/></route>
    <route src="a" dst="b"><link_ctn id="x1"/><link_ctn id="x2"/><link_ctn id="x3" direction="UP"/></route>
    <route src="c" dst="r2"><link_ctn id="l_cr2a"/><link_ctn id="l_cr2b"/></route>
  </zone>
</platform>
)";

TEST(PlatformXmlRouting, FloydLeafZone) {
  // Floyd takes a-r1-b: r1 (member 3) improves cost[a][b] first, r2 (member 4) only ties.
  Platform p = parse_platform_xml(with_routing(kLeafGraph, "Floyd"), "floyd.xml");
  EXPECT_EQ(p.switch_count(), 2);
  const std::vector<std::string> simgrid = {
      "a b 3 : l_ar1 l_r1b",
      "a c 14 : l_ar2 l_cr2b l_cr2a",
      "b a 3 : l_r1b l_ar1",
      "b c 15 : l_r2b l_cr2b l_cr2a",
      "c a 14 : l_cr2a l_cr2b l_ar2",
      "c b 15 : l_cr2a l_cr2b l_r2b",
  };
  EXPECT_EQ(route_table(p), simgrid);
}

// Links that are off (RouteRequest::avoid, the flow model's rerouting): Floyd and Dijkstra zones
// take the shortest path over the declared routes that avoid them; none left: no route.
class AvoidNamed : public LinkFilter {
 public:
  AvoidNamed(const Platform& p, std::vector<std::string> names) : p_(p), names_(std::move(names)) {}
  bool avoid(LinkId l) const override {
    return std::find(names_.begin(), names_.end(), p_.link(l).name) != names_.end();
  }

 private:
  const Platform& p_;
  std::vector<std::string> names_;
};

std::string avoiding(const Platform& p, std::vector<std::string> off) {
  const AvoidNamed filter(p, std::move(off));
  RouteRequest req;
  req.avoid = &filter;
  const auto r = p.route(p.find_host("a").value(), p.find_host("b").value(), req);
  if (!r) return "none";
  std::string out;
  for (LinkId l : *r) out += (out.empty() ? "" : " ") + p.link(l).name;
  return out;
}

TEST(PlatformXmlRouting, RoutesAvoidLinksThatAreOff) {
  for (const char* routing : {"Floyd", "Dijkstra"}) {
    Platform p = parse_platform_xml(with_routing(kLeafGraph, routing), "avoid.xml");
    EXPECT_EQ(avoiding(p, {"l_ar1"}), "l_ar2 l_r2b") << routing;
    EXPECT_EQ(avoiding(p, {"l_r2b", "l_ar1"}), "x1 x2 x3_UP") << routing;  // the 3-link direct route
    EXPECT_EQ(avoiding(p, {"l_r2b", "l_ar1", "x2"}), "none") << routing;
    EXPECT_EQ(avoiding(p, {"x1"}), routing == std::string("Floyd") ? "l_ar1 l_r1b" : "l_ar2 l_r2b") << routing;
  }
}

TEST(PlatformXmlRouting, DijkstraLeafZone) {
  // Dijkstra takes a-r2-b: r2 is numbered first (first declared route), so settles first.
  const std::vector<std::string> simgrid = {
      "a b 7 : l_ar2 l_r2b",
      "a c 14 : l_ar2 l_cr2a l_cr2b",
      "b a 7 : l_r2b l_ar2",
      "b c 15 : l_r2b l_cr2a l_cr2b",
      "c a 14 : l_cr2b l_cr2a l_ar2",
      "c b 15 : l_cr2b l_cr2a l_r2b",
  };
  for (std::string_view routing : {"Dijkstra", "DijkstraCache"}) {
    Platform p = parse_platform_xml(with_routing(kLeafGraph, routing), "dijkstra.xml");
    EXPECT_EQ(as_sets(route_table(p)), as_sets(simgrid)) << routing;
    // Path order: c -> r2 is the declared r2 <- c route reversed (SimGrid 3.32 lists
    // l_cr2b l_cr2a the other way round).
    EXPECT_EQ(route_of(p, "a", "c"), "a c 14 : l_ar2 l_cr2b l_cr2a");
    EXPECT_EQ(route_of(p, "c", "a"), "c a 14 : l_cr2a l_cr2b l_ar2");
  }
}

// ---- zones of zones

// A -> D through B (members 1) or C (member 2), one link each way: Floyd picks B (lower member),
// Dijkstra C (declared first, so numbered before B). Gateways are the zones' hosts.
const std::string kTie = head() + R"(  <zone id="root" routing="ROUTING">
    <zone id="A" routing="Full"><host id="a" speed="1Gf"/></zone>
    <zone id="B" routing="Full"><host id="b" speed="1Gf"/></zone>
    <zone id="C" routing="Full"><host id="c" speed="1Gf"/></zone>
    <zone id="D" routing="Full"><host id="d" speed="1Gf"/></zone>
    <link id="AC" bandwidth="1GBps" latency="1us"/>
    <link id="CD" bandwidth="1GBps" latency="2us"/>
    <link id="AB" bandwidth="1GBps" latency="3us"/>
    <link id="BD" bandwidth="1GBps" latency="4us"/>
    <zoneRoute src="A" dst="C" gw_src="a" gw_dst="c"><link_ctn id="AC"/></zoneRoute>
    <zoneRoute src="C" dst="D" gw_src="c" gw_dst="d"><link_ctn id="CD"/></zoneRoute>
    <zoneRoute src="A" dst="B" gw_src="a" gw_dst="b"><link_ctn id="AB"/></zoneRoute>
    <zoneRoute src="B" dst="D" gw_src="b" gw_dst="d"><link_ctn id="BD"/></zoneRoute>
  </zone>
</platform>
)";

TEST(PlatformXmlRouting, ZonesOfZonesTieBreaking) {
  const std::vector<std::string> floyd = {
      "a b 3 : AB", "a c 1 : AC", "a d 7 : AB BD", "b a 3 : AB", "b c 4 : AB AC", "b d 4 : BD",
      "c a 1 : AC", "c b 4 : AC AB", "c d 2 : CD", "d a 7 : BD AB", "d b 4 : BD", "d c 2 : CD",
  };
  const std::vector<std::string> dijkstra = {
      "a b 3 : AB", "a c 1 : AC", "a d 3 : AC CD", "b a 3 : AB", "b c 4 : AB AC", "b d 4 : BD",
      "c a 1 : AC", "c b 4 : AC AB", "c d 2 : CD", "d a 3 : CD AC", "d b 4 : BD", "d c 2 : CD",
  };
  EXPECT_EQ(route_table(parse_platform_xml(with_routing(kTie, "Floyd"), "t.xml")), floyd);
  EXPECT_EQ(route_table(parse_platform_xml(with_routing(kTie, "Dijkstra"), "t.xml")), dijkstra);
  // Full uses the declared zoneRoutes only: A -> D has none.
  Platform full = parse_platform_xml(with_routing(kTie, "Full"), "t.xml");
  EXPECT_EQ(route_of(full, "a", "d"), "a d none");
  EXPECT_EQ(route_of(full, "d", "b"), "d b 4 : BD");
}

// Leaf zones of three kinds and a FLAT cluster (limiters, backbone, split-duplex private links by
// default) joined by a Full root; gateways are routers, and the cluster's router is SimGrid's
// prefix + id + "_router" + suffix.
const std::string kHierarchy = head() + R"(  <zone id="root" routing="Full">
    <zone id="A" routing="Full">
      <host id="a1" speed="1Gf"/>
      <host id="a2" speed="1Gf"/>
      <router id="gA"/>
      <link id="la1" bandwidth="1GBps" latency="1us"/>
      <link id="la2" bandwidth="1GBps" latency="2us"/>
      <route src="a1" dst="gA"><link_ctn id="la1"/></route>
      <route src="a2" dst="gA"><link_ctn id="la2"/></route>
      <route src="a1" dst="a2"><link_ctn id="la1"/><link_ctn id="la2"/></route>
    </zone>
    <zone id="B" routing="Floyd">
      <host id="b1" speed="1Gf"/>
      <router id="gB"/>
      <link id="lb1" bandwidth="1GBps" latency="3us" sharing_policy="SPLITDUPLEX"/>
      <route src="b1" dst="gB"><link_ctn id="lb1" direction="UP"/></route>
    </zone>
    <cluster id="C" prefix="c" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="5us" bb_bw="2GBps" bb_lat="7us"
             limiter_link="3GBps"/>
    <link id="AB" bandwidth="1GBps" latency="10us"/>
    <link id="BC" bandwidth="1GBps" latency="20us"/>
    <link id="AC" bandwidth="1GBps" latency="30us" sharing_policy="SPLITDUPLEX"/>
    <zoneRoute src="A" dst="B" gw_src="gA" gw_dst="gB"><link_ctn id="AB"/></zoneRoute>
    <zoneRoute src="B" dst="C" gw_src="gB" gw_dst="cC_router"><link_ctn id="BC"/></zoneRoute>
    <zoneRoute src="A" dst="C" gw_src="gA" gw_dst="cC_router"><link_ctn id="AC" direction="UP"/></zoneRoute>
  </zone>
</platform>
)";

TEST(PlatformXmlRouting, ZoneRoutesThroughGateways) {
  Platform p = parse_platform_xml(kHierarchy, "h.xml");
  const std::vector<std::string> simgrid = {
      "a1 a2 3 : la1 la2",
      "a1 b1 14 : la1 AB lb1_DOWN",
      "a1 c0 43 : la1 AC_UP C_backbone C_link_0_DOWN C_link_0_limiter",
      "a1 c1 43 : la1 AC_UP C_backbone C_link_1_DOWN C_link_1_limiter",
      "a2 a1 3 : la2 la1",
      "a2 b1 15 : la2 AB lb1_DOWN",
      "a2 c0 44 : la2 AC_UP C_backbone C_link_0_DOWN C_link_0_limiter",
      "a2 c1 44 : la2 AC_UP C_backbone C_link_1_DOWN C_link_1_limiter",
      "b1 a1 14 : lb1_UP AB la1",
      "b1 a2 15 : lb1_UP AB la2",
      "b1 c0 35 : lb1_UP BC C_backbone C_link_0_DOWN C_link_0_limiter",
      "b1 c1 35 : lb1_UP BC C_backbone C_link_1_DOWN C_link_1_limiter",
      "c0 a1 43 : C_link_0_limiter C_link_0_UP C_backbone AC_DOWN la1",
      "c0 a2 44 : C_link_0_limiter C_link_0_UP C_backbone AC_DOWN la2",
      "c0 b1 35 : C_link_0_limiter C_link_0_UP C_backbone BC lb1_DOWN",
      "c0 c1 17 : C_link_0_limiter C_link_0_UP C_backbone C_link_1_DOWN C_link_1_limiter",
      "c1 a1 43 : C_link_1_limiter C_link_1_UP C_backbone AC_DOWN la1",
      "c1 a2 44 : C_link_1_limiter C_link_1_UP C_backbone AC_DOWN la2",
      "c1 b1 35 : C_link_1_limiter C_link_1_UP C_backbone BC lb1_DOWN",
      "c1 c0 17 : C_link_1_limiter C_link_1_UP C_backbone C_link_0_DOWN C_link_0_limiter",
  };
  EXPECT_EQ(route_table(p), simgrid);
  // A host to itself: SimGrid 3.32 goes up and down the cluster (each link once), and uses its
  // network model's __loopback__ elsewhere (simfab: nothing).
  EXPECT_EQ(route_of(p, "c0", "c0"), "c0 c0 17 : C_link_0_limiter C_link_0_UP C_backbone C_link_0_DOWN");
  EXPECT_EQ(route_of(p, "a1", "a1"), "a1 a1 0 :");
  EXPECT_TRUE(p.find_switch("cC_router").has_value());
  EXPECT_EQ(p.switch_count(), 3);  // gA, gB, cC_router
  // The provider answers route_summary too: bottleneck and hops of a composed route.
  auto s = p.route_summary(p.find_host("a1").value(), p.find_host("c0").value());
  ASSERT_TRUE(s.has_value());
  EXPECT_DOUBLE_EQ(s->bandwidth_Bps, 1e9);
}

// A chain A - B - C - D of zones under a Floyd or Dijkstra root. B's two zoneRoutes use different
// gateways (gB1 in, gB2 out), so crossing B adds B's own route gB1 -> gB2 (lb12).
const std::string kChain = head() + R"(  <zone id="root" routing="ROUTING">
    <zone id="A" routing="Full">
      <host id="a" speed="1Gf"/>
      <router id="gA"/>
      <link id="la" bandwidth="1GBps" latency="1us"/>
      <route src="a" dst="gA"><link_ctn id="la"/></route>
    </zone>
    <zone id="B" routing="Full">
      <host id="b" speed="1Gf"/>
      <router id="gB1"/>
      <router id="gB2"/>
      <link id="lb1" bandwidth="1GBps" latency="2us"/>
      <link id="lb2" bandwidth="1GBps" latency="3us"/>
      <link id="lb12" bandwidth="1GBps" latency="4us"/>
      <route src="b" dst="gB1"><link_ctn id="lb1"/></route>
      <route src="b" dst="gB2"><link_ctn id="lb2"/></route>
      <route src="gB1" dst="gB2"><link_ctn id="lb12"/></route>
    </zone>
    <zone id="C" routing="Full">
      <host id="c" speed="1Gf"/>
      <router id="gC"/>
      <link id="lc" bandwidth="1GBps" latency="5us"/>
      <route src="c" dst="gC"><link_ctn id="lc"/></route>
    </zone>
    <cluster id="D" prefix="d" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="6us"/>
    <link id="AB" bandwidth="1GBps" latency="10us"/>
    <link id="BC1" bandwidth="1GBps" latency="20us"/>
    <link id="BC2" bandwidth="1GBps" latency="21us"/>
    <link id="CD" bandwidth="1GBps" latency="30us" sharing_policy="SPLITDUPLEX"/>
    <zoneRoute src="A" dst="B" gw_src="gA" gw_dst="gB1"><link_ctn id="AB"/></zoneRoute>
    <zoneRoute src="B" dst="C" gw_src="GW_B" gw_dst="gC"><link_ctn id="BC1"/><link_ctn id="BC2"/></zoneRoute>
    <zoneRoute src="C" dst="D" gw_src="gC" gw_dst="dD_router"><link_ctn id="CD" direction="DOWN"/></zoneRoute>
  </zone>
</platform>
)";

std::string chain(std::string_view routing, std::string_view b_gateway) {
  std::string text = with_routing(kChain, routing);
  text.replace(text.find("GW_B"), 4, b_gateway);
  return text;
}

const std::vector<std::string> kChainFloyd = {
    "a b 13 : la AB lb1",
    "a c 61 : la AB lb12 BC1 BC2 lc",
    "a d0 92 : la AB lb12 BC1 BC2 CD_DOWN D_link_0_DOWN",
    "a d1 92 : la AB lb12 BC1 BC2 CD_DOWN D_link_1_DOWN",
    "b a 13 : lb1 AB la",
    "b c 49 : lb2 BC1 BC2 lc",
    "b d0 80 : lb2 BC1 BC2 CD_DOWN D_link_0_DOWN",
    "b d1 80 : lb2 BC1 BC2 CD_DOWN D_link_1_DOWN",
    "c a 61 : lc BC2 BC1 lb12 AB la",
    "c b 49 : lc BC2 BC1 lb2",
    "c d0 41 : lc CD_DOWN D_link_0_DOWN",
    "c d1 41 : lc CD_DOWN D_link_1_DOWN",
    "d0 a 92 : D_link_0_UP CD_UP BC2 BC1 lb12 AB la",
    "d0 b 80 : D_link_0_UP CD_UP BC2 BC1 lb2",
    "d0 c 41 : D_link_0_UP CD_UP lc",
    "d0 d1 12 : D_link_0_UP D_link_1_DOWN",
    "d1 a 92 : D_link_1_UP CD_UP BC2 BC1 lb12 AB la",
    "d1 b 80 : D_link_1_UP CD_UP BC2 BC1 lb2",
    "d1 c 41 : D_link_1_UP CD_UP lc",
    "d1 d0 12 : D_link_1_UP D_link_0_DOWN",
};

TEST(PlatformXmlRouting, FloydZoneOfZonesComposesGateways) {
  EXPECT_EQ(route_table(parse_platform_xml(chain("Floyd", "gB2"), "c.xml")), kChainFloyd);
}

TEST(PlatformXmlRouting, DijkstraZoneOfZones) {
  // One gateway per zone (gB1 both ways): SimGrid 3.32's Dijkstra runs.
  const std::vector<std::string> simgrid = {
      "a b 13 : la AB lb1",
      "a c 57 : la AB BC2 BC1 lc",
      "a d0 88 : la AB BC2 BC1 CD_DOWN D_link_0_DOWN",
      "a d1 88 : la AB BC2 BC1 CD_DOWN D_link_1_DOWN",
      "b a 13 : lb1 AB la",
      "b c 48 : lb1 BC2 BC1 lc",
      "b d0 79 : lb1 BC2 BC1 CD_DOWN D_link_0_DOWN",
      "b d1 79 : lb1 BC2 BC1 CD_DOWN D_link_1_DOWN",
      "c a 57 : lc BC1 BC2 AB la",
      "c b 48 : lc BC1 BC2 lb1",
      "c d0 41 : lc CD_DOWN D_link_0_DOWN",
      "c d1 41 : lc CD_DOWN D_link_1_DOWN",
      "d0 a 88 : D_link_0_UP CD_UP BC1 BC2 AB la",
      "d0 b 79 : D_link_0_UP CD_UP BC1 BC2 lb1",
      "d0 c 41 : D_link_0_UP CD_UP lc",
      "d0 d1 12 : D_link_0_UP D_link_1_DOWN",
      "d1 a 88 : D_link_1_UP CD_UP BC1 BC2 AB la",
      "d1 b 79 : D_link_1_UP CD_UP BC1 BC2 lb1",
      "d1 c 41 : D_link_1_UP CD_UP lc",
      "d1 d0 12 : D_link_1_UP D_link_0_DOWN",
  };
  Platform p = parse_platform_xml(chain("Dijkstra", "gB1"), "c.xml");
  EXPECT_EQ(as_sets(route_table(p)), as_sets(simgrid));
  EXPECT_EQ(route_of(p, "a", "c"), "a c 57 : la AB BC1 BC2 lc");  // path order
  // Different gateways crash SimGrid 3.32's Dijkstra (it routes between null gateways); simfab
  // composes them as Floyd does, and on a chain both find the same paths.
  EXPECT_EQ(route_table(parse_platform_xml(chain("Dijkstra", "gB2"), "c.xml")), kChainFloyd);
}

// routing="Cluster" zones: <host_link> private links, a <backbone>, a router, a host without
// private link (k2), and a <cabinet>.
const std::string kClusterZones = head() + R"(  <zone id="root" routing="Full">
    <zone id="K" routing="Cluster">
      <host id="k0" speed="1Gf"/>
      <host id="k1" speed="1Gf"/>
      <host id="k2" speed="1Gf"/>
      <router id="kr"/>
      <link id="k0l" bandwidth="1GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
      <link id="k1l" bandwidth="1GBps" latency="2us"/>
      <backbone id="kbb" bandwidth="10GBps" latency="3us"/>
      <host_link id="k0" up="k0l_UP" down="k0l_DOWN"/>
      <host_link id="k1" up="k1l" down="k1l"/>
    </zone>
    <zone id="Q" routing="Cluster">
      <cabinet id="cab" prefix="q" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="4us"/>
      <backbone id="qbb" bandwidth="10GBps" latency="5us"/>
    </zone>
    <link id="KQ" bandwidth="1GBps" latency="100us"/>
    <zoneRoute src="K" dst="Q" gw_src="kr" gw_dst="q0"><link_ctn id="KQ"/></zoneRoute>
  </zone>
</platform>
)";

TEST(PlatformXmlRouting, ClusterRoutingZones) {
  Platform p = parse_platform_xml(kClusterZones, "k.xml");
  const std::vector<std::string> simgrid = {
      "k0 k1 6 : k0l_UP kbb k1l",
      "k0 k2 4 : k0l_UP kbb",
      "k0 q0 104 : k0l_UP kbb KQ",
      "k0 q1 117 : k0l_UP kbb KQ link_q0_UP qbb link_q1_DOWN",
      "k1 k0 6 : k1l kbb k0l_DOWN",
      "k1 k2 5 : k1l kbb",
      "k1 q0 105 : k1l kbb KQ",
      "k1 q1 118 : k1l kbb KQ link_q0_UP qbb link_q1_DOWN",
      "k2 k0 4 : kbb k0l_DOWN",
      "k2 k1 5 : kbb k1l",
      "k2 q0 100 : KQ",
      "k2 q1 113 : KQ link_q0_UP qbb link_q1_DOWN",
      "q0 k0 104 : KQ kbb k0l_DOWN",
      "q0 k1 105 : KQ kbb k1l",
      "q0 k2 100 : KQ",
      "q0 q1 13 : link_q0_UP qbb link_q1_DOWN",
      "q1 k0 117 : link_q1_UP qbb link_q0_DOWN KQ kbb k0l_DOWN",
      "q1 k1 118 : link_q1_UP qbb link_q0_DOWN KQ kbb k1l",
      "q1 k2 113 : link_q1_UP qbb link_q0_DOWN KQ",
      "q1 q0 13 : link_q1_UP qbb link_q0_DOWN",
  };
  EXPECT_EQ(route_table(p), simgrid);
  EXPECT_EQ(route_of(p, "k0", "k0"), "k0 k0 5 : k0l_UP kbb k0l_DOWN");
  EXPECT_EQ(route_of(p, "k1", "k1"), "k1 k1 5 : k1l kbb");
  EXPECT_EQ(route_of(p, "k2", "k2"), "k2 k2 0 :");
}

TEST(PlatformXmlRouting, ClusterZoneListsEachLinkOnce) {
  // The backbone may follow the <host_link>s, and two hosts may share links: k1 -> k0 goes up
  // [k1l, kbb] and down [kbb, k1l], each link once.
  Platform p = parse_platform_xml(head() + R"(  <zone id="K" routing="Cluster">
    <host id="k0" speed="1Gf"/>
    <host id="k1" speed="1Gf"/>
    <host id="k2" speed="1Gf"/>
    <link id="k0l" bandwidth="1GBps" latency="1us" sharing_policy="SPLITDUPLEX"/>
    <link id="k1l" bandwidth="1GBps" latency="2us"/>
    <host_link id="k0" up="k0l_UP" down="k1l"/>
    <host_link id="k1" up="k1l" down="k0l_DOWN"/>
    <backbone id="kbb" bandwidth="10GBps" latency="3us"/>
  </zone>
</platform>
)",
                                  "k.xml");
  const std::vector<std::string> simgrid = {
      "k0 k1 5 : k0l_UP kbb k0l_DOWN", "k0 k2 4 : k0l_UP kbb", "k1 k0 5 : k1l kbb",
      "k1 k2 5 : k1l kbb",             "k2 k0 5 : kbb k1l",    "k2 k1 4 : kbb k0l_DOWN",
  };
  EXPECT_EQ(route_table(p), simgrid);
}

TEST(PlatformXmlRouting, NestedZonesAndFatTree) {
  // X holds zones X1 and X2; the root's zoneRoute leaves X from gX2, two levels down. F is a
  // FAT_TREE cluster: no router in SimGrid 3.32, so its gateway is a host (f1).
  Platform p = parse_platform_xml(head() + R"(  <zone id="root" routing="Full">
    <zone id="X" routing="Full">
      <zone id="X1" routing="Full">
        <host id="x1" speed="1Gf"/>
        <router id="gX1"/>
        <link id="lx1" bandwidth="1GBps" latency="1us"/>
        <route src="x1" dst="gX1"><link_ctn id="lx1"/></route>
      </zone>
      <zone id="X2" routing="Full">
        <host id="x2" speed="1Gf"/>
        <router id="gX2"/>
        <link id="lx2" bandwidth="1GBps" latency="2us"/>
        <route src="x2" dst="gX2"><link_ctn id="lx2"/></route>
      </zone>
      <link id="X12" bandwidth="1GBps" latency="3us"/>
      <zoneRoute src="X1" dst="X2" gw_src="gX1" gw_dst="gX2"><link_ctn id="X12"/></zoneRoute>
    </zone>
    <cluster id="F" prefix="f" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="5us" topology="FAT_TREE"
             topo_parameters="2;2,2;1,2;1,1"/>
    <link id="XF" bandwidth="1GBps" latency="10us"/>
    <zoneRoute src="X" dst="F" gw_src="gX2" gw_dst="f1"><link_ctn id="XF"/></zoneRoute>
  </zone>
</platform>
)",
                                  "n.xml");
  EXPECT_EQ(route_of(p, "x1", "x2"), "x1 x2 6 : lx1 X12 lx2");
  EXPECT_EQ(route_of(p, "x1", "f1"), "x1 f1 14 : lx1 X12 XF");
  EXPECT_EQ(route_of(p, "f1", "x2"), "f1 x2 12 : XF lx2");
  // Inside the fat-tree the cables have SimGrid's names too (platform/xml_fat_tree.hpp).
  EXPECT_EQ(route_of(p, "x1", "f3"),
            "x1 f3 34 : lx1 X12 XF link_from_1_7_1_UP link_from_7_4_5_UP link_from_6_4_7_DOWN link_from_3_6_3_DOWN");
  EXPECT_EQ(p.route(p.find_host("x1").value(), p.find_host("f3").value())->size(), 7u);
  EXPECT_EQ(route_of(p, "f3", "x2").substr(0, 10), "f3 x2 32 :");
  EXPECT_EQ(p.route(p.find_host("f3").value(), p.find_host("x2").value())->size(), 6u);
}

std::string dragonfly(const std::string& params, const std::string& radical, const std::string& extra = "") {
  return head() + "  <zone id=\"root\" routing=\"Full\">\n    <cluster id=\"D\" prefix=\"n\" suffix=\"\" radical=\"" + radical +
         "\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"DRAGONFLY\" topo_parameters=\"" + params + "\"" + extra +
         "/>\n  </zone>\n</platform>\n";
}

TEST(PlatformXmlRouting, DragonflyCluster) {
  // One group of 2 chassis of 2 blades, one node each. SimGrid's route n3 -> n0 takes chassis 1's
  // green link and stops: its bookkeeping puts it on chassis 0 (xml_dragonfly.hpp).
  Platform p = parse_platform_xml(dragonfly("1,1;2,1;2,1;1", "0-3"), "d.xml");
  const std::string l = "local_link_from_router_";
  const std::string g = "green_link_in_chassis_";
  const std::string k = "black_link_in_group_0_between_chassis_0_and_1_blade_";
  const std::vector<std::string> simgrid = {
      "n0 n1 3 : " + l + "0_to_node_0_0_UP " + g + "0_between_routers_0_and_1_4_UP " + l + "1_to_node_0_1_DOWN",
      "n0 n2 3 : " + l + "0_to_node_0_0_UP " + k + "0_6_UP " + l + "2_to_node_0_2_DOWN",
      "n0 n3 4 : " + l + "0_to_node_0_0_UP " + g + "0_between_routers_0_and_1_4_UP " + k + "1_7_UP " + l +
          "3_to_node_0_3_DOWN",
      "n1 n0 3 : " + l + "1_to_node_0_1_UP " + g + "0_between_routers_0_and_1_4_DOWN " + l + "0_to_node_0_0_DOWN",
      "n1 n2 4 : " + l + "1_to_node_0_1_UP " + g + "0_between_routers_0_and_1_4_DOWN " + k + "0_6_UP " + l +
          "2_to_node_0_2_DOWN",
      "n1 n3 3 : " + l + "1_to_node_0_1_UP " + k + "1_7_UP " + l + "3_to_node_0_3_DOWN",
      "n2 n0 3 : " + l + "2_to_node_0_2_UP " + k + "0_6_DOWN " + l + "0_to_node_0_0_DOWN",
      "n2 n1 3 : " + l + "2_to_node_0_2_UP " + g + "1_between_routers_0_and_1_5_UP " + l + "1_to_node_0_1_DOWN",
      "n2 n3 4 : " + l + "2_to_node_0_2_UP " + g + "1_between_routers_0_and_1_5_UP " + k + "1_7_UP " + l +
          "3_to_node_0_3_DOWN",
      "n3 n0 3 : " + l + "3_to_node_0_3_UP " + g + "1_between_routers_0_and_1_5_DOWN " + l + "0_to_node_0_0_DOWN",
      "n3 n1 3 : " + l + "3_to_node_0_3_UP " + k + "1_7_DOWN " + l + "1_to_node_0_1_DOWN",
      "n3 n2 4 : " + l + "3_to_node_0_3_UP " + g + "1_between_routers_0_and_1_5_DOWN " + k + "0_6_UP " + l +
          "2_to_node_0_2_DOWN",
  };
  EXPECT_EQ(route_table(p), simgrid);
  EXPECT_EQ(p.switch_count(), 4);
  EXPECT_EQ(route_of(p, "n2", "n2"), "n2 n2 2 : " + l + "2_to_node_0_2_UP " + l + "2_to_node_0_2_DOWN");
}

TEST(PlatformXmlRouting, DragonflyBetweenGroups) {
  // 2 groups of 2 chassis of 2 blades; blue links stand for 3 links, black for 2, green for 5
  // (bandwidths 3, 2 and 5 GB/s, as SimGrid's Link::get_bandwidth reports).
  Platform p = parse_platform_xml(dragonfly("2,3;2,2;2,5;1", "0-7"), "d.xml");
  EXPECT_EQ(route_of(p, "n0", "n7"),
            "n0 n7 6 : local_link_from_router_0_to_node_0_0_UP green_link_in_chassis_0_between_routers_0_and_1_8_UP "
            "blue_link_between_group_0_and_1_routers_1_and_4_16_UP green_link_in_chassis_0_between_routers_0_and_1_10_UP "
            "black_link_in_group_1_between_chassis_0_and_1_blade_1_15_UP local_link_from_router_7_to_node_0_7_DOWN");
  EXPECT_EQ(route_of(p, "n7", "n0"),
            "n7 n0 6 : local_link_from_router_7_to_node_0_7_UP green_link_in_chassis_1_between_routers_0_and_1_11_DOWN "
            "black_link_in_group_1_between_chassis_0_and_1_blade_0_14_DOWN "
            "blue_link_between_group_0_and_1_routers_1_and_4_16_DOWN green_link_in_chassis_0_between_routers_0_and_1_8_DOWN "
            "local_link_from_router_0_to_node_0_0_DOWN");
  EXPECT_EQ(route_of(p, "n3", "n4"),
            "n3 n4 4 : local_link_from_router_3_to_node_0_3_UP black_link_in_group_0_between_chassis_0_and_1_blade_1_13_DOWN "
            "blue_link_between_group_0_and_1_routers_1_and_4_16_UP local_link_from_router_4_to_node_0_4_DOWN");
  auto bw = [&](const std::string& name) { return p.link(p.find_link(name).value()).bandwidth_Bps; };
  EXPECT_DOUBLE_EQ(bw("blue_link_between_group_0_and_1_routers_1_and_4_16_UP"), 3e9);
  EXPECT_DOUBLE_EQ(bw("black_link_in_group_1_between_chassis_0_and_1_blade_1_15_DOWN"), 2e9);
  EXPECT_DOUBLE_EQ(bw("green_link_in_chassis_0_between_routers_0_and_1_8_UP"), 5e9);
  EXPECT_DOUBLE_EQ(bw("local_link_from_router_7_to_node_0_7_UP"), 1e9);
  // SHARED: one link per cable, the same routes without _UP / _DOWN.
  Platform shared = parse_platform_xml(dragonfly("2,3;2,2;2,5;1", "0-7", " sharing_policy=\"SHARED\""), "d.xml");
  EXPECT_EQ(route_of(shared, "n3", "n4"),
            "n3 n4 4 : local_link_from_router_3_to_node_0_3 black_link_in_group_0_between_chassis_0_and_1_blade_1_13 "
            "blue_link_between_group_0_and_1_routers_1_and_4_16 local_link_from_router_4_to_node_0_4");
}

TEST(PlatformXmlRouting, BypassRoutes) {
  // A <bypassRoute> replaces its zone's route, also as a piece of a longer route (a2 -> gA); a
  // <bypassZoneRoute> of the root joins A to B (inside X), another X to A.
  Platform p = parse_platform_xml(head() + R"(  <zone id="root" routing="Full">
    <zone id="A" routing="Full">
      <host id="a1" speed="1Gf"/>
      <host id="a2" speed="1Gf"/>
      <router id="gA"/>
      <link id="la1" bandwidth="1GBps" latency="1us"/>
      <link id="la2" bandwidth="1GBps" latency="2us"/>
      <link id="bp_a1a2" bandwidth="1GBps" latency="50us"/>
      <link id="bp_a2gA" bandwidth="1GBps" latency="60us"/>
      <route src="a1" dst="gA"><link_ctn id="la1"/></route>
      <route src="a2" dst="gA"><link_ctn id="la2"/></route>
      <route src="a1" dst="a2"><link_ctn id="la1"/><link_ctn id="la2"/></route>
      <bypassRoute src="a1" dst="a2"><link_ctn id="bp_a1a2"/></bypassRoute>
      <bypassRoute src="a2" dst="gA"><link_ctn id="bp_a2gA"/></bypassRoute>
    </zone>
    <zone id="X" routing="Full">
      <zone id="B" routing="Full">
        <host id="b" speed="1Gf"/>
        <router id="gB"/>
        <link id="lb" bandwidth="1GBps" latency="3us"/>
        <route src="b" dst="gB"><link_ctn id="lb"/></route>
      </zone>
      <zone id="B2" routing="Full">
        <host id="b2" speed="1Gf"/>
      </zone>
      <link id="BB2" bandwidth="1GBps" latency="4us"/>
      <zoneRoute src="B" dst="B2" gw_src="gB" gw_dst="b2"><link_ctn id="BB2"/></zoneRoute>
    </zone>
    <link id="AX" bandwidth="1GBps" latency="10us"/>
    <link id="bpAB" bandwidth="1GBps" latency="100us"/>
    <link id="bpAX" bandwidth="1GBps" latency="200us"/>
    <zoneRoute src="A" dst="X" gw_src="gA" gw_dst="gB"><link_ctn id="AX"/></zoneRoute>
    <bypassZoneRoute src="A" dst="B" gw_src="a1" gw_dst="b"><link_ctn id="bpAB"/></bypassZoneRoute>
    <bypassASroute src="X" dst="A" gw_src="b2" gw_dst="a2"><link_ctn id="bpAX"/></bypassASroute>
  </zone>
</platform>
)",
                                  "b.xml");
  // SimGrid 3.32 also lists its network model's __loopback__ wherever a route reaches a gateway
  // from itself (a1 -> b: "__loopback__ bpAB __loopback__"); simfab has no such link.
  const std::vector<std::string> simgrid = {
      "a1 a2 50 : bp_a1a2",
      "a1 b 100 : bpAB",
      "a1 b2 15 : la1 AX BB2",
      "a2 a1 3 : la2 la1",
      "a2 b 103 : la2 la1 bpAB",
      "a2 b2 74 : bp_a2gA AX BB2",
      "b a1 210 : lb BB2 bpAX la2 la1",
      "b a2 207 : lb BB2 bpAX",
      "b b2 7 : lb BB2",
      "b2 a1 203 : bpAX la2 la1",
      "b2 a2 200 : bpAX",
      "b2 b 7 : BB2 lb",
  };
  EXPECT_EQ(route_table(p), simgrid);
}

TEST(PlatformXmlRouting, TwoSitesExample) {
  Platform p = load_platform(std::string(SIMFAB_SOURCE_DIR) + "/examples/platforms/two_sites.xml");
  ASSERT_EQ(p.host_count(), 8);
  // SimGrid 3.32: "paris-0 lyon-3 4106 : paris_link_0_UP paris_backbone wan-direct_UP paris-uplink
  // lyon-uplink lyon_backbone lyon_link_3_DOWN" (its Dijkstra wan piece lands first); path order:
  EXPECT_EQ(route_of(p, "paris-0", "lyon-3"),
            "paris-0 lyon-3 4106 : paris_link_0_UP paris_backbone paris-uplink wan-direct_UP lyon-uplink "
            "lyon_backbone lyon_link_3_DOWN");
  EXPECT_EQ(route_of(p, "lyon-3", "paris-0"),
            "lyon-3 paris-0 4106 : lyon_link_3_UP lyon_backbone lyon-uplink wan-direct_DOWN paris-uplink "
            "paris_backbone paris_link_0_DOWN");
  EXPECT_EQ(route_of(p, "paris-0", "paris-1"), "paris-0 paris-1 5 : paris_link_0_UP paris_backbone paris_link_1_DOWN");
  for (const std::string& line : route_table(p)) EXPECT_EQ(line.find("none"), std::string::npos) << line;
}

TEST(PlatformXmlRouting, MissingRoutesAreNoRoute) {
  // SimGrid 3.32 returns an empty route for two hosts of a Full zone without declared route, and
  // fails at use between zones without zoneRoute; simfab reports no route for both.
  Platform p = parse_platform_xml(head() + R"(  <zone id="root" routing="Full">
    <zone id="A" routing="Full"><host id="a" speed="1Gf"/><host id="a2" speed="1Gf"/></zone>
    <zone id="B" routing="None"><host id="b" speed="1Gf"/><host id="b2" speed="1Gf"/></zone>
  </zone>
</platform>
)",
                                  "m.xml");
  EXPECT_EQ(route_of(p, "a", "a2"), "a a2 none");
  EXPECT_EQ(route_of(p, "a", "b"), "a b none");
  EXPECT_EQ(route_of(p, "b", "b2"), "b b2 none");
  EXPECT_TRUE(p.route(0, 0).has_value());  // a host's route to itself: its loopback or nothing
}

TEST(PlatformXmlRouting, HostPstatesAndEnergyProperties) {
  // Speed lists are pstates (the host starts at speed[pstate]); the energy properties give its
  // power per pstate (platform_power_test.cpp has the rest).
  Platform p = parse_platform_xml(head() + R"(  <zone id="z" routing="Full">
    <host id="a" speed="100Mf,50Mf,20Mf" pstate="1" core="2">
      <prop id="wattage_per_state" value="95.0:120.0:200.0, 93.0:115.0:170.0, 90.0:110.0:150.0"/>
      <prop id="wattage_off" value="10"/>
      <prop id="other" value="ignored"/>
    </host>
    <host id="b" speed="1Gf">
      <prop id="watt_per_state" value="100.0:200.0"/>
      <prop id="watt_off" value="5"/>
    </host>
  </zone>
</platform>
)",
                                  "e.xml");
  EXPECT_DOUBLE_EQ(p.host(0).speed_flops, 50e6);
  EXPECT_EQ(p.host(0).cores, 2);
  ASSERT_GE(p.host(0).cpu_profile, 0);
  const CpuProfile& a = p.cpu_profile(p.host(0).cpu_profile);
  EXPECT_EQ(a.initial_pstate, 1);
  ASSERT_EQ(a.power.size(), 3u);
  EXPECT_DOUBLE_EQ(a.power[1].one_core_w, 115.0);
  EXPECT_DOUBLE_EQ(a.power_off_w, 10.0);
  ASSERT_GE(p.host(1).cpu_profile, 0);
  const CpuProfile& b = p.cpu_profile(p.host(1).cpu_profile);
  ASSERT_EQ(b.power.size(), 1u);  // SimGrid's older Idle:AllCores pair: the middle value is Idle
  EXPECT_DOUBLE_EQ(b.power[0].one_core_w, 100.0);
  EXPECT_DOUBLE_EQ(b.power_off_w, 5.0);
}

// ---- bad input: an InputError at the offending element, never a crash

void expect_error(const std::string& body, int line, std::initializer_list<std::string_view> parts) {
  const std::string text = head() + body + "</platform>\n";
  SCOPED_TRACE(text);
  try {
    parse_platform_xml(text, "t.xml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.loc().line, line) << what;
    for (std::string_view p : parts) EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
  }
}

// Lines 1-2 are the XML declaration and <platform>; bodies start on line 3.
const std::string kTwoZones = R"(<zone id="root" routing="Full">
  <zone id="A" routing="Full"><host id="a" speed="1Gf"/><router id="ra"/></zone>
  <zone id="B" routing="Floyd"><host id="b" speed="1Gf"/><router id="rb"/></zone>
  <link id="l" bandwidth="1GBps"/>
)";

TEST(PlatformXmlZoneErrors, ContentModel) {
  expect_error("<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n<zone id=\"y\" routing=\"Full\"/>\n"
               "</zone>\n",
               5, {"<zone> cannot appear in <zone id='z'>, which holds hosts and routers"});
  expect_error("<zone id=\"z\" routing=\"Full\">\n<zone id=\"y\" routing=\"Full\"/>\n<router id=\"r\"/>\n</zone>\n", 5,
               {"<router> cannot appear in <zone id='z'>, which holds zones and clusters"});
  expect_error("<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n<prop id=\"p\" value=\"1\"/>\n</zone>\n",
               5, {"<prop> must come first in <zone id='z'>"});
  expect_error("<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n"
               "<link id=\"l\" bandwidth=\"1GBps\"/>\n<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
               "<host id=\"c\" speed=\"1Gf\"/>\n</zone>\n",
               7, {"<host> cannot follow the routes of <zone id='z'>"});
  expect_error(kTwoZones + "  <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n</zone>\n", 7,
               {"<route> joins hosts and routers, but <zone id='root'> holds zones", "<zoneRoute>"});
  expect_error("<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n"
               "<zoneRoute src=\"z\" dst=\"z\" gw_src=\"a\" gw_dst=\"a\"/>\n</zone>\n",
               5, {"<zoneRoute> joins zones, but <zone id='z'> holds hosts and routers"});
  expect_error("<zone id=\"z\" routing=\"Full\"/>\n<zone id=\"y\" routing=\"Full\"/>\n", 4,
               {"a second top-level <zone>", "one root zone"});
  expect_error("<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n<config/>\n", 4,
               {"<config> must come before"});
  expect_error("<zone id=\"z\" routing=\"Cluster\">\n<zone id=\"y\" routing=\"Full\"/>\n</zone>\n", 4,
               {"a routing=\"Cluster\" zone holds hosts and routers"});
}

TEST(PlatformXmlZoneErrors, Names) {
  expect_error("<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n<router id=\"a\"/>\n</zone>\n", 5,
               {"duplicate router id 'a'", "declared at t.xml:4:1"});
  expect_error("<zone id=\"z\" routing=\"Full\">\n<router id=\"z\"/>\n</zone>\n", 4,
               {"duplicate router id 'z'", "the id of a zone", "one namespace"});
  expect_error("<zone id=\"z\" routing=\"Full\">\n<zone id=\"y\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n"
               "<zone id=\"a\" routing=\"Full\"/>\n</zone>\n",
               5, {"id 'a' of <zone> is already the name of a host or router"});
}

TEST(PlatformXmlZoneErrors, Routes) {
  // A <route> joins nodes of its own zone.
  expect_error(R"(<zone id="root" routing="Full">
  <zone id="A" routing="Full"><host id="a" speed="1Gf"/><link id="l" bandwidth="1GBps"/>
    <route src="a" dst="b"><link_ctn id="l"/></route></zone>
  <zone id="B" routing="Full"><host id="b" speed="1Gf"/></zone>
</zone>
)",
               5, {"unknown host or router 'b' as 'dst' of <route>"});
  expect_error(R"(<zone id="root" routing="Full">
  <zone id="B" routing="Full"><host id="b" speed="1Gf"/></zone>
  <zone id="A" routing="Full"><host id="a" speed="1Gf"/><link id="l" bandwidth="1GBps"/>
    <route src="a" dst="b"><link_ctn id="l"/></route></zone>
</zone>
)",
               6, {"'b' (dst of <route>) is in <zone id='B'>, not in <zone id='A'>", "<zoneRoute>"});
  expect_error("<zone id=\"z\" routing=\"Floyd\">\n<router id=\"r\"/><link id=\"l\" bandwidth=\"1GBps\"/>\n"
               "<route src=\"r\" dst=\"r\"><link_ctn id=\"l\"/></route>\n</zone>\n",
               5, {"a <route> from router 'r' to itself"});
  expect_error("<zone id=\"z\" routing=\"Cluster\">\n<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n"
               "<link id=\"l\" bandwidth=\"1GBps\"/>\n<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n</zone>\n",
               6, {"<route> cannot appear in <zone id='z'> (routing=\"Cluster\")", "<host_link>"});
  expect_error("<zone id=\"z\" routing=\"Floyd\">\n<host id=\"a\" speed=\"1Gf\"/><router id=\"r\"/>\n"
               "<link id=\"l\" bandwidth=\"1GBps\"/>\n<route src=\"a\" dst=\"r\"><link_ctn id=\"l\"/></route>\n"
               "<route src=\"r\" dst=\"a\"><link_ctn id=\"l\"/></route>\n</zone>\n",
               7, {"route r -> a is already declared at t.xml:6:1"});
}

TEST(PlatformXmlZoneErrors, ZoneRoutes) {
  const std::string end = "</zone>\n";
  expect_error(kTwoZones + "  <zoneRoute src=\"A\" dst=\"C\" gw_src=\"ra\" gw_dst=\"rb\"><link_ctn id=\"l\"/></zoneRoute>\n" +
                   end,
               7, {"'dst' of <zoneRoute> must name a zone or cluster declared directly inside <zone id='root'>",
                   "'C' is not a zone"});
  expect_error(kTwoZones + "  <zoneRoute src=\"A\" dst=\"B\" gw_src=\"rb\" gw_dst=\"rb\"><link_ctn id=\"l\"/></zoneRoute>\n" +
                   end,
               7, {"gateway 'rb' ('gw_src' of <zoneRoute>) is not inside <zone id='A'>"});
  expect_error(kTwoZones + "  <zoneRoute src=\"A\" dst=\"B\" gw_src=\"ra\" gw_dst=\"nowhere\"><link_ctn id=\"l\"/></zoneRoute>\n" +
                   end,
               7, {"unknown host or router 'nowhere' as 'gw_dst' of <zoneRoute>"});
  expect_error(kTwoZones + "  <zoneRoute src=\"A\" dst=\"A\" gw_src=\"ra\" gw_dst=\"a\"><link_ctn id=\"l\"/></zoneRoute>\n" +
                   end,
               7, {"<zoneRoute> from zone 'A' to itself"});
  expect_error(kTwoZones + "  <zoneRoute src=\"A\" dst=\"B\" gw_src=\"ra\" gw_dst=\"rb\"/>\n" + end, 7,
               {"<zoneRoute> has no <link_ctn>"});
  expect_error(kTwoZones + "  <zoneRoute src=\"A\" dst=\"B\" gw_src=\"ra\" gw_dst=\"rb\"><link_ctn id=\"l\"/></zoneRoute>\n" +
                   "  <ASroute src=\"B\" dst=\"A\" gw_src=\"rb\" gw_dst=\"ra\"><link_ctn id=\"l\"/></ASroute>\n" + end,
               8, {"ASroute B -> A is already declared at t.xml:7:3"});
  expect_error(kTwoZones + "  <zoneRoute src=\"A\" dst=\"B\" gw_src=\"ra\" gw_dst=\"rb\" color=\"red\"/>\n" + end, 7,
               {"unknown attribute 'color' of <zoneRoute>"});
  expect_error(R"(<zone id="root" routing="Full">
  <zone id="B" routing="Full"><host id="b" speed="1Gf"/></zone>
  <link id="l" bandwidth="1GBps"/>
  <zoneRoute src="root" dst="B" gw_src="b" gw_dst="b"><link_ctn id="l"/></zoneRoute>
</zone>
)",
               6, {"'src' of <zoneRoute>", "'root' is the root zone"});
  // Zones two levels down are not the zone's children.
  expect_error(R"(<zone id="root" routing="Full">
  <zone id="X" routing="Full"><zone id="X1" routing="Full"><host id="x" speed="1Gf"/></zone></zone>
  <zone id="B" routing="Full"><host id="b" speed="1Gf"/></zone>
  <link id="l" bandwidth="1GBps"/>
  <zoneRoute src="X1" dst="B" gw_src="x" gw_dst="b"><link_ctn id="l"/></zoneRoute>
</zone>
)",
               7, {"'X1' is declared inside <zone id='X'>"});
}

TEST(PlatformXmlZoneErrors, BypassRoutes) {
  const std::string nested = R"(<zone id="root" routing="Full">
  <zone id="X" routing="Full">
    <zone id="X1" routing="Full"><host id="x1" speed="1Gf"/></zone>
    <zone id="X2" routing="Full"><host id="x2" speed="1Gf"/></zone>
  </zone>
  <zone id="B" routing="Full"><host id="b" speed="1Gf"/></zone>
  <link id="l" bandwidth="1GBps"/>
)";
  expect_error(nested + "  <bypassZoneRoute src=\"X1\" dst=\"X2\" gw_src=\"x1\" gw_dst=\"x2\"><link_ctn id=\"l\"/>" +
                   "</bypassZoneRoute>\n</zone>\n",
               10, {"both lie in <zone id='X'>", "declare it in their common zone"});
  expect_error(nested + "  <bypassZoneRoute src=\"X1\" dst=\"root\" gw_src=\"x1\" gw_dst=\"b\"><link_ctn id=\"l\"/>" +
                   "</bypassZoneRoute>\n</zone>\n",
               10, {"'dst' of <bypassZoneRoute> must name a zone or cluster inside <zone id='root'>", "not inside it"});
  expect_error(nested + "  <bypassZoneRoute src=\"X1\" dst=\"B\" gw_src=\"x2\" gw_dst=\"b\"><link_ctn id=\"l\"/>" +
                   "</bypassZoneRoute>\n</zone>\n",
               10, {"gateway 'x2' ('gw_src' of <bypassZoneRoute>) is not inside <zone id='X1'>"});
  expect_error(nested + "  <bypassZoneRoute src=\"X1\" dst=\"B\" gw_src=\"x1\" gw_dst=\"b\" symmetrical=\"NO\"/>\n" +
                   "</zone>\n",
               10, {"unknown attribute 'symmetrical' of <bypassZoneRoute>"});
  expect_error("<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n"
               "<link id=\"l\" bandwidth=\"1GBps\"/>\n<bypassRoute src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></bypassRoute>\n"
               "<bypassRoute src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></bypassRoute>\n</zone>\n",
               7, {"bypassRoute a -> b is already declared at t.xml:6:1"});
}

TEST(PlatformXmlZoneErrors, ClusterZoneElements) {
  expect_error("<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n"
               "<backbone id=\"bb\" bandwidth=\"1GBps\" latency=\"0\"/>\n</zone>\n",
               5, {"<backbone> only belongs in a zone with routing=\"Cluster\""});
  const std::string k = "<zone id=\"z\" routing=\"Cluster\">\n<host id=\"a\" speed=\"1Gf\"/>\n"
                        "<link id=\"l\" bandwidth=\"1GBps\" sharing_policy=\"SPLITDUPLEX\"/>\n";
  expect_error(k + "<host_link id=\"b\" up=\"l_UP\" down=\"l_DOWN\"/>\n</zone>\n", 6,
               {"'id' of <host_link> must name a host", "'b' is not a host"});
  expect_error(k + "<host_link id=\"a\" up=\"l\" down=\"l_DOWN\"/>\n</zone>\n", 6,
               {"unknown link 'l' as 'up' of <host_link>", "SPLITDUPLEX"});
  expect_error(k + "<host_link id=\"a\" up=\"l_UP\" down=\"l_DOWN\"/>\n<host_link id=\"a\" up=\"l_UP\" down=\"l_DOWN\"/>\n"
                   "</zone>\n",
               7, {"host 'a' already has its <host_link>"});
  expect_error(k + "<backbone id=\"b1\" bandwidth=\"1GBps\" latency=\"0\"/>\n"
                   "<backbone id=\"b2\" bandwidth=\"1GBps\" latency=\"0\"/>\n</zone>\n",
               7, {"already has a <backbone>"});
  expect_error("<zone id=\"z\" routing=\"Cluster\">\n<cabinet id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-1\" "
               "speed=\"1Gf\" bw=\"1GBps\"/>\n</zone>\n",
               4, {"<cabinet> needs the attribute 'lat'"});
}

TEST(PlatformXmlZoneErrors, Dragonfly) {
  const std::string c = "<zone id=\"z\" routing=\"Full\">\n<cluster id=\"d\" prefix=\"n\" suffix=\"\" speed=\"1Gf\" "
                        "bw=\"1GBps\" lat=\"1us\" topology=\"DRAGONFLY\" ";
  expect_error(c + "radical=\"0-7\" topo_parameters=\"2,1;2,1;2,1\"/>\n</zone>\n", 4,
               {"bad 'topo_parameters' \"2,1;2,1;2,1\"", "4 ';'-separated levels"});
  expect_error(c + "radical=\"0-7\" topo_parameters=\"2,1;2,x;2,1;1\"/>\n</zone>\n", 4, {"'x' is not an integer"});
  expect_error(c + "radical=\"0-5\" topo_parameters=\"2,1;2,1;2,1;1\"/>\n</zone>\n", 4,
               {"'radical' of <cluster id='d' topology=\"DRAGONFLY\">", "\"0-7\""});
  expect_error(c + "radical=\"0-11\" topo_parameters=\"3,1;2,1;2,1;1\"/>\n</zone>\n", 4,
               {"3 groups over 2 blades per chassis", "crashes"});
  expect_error(c + "radical=\"0-7\"/>\n</zone>\n", 4, {"needs the attribute 'topo_parameters'", "groups,blue"});
}

TEST(PlatformXmlZoneErrors, Limits) {
  std::string deep;
  for (int i = 0; i <= kMaxZoneDepth + 1; ++i) deep += "<zone id=\"z" + std::to_string(i) + "\" routing=\"Full\">";
  expect_error(deep + "\n", 3, {"nests zones more than"});
  std::string floyd = "<zone id=\"z\" routing=\"Floyd\">\n";
  for (int i = 0; i <= kMaxFloydVertices; ++i) floyd += "<router id=\"r" + std::to_string(i) + "\"/>";
  expect_error(floyd + "\n</zone>\n", 4, {"Floyd routing over more than", "Dijkstra"});
}

}  // namespace
}  // namespace simfab
