// Arbitrary graphs of hosts, switches and links, routed by shortest paths (hop count) with
// deterministic ECMP.
//
// TODO(helper): full teaching header.
#pragma once

#include <string>
#include <vector>

#include "topo/topo_build.hpp"

namespace simfab {

struct GraphEdge {
  NodeId a = kNoNode;  // a host (not in another cluster/topology) or a switch of this graph
  NodeId b = kNoNode;
  std::string name;    // the cable's name (add_cable naming)
  LinkSpec spec;
};

struct GraphParams {
  std::vector<GraphEdge> edges;  // switches already added to the platform (add_topo_switch)
};

enum class GraphRouting { kShortestPath, kEcmp };

// Adds the cables and the topology over the hosts the edges name (in host id order); returns
// its index. Throws TopologyError("links") when two of those hosts are not connected, naming them.
int add_graph(Platform& p, const TopoCommon& common, const GraphParams& params, GraphRouting routing);

}  // namespace simfab
