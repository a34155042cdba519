// Load balancing by rank migration (seed 001 §2.17, §9.2.2, §9.4.2; spec test 21): AMPI-style
// over-decomposition (more ranks than cores) with a GreedyLB heuristic run at migration points.
//
// GreedyLB (Charm++'s, as the thesis uses it; its details are INFERRED from Charm++): the ranks,
// heaviest first (ties: lower rank first), each go to the host that would finish its assigned work
// earliest, its finish being the sum of its ranks' loads divided by its capacity (cores x flop/s
// of a core); ties go to the lower host id. The hosts are those the ranks ran on before. O(R log R
// + R log H) for R ranks on H hosts.
//
// Loads are the flops each rank computed since the previous balancing (what the replay measures;
// Charm++ measures CPU time, the same for hosts of one speed). Moving a rank costs a transfer of
// lb/rank-memory bytes over the route between its old and new host: latency + bytes / bottleneck
// bandwidth, charged to the moved rank (the thesis estimates it from the rank's heap size).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "platform/platform.hpp"

namespace simfab::energy {

struct LbOptions {
  bool enabled = false;   // lb/balancer=greedy
  int64_t every = 1;      // balance at every k-th migrate point
  Bytes rank_memory = 0;  // bytes moved with a migrating rank
};

void register_lb_keys(Config& cfg);
LbOptions lb_options(const Config& cfg);

// The new host of each rank. loads[r] >= 0 (flops); hosts = the current host of each rank;
// capacity(h) = cores x speed of host h.
std::vector<HostId> greedy_lb(const std::vector<double>& loads, const std::vector<HostId>& hosts,
                              const Platform& platform);

// What moving a rank of `bytes` from host a to host b costs (zero when a == b or bytes == 0).
SimTime migration_time(const Platform& platform, HostId a, HostId b, Bytes bytes);

}  // namespace simfab::energy
