// Writing a platform's graph out: Graphviz dot (to look at), JSON (to script), and InfiniBand-
// style linear forwarding tables (LFTs) of destination-routed topologies.
//
// The graph: hosts and switches are nodes; a full-duplex cable (two twin directed links) is one
// edge, written once under its UP link; a half-duplex or declared link with known endpoints is
// one edge; internal links (from == to: limiters, backbones, loopbacks) are listed on their node;
// links with unknown endpoints (a `links:` entry used by explicit routes) appear in JSON only.
//
// LFTs (OpenSM's dump_lfts in spirit): for each topology whose routing is destination-based
// (Topology::forward), each of its switches lists, per destination LID, the output port. LIDs
// are the topology's local host index + 1; a switch's ports are its outgoing links in link-id
// order, numbered from 1 (port 0 is IB's management port).
// Cost: O(nodes + links) for dot and JSON; O(switches x hosts) for LFTs.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>

#include "platform/platform.hpp"

namespace simfab {

// [{name, kind, routing, hosts}] of the platform's topologies (export JSON and describe).
nlohmann::ordered_json topologies_json(const Platform& p);

void write_dot(std::ostream& out, const Platform& p);
void write_graph_json(std::ostream& out, const Platform& p);
// Returns false (writing nothing) when no topology has destination-based routing; throws
// InputError beyond 10^8 lines (switches x hosts).
bool write_lft(std::ostream& out, const Platform& p);

}  // namespace simfab
