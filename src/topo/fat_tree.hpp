// Fat-trees: the extended generalised fat-tree XGFT(h; m_1..m_h; w_1..w_h) of Öhring et al. [1],
// with p_i parallel cables between a node and each of its parents (SimGrid's "link count"), the
// k-ary n-tree [2] and the k-port fat-tree [3] as parameter presets, and the oblivious D-mod-K and
// S-mod-K routings [4, 5].
//
// Shape. Level 0 holds the hosts, levels 1..h the switches. A level-i node (i >= 1) has m_i
// children at level i-1; a level-(i-1) node has w_i parents at level i, joined to each by p_i
// parallel cables. With the prefix products M_l = m_1 m_2 ... m_l and W_l = w_1 w_2 ... w_l
// (M_0 = W_0 = 1):
//   hosts                           N   = M_h
//   switches at level l             S_l = W_l * N / M_l            (S_0 = N: the hosts)
//   cables between l-1 and l        C_l = S_{l-1} * w_l * p_l
//   directed links                  sum_l C_l, twice that when full-duplex
// Example: k_port_fat_tree(4, 3) = XGFT(3; 2,2,4; 1,2,2): N = 16, S = 8 + 8 + 4 = 20 switches,
// C = 16 + 16 + 16 = 48 cables, 96 directed links full-duplex. SimGrid's "2;4,4;1,2;1,2" =
// XGFT(2; 4,4; 1,2) with p = 1,2: N = 16, S = 4 + 2, C = 16 + 4*2*2 = 32.
//
// Addressing (mixed radix). A host is (a_h .. a_1), a_i in [0, m_i), with index
//   x = a_1 + m_1 (a_2 + m_2 (a_3 + ...)),        so a_i(x) = floor(x / M_{i-1}) mod m_i,
// and the hosts under one leaf are consecutive. A level-l node is (a_h .. a_{l+1}; b_l .. b_1),
// b_i in [0, w_i): the hosts below it are the M_l consecutive ones whose digits above l are
// a_h .. a_{l+1}, and b_l .. b_1 tells apart the W_l nodes of level l above those hosts. Its index
// within level l is
//   n = B + W_l A,      A = floor(x / M_l) for any host x below it,   B = b_1 + w_1 (b_2 + ...) < W_l.
// Node (A, B) at level l-1 is joined to its parents (floor(A / m_l), B + W_{l-1} b) at level l,
// b in [0, w_l): every child has w_l parents and every parent m_l children (A mod m_l).
//
// Names (topology T). Hosts come from TopoCommon::hosts with index x. Switch "T_L<l>_<n>". Cable
// "T_L<l>_<child>_<parent>" between level l-1 index `child` (a host index for l = 1) and level l
// index `parent`, with "_<k>" appended for parallel cable k > 0; full-duplex cables are the links
// "<cable>_UP" (child -> parent) and "<cable>_DOWN". Link ids: level l's cables are one block in
// the order e = (child * w_l + b) * p_l + k, each cable one link (half-duplex) or two consecutive
// links (UP, then DOWN), so a cable's link id is arithmetic and nothing per cable is stored.
//
// Routing. Hosts x != y meet at their lowest common ancestor level
//   L = min { l : floor(x / M_l) = floor(y / M_l) } = 1 + max { i : a_i(x) != a_i(y) }.
// The route climbs L cables and descends L: 2L hops, at most 2h. Every choice on it is a digit of
// a key z: the destination (D-mod-K, z = y) or the source (S-mod-K, z = x). Over the cables
// between levels l-1 and l, the route uses parent digit and parallel cable
//   b_l(z) = floor(z / W_{l-1}) mod w_l,      k_l(z) = floor(z / W_l) mod p_l,
// i.e. up-link c_l(z) = b_l + w_l k_l = floor(z / W_{l-1}) mod (w_l p_l) of the node's r_l = w_l p_l
// up-links. So its level-l nodes are
//   up   (0 <= l <= L):  (A, B) = (floor(x / M_l), z mod W_l)
//   down (L >= l >= 0):  (A, B) = (floor(y / M_l), z mod W_l)
// which agree at level L: climbing from (A, B) over b_{l+1}(z) leads to (floor(A / m_{l+1}),
// B + W_l b_{l+1}(z)) = (floor(x / M_{l+1}), z mod W_{l+1}), and the down half is the same chain
// read backwards towards y. D-mod-K is destination-based: a switch's next link depends only on y
// (forward(): down towards y when y is below the switch, else up-link c_{l+1}(y)), an InfiniBand
// linear forwarding table. S-mod-K x -> y crosses the nodes and cables of D-mod-K y -> x, backwards.
//
// Why D-mod-K spreads destinations evenly. Let s be a level-j node (A_s, B_s), j < h. A packet from
// below s to y climbs through s and leaves it upwards exactly when y's route passes through s's
// B-digits and y is not below s:
//   D_s = { y : y = B_s (mod W_j),  floor(y / M_j) != A_s }.
// Write y = B_s + W_j q. The up-link y takes is c_{j+1}(y) = q mod r (r = r_{j+1}): along the class
// {y = B_s mod W_j} (n_s members, q = 0, 1, 2, ...) the up-links are dealt round-robin, each
// receiving floor(n_s / r) or one more. The hosts below s are consecutive, so the class members
// below s are t_s consecutive q, which took floor(t_s / r) or one more from each up-link. Hence for
// up-link u, with I_s the t_s mod r (cyclically consecutive) up-links that got one more from it,
//   |{ y in D_s : c(y) = u }| = floor(n_s / r) + [u < n_s mod r] - floor(t_s / r) - [u in I_s],
// and the counts of any two up-links differ by at most 2, and by at most 1 when r divides n_s or
// t_s. That holds at every node when, for every level j < h with M_j < N (D_s is empty otherwise),
//   W_j * w_{j+1} * p_{j+1} divides M_j (a whole number of rounds below every node) or N.
// k-ary n-trees (W_j w_{j+1} = k^j = M_j for j >= 1, w_1 = 1), k-port fat-trees and SimGrid's
// "2;4,4;1,2;1,2" satisfy it. The bound 2 cannot be improved by any up-choice that is a function
// of the destination alone: in XGFT(2; 1,3; 1,2) each of 3 leaves holds one host and has 2 parents,
// so even spreading at every leaf needs the 3 hosts to take pairwise different parents.
// S-mod-K spreads sources: the sources leaving s upwards are the t_s consecutive class members
// below s, dealt round-robin, so the counts differ by at most 1 at every node of every XGFT.
//
// Complexity. Building adds N hosts, sum S_l switches and sum C_l cables to the Platform, each a
// name-map insertion (O(log size)), which is nearly all of the cost: 65,536 hosts take 1.7 s and
// 94 MB as k_port_fat_tree(64, 3) (5,120 switches, 393,216 links) and 3.0 s and 127 MB as
// k_ary_n_tree(16, 4) (16,384 switches, 524,288 links), on a loaded 2-core machine.
// The topology keeps O(h) integers (per level m, w, p, M, W, first switch and first link id);
// route() costs O(h) integer divisions with no allocation, forward() O(h), diameter() O(1).
// Limits: 1 <= h <= 32, N <= 2^24 hosts, switch and link ids within int32.
// Thread-safety: immutable once built.
//
// [1] S. R. Öhring, M. Ibel, S. K. Das, M. J. Kumar, "On generalized fat trees", IPPS 1995.
// [2] F. Petrini, M. Vanneschi, "k-ary n-trees: high performance networks for massively parallel
//     architectures", IPPS 1997.
// [3] M. Al-Fares, A. Loukissas, A. Vahdat, "A scalable, commodity data center network
//     architecture", SIGCOMM 2008.
// [4] E. Zahavi, G. Johnson, D. J. Kerbyson, M. Lang, "Optimized InfiniBand fat-tree routing for
//     shift all-to-all communication patterns", CCPE 22(2), 2010.
// [5] G. Rodriguez, C. Minkenberg, R. Beivide, R. P. Luijten, J. Labarta, M. Valero, "Oblivious
//     routing schemes in extended generalized fat tree networks", IEEE Cluster 2009.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "topo/topo_build.hpp"

