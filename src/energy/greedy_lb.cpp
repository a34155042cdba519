#include "energy/greedy_lb.hpp"

#include <algorithm>
#include <numeric>
#include <queue>

namespace simfab::energy {

void register_lb_keys(Config& cfg) {
  cfg.declare({"lb/balancer", CfgType::kChoice, "none",
               "what a trace's `migrate` points do: none (nothing) or greedy (Charm++'s GreedyLB moves ranks "
               "between hosts; seed 001 ch. 9)",
               {"none", "greedy"}});
  cfg.declare({"lb/every", CfgType::kInt, "1", "balance at every k-th migrate point of the trace (the others do nothing)", {}});
  cfg.declare({"lb/rank-memory", CfgType::kBytes, "0",
               "bytes a migrating rank carries to its new host (its memory; costs latency + bytes / bandwidth)", {}});
}

LbOptions lb_options(const Config& cfg) {
  LbOptions o;
  o.enabled = cfg.choice("lb/balancer") == "greedy";
  o.every = cfg.integer("lb/every");
  if (o.every < 1) throw InputError(SourceLoc{}, "--cfg lb/every=" + std::to_string(o.every) + ": expected 1 or more");
  o.rank_memory = cfg.bytes("lb/rank-memory");
  return o;
}

std::vector<HostId> greedy_lb(const std::vector<double>& loads, const std::vector<HostId>& hosts,
                              const Platform& platform) {
  std::vector<HostId> pool(hosts);
  std::sort(pool.begin(), pool.end());
  pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
  using Slot = std::pair<double, HostId>;  // (finish time of its assigned work, host)
  std::priority_queue<Slot, std::vector<Slot>, std::greater<>> heap;
  for (HostId h : pool) heap.push({0.0, h});
  std::vector<size_t> order(loads.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return loads[a] > loads[b]; });
  std::vector<HostId> out(hosts.size());
  for (size_t r : order) {
    auto [finish, h] = heap.top();
    heap.pop();
    const Host& host = platform.host(h);
    out[r] = h;
    heap.push({finish + loads[r] / (std::max(1, host.cores) * host.speed_flops), h});
  }
  return out;
}

SimTime migration_time(const Platform& platform, HostId a, HostId b, Bytes bytes) {
  if (a == b || bytes == 0) return SimTime::zero();
  const auto route = platform.route_summary(a, b);
  if (!route)
    throw InputError(SourceLoc{platform.source(), 0, 0}, "a rank cannot migrate from host '" + platform.host(a).name +
                                                             "' to '" + platform.host(b).name + "': no route between them");
  const double transfer = route->bandwidth_Bps > 0 ? static_cast<double>(bytes) / route->bandwidth_Bps : 0.0;
  return route->latency + SimTime::from_seconds(transfer);
}

}  // namespace simfab::energy
