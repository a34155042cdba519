// The hosts of a SimGrid cluster topology (FAT_TREE, TORUS, DRAGONFLY) and where their limiters
// are, so that a Topology's route() can name host x's limiter from x alone.
//
// SimGrid 3.32's cluster gives host x (its position in the cluster) a shared limiter
// "<cluster>_link_<x>_limiter" of bandwidth limiter_link and latency 0 when limiter_link > 0
// (sg_platf_cluster_create_limiter), beside its loopback "<cluster>_link_<x>_loopback".
// add_topo_host makes a host's loopback, then its limiter, so when the hosts are added in a row
// host x's limiter is first + x * stride, stride being the links each host brings (1 or 2).
#pragma once

#include <cstdint>
#include <vector>

#include "topo/topo_build.hpp"

namespace simfab {

struct HostLimiters {
  LinkId first = -1;  // host 0's limiter; -1: the hosts have none
  int stride = 1;     // links between two consecutive hosts' limiters

  bool present() const { return first >= 0; }
  // Host x's limiter (present() only).
  LinkId of(int64_t x) const { return static_cast<LinkId>(first + x * stride); }
};

// Adds hosts 0..n-1 of spec in a row (add_topo_host); `limiters` says where their limiters are.
std::vector<HostId> add_topo_hosts(Platform& p, const HostSpec& spec, int64_t n, HostLimiters& limiters);

}  // namespace simfab
