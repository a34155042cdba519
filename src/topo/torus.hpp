// n-dimensional tori and meshes with dimension-order routing.
//
// TODO(helper): full teaching header.
#pragma once

#include <vector>

#include "topo/topo_build.hpp"

namespace simfab {

struct TorusParams {
  std::vector<int> dims;          // routers per dimension, each >= 1
  std::vector<bool> wrap;         // per dimension: wrap-around links (torus) or not (mesh)
  int hosts_per_router = 1;       // >= 1
};

// Adds the routers, hosts and cables, and the topology; returns its index in the platform.
// Throws TopologyError for impossible parameters (param "dims", "wrap", "hosts_per_router").
int add_torus(Platform& p, const TopoCommon& common, const TorusParams& params);

}  // namespace simfab
