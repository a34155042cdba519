// Every SimGrid cluster kind routed link by link as SimGrid 3.32 routes it: FLAT clusters (SPLITDUPLEX
// and SHARED private links, backbone, limiter, loopback, a radical with holes), routing="Cluster"
// zones with cabinets, FAT_TREE (parallel cables at one or two levels, two parents per host,
// limiter and loopback, two clusters in one file: SimGrid's counters run across them), TORUS (2-D,
// 4-D with sizes 1 and 2, limiters with and without loopback) and DRAGONFLY (limiters with and
// without loopback, SPLITDUPLEX and SHARED, SimGrid's example cluster_dragonfly.xml in a Full zone).
//
// How the expectations were obtained: the platforms of validation/simgrid/routes/platforms/ were
// loaded by SimGrid 3.32 (libsimgrid 3.32) with validation/simgrid/routes/sg_route_table.cpp, which
// prints Host::route_to(dst, links, &latency) for every ordered pair of hosts, a host to itself
// included, as "src dst latency_in_us : link names"; recorded/<platform>.txt is that output,
// verbatim (compare_routes.py --record writes it). simfab must give the same links in the same
// order with the same latency, for every pair: the lines are compared as sets (the host orders of
// the two tools differ).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "platform/load_platform.hpp"

namespace simfab {
namespace {

const std::string kDir = std::string(SIMFAB_SOURCE_DIR) + "/validation/simgrid/routes/";

// "src dst latency_us : links" for every ordered pair, self included; "src dst none" without route.
std::vector<std::string> route_table(const Platform& p) {
  std::vector<std::string> out;
  for (HostId a = 0; a < p.host_count(); ++a) {
    for (HostId b = 0; b < p.host_count(); ++b) {
      std::string line = p.host(a).name + " " + p.host(b).name;
      const auto r = p.route(a, b);
      const auto s = p.route_summary(a, b);
      if (!r || !s) {
        out.push_back(line + " none");
        continue;
      }
      char lat[32];
      std::snprintf(lat, sizeof lat, " %g :", static_cast<double>(s->latency.ps()) / 1e6);
      line += lat;
      for (LinkId l : *r) line += " " + p.link(l).name;
      out.push_back(line);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> recorded(const std::string& name) {
  std::ifstream in(kDir + "recorded/" + name + ".txt");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  std::sort(out.begin(), out.end());
  return out;
}

// The lines of `a` missing from `b`, at most 5, for the failure message.
std::string missing(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> d;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(d));
  std::string text;
  for (size_t i = 0; i < d.size() && i < 5; ++i) text += "\n  " + d[i];
  return text;
}

void expect_simgrid_routes(const std::string& name) {
  const std::vector<std::string> simgrid = recorded(name);
  ASSERT_FALSE(simgrid.empty()) << "no recorded table for " << name;
  const std::vector<std::string> simfab = route_table(load_platform(kDir + "platforms/" + name + ".xml"));
  EXPECT_TRUE(simfab == simgrid) << name << ": SimGrid's routes simfab lacks:" << missing(simgrid, simfab)
                                 << "\nsimfab's routes SimGrid lacks:" << missing(simfab, simgrid);
}

TEST(PlatformXmlSimgridRoutes, FlatClusters) {
  expect_simgrid_routes("plain");
  expect_simgrid_routes("plain_shared");
  expect_simgrid_routes("plain_full");
}

TEST(PlatformXmlSimgridRoutes, ClusterZoneWithCabinets) { expect_simgrid_routes("cabinets"); }

TEST(PlatformXmlSimgridRoutes, FatTrees) {
  expect_simgrid_routes("fat_tree_2l");
  expect_simgrid_routes("fat_tree_3l");
  expect_simgrid_routes("fat_tree_3l_wide");
  expect_simgrid_routes("fat_tree_limiter");
  expect_simgrid_routes("fat_tree_two");
}

TEST(PlatformXmlSimgridRoutes, FatTreeParallelCablesAndSelf) {
  // The issue-34 cases: n0 -> n4 and n2 -> n6 share top switch 27's cable 0 down to leaf 30,
  // n1 -> n5 does not; a host's message to itself crosses its cable both ways.
  const Platform p = load_platform(kDir + "platforms/fat_tree_2l.xml");
  auto links = [&](const char* a, const char* b) {
    const std::vector<LinkId> route = p.route(*p.find_host(a), *p.find_host(b)).value();
    std::string s;
    for (LinkId l : route) s += p.link(l).name + " ";
    return s;
  };
  EXPECT_EQ(links("n0", "n4"), "link_from_0_31_0_UP link_from_31_27_16_UP link_from_30_27_20_DOWN link_from_4_30_4_DOWN ");
  EXPECT_EQ(links("n2", "n6"), "link_from_2_31_2_UP link_from_31_27_17_UP link_from_30_27_20_DOWN link_from_6_30_6_DOWN ");
  EXPECT_EQ(links("n1", "n5"), "link_from_1_31_1_UP link_from_31_26_18_UP link_from_30_26_23_DOWN link_from_5_30_5_DOWN ");
  EXPECT_EQ(links("n0", "n0"), "link_from_0_31_0_UP link_from_0_31_0_DOWN ");
}

TEST(PlatformXmlSimgridRoutes, Tori) {
  expect_simgrid_routes("torus");
  expect_simgrid_routes("torus_3d");
  expect_simgrid_routes("torus_limiter");
}

TEST(PlatformXmlSimgridRoutes, Dragonfly) { expect_simgrid_routes("dragonfly"); }

TEST(PlatformXmlSimgridRoutes, DragonflyLimiters) {
  // Issue 37: limiter_link gives every host and every router a limiter; with and without a
  // loopback, SPLITDUPLEX and SHARED cables, and SimGrid's example cluster_dragonfly.xml in a
  // Full zone (fewer hosts).
  expect_simgrid_routes("dragonfly_limiter");
  expect_simgrid_routes("dragonfly_limiter_loopback");
  expect_simgrid_routes("dragonfly_example");
}

TEST(PlatformXmlSimgridRoutes, DragonflyLimiterLinks) {
  // SimGrid 3.32's links of dragonfly_limiter.xml (s4u::Engine::get_all_links: name, bandwidth,
  // latency, sharing policy): 86 besides its __loopback__, every limiter 1.5e9 B/s, latency 0,
  // SHARED, the hosts' d_link_0..11_limiter and the routers' d_link_12..23_limiter.
  const Platform p = load_platform(kDir + "platforms/dragonfly_limiter.xml");
  EXPECT_EQ(p.links().size(), 86u);
  for (int n = 0; n < 24; ++n) {
    const std::string name = "d_link_" + std::to_string(n) + "_limiter";
    const auto l = p.find_link(name);
    ASSERT_TRUE(l.has_value()) << name;
    EXPECT_EQ(p.link(*l).bandwidth_Bps, 1.5e9) << name;
    EXPECT_EQ(p.link(*l).latency, SimTime::zero()) << name;
    EXPECT_EQ(p.link(*l).sharing, LinkSharing::kShared) << name;
  }
}

}  // namespace
}  // namespace simfab
