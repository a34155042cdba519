// Fat-trees: the extended generalised fat-tree XGFT(h; m_1..m_h; w_1..w_h) of Öhring et al., with
// the k-ary n-tree and the k-port fat-tree as parameter presets, and their routings.
//
// TODO(helper): full teaching header (addressing, counts, D-mod-K proof, complexity).
#pragma once

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
XgftParams k_ary_n_tree(int k, int n);
// The fat-tree of k-port switches with `levels` levels (3: Al-Fares et al., k^3/4 hosts,
// 5k^2/4 switches): XGFT(l; k/2..k/2, k; 1, k/2..k/2). REQUIRES: k even >= 2, levels >= 1.
XgftParams k_port_fat_tree(int k, int levels);
// SimGrid's cluster topo_parameters for FAT_TREE: "levels;down;up;link-count", e.g.
// "2;4,4;1,2;1,2". The error text says which part is wrong and why.
std::variant<XgftParams, std::string> parse_simgrid_fat_tree(std::string_view text);

enum class FatTreeRouting { kDModK, kSModK };

// Adds the hosts, switches and cables, and the topology; returns its index in the platform.
// Throws TopologyError for impossible parameters (param "down", "up", "parallel", "k", "levels").
int add_fat_tree(Platform& p, const TopoCommon& common, const XgftParams& params, FatTreeRouting routing);

}  // namespace simfab
