// Identifiers of a platform's elements, and the node numbering shared by hosts and switches.
//
// A node is a host or a switch (router). NodeId packs both in one int32: a host is its HostId
// (>= 0), switch s is -2 - s (<= -2), and -1 is "no node". Links name the nodes they join
// (Link::from/to), which is what the topology tools (describe, export, hop counts) read.
#pragma once

#include <cstdint>

#include "core/sim_time.hpp"  // HostId

namespace simfab {

using LinkId = int32_t;
using SwitchId = int32_t;
using NodeId = int32_t;

constexpr NodeId kNoNode = -1;

constexpr NodeId host_node(HostId h) { return h; }
constexpr NodeId switch_node(SwitchId s) { return -2 - s; }
constexpr bool is_switch(NodeId n) { return n <= -2; }
constexpr SwitchId switch_of(NodeId n) { return -2 - n; }

}  // namespace simfab
