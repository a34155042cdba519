// maxmin_bench: how many flow starts and ends per second MaxMinSystem absorbs (each one followed
// by solve(), as FlowNetwork does), and how many flows each solve recomputes (its closure).
//
//   maxmin_bench [N ...]          (default: 1000 10000)
//
// Platform: a star of H = N hosts, each with a private uplink and downlink of B = 1.25 GB/s
// (10 Gb/s, shared constraints); a flow goes from a random host to another random host.
//   star-shared-backbone   route {up(src), backbone, down(dst)}, the backbone a shared link of
//                          H * B / 4 (4:1 oversubscribed). It is saturated, so every flow is tied
//                          to every other one through it: each update recomputes all N flows.
//   limiters-fatpipe       route {up(src), limiter(src), down(dst), limiter(dst), backbone}: seed
//                          003's per-host limiter of 1.5 B shared by the host's incoming and
//                          outgoing flows, and a fatpipe backbone of 10 Tb/s, which couples
//                          nobody. Flows are coupled only through saturated links and limiters.
// Workload: N flows are added and solved once; then updates alternate a departure (a random live
// flow is removed) and an arrival (a new flow between random hosts), each followed by solve(),
// until 200,000 updates or 5 s of wall time. One line per case:
//   case  N  updates  seconds  updates/s  mean recomputed flows per update
// The random sequence is fixed (seeded), so the recomputed counts are the same on every machine;
// only the times vary.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "net/flow/maxmin.hpp"

namespace {

using simfab::flow::ConstraintId;
using simfab::flow::ConstraintKind;
using simfab::flow::FlowId;
using simfab::flow::MaxMinSystem;

constexpr double kLinkBps = 1.25e9;
constexpr size_t kMaxUpdates = 200'000;
constexpr double kMaxSeconds = 5.0;

enum class Case { kSharedBackbone, kLimitersFatpipe };

struct Star {
  std::vector<ConstraintId> up, down, limiter;
  ConstraintId backbone{};
};

Star build_star(MaxMinSystem& s, Case which, size_t hosts) {
  Star star;
  for (size_t h = 0; h < hosts; ++h) {
    star.up.push_back(s.add_constraint(kLinkBps));
    star.down.push_back(s.add_constraint(kLinkBps));
    if (which == Case::kLimitersFatpipe) star.limiter.push_back(s.add_constraint(1.5 * kLinkBps));
  }
  star.backbone = which == Case::kSharedBackbone
                      ? s.add_constraint(static_cast<double>(hosts) * kLinkBps / 4)
                      : s.add_constraint(1.25e12, ConstraintKind::kFatpipe);
  return star;
}

FlowId add_random_flow(MaxMinSystem& s, const Star& star, std::mt19937_64& rng) {
  const size_t hosts = star.up.size();
  const size_t src = rng() % hosts;
  size_t dst = rng() % (hosts - 1);
  if (dst >= src) ++dst;
  std::vector<ConstraintId> route{star.up[src], star.down[dst], star.backbone};
  if (!star.limiter.empty()) {
    route.push_back(star.limiter[src]);
    route.push_back(star.limiter[dst]);
  }
  return s.add_flow(1.0, 0, route);
}

void run(Case which, size_t n) {
  MaxMinSystem s;
  const Star star = build_star(s, which, n);
  std::mt19937_64 rng(42);
  std::vector<FlowId> live;
  for (size_t i = 0; i < n; ++i) live.push_back(add_random_flow(s, star, rng));
  s.solve();

  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  double seconds = 0;
  size_t updates = 0, recomputed = 0;
  while (updates < kMaxUpdates && seconds < kMaxSeconds) {
    if (updates % 2 == 0) {  // departure
      const size_t pos = rng() % live.size();
      s.remove_flow(live[pos]);
      live[pos] = live.back();
      live.pop_back();
    } else {  // arrival
      live.push_back(add_random_flow(s, star, rng));
    }
    recomputed += s.solve().flows;
    ++updates;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  std::printf("%-22s %7zu %9zu %9.3f %12.0f %12.1f\n",
              which == Case::kSharedBackbone ? "star-shared-backbone" : "limiters-fatpipe", n,
              updates, seconds, static_cast<double>(updates) / seconds,
              static_cast<double>(recomputed) / static_cast<double>(updates));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes;
  for (int a = 1; a < argc; ++a) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(argv[a], &end, 10);
    if (end == argv[a] || *end != '\0' || v < 2) {
      std::fprintf(stderr, "usage: maxmin_bench [N ...]   (N >= 2 flows and hosts)\n");
      return 2;
    }
    sizes.push_back(static_cast<size_t>(v));
  }
  if (sizes.empty()) sizes = {1000, 10000};
  std::printf("%-22s %7s %9s %9s %12s %12s\n", "case", "N", "updates", "seconds", "updates/s",
              "recomputed");
  for (Case which : {Case::kSharedBackbone, Case::kLimitersFatpipe})
    for (size_t n : sizes) run(which, n);
  return 0;
}
