// topo_bench: how fast simfab builds large interconnects and computes routes on them.
//
//   topo_bench [--quick] [--instance NAME] [--pairs N] [--routes-only] [--list]
//
// For each instance: build s (generating hosts, switches, links and the topology into an empty
// Platform), the memory it added (VmRSS after - before, MiB), links, then routes/s of
// Platform::route_into (the flow model's per-message query) and of route_summary (LogGOPS's) over
// 1,000,000 pseudo-random host pairs (fixed seed; 200,000 with --quick, N with --pairs), and the
// mean number of links of the route_into routes (host cables included). Then `platform describe`'s
// figures on the instance: route_stats over a 4 M-pair sample and the bisection max flow, with
// their times (left out, printed as "-", with --routes-only).
// Without --instance it runs issue 5's scale targets: a 65,536-host fat-tree (k-ary n-tree
// 16-ary 4-tree, and the 3-level fat-tree of 64-port switches), a 32x32x64 torus, a 1,024-group
// dragonfly (a = 31, h = 33, p = 2: 63,488 hosts) under minimal and Valiant routing, and an
// explicit 4,096-host leaf-spine graph under ECMP (per-destination BFS, bounded cache).
// --instance NAME runs that one instance alone (bench/peer_topo_simgrid.sh times it against
// SimGrid). NAME is one of the defaults (--list prints them) or any instance of the same families:
//   fat-tree-K-N            k-ary n-tree (K-ary N-tree), D-mod-K       e.g. fat-tree-16-4
//   fat-tree-kK-L           the L-level fat-tree of K-port switches     e.g. fat-tree-k64-3
//   torus-AxBx...           torus, one host per router                  e.g. torus-32x32x64
//   dragonfly-G-A-H-P[-R]   G groups of A routers, H global links and P hosts per router,
//                           routing R = minimal (default), valiant or ugal  e.g. dragonfly-64-63-1-16
//   leaf-spine-4096         the leaf-spine graph above
// Links are 100 Gbps (12.5 GB/s) full duplex: 100 ns host cables, 150 ns switch cables.
// Exit status 2 for an unknown option or instance, or parameters a generator rejects.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
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

void bench(const std::string& label, const std::function<void(Platform&)>& build, size_t pairs, bool routes_only) {
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
  if (routes_only) {
    std::printf("| %s | %d | %d | %zu | %.3f | %.0f | %.2f M | %.2f M | %.3f | - | - | - | - |\n", label.c_str(),
                p.host_count(), p.switch_count(), p.links().size(), build_s, mem, pairs / route_s / 1e6,
                pairs / summary_s / 1e6, static_cast<double>(hop_sum) / pairs);
    std::fflush(stdout);
    (void)lat;
    return;
  }
  t0 = Clock::now();
  const RouteStats st = route_stats(p);
  const double stats_s = seconds_since(t0);
  t0 = Clock::now();
  const double bisection = bisection_bandwidth(p);
  const double bisection_s = seconds_since(t0);
  std::printf("| %s | %d | %d | %zu | %.3f | %.0f | %.2f M | %.2f M | %.3f | %d | %.2f | %.4g | %.2f |\n",
              label.c_str(), p.host_count(), p.switch_count(), p.links().size(), build_s, mem,
              pairs / route_s / 1e6, pairs / summary_s / 1e6, static_cast<double>(hop_sum) / pairs, st.diameter,
              stats_s, bisection / 1e9, bisection_s);
  std::fflush(stdout);
  (void)lat;
}

struct Instance {
  std::string name;   // what --instance takes
  std::string label;  // the table's first column
  std::function<void(Platform&)> build;
};