namespace simfab {

// XGFT(h; m; w) with p parallel cables: level 0 holds the hosts; a level-i node (1 <= i <= h) has
// down[i-1] children and each level-(i-1) node has up[i-1] parents, joined by parallel[i-1]
// cables each. levels() = down.size() = up.size() = parallel.size().
struct XgftParams {
  std::vector<int> down;
  std::vector<int> up;
  std::vector<int> parallel;
  int levels() const { return static_cast<int>(down.size()); }
};

// k-ary n-tree: XGFT(n; k..k; 1, k..k): k^n hosts, n k^(n-1) switches.
// Throws TopologyError("k") for k < 1, ("levels") for n < 1 or k^n over 2^24 hosts.
XgftParams k_ary_n_tree(int k, int n);
// The fat-tree of k-port switches with `levels` levels (3: Al-Fares et al., k^3/4 hosts,
// 5k^2/4 switches; 2: k^2/2 hosts, k leaves, k/2 spines): XGFT(l; k/2..k/2, k; 1, k/2..k/2).
// Throws TopologyError("k") unless k is even and >= 2, ("levels") for levels < 1 or too many hosts.
XgftParams k_port_fat_tree(int k, int levels);
// SimGrid's cluster topo_parameters for FAT_TREE: "levels;down;up;link-count", e.g.
// "2;4,4;1,2;1,2" (2 levels; 4 children per switch at both levels; hosts have 1 parent, leaves 2;
// 1 cable per host, 2 per leaf-spine pair). The error text says which part is wrong and why.
std::variant<XgftParams, std::string> parse_simgrid_fat_tree(std::string_view text);

// Element counts of an XGFT (formulas in the header comment); index l-1 is level l.
struct XgftCounts {
  int64_t hosts = 0;
  std::vector<int64_t> switches;  // S_l
  std::vector<int64_t> cables;    // C_l, between levels l-1 and l
  int64_t total_switches() const;
  int64_t total_cables() const;
};
// Validates `params` as add_fat_tree does (same TopologyErrors) and counts its elements.
XgftCounts xgft_counts(const XgftParams& params);

// The shape of each level of an XGFT, from level 0 (the hosts) to h, as routing needs it.
struct XgftLevelShape {
  int64_t m = 1;      // children of a node of this level (cables below it); unused at level 0
  int64_t w = 1;      // parents of a node of the level below
  int64_t p = 1;      // parallel cables per child-parent pair
  int64_t M = 1;      // m_1 ... m_l: hosts below a node of this level
  int64_t W = 1;      // w_1 ... w_l: nodes of this level above the same hosts
  int64_t count = 0;  // nodes of this level
};
// REQUIRES: counts == xgft_counts(params) (so params are valid). h + 1 entries.
std::vector<XgftLevelShape> xgft_level_shapes(const XgftParams& params, const XgftCounts& counts);

enum class FatTreeRouting { kDModK, kSModK };

// "d-mod-k" / "s-mod-k", as Topology::routing() reports them.
std::string_view fat_tree_routing_name(FatTreeRouting r);
// The inverse; nullopt for any other name.
std::optional<FatTreeRouting> fat_tree_routing_from_name(std::string_view name);

// Adds the hosts, switches and cables, and the topology; returns its index in the platform.
// Throws TopologyError for impossible parameters (param "down", "up", "parallel", "levels"), a
// taken host name ("prefix") or switch/link name ("name"); parameters are checked before the
// platform changes, names while elements are added (the platform is then partly built: discard it).
int add_fat_tree(Platform& p, const TopoCommon& common, const XgftParams& params, FatTreeRouting routing);

}  // namespace simfab
