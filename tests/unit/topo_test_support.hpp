// Helpers shared by the topology tests: the routing contract (topo/topology.hpp) checked on one
// route, and a common parameter set for generators.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/platform.hpp"
#include "topo/topo_build.hpp"

namespace simfab::testing {

// A TopoCommon named `name`, hosts "<name>h<i>", 1 Gf, 10 GB/s and 100 ns everywhere.
inline TopoCommon topo_common(const std::string& name, bool full_duplex = true) {
  TopoCommon c;
  c.name = name;
  c.hosts.prefix = name + "h";
  c.hosts.speed_flops = 1e9;
  c.host_link = LinkSpec{10e9, SimTime::ps(100'000), LinkSharing::kShared};
  c.link = c.host_link;
  c.full_duplex = full_duplex;
  return c;
}

// The route from host a to host b (a != b), checked against the routing contract: it exists,
// every link exists, starts at a, ends at b, consecutive links share a node, and a full-duplex
// link is crossed in its own direction. Returns the links (empty on failure, with a gtest failure).
inline std::vector<LinkId> checked_route(const Platform& p, HostId a, HostId b, const RouteRequest& req = {}) {
  auto r = p.route(a, b, req);
  if (!r) {
    ADD_FAILURE() << "no route " << p.host(a).name << " -> " << p.host(b).name;
    return {};
  }
  NodeId at = host_node(a);
  for (LinkId l : *r) {
    if (l < 0 || l >= static_cast<LinkId>(p.links().size())) {
      ADD_FAILURE() << "unknown link id " << l;
      return {};
    }
    const Link& k = p.link(l);
    if (k.from == k.to) continue;  // internal to `at` (limiter, loopback)
    if (k.from == at) {
      at = k.to;
    } else if (k.to == at && k.twin < 0) {  // a half-duplex link crossed backwards
      at = k.from;
    } else {
      ADD_FAILURE() << p.host(a).name << " -> " << p.host(b).name << ": link " << k.name
                    << " does not leave node " << p.node_name(at);
      return {};
    }
  }
  EXPECT_EQ(at, host_node(b)) << p.host(a).name << " -> " << p.host(b).name << " ends at " << p.node_name(at);
  return *r;
}

// Hop count of a checked route.
inline int hops(const Platform& p, const std::vector<LinkId>& route) {
  int n = 0;
  for (LinkId l : route) n += p.is_hop(l) ? 1 : 0;
  return n;
}

}  // namespace simfab::testing
