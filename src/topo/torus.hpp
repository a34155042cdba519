// n-dimensional tori and meshes (k-ary n-cubes and their generalisation to a size per dimension)
// with dimension-order routing. Dally and Towles, "Principles and Practices of Interconnection
// Networks" (2004), ch. 5 (tori) and §8.4.1 (dimension-order routing); SimGrid's TorusZone is the
// same geometry with one host per router.
//
// Coordinates. D = dims.size() dimensions of sizes n_0..n_{D-1} (each >= 1). Router index r and
// coordinates x = (x_0..x_{D-1}), 0 <= x_d < n_d, are mixed radix with dimension 0 fastest:
//   r = sum_d x_d S_d,   S_0 = 1,   S_{d+1} = S_d n_d,   x_d = (r / S_d) mod n_d.
// Router r has hosts_per_router = p hosts, local host i = r p + s (slot s < p), so hosts are in
// router order. Names (topo_build.hpp's convention, T = the topology's name):
//   router r                       "T_r<r>"
//   host i <-> its router r        cable "T_h<i>_r<r>"          UP: host -> router
//   router r -> its + neighbour q  cable "T_r<r>_r<q>"          UP: r -> q (the + direction)
// In dimension d the + neighbour of x_d is x_d + 1 (mod n_d when wrap[d]). The cables of one line
// of n_d routers along d:
//   n_d = 1            none;
//   n_d = 2            one cable x_d = 0 -> 1 (wrap or not: the wrap-around would join the same
//                      two routers again, so it is never doubled);
//   n_d >= 3, wrap     n_d cables, x_d -> x_d + 1 mod n_d (a ring);
//   n_d >= 3, no wrap  n_d - 1 cables, x_d -> x_d + 1 for x_d < n_d - 1 (a line).
// Call c_d that count. Element counts, with R = prod_d n_d routers:
//   hosts R p,   host cables R p,   router cables sum_d c_d R / n_d
//   (4 x 4 torus: 16 routers, 32 router cables; 2 x 3 mesh: 6 routers, 7 router cables).
//
// Routing (dimension order, "e-cube"). A route from host a (router r_a) to host b (router r_b):
// a's host cable UP, then for d = 0, 1, ..., D-1 the hops that take x_d from its value in r_a to
// its value in r_b, every other coordinate held, then b's host cable DOWN. In dimension d, from u
// to v:
//   wrap[d]:  f = (v - u) mod n_d steps +, or n_d - f steps -; the shorter, + on a tie;
//   no wrap:  |v - u| steps towards v (+ when v > u).
// A + step crosses the cable of x_d UP, a - step the cable of x_d - 1 (mod n_d) DOWN; in a line
// of two routers the single cable is crossed UP from 0 and DOWN from 1, whatever the direction.
// Hops (host cables included):
//   hops(a, b) = 2 + sum_d delta_d,  delta_d = min(f, n_d - f) if wrap[d] else |v - u|,
// and 2 for two hosts of one router. Diameter (closed form, one host: 0):
//   2 + sum_d (wrap[d] ? floor(n_d / 2) : n_d - 1).
// The routing is destination-based: forward() gives the link a packet for host b leaves router r
// by (the first dimension in which r and b's router differ, or b's host cable).
//
// Link blocks. The generator adds the hosts first, then the cables in blocks: host cables by host
// index, then per dimension d its router cables, numbered like routers but with n_d replaced by
// c_d (index lo + x_d S_d + hi S_d c_d for r = lo + x_d S_d + hi S_d n_d). A cable is two
// consecutive links (UP, DOWN) when full duplex, one when half duplex. The topology keeps only the
// sizes, wraps, strides and the first link id of each block: memory O(D), a route costs
// O(D + route length), nothing grows with the number of host pairs.
//
// Invariants: every route satisfies the routing contract (topo/topology.hpp) and has exactly
// hops(a, b) links; routes are oblivious (the request is ignored) and deterministic. Building
// costs O(hosts + cables) link insertions. Thread-safety: immutable after construction.
#pragma once

#include <vector>

#include "topo/topo_build.hpp"

namespace simfab {

struct TorusParams {
  std::vector<int> dims;          // routers per dimension, each >= 1
  std::vector<bool> wrap;         // per dimension (same length as dims): wrap-around (torus) or not (mesh)
  int hosts_per_router = 1;       // >= 1
};

// Adds the routers, hosts and cables, and the topology; returns its index in the platform.
// kind() is "torus" when some dimension wraps, else "mesh"; routing() is "dimension-order".
// Throws TopologyError for impossible parameters (param "dims": none, a size < 1, more than
// 16777216 hosts; "wrap": not one per dimension; "hosts_per_router": < 1).
int add_torus(Platform& p, const TopoCommon& common, const TorusParams& params);

}  // namespace simfab