// The numbers of "A-B-C" (sep '-') or "AxBxC" (sep 'x'); nullopt unless every part is a positive int.
std::optional<std::vector<int>> parse_ints(const std::string& text, char sep) {
  std::vector<int> out;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(sep, start);
    const std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    const int v = std::stoi(part);
    if (v < 1) return std::nullopt;
    out.push_back(v);
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

std::string join(const std::vector<int>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

Instance leaf_spine_4096() {
  return {"leaf-spine-4096", "graph leaf-spine 4096 hosts (128 leaves x 32, 32 spines), ecmp", [](Platform& p) {
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
          }};
}

// NAME -> instance (the forms in the header comment); nullopt when NAME matches none.
std::optional<Instance> parse_instance(const std::string& name) {
  auto after = [&](const char* prefix) -> std::optional<std::string> {
    const std::string pre = prefix;
    if (name.rfind(pre, 0) != 0) return std::nullopt;
    return name.substr(pre.size());
  };
  if (name == "leaf-spine-4096") return leaf_spine_4096();
  if (auto rest = after("fat-tree-k")) {
    auto v = parse_ints(*rest, '-');
    if (!v || v->size() != 2) return std::nullopt;
    const int k = (*v)[0], levels = (*v)[1];
    return Instance{name, "fat-tree k=" + std::to_string(k) + ", " + std::to_string(levels) + " levels, d-mod-k",
                    [k, levels](Platform& p) {
                      add_fat_tree(p, common("ft"), k_port_fat_tree(k, levels), FatTreeRouting::kDModK);
                    }};
  }
  if (auto rest = after("fat-tree-")) {
    auto v = parse_ints(*rest, '-');
    if (!v || v->size() != 2) return std::nullopt;
    const int k = (*v)[0], n = (*v)[1];
    return Instance{name, "fat-tree " + std::to_string(k) + "-ary " + std::to_string(n) + "-tree, d-mod-k",
                    [k, n](Platform& p) { add_fat_tree(p, common("ft"), k_ary_n_tree(k, n), FatTreeRouting::kDModK); }};
  }
  if (auto rest = after("torus-")) {
    auto v = parse_ints(*rest, 'x');
    if (!v) return std::nullopt;
    const std::vector<int> dims = *v;
    return Instance{name, "torus " + join(dims, "x"), [dims](Platform& p) {
                      add_torus(p, common("t"), TorusParams{dims, std::vector<bool>(dims.size(), true), 1});
                    }};
  }
  if (auto rest = after("dragonfly-")) {
    std::string params = *rest;
    DragonflyRouting routing = DragonflyRouting::kMinimal;
    std::string routing_name = "minimal";
    for (auto [suffix, r] : {std::pair{"-minimal", DragonflyRouting::kMinimal},
                             std::pair{"-valiant", DragonflyRouting::kValiant}, std::pair{"-ugal", DragonflyRouting::kUgal}}) {
      const std::string sfx = suffix;
      if (params.size() > sfx.size() && params.compare(params.size() - sfx.size(), sfx.size(), sfx) == 0) {
        params.resize(params.size() - sfx.size());
        routing = r;
        routing_name = sfx.substr(1);
      }
    }
    auto v = parse_ints(params, '-');
    if (!v || v->size() != 4) return std::nullopt;
    DragonflyParams d;
    d.groups = (*v)[0];
    d.routers = (*v)[1];
    d.global_per_router = (*v)[2];
    d.hosts_per_router = (*v)[3];
    return Instance{name,
                    "dragonfly g=" + std::to_string(d.groups) + " a=" + std::to_string(d.routers) + " h=" +
                        std::to_string(d.global_per_router) + " p=" + std::to_string(d.hosts_per_router) + ", " +
                        routing_name,
                    [d, routing](Platform& p) { add_dragonfly(p, common("df"), d, routing); }};
  }
  return std::nullopt;
}

// Issue 5's scale targets, run when no --instance is given.
const std::vector<std::string> kDefaults = {"fat-tree-16-4",          "fat-tree-k64-3",
                                            "torus-32x32x64",         "dragonfly-1024-31-33-2",
                                            "dragonfly-1024-31-33-2-valiant", "leaf-spine-4096"};

int usage() {
  std::fprintf(stderr, "usage: topo_bench [--quick] [--instance NAME] [--pairs N] [--routes-only] [--list]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  size_t pairs = 1'000'000;
  bool routes_only = false;
  std::optional<std::string> only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick") {
      pairs = 200'000;
    } else if (arg == "--routes-only") {
      routes_only = true;
    } else if (arg == "--list") {
      for (const auto& name : kDefaults) std::printf("%s\n", name.c_str());
      return 0;
    } else if (arg == "--instance" && i + 1 < argc) {
      only = argv[++i];
    } else if (arg == "--pairs" && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v.empty() || v.size() > 12 || v.find_first_not_of("0123456789") != std::string::npos || std::stoull(v) == 0) {
        std::fprintf(stderr, "topo_bench: --pairs takes a positive integer, not '%s'\n", v.c_str());
        return 2;
      }
      pairs = static_cast<size_t>(std::stoull(v));
    } else {
      return usage();
    }
  }
  std::vector<Instance> instances;
  for (const auto& name : only ? std::vector<std::string>{*only} : kDefaults) {
    auto inst = parse_instance(name);
    if (!inst) {
      std::fprintf(stderr, "topo_bench: unknown instance '%s' (forms: fat-tree-K-N, fat-tree-kK-L, torus-AxBx..., "
                           "dragonfly-G-A-H-P[-minimal|-valiant|-ugal], leaf-spine-4096)\n", name.c_str());
      return 2;
    }
    instances.push_back(std::move(*inst));
  }
  std::printf("| instance | hosts | switches | links | build s | build MiB | route_into/s | route_summary/s | "
              "mean links/route | diameter (sample) | describe stats s | bisection GB/s | bisection s |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::fflush(stdout);
  for (const auto& inst : instances) {
    try {
      bench(inst.label, inst.build, pairs, routes_only);
    } catch (const TopologyError& e) {
      const std::string where = e.param().empty() ? "" : " (parameter " + e.param() + ")";
      std::fprintf(stderr, "topo_bench: %s: %s%s\n", inst.name.c_str(), e.what(), where.c_str());
      return 2;
    }
  }
  return 0;
}
