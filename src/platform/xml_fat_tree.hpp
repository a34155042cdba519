// SimGrid's FAT_TREE cluster (<cluster topology="FAT_TREE" topo_parameters="h;m_1..;w_1..;p_1..">),
// generated and routed as SimGrid 3.32's FatTreeZone does, link names included. It is not simfab's
// own fat-tree (topo/fat_tree.hpp, D-mod-K / S-mod-K): SimGrid's down half picks the parallel
// cable by the SOURCE, its up half divides by w p per level, and a host has no loopback.
//
// Shape: XGFT(h; m; w) with p parallel cables (topo/fat_tree.hpp's addressing, which is SimGrid's
// labels: a level-l node is (A, B), position n = B + W_l A, level 0 the N hosts). Level l
// (1-based) has S_l = W_l N / M_l switches.
// Node ids (SimGrid's FatTreeNode::id, which names links): host x is x; switches count down from
// 2N - 1 in level order, so the level-l switch at position n is 2N - 1 - (S_1 + .. + S_{l-1} + n).
// Links, in SimGrid's creation order (which numbers them with a counter u shared by all the
// FAT_TREE clusters of the file, SimGrid's static uniqueId): for each child in level order
// (hosts, then level 1, ...), for each of its w parents b in position order, for each parallel
// cable j < p: "link_from_<child id>_<parent id>_<u>" (+ "_UP" child -> parent, "_DOWN" back when
// the sharing policy is SPLITDUPLEX, else one link): the same block order as topo/fat_tree.hpp,
// cable e = (child w + b) p + j of its level. Bandwidth and latency: the cluster's bw / lat.
// limiter_link: a shared link "<cluster>_link_<id>_limiter" (latency 0) for every host AND every
// switch (by node id). loopback_bw: a fatpipe "<cluster>_link_<x>_loopback" per host.
// Hosts also carry a position, SimGrid's static counter over every FAT_TREE host of the file:
// position(x) = P0 + x, P0 the hosts of the FAT_TREE clusters before this one.
//
// Route x -> y (FatTreeZone::get_local_route), from host x up to the first common ancestor, then
// down; a node's limiter is listed before every link that leaves it upwards and after every link
// that enters one of its children; the destination's limiter ends the route:
//   up, at level l (a host is level 0) while the node is not above y: parent index
//     d = floor(position(y) / W_l) mod (w_{l+1} p_{l+1}),   W_l = w_1 ... w_l,
//     that is parent b = d mod w_{l+1} by parallel cable j = floor(d / w_{l+1}) (its UP link).
//     (SimGrid 3.32 divides by the parents alone; later versions by w_i p_i per level, which
//     differs when p > 1 below level l: "3;2,2,2;1,2,2;2,1,2" has n0 -> n2 leave leaf 15 for
//     switch 11, link_from_15_11_16, as 3.32 does);
//   down, from a level-L node: SimGrid scans the node's children ports i = c + j m_L (c the child's
//     digit, j the cable) from i = (position(x) mod p_L) m_L upwards and takes the first i whose
//     c is y's digit (its DOWN link); it does NOT restart the scan at the child it moved to: the
//     same i goes on over the child's ports (i mod m_{L-1} against y's next digit) while i is
//     below that child's m_{L-1} p_{L-1} ports, and only a scan that runs off the end restarts at
//     (position(x) mod p) m of the node reached. The cable down is the source's choice: in
//     "2;4,4;1,2;1,2", n0 -> n4 and n2 -> n6 (even positions) both come down from top switch 27
//     to leaf 30 by cable 0, link_from_30_27_20_DOWN (n1 -> n5 crosses top switch 26).
// A host to itself: its loopback when the cluster has one, else up to its parent and back down
// (the same rule with x = y): a self-message crosses its host cable both ways.
// Cost: O(h) memory (per level m, w, p, M, W, counts and first link ids); a route is O(h + the
// ports scanned), at most sum_l m_l p_l steps, with no allocation.
#pragma once

#include <cstdint>

#include "topo/fat_tree.hpp"
#include "topo/topo_build.hpp"

namespace simfab {

// SimGrid's static counters over the FAT_TREE clusters of one file (see above).
struct SimgridFatTreeCounters {
  int64_t positions = 0;  // hosts made so far (P0 of the next cluster)
  int64_t links = 0;      // cables made so far (u of the next cable)
};

// Adds the cluster's hosts (common.hosts, indices 0..N-1, with their loopbacks and limiters,
// common.hosts.link_prefix being "<cluster>_link_"), switches "<name>_switch_<id>", the switches'
// limiters (when common.hosts.limiter is given: the same spec) and the cables (common.link);
// returns the topology's index. Advances `counters`.
// Throws TopologyError for impossible parameters, a taken name or the element limit.
int add_simgrid_fat_tree(Platform& p, const TopoCommon& common, const XgftParams& params,
                         SimgridFatTreeCounters& counters);

}  // namespace simfab
