// SimGrid's DRAGONFLY cluster (<cluster topology="DRAGONFLY" topo_parameters="a,b;c,d;e,f;g">),
// generated and routed as SimGrid 3.32's DragonflyZone does, link names included. It is not
// simfab's own dragonfly (topo/dragonfly.hpp): SimGrid adds a chassis level and attaches each
// group's global links to fixed routers.
//
// Parameters "G,blue;C,black;B,green;N": G groups, C chassis per group, B blades (routers) per
// chassis, N nodes (hosts) per blade; blue / black / green are the number of physical links each
// blue / black / green link stands for (its bandwidth is that many times the cluster's bw). Host h
// (radical position h, 0 <= h < G C B N) has coordinates (g, c, b, n) in that mixed radix; router
// (g, c, b) has global index r = g C B + c B + b and index q = c B + b in its group.
// Links (all of the cluster's bw times the count, latency lat; "_UP"/"_DOWN" twins when the
// sharing policy is SPLITDUPLEX, else one link), created in this order, which numbers them with a
// counter u shared by all the DRAGONFLY clusters of the file (SimGrid's static uniqueId):
//   local  per router r, node n:     "local_link_from_router_<r>_to_node_<n>_<u>"    UP: host -> router
//   green  per chassis x = g C + c, blades j < k:
//            "green_link_in_chassis_<c>_between_routers_<j>_and_<k>_<u>"            UP: j -> k
//   black  per group g, chassis j < k, blade l:
//            "black_link_in_group_<g>_between_chassis_<j>_and_<k>_blade_<l>_<u>"   UP: j -> k
//   blue   per groups i < j: router q = j of group i and router q = i of group j,
//            "blue_link_between_group_<i>_and_<j>_routers_<ri>_and_<rj>_<u>"       UP: i -> j
// Routers are simfab switches "<id>_router_<r>" (SimGrid's have no name); links join them so that
// describe / export see the fabric.
// limiter_link (SimGrid 3.32's DragonflyZone::generate_routers and sg_platf's cluster limiter): a
// shared link of that bandwidth and latency 0 for every host x, "<id>_link_<x>_limiter", and for
// every router r, "<id>_link_<2 G C B N - 1 - r>_limiter" (SimGrid counts the routers' node ids
// down from twice the host count: router 0 of a 16-host cluster has "<id>_link_31_limiter"). Its
// numbering is the cluster's own, not the link counter u. loopback_bw: "<id>_link_<x>_loopback".
//
// Routing (DragonflyZone::get_local_route, minimal), from host a at router m to host t at router
// T, with a current router `cur` = m: local up of a; if T != m: if T's group differs, [green to
// blade g_T in cur's chassis (cur := (g_a, c_a, g_T)) unless cur's blade is g_T; black to chassis
// 0 (cur := (g_a, 0, g_T)) unless cur's chassis is 0; the blue link of cur (cur := (g_T, 0, g_a))];
// then green to blade b_T (cur := (g_T, 0, b_T), chassis 0 whatever cur's chassis was) unless cur's
// blade is b_T; then black to chassis c_T unless cur's chassis is c_T; finally local down of t.
// With limiters: a's limiter first and t's last; cur's limiter before each green and black link
// taken from cur, and AFTER the blue link (still the router it leaves); T's limiter just before
// the local down (once when T = m: a -> router -> t crosses one router limiter), e.g.
//   n0 -> n8 of "2,1;2,1;2,1;2": d_link_0_limiter local UP d_link_31_limiter (router 0) green UP
//   blue UP d_link_30_limiter (router 1) d_link_27_limiter (router 4) local DOWN d_link_8_limiter.
// The bookkeeping assumes chassis 0 after a green hop, so within a group from chassis c != 0
// SimGrid's route is not a walk (n3 -> n0 of "1,1;2,1;2,1;1" takes chassis 1's green link and
// lands at router 0): simfab takes the same links, hence the same latency and sharing, and the
// route does not meet Topology's adjacency contract there.
// A host to itself: its loopback when the cluster has one (the Platform takes it), else the route
// above with T = m: its limiter, local link up, its router's limiter, down, its limiter (as
// SimGrid; route() accepts a == b).
// Where SimGrid runs: it reads green link g_T of blade-indexed routers, so inter-group routes need
// G <= B (else SimGrid 3.32 reads out of bounds and crashes); simfab refuses G > B (with G > 1).
// Cost: O(1) memory beyond the links (the generator's parameters and six base link ids); a route
// is O(1) (at most 7 links, 15 with limiters).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "topo/topo_build.hpp"

namespace simfab {

struct SimgridDragonflyParams {
  int groups = 1, blue = 1;
  int chassis = 1, black = 1;
  int blades = 1, green = 1;
  int nodes = 1;
  int64_t hosts() const { return int64_t{groups} * chassis * blades * nodes; }
};

// "G,blue;C,black;B,green;N", each a positive integer; or why not (quoting the bad field).
std::variant<SimgridDragonflyParams, std::string> parse_simgrid_dragonfly(std::string_view text);

// Adds the cluster's hosts (common.hosts, indices 0..G C B N - 1, with their loopbacks and
// limiters), routers (with limiters of the same spec when common.hosts.limiter is given) and
// links; returns the topology's index. `unique_id` is the link counter (see above), advanced by the links made.
// Throws TopologyError for G > B (G > 1), a taken name or the element limit.
int add_simgrid_dragonfly(Platform& p, const TopoCommon& common, const SimgridDragonflyParams& params,
                          int64_t& unique_id);

}  // namespace simfab
