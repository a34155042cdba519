// Issue 32 ("Honest pictures"): the report's power over time (energy/power_timeline.hpp). Every
// host's series integrates to its energy and the total to the hosts' energy, on each path of the
// EnergyMeter: fixed hosts, DVFS (dynamic) hosts, polling (computed at the end), C-states, hosts
// switched off and on; and where the shape is exact, the watts per bin are the closed forms of
// tests/energy/run_energy.py (sections i and j).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/config.hpp"
#include "sim/simulation.hpp"
#include "test_support.hpp"

namespace simfab {
namespace {

using testing::write_test_file;

constexpr const char* kStates = "cstates: 'C1:80:2us, C6:40:300us'";
// 1 s compute, 1 s sleep, 1 s compute, 1 s sleep, 1 s compute: 5 s, 3 s at 200 W, 2 s idle.
constexpr const char* kBursts = "0 compute 1e9\n0 sleep 1\n0 compute 1e9\n0 sleep 1\n0 compute 1e9\n";

std::string fixed_host() { return std::string("hosts:\n  - {name: h, speed: 1Gf, power: [[100, 200, 200]], ") + kStates + "}\n"; }
std::string dvfs_host() {
  return std::string("hosts:\n  - {name: h, speed: [1Gf, 0.5Gf], power: [[100, 200, 200], [100, 150, 150]], ") + kStates +
         "}\n";
}

RunResult run(const std::string& platform, const std::string& trace, const std::vector<std::string>& cfg_lines,
              const std::string& hostfile = {}) {
  Config cfg;
  register_builtin_keys(cfg);
  for (const auto& c : cfg_lines) cfg.set_assignment(c, {});
  SimulationInput in;
  in.platform_path = write_test_file("p.yaml", platform);
  in.trace_path = write_test_file("t.ti", trace);
  if (!hostfile.empty()) in.hostfile_path = write_test_file("hosts", hostfile);
  return run_simulation(in, cfg);
}

// sum of watts x the bin's length within the run, in joules.
double integral(const energy::PowerPlot& p, const energy::PowerSeries& s) {
  double j = 0;
  for (size_t k = 0; k < s.watts.size(); ++k) {
    const int64_t from = static_cast<int64_t>(k) * p.bin.ps();
    j += s.watts[k] * static_cast<double>(std::min(p.bin.ps(), p.end.ps() - from)) * 1e-12;
  }
  return j;
}

// The invariant: every plotted host's series is its energy, the total the hosts' energy.
void expect_integrals_are_energies(const RunResult& r) {
  ASSERT_TRUE(r.energy.present);
  const energy::PowerPlot& p = r.energy.power;
  EXPECT_EQ(p.end, r.exec.makespan);
  EXPECT_EQ(p.total.watts.size(), static_cast<size_t>((p.end.ps() + p.bin.ps() - 1) / p.bin.ps()));
  EXPECT_NEAR(integral(p, p.total), r.energy.hosts_j, 1e-6 * r.energy.hosts_j);
  ASSERT_EQ(p.hosts.size(), std::min<size_t>(16, r.energy.hosts.size()));
  for (const energy::PowerSeries& s : p.hosts) {
    const auto h = std::find_if(r.energy.hosts.begin(), r.energy.hosts.end(),
                                [&](const energy::HostEnergy& e) { return e.name == s.name; });
    ASSERT_NE(h, r.energy.hosts.end()) << s.name;
    EXPECT_NEAR(integral(p, s), h->energy_j, 1e-6 * h->energy_j) << s.name;
    EXPECT_NEAR(s.energy_j, h->energy_j, 1e-6 * h->energy_j) << s.name;
  }
}

// The watts of the bin holding second t.
double watts_at(const energy::PowerPlot& p, const energy::PowerSeries& s, double t) {
  return s.watts[static_cast<size_t>(SimTime::from_seconds(t).ps() / p.bin.ps())];
}

TEST(Issue32PowerOverTime, FixedHostIsTheBurstsExactly) {
  const RunResult r = run(fixed_host(), kBursts, {"energy/polling=idle", "energy/cstates=off"});
  expect_integrals_are_energies(r);
  const energy::PowerPlot& p = r.energy.power;
  EXPECT_NEAR(r.energy.hosts_j, 800.0, 1e-9);
  // 200 bins over 5 s: 2^35 ps (34.4 ms) wide; bins wholly inside a burst or a sleep.
  EXPECT_EQ(p.bin.ps(), int64_t{1} << 35);
  EXPECT_NEAR(watts_at(p, p.hosts[0], 0.5), 200.0, 1e-9);
  EXPECT_NEAR(watts_at(p, p.hosts[0], 1.5), 100.0, 1e-9);
  EXPECT_NEAR(watts_at(p, p.hosts[0], 4.5), 200.0, 1e-9);
}

TEST(Issue32PowerOverTime, DvfsHostIsExact) {
  const RunResult r = run(dvfs_host(), kBursts, {"energy/polling=idle", "energy/cstates=off"});
  expect_integrals_are_energies(r);
  EXPECT_NEAR(watts_at(r.energy.power, r.energy.power.hosts[0], 2.5), 200.0, 1e-9);
}

TEST(Issue32PowerOverTime, CStatesKeepTheEnergy) {
  for (const std::string& host : {fixed_host(), dvfs_host()})
    for (const char* rule : {"energy/cstates=oracle", "energy/cstates=menu"}) {
      SCOPED_TRACE(std::string(rule) + " on " + host);
      const RunResult r = run(host, kBursts, {"energy/polling=idle", rule});
      expect_integrals_are_energies(r);
      // oracle: C6 in both idle periods, (40 - 100) W x (1 - 300e-6) s spread over each second.
      if (std::string(rule).ends_with("oracle")) {
        EXPECT_NEAR(r.energy.hosts_j, 800 - 2 * 59.982, 1e-9);
        EXPECT_NEAR(watts_at(r.energy.power, r.energy.power.hosts[0], 1.5), 100 - 59.982, 1e-6);
      }
    }
}

TEST(Issue32PowerOverTime, PollingSpinsAtBusyPower) {
  for (const std::string& host : {fixed_host(), dvfs_host()}) {
    const RunResult r = run(host, kBursts, {"energy/polling=busy"});
    expect_integrals_are_energies(r);
    EXPECT_NEAR(r.energy.hosts_j, 1000.0, 1e-9);
    for (double w : r.energy.power.hosts[0].watts) EXPECT_NEAR(w, 200.0, 1e-9);
  }
}

TEST(Issue32PowerOverTime, HostsSwitchedOffDrawTheirOffPower) {
  // run_energy.py section i: b is idle to 1 s (10 W), shuts down over [1, 1.25) (5 J: 20 W), is
  // off to 2.25 s (2 W), boots over [2.25, 2.75) (30 J: 60 W), then idles (10 W): 49.5 J.
  std::string platform = "hosts:\n";
  for (const char* h : {"a", "b"})
    platform += std::string("  - {name: ") + h +
                ", speed: 1Gf, power: [[10, 20, 20]], power_off: 2, shutdown_time: 250ms, shutdown_energy: 5, "
                "boot_time: 500ms, boot_energy: 30}\n";
  platform += "links:\n  - {name: l, bandwidth: 1GBps, latency: 0}\nroutes:\n  - {src: a, dst: b, links: [l]}\n";
  const RunResult r = run(platform, "0 sleep 1\n0 host_off b\n0 sleep 1.25\n0 host_on b\n0 sleep 0.75\n",
                          {"energy/polling=idle"}, "a\nb\n");
  expect_integrals_are_energies(r);
  const energy::PowerPlot& p = r.energy.power;
  ASSERT_EQ(p.hosts[0].name, "b");  // 49.5 J against a's 30 J
  EXPECT_NEAR(integral(p, p.hosts[0]), 49.5, 1e-9);
  EXPECT_NEAR(watts_at(p, p.hosts[0], 0.5), 10.0, 1e-9);
  EXPECT_NEAR(watts_at(p, p.hosts[0], 1.75), 2.0, 1e-9);
  EXPECT_NEAR(watts_at(p, p.hosts[0], 2.5), 60.0, 1e-9);
  EXPECT_NEAR(watts_at(p, p.total, 1.75), 12.0, 1e-9);
}

}  // namespace
}  // namespace simfab
