// Seed 003's contention results end to end (digest tests S6-S9): YAML platforms with split-duplex
// host links, per-host limiters and cabinets, replayed under network/model=flow with
// run_simulation, as `simfab run` does. Latencies are 0 so the times are the closed forms
// size / rate exactly (rounded to the picosecond).
#include <gtest/gtest.h>

#include "core/config.hpp"
#include "sim/simulation.hpp"
#include "test_support.hpp"

namespace simfab {
namespace {

using testing::write_test_file;

constexpr double kB = 125e6;          // 1 Gb/s in bytes/s
constexpr Bytes k4MiB = 4194304;

std::string two_host_platform(const std::string& limiter_factor) {
  return "clusters:\n"
         "  - {name: c, prefix: n, count: 2, speed: 1Gf, bandwidth: 1Gbps, latency: 0, sharing: splitduplex,\n"
         "     limiter_factor: " + limiter_factor + "}\n";
}

RunResult run(const std::string& platform_yaml, const std::string& goal, const std::vector<std::string>& cfg_lines = {},
              const std::string& hostfile = {}) {
  Config cfg;
  register_builtin_keys(cfg);
  cfg.set("network/model", "flow", {});
  for (const auto& c : cfg_lines) cfg.set_assignment(c, {});
  SimulationInput in;
  in.platform_path = write_test_file("p.yaml", platform_yaml);
  in.goal_path = write_test_file("a.goal", goal);
  if (!hostfile.empty()) in.hostfile_path = write_test_file("hosts", hostfile);
  return run_simulation(in, cfg);
}

std::string exchange(Bytes size, bool both_ways) {
  const std::string k = std::to_string(size);
  return "num_ranks 2 rank 0 { s: send " + k + "b to 1 tag 0 " + (both_ways ? "r: recv " + k + "b from 1 tag 0" : "") +
         " } rank 1 { r: recv " + k + "b from 0 tag 0 " + (both_ways ? "s: send " + k + "b to 0 tag 0" : "") + " }";
}

int64_t transfer_ps(double bytes, double rate) { return SimTime::from_seconds(bytes / rate).ps(); }

TEST(FlowContention, OneWayIsNotDegraded) {
  // S6: 4 MiB / B = 33.55 ms whatever the limiter.
  RunResult r = run(two_host_platform("1.5"), exchange(k4MiB, false));
  EXPECT_EQ(r.exec.makespan.ps(), transfer_ps(k4MiB, kB));
  EXPECT_EQ(r.exec.makespan.ps(), 33554432000);
}

TEST(FlowContention, BothWaysShareTheLimiter) {
  // S7: each flow gets 0.75 B: 44.74 ms, B_s + B_r = 1.5 B.
  RunResult r = run(two_host_platform("1.5"), exchange(k4MiB, true));
  EXPECT_EQ(r.exec.makespan.ps(), transfer_ps(k4MiB, 0.75 * kB));
  EXPECT_NEAR(r.exec.makespan.seconds(), 44.74e-3, 0.01e-3);
  ASSERT_TRUE(r.network.present);
  EXPECT_EQ(r.network.flows, 2u);
}

TEST(FlowContention, LimiterFactorSpansSingleToMultiPort) {
  // S8: factor 1 gives B_s + B_r = B (single port), factor 2 gives 2 B (multi-port).
  EXPECT_EQ(run(two_host_platform("1"), exchange(k4MiB, true)).exec.makespan.ps(), transfer_ps(k4MiB, 0.5 * kB));
  EXPECT_EQ(run(two_host_platform("2"), exchange(k4MiB, true)).exec.makespan.ps(), transfer_ps(k4MiB, kB));
}

std::string cabinet_platform() {
  return "clusters:\n"
         "  - name: c\n"
         "    prefix: n\n"
         "    count: 40\n"
         "    speed: 1Gf\n"
         "    bandwidth: 1Gbps\n"
         "    latency: 0\n"
         "    sharing: splitduplex\n"
         "    limiter_factor: 1.5\n"
         "    cabinets: {count: 2, bandwidth: 10Gbps, latency: 0, limiter: 13Gbps}\n";
}

// Ranks 0-9 run on hosts n0-n9 (cabinet 0) and ranks 10-19 on n20-n29 (cabinet 1): rank i sends
// 4 MiB to rank i + 10, and (both_ways) rank i + 10 to rank i.
std::string cabinet_exchange(bool both_ways) {
  const std::string k = std::to_string(k4MiB);
  std::string g = "num_ranks 20\n";
  for (int r = 0; r < 20; ++r) {
    const int peer = (r + 10) % 20;
    const bool sends = r < 10 || both_ways, receives = r >= 10 || both_ways;
    g += "rank " + std::to_string(r) + " { ";
    if (sends) g += "s: send " + k + "b to " + std::to_string(peer) + " tag 0 ";
    if (receives) g += "r: recv " + k + "b from " + std::to_string(peer) + " tag 0 ";
    g += "}\n";
  }
  return g;
}

std::string cabinet_hostfile() {
  std::string h;
  for (int i = 0; i < 10; ++i) h += "n" + std::to_string(i) + "\n";
  for (int i = 20; i < 30; ++i) h += "n" + std::to_string(i) + "\n";
  return h;
}

TEST(FlowContention, InterCabinetLimiterSharesThirteenGigabits) {
  // S9: 10 flows each way cross each 13 Gb cabinet limiter (20 flows): 0.65 Gb/s per flow.
  RunResult r = run(cabinet_platform(), cabinet_exchange(true), {}, cabinet_hostfile());
  EXPECT_EQ(r.exec.makespan.ps(), transfer_ps(k4MiB, 0.65e9 / 8));
  // 10 flows one way: the limiter is not binding (1.3 Gb/s each), the 1 Gb node links are.
  RunResult one = run(cabinet_platform(), cabinet_exchange(false), {}, cabinet_hostfile());
  EXPECT_EQ(one.exec.makespan.ps(), transfer_ps(k4MiB, kB));
}

TEST(FlowContention, LinkStatisticsShowTheBottleneck) {
  RunResult r = run(cabinet_platform(), cabinet_exchange(true), {}, cabinet_hostfile());
  bool found = false;
  for (const LinkUsage& l : r.network.links) {
    if (l.name != "c_cabinet_0_limiter") continue;
    found = true;
    EXPECT_EQ(l.flows, 20u);
    EXPECT_EQ(l.peak_flows, 20u);
    EXPECT_DOUBLE_EQ(l.bytes, 20.0 * k4MiB);
    EXPECT_EQ(l.busy, r.exec.makespan);
  }
  EXPECT_TRUE(found);
}

TEST(FlowContention, LoopbackCarriesMessagesBetweenRanksOfOneHost) {
  // Two ranks on n0 (hostfile "n0:2"): 1e6 B over a 10 GB/s loopback take 100 us; without a
  // loopback link they are delivered at once.
  const std::string with_loop =
      "clusters:\n"
      "  - {name: c, prefix: n, count: 2, speed: 1Gf, bandwidth: 1Gbps, latency: 0,\n"
      "     loopback: {bandwidth: 10GBps, latency: 0}}\n";
  EXPECT_EQ(run(with_loop, exchange(1000000, false), {}, "n0:2\n").exec.makespan.ps(), 100000000);
  EXPECT_EQ(run(two_host_platform("1.5"), exchange(1000000, false), {}, "n0:2\n").exec.makespan.ps(), 0);
  // Spread over two hosts the same message crosses the 1 Gb links: 8 ms.
  EXPECT_EQ(run(with_loop, exchange(1000000, false)).exec.makespan.ps(), 8000000000);
}

TEST(FlowContention, PlatformSettingsApplyUnlessGivenOnTheCommandLine) {
  const std::string p = two_host_platform("1.5") + "config:\n  flow/lat-factor: \"0:1\"\n  flow/os: \"0:1e-3:0\"\n";
  RunResult r = run(p, exchange(1000, false));
  EXPECT_EQ(r.exec.makespan.ps(), 1000000000 + transfer_ps(1000, kB));  // os = 1 ms, then 8 us
  RunResult cli = run(p, exchange(1000, false), {"flow/os=0:0:0"});
  EXPECT_EQ(cli.exec.makespan.ps(), transfer_ps(1000, kB));
}

TEST(FlowContention, PlatformSettingWithAnUnknownKeyNamesItsLine) {
  const std::string p = two_host_platform("1.5") + "config:\n  flow/lat-factr: \"0:1\"\n";
  try {
    run(p, exchange(1000, false));
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("p.yaml:5"), std::string::npos) << what;
    EXPECT_NE(what.find("flow/lat-factor"), std::string::npos) << what;
  }
}

TEST(FlowContention, IsendPaysOis) {
  // TI: rank 0 isends 1000 B and waits; ois = 3 us (os = 7 us is for blocking sends only).
  Config cfg;
  register_builtin_keys(cfg);
  cfg.set("network/model", "flow", {});
  cfg.set_assignment("flow/ois=0:3e-6:0", {});
  cfg.set_assignment("flow/os=0:7e-6:0", {});
  SimulationInput in;
  in.platform_path = write_test_file("p.yaml", two_host_platform("1.5"));
  in.trace_path = write_test_file("t.ti", "0 isend 1 0 1000\n0 wait 0 1 0\n1 recv 0 0 1000\n");
  RunResult r = run_simulation(in, cfg);
  EXPECT_EQ(r.exec.finish[0].ps(), 3000000);
  EXPECT_EQ(r.exec.finish[1].ps(), 3000000 + transfer_ps(1000, kB));
}

TEST(FlowContention, HostfileErrorsNameTheLine) {
  try {
    run(two_host_platform("1.5"), exchange(1000, false), {}, "n0\nn7\n");
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("hosts:2"), std::string::npos) << what;
    EXPECT_NE(what.find("no host 'n7'"), std::string::npos) << what;
  }
  EXPECT_THROW(run(two_host_platform("1.5"), exchange(1000, false), {}, "n0:zero\n"), InputError);
  EXPECT_THROW(run(two_host_platform("1.5"), exchange(1000, false), {}, "# nothing\n"), InputError);
}

TEST(FlowContention, SameInputsGiveIdenticalResults) {
  RunResult a = run(cabinet_platform(), cabinet_exchange(true), {}, cabinet_hostfile());
  RunResult b = run(cabinet_platform(), cabinet_exchange(true), {}, cabinet_hostfile());
  EXPECT_EQ(a.exec.finish, b.exec.finish);
  EXPECT_EQ(a.exec.events, b.exec.events);
}

}  // namespace
}  // namespace simfab
