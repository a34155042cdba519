// topo_bench: how fast simfab builds large interconnects and computes routes on them.
//
//   topo_bench [--quick]
//
// For each instance: build s (generating hosts, switches, links and the topology into an empty
// Platform), the memory it added (VmRSS after - before, MiB), links, then routes/s of
// Platform::route_into (the flow model's per-message query) and of route_summary (LogGOPS's) over
// 1,000,000 pseudo-random host pairs (fixed seed; 200,000 with --quick), and the mean hop count of
// those routes. Then `platform describe`'s figures on the instance: route_stats over a 4 M-pair
// sample and the bisection max flow, with their times.
// Instances (issue 5's scale targets): a 65,536-host fat-tree (k-ary n-tree 16-ary 4-tree, and
// the 3-level fat-tree of 64-port switches), a 32x32x64 torus, a 1,024-group dragonfly (a = 31,
// h = 33, p = 2: 63,488 hosts) under minimal and Valiant routing, and an explicit 4,096-host
// leaf-spine graph under ECMP (per-destination BFS, bounded cache).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "platform/platform.hpp"
#include "topo/dragonfly.hpp"
#include "topo/fat_tree.hpp"
#include "topo/graph.hpp"
#include "topo/hash.hpp"
#include "topo/metrics.hpp"
#include "topo/torus.hpp"

namespace {

using namespace simfab;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double rss_mib() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024;
  return 0;
}

TopoCommon common(const std::string& name) {
  TopoCommon c;
  c.name = name;
  c.hosts.prefix = name + "_n";
  c.host_link = LinkSpec{12.5e9, SimTime::ps(100'000), LinkSharing::kShared};
  c.link = LinkSpec{12.5e9, SimTime::ps(150'000), LinkSharing::kShared};
  return c;
}

void bench(const char* label, const std::function<void(Platform&)>& build, size_t pairs) {
  const double rss0 = rss_mib();
  auto t0 = Clock::now();
  Platform p;
  build(p);
  const double build_s = seconds_since(t0);
  const double mem = rss_mib() - rss0;
  const uint64_t n = static_cast<uint64_t>(p.host_count());
  std::vector<LinkId> scratch;
  uint64_t hop_sum = 0;
  t0 = Clock::now();
  for (size_t i = 0; i < pairs; ++i) {
    const HostId a = static_cast<HostId>(pick(mix(i, 1), n));
    HostId b = static_cast<HostId>(pick(mix(i, 2), n - 1));
    if (b >= a) ++b;
    p.route_into(a, b, scratch, RouteRequest{i, nullptr});
    hop_sum += scratch.size();
  }
  const double route_s = seconds_since(t0);
  t0 = Clock::now();
  int64_t lat = 0;
  for (size_t i = 0; i < pairs; ++i) {
    const HostId a = static_cast<HostId>(pick(mix(i, 3), n));
    HostId b = static_cast<HostId>(pick(mix(i, 4), n - 1));
    if (b >= a) ++b;
    lat += p.route_summary(a, b)->latency.ps();
  }
  const double summary_s = seconds_since(t0);
  t0 = Clock::now();
  const RouteStats st = route_stats(p);
  const double stats_s = seconds_since(t0);
  t0 = Clock::now();
  const double bisection = bisection_bandwidth(p);
  const double bisection_s = seconds_since(t0);
  std::printf("| %s | %d | %d | %zu | %.2f | %.0f | %.2f M | %.2f M | %.2f | %d | %.2f | %.4g | %.2f |\n", label,
              p.host_count(), p.switch_count(), p.links().size(), build_s, mem, pairs / route_s / 1e6,
              pairs / summary_s / 1e6, static_cast<double>(hop_sum) / pairs, st.diameter, stats_s,
              bisection / 1e9, bisection_s);
  std::fflush(stdout);
  (void)lat;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const size_t pairs = quick ? 200'000 : 1'000'000;
  std::printf("| instance | hosts | switches | links | build s | build MiB | route_into/s | route_summary/s | "
              "mean links/route | diameter (sample) | describe stats s | bisection GB/s | bisection s |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  bench("fat-tree 16-ary 4-tree, d-mod-k", [](Platform& p) {
    add_fat_tree(p, common("ft"), k_ary_n_tree(16, 4), FatTreeRouting::kDModK);
  }, pairs);
  bench("fat-tree k=64, 3 levels, d-mod-k", [](Platform& p) {
    add_fat_tree(p, common("ft"), k_port_fat_tree(64, 3), FatTreeRouting::kDModK);
  }, pairs);
  bench("torus 32x32x64", [](Platform& p) {
    add_torus(p, common("t"), TorusParams{{32, 32, 64}, {true, true, true}, 1});
  }, pairs);
  for (auto [label, routing] : {std::pair{"dragonfly g=1024 a=31 h=33 p=2, minimal", DragonflyRouting::kMinimal},
                                std::pair{"dragonfly g=1024 a=31 h=33 p=2, valiant", DragonflyRouting::kValiant}}) {
    bench(label, [routing](Platform& p) {
      DragonflyParams d;
      d.groups = 1024;
      d.routers = 31;
      d.hosts_per_router = 2;
      d.global_per_router = 33;
      add_dragonfly(p, common("df"), d, routing);
    }, pairs);
  }
  bench("graph leaf-spine 4096 hosts (128 leaves x 32, 32 spines), ecmp", [](Platform& p) {
    TopoCommon c = common("g");
    GraphParams g;
    std::vector<SwitchId> leaves, spines;
    for (int s = 0; s < 32; ++s) spines.push_back(p.add_switch("g_spine" + std::to_string(s)));
    for (int l = 0; l < 128; ++l) {
      leaves.push_back(p.add_switch("g_leaf" + std::to_string(l)));
      for (int s = 0; s < 32; ++s)
        g.edges.push_back(GraphEdge{switch_node(leaves.back()), switch_node(spines[static_cast<size_t>(s)]),
                                    "g_l" + std::to_string(l) + "_s" + std::to_string(s), c.link});
    }
    for (int h = 0; h < 4096; ++h) {
      Host host;
      host.name = "g_n" + std::to_string(h);
      const HostId id = p.add_host(host);
      g.edges.push_back(GraphEdge{host_node(id), switch_node(leaves[static_cast<size_t>(h / 32)]),
                                  "g_h" + std::to_string(h), c.host_link});
    }
    add_graph(p, c, g, GraphRouting::kEcmp);
  }, pairs);
  return 0;
}
