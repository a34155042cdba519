// Dragonflies (Kim et al. 2008): groups of fully connected routers joined by global links, with
// minimal, Valiant and UGAL routing.
//
// TODO(helper): full teaching header.
#pragma once

#include <optional>

#include "topo/topo_build.hpp"

namespace simfab {

// How the a*h global ports of each group are wired to the other groups.
enum class GlobalArrangement { kAbsolute, kRelative, kCirculant };
enum class DragonflyRouting { kMinimal, kValiant, kUgal };

struct DragonflyParams {
  int groups = 0;              // g >= 1
  int routers = 0;             // a: routers per group
  int hosts_per_router = 1;    // p
  int global_per_router = 0;   // h: global links per router
  GlobalArrangement arrangement = GlobalArrangement::kAbsolute;
  std::optional<LinkSpec> global_link;  // default: common.link
  double ugal_threshold = 0;            // UGAL takes Valiant only if its cost is lower by more
};

// Adds the routers, hosts and cables, and the topology; returns its index in the platform.
// Throws TopologyError for impossible parameters (param "groups", "routers", "hosts_per_router",
// "global_links", "arrangement").
int add_dragonfly(Platform& p, const TopoCommon& common, const DragonflyParams& params, DragonflyRouting routing);

}  // namespace simfab
