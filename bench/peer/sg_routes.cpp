// sg_routes: SimGrid 3.32's route computation alone, the peer of `topo_bench --instance`.
//
//   sg_routes PLATFORM.xml PAIRS [SECONDS] [SimGrid --cfg/--log options]
//
// Loads the platform (s4u::Engine::load_platform, timed: XML parsing, zone creation and sealing,
// which is when the FAT_TREE / TORUS / DRAGONFLY cluster zones generate their switches and links),
// then asks Host::route_to for PAIRS pseudo-random ordered host pairs (src != dst) and prints:
//
//   load_s <s>  hosts <n>  links <n>  pairs <done>  route_s <s>  routes_per_s <r>
//   mean_links <l>  peak_rss_mib <m>
//
// one `key value` per line. No actor is created and no simulation is run.
//
// Pairs. Hosts are put in the order of the number in their name (the cluster's radical: node0,
// node1, ...), and pair i is (a, b) with a = splitmix64(splitmix64(i) ^ 1) mod n and
// b = splitmix64(splitmix64(i) ^ 2) mod (n - 1), b incremented when b >= a: the same formula and
// seed as topo_bench's route_into loop (src/topo/hash.hpp's mix/pick), so both simulators route
// the same host indices. The links go into one std::vector<Link*> that is cleared before each
// call and reused; SimGrid's Link* overload of route_to fills a temporary vector of link
// implementations internally and copies it, which is part of what is measured.
//
// SECONDS (default: none) stops the routing loop at the first multiple of 1024 pairs after that
// many seconds; `pairs` then reports how many were routed and routes_per_s is over those.
// The process leaves with _Exit once the figures are printed: tearing down a 65,536-host
// platform is not part of the measurement and only costs wall time.
//
// Build: g++ -O2 -std=c++17 bench/peer/sg_routes.cpp -o sg_routes -lsimgrid (bench/peer_topo_simgrid.sh).
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
// topo/hash.hpp's mix(x, y) = splitmix64(splitmix64(x) ^ y).
uint64_t mix2(uint64_t x, uint64_t y) { return splitmix64(splitmix64(x) ^ y); }

// The number at the end of a host name ("node123" -> 123); -1 when there is none.
long long trailing_number(const std::string& name) {
  size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
  if (i == name.size()) return -1;
  return std::stoll(name.substr(i));
}

double peak_rss_mib() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  simgrid::s4u::Engine e(&argc, argv);  // takes out the --cfg / --log options
  if (argc < 3) {
    std::fprintf(stderr, "usage: sg_routes PLATFORM.xml PAIRS [SECONDS] [--cfg=... --log=...]\n");
    return 2;
  }
  const std::string platform = argv[1];
  const uint64_t pairs = std::strtoull(argv[2], nullptr, 10);
  const double limit_s = argc > 3 ? std::strtod(argv[3], nullptr) : 0;

  auto t0 = Clock::now();
  e.load_platform(platform);
  const double load_s = seconds_since(t0);

  std::vector<simgrid::s4u::Host*> hosts = e.get_all_hosts();
  std::vector<std::pair<long long, simgrid::s4u::Host*>> order;
  order.reserve(hosts.size());
  for (auto* h : hosts) order.emplace_back(trailing_number(h->get_name()), h);
  std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : x.second->get_name() < y.second->get_name();
  });
  for (size_t i = 0; i < order.size(); ++i) hosts[i] = order[i].second;
  const uint64_t n = hosts.size();
  if (n < 2) {
    std::fprintf(stderr, "sg_routes: %s has %llu host(s); need at least 2\n", platform.c_str(),
                 static_cast<unsigned long long>(n));
    return 1;
  }

  std::vector<simgrid::s4u::Link*> links;
  uint64_t link_sum = 0;
  uint64_t done = 0;
  double lat_sum = 0;
  t0 = Clock::now();
  for (uint64_t i = 0; i < pairs; ++i) {
    if (limit_s > 0 && (i & 1023) == 0 && i > 0 && seconds_since(t0) > limit_s) break;
    const uint64_t a = mix2(i, 1) % n;
    uint64_t b = mix2(i, 2) % (n - 1);
    if (b >= a) ++b;
    links.clear();
    double latency = 0;
    hosts[a]->route_to(hosts[b], links, &latency);
    link_sum += links.size();
    lat_sum += latency;
    ++done;
  }
  const double route_s = seconds_since(t0);

  std::printf("load_s %.3f\nhosts %llu\nlinks %llu\npairs %llu\nroute_s %.3f\nroutes_per_s %.0f\n"
              "mean_links %.3f\nmean_latency_s %.4g\npeak_rss_mib %.1f\n",
              load_s, static_cast<unsigned long long>(n), static_cast<unsigned long long>(e.get_link_count()),
              static_cast<unsigned long long>(done), route_s, done > 0 ? done / route_s : 0.0,
              done > 0 ? static_cast<double>(link_sum) / done : 0.0, done > 0 ? lat_sum / done : 0.0,
              peak_rss_mib());
  std::fflush(stdout);
  std::_Exit(0);
}
