// SimGrid's TORUS cluster (<cluster topology="TORUS" topo_parameters="d_0,d_1,...">), generated
// and routed as SimGrid 3.32's TorusZone does, link names included. It is not simfab's own torus
// (topo/torus.hpp): in SimGrid a host is its own router (no switch, no host cable), so a route
// between neighbours is one link.
//
// Hosts: rank r (0 <= r < N = d_0 d_1 ...), coordinate c_j(r) = floor(r / D_j) mod d_j with
// D_j = d_0 ... d_{j-1} (dimension 0 varies fastest).
// Links, in SimGrid's order (per rank r, per dimension j): "<cluster>_link_from_<r>_to_<q>" with
// q r's successor in dimension j (c_j + 1, wrapping: q = r - (d_j - 1) D_j when c_j = d_j - 1),
// "_UP" r -> q and "_DOWN" q -> r when the sharing policy is SPLITDUPLEX, else one link; the
// cluster's bw and lat. A dimension of size 1 gives a link from r to itself (never routed); one
// of size 2 two links between the same pair.
// limiter_link: a shared "<cluster>_link_<r>_limiter" (latency 0) per host; loopback_bw: a
// fatpipe "<cluster>_link_<r>_loopback" per host.
//
// Route s -> t (TorusZone::get_local_route), dimension order: at the current rank u, the first
// dimension j where u and t differ is crossed one step, in a direction fixed by the SOURCE's
// coordinate a = c_j(s) and the target's b = c_j(t): forwards (to u's successor, by u's link j
// UP) when a < b <= a + floor(d_j / 2), or a > floor(d_j / 2) and (a + floor(d_j / 2)) mod d_j >= b;
// else backwards (to u's predecessor v, by v's link j DOWN). Each step is preceded by u's limiter;
// t's limiter ends the route. So in a ring of 3, 0 -> 2 goes backwards (t_link_from_2_to_0_DOWN).
// A host to itself: its loopback when the cluster has one (the Platform takes it), else only its
// limiter, else an empty route (SimGrid's, as for any zone without loopback: no link, no time).
// Cost: O(dimensions) memory; a route is O(dimensions + length) with no allocation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "topo/topo_build.hpp"

namespace simfab {

// "d_0,d_1,..." (each an integer >= 1); or why not, quoting the bad field.
std::variant<std::vector<int>, std::string> parse_simgrid_torus(std::string_view text);

// Adds the hosts (common.hosts, indices 0..N-1, with loopbacks and limiters; link_prefix
// "<cluster>_link_") and the links (common.link); returns the topology's index.
// Throws TopologyError for a taken name or the element limit.
int add_simgrid_torus(Platform& p, const TopoCommon& common, const std::vector<int>& dims);

}  // namespace simfab
