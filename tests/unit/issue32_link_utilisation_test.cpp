// Issue 32 ("Honest pictures"): link utilisation over time under the sharing models. The by-hand
// case: on a 1 GB/s backbone, flow A (2 MB) is alone for 1 ms, then A and B (1 MB, started at
// 1 ms) share it at half rate each for 2 ms. Spreading each message evenly over [sent, arrived)
// (the offered load) gives 2/3 + 1/2 = 1.17 of the bandwidth in the shared bins; the bytes the
// flow model carried (net/link_bytes_timeline.hpp) never exceed it, and sum to the bytes sent.
// LogGOPS, which does not share links, keeps the offered load (and says so).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "core/config.hpp"
#include "core/rate_bins.hpp"
#include "report/link_timeline.hpp"
#include "report/run_recorder.hpp"
#include "report/run_stats.hpp"
#include "report/stats_json.hpp"
#include "sim/simulation.hpp"
#include "test_support.hpp"

namespace simfab {
namespace {

using testing::write_test_file;

constexpr double kBandwidth = 1e9;  // B/s, every link
// Four hosts, private links n<i>_link and a shared backbone, all 1 GB/s, no latency.
constexpr const char* kCluster =
    "clusters:\n"
    "  - {name: c, prefix: n, count: 4, speed: 1Gf, bandwidth: 1GBps, latency: 0,\n"
    "     backbone: {bandwidth: 1GBps, latency: 0}}\n";
// A: rank 0 -> 2, 2e6 B at 0; B: rank 1 -> 3, 1e6 B after 1 ms of computing (1e6 flop at 1 Gf).
constexpr const char* kAB = "0 send 2 0 2000000\n2 recv 0 0 2000000\n"
                            "1 compute 1e6\n1 send 3 0 1000000\n3 recv 1 0 1000000\n";

struct StatsOfRun {
  RunResult result;
  StatsReport stats;
};

StatsOfRun run(const std::string& model, const std::string& platform = kCluster, const std::string& trace = kAB) {
  Config cfg;
  register_builtin_keys(cfg);
  cfg.set("network/model", model, {});
  SimulationInput in;
  in.platform_path = write_test_file("p.yaml", platform);
  in.trace_path = write_test_file("ab.ti", trace);
  RunStats stats;
  RunRecorder rec;
  rec.add(&stats);
  RunHooks hooks;
  hooks.activity = &rec;
  StatsOfRun out{run_simulation(in, cfg, hooks), {}};
  rec.finish(out.result);
  out.stats = stats.report();
  return out;
}

double peak_utilisation(const StatsReport& s, const TimelineSeries& t) {
  double peak = 0;
  for (double b : t.bytes) peak = std::max(peak, b / (kBandwidth * s.bin.seconds()));
  return peak;
}

double sum(const TimelineSeries& t) {
  double s = 0;
  for (double b : t.bytes) s += b;
  return s;
}

TEST(Issue32LinkUtilisation, FlowModelNeverExceedsTheBandwidth) {
  const StatsOfRun r = run("flow");
  ASSERT_TRUE(r.result.exec.blocked.empty());
  // A alone moves 1e6 B in the first ms, then both move 1e6 B each at half rate: both end at 3 ms.
  EXPECT_EQ(r.result.exec.makespan.ps(), 3000000000);
  EXPECT_TRUE(r.stats.timeline_carried);
  std::map<std::string, double> model_bytes;
  for (const LinkUsage& l : r.result.network.links) model_bytes[l.name] = l.bytes;
  ASSERT_FALSE(r.stats.timeline.empty());
  EXPECT_EQ(r.stats.timeline.front().name, "c_backbone");  // 3e6 B: the busiest
  for (const TimelineSeries& t : r.stats.timeline) {
    SCOPED_TRACE(t.name);
    EXPECT_FALSE(t.fatpipe);
    EXPECT_LE(peak_utilisation(r.stats, t), 1.0 + 1e-9);
    EXPECT_NEAR(sum(t), model_bytes.at(t.name), 1e-9 * model_bytes.at(t.name));
  }
  // The backbone carried everything sent, at full bandwidth from 0 to 3 ms.
  EXPECT_NEAR(sum(r.stats.timeline.front()), 3e6, 1e-3);
  EXPECT_NEAR(peak_utilisation(r.stats, r.stats.timeline.front()), 1.0, 1e-9);
}

TEST(Issue32LinkUtilisation, TheOfferedLoadOfTheSameRunExceedsIt) {
  // What the panel drew before: each message spread over [sent, arrived) (report/link_traffic.hpp).
  const StatsOfRun r = run("flow");
  LinkTimeline offered(LinkTimeline::kDefaultBins);
  offered.add(0, 2000000, SimTime::zero(), SimTime::ps(3000000000));
  offered.add(0, 1000000, SimTime::ps(1000000000), SimTime::ps(3000000000));
  offered.cover(r.result.exec.makespan);
  double peak = 0;
  for (uint64_t b : offered.series(0)) peak = std::max(peak, static_cast<double>(b) / (kBandwidth * offered.bin_width().seconds()));
  EXPECT_NEAR(peak, 2.0 / 3 + 0.5, 1e-3);
}

TEST(Issue32LinkUtilisation, SmpiModelCarriesAtMostTheBandwidthForThisCase) {
  // smpi's default bw_factor for 1e6 B and 2e6 B is 0.940694: below the bandwidth as well.
  const StatsOfRun r = run("smpi");
  EXPECT_TRUE(r.stats.timeline_carried);
  for (const TimelineSeries& t : r.stats.timeline) EXPECT_LE(peak_utilisation(r.stats, t), 1.0 + 1e-9) << t.name;
}

TEST(Issue32LinkUtilisation, PacketPortsCarryAtMostTheirBandwidth) {
  // The packet model serialises one packet at a time per port: the same A/B case never puts more
  // than a port's bandwidth in a bin, and each port's bins sum to the bytes it serialised.
  const StatsOfRun r = run("packet");
  ASSERT_TRUE(r.result.exec.blocked.empty());
  EXPECT_TRUE(r.stats.timeline_carried);
  std::map<std::string, const LinkUsage*> ports;
  for (const LinkUsage& l : r.result.network.links) ports[l.name] = &l;
  ASSERT_FALSE(r.stats.timeline.empty());
  for (const TimelineSeries& t : r.stats.timeline) {
    SCOPED_TRACE(t.name);
    const LinkUsage& port = *ports.at(t.name);
    double peak = 0;
    for (double b : t.bytes) peak = std::max(peak, b / (port.bandwidth_Bps * r.stats.bin.seconds()));
    EXPECT_LE(peak, 1.0 + 1e-9);
    EXPECT_NEAR(sum(t), port.bytes, 1e-9 * port.bytes);
  }
}

TEST(Issue32LinkUtilisation, FatpipeLinksAreMarked) {
  const std::string fatpipe =
      "clusters:\n"
      "  - {name: c, prefix: n, count: 4, speed: 1Gf, bandwidth: 1GBps, latency: 0,\n"
      "     backbone: {bandwidth: 1GBps, latency: 0, sharing: fatpipe}}\n";
  const StatsOfRun r = run("flow", fatpipe);
  // Each flow is capped at 1 GB/s alone: A ends at 2 ms, B at 2 ms; the backbone carried both at
  // once over [1, 2) ms: 200 % of its (per flow) bandwidth.
  const auto bb = std::find_if(r.stats.timeline.begin(), r.stats.timeline.end(),
                               [](const TimelineSeries& t) { return t.name == "c_backbone"; });
  ASSERT_NE(bb, r.stats.timeline.end());
  EXPECT_TRUE(bb->fatpipe);
  EXPECT_NEAR(peak_utilisation(r.stats, *bb), 2.0, 1e-9);
  EXPECT_NEAR(sum(*bb), 3e6, 1e-3);
}

TEST(Issue32LinkUtilisation, LogGopsKeepsTheOfferedLoad) {
  const StatsOfRun r = run("loggops");
  EXPECT_FALSE(r.stats.timeline_carried);
  EXPECT_EQ(stats_json(r.stats)["link_timeline"]["carried"], false);
  for (const TimelineSeries& t : r.stats.timeline)
    for (double b : t.bytes) EXPECT_EQ(b, static_cast<double>(static_cast<uint64_t>(b)));  // integer bytes
}

TEST(Issue32LinkUtilisation, RateBinsKeepTheIntegralAcrossDoublings) {
  RateBins b(1, 4);
  b.add(SimTime::ps(1), SimTime::ps(3), 0.5);  // 1 over [1, 3)
  b.add_at(SimTime::ps(2), 2.0);
  b.add(SimTime::ps(2), SimTime::ps(13), 1.0);  // widens to 4 ps: 11 over [2, 13)
  EXPECT_EQ(b.width(), 4);
  double total = 0;
  for (size_t i = 0; i < b.bins(); ++i) total += b.integral(i);
  EXPECT_DOUBLE_EQ(total, 14.0);
  EXPECT_DOUBLE_EQ(b.integral(0), 1.0 + 2.0 + 2.0);  // [0, 4): 1, the instant's 2, [2, 4) of the 11
  EXPECT_DOUBLE_EQ(b.integral(3), 1.0);               // [12, 13)
}

}  // namespace
}  // namespace simfab
