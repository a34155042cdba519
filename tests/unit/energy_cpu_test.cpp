// Seed 001's deterministic energy tests (../shared/spec/seed-001-energy.md §6 A: 1, 2, 3, 5, 6, 11,
// 16) on the CPU model (cpu/host_cpus) and the energy meter (energy/energy_meter) directly.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "cpu/host_cpus.hpp"
#include "energy/adagio.hpp"
#include "energy/cstates.hpp"
#include "energy/lagrange.hpp"
#include "energy/energy_meter.hpp"
#include "energy/governor.hpp"
#include "energy/greedy_lb.hpp"
#include "energy/power_model.hpp"

namespace simfab {
namespace {

using energy::MiddleValue;

// Table 9.1 of the thesis (taurus-7, NAS-EP at full load): MHz and AllCores watts.
const int kMhz[12] = {2300, 2200, 2100, 2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300, 1200};
const double kAll[12] = {179.25, 172.12, 166.25, 160.81, 155.12, 150.00, 144.75, 140.68, 136.00, 132.38, 128.88, 125.25};
constexpr double kIdle = 93.75;  // Fig. 9.3: 75 J over 0.8 s

CpuProfile taurus(int initial = 0) {
  CpuProfile p;
  for (int i = 0; i < 12; ++i) {
    p.speeds.push_back(kMhz[i] * 1e6);
    p.power.push_back({kIdle, kIdle + (kAll[i] - kIdle) / 12, kAll[i]});
  }
  p.initial_pstate = initial;
  return p;
}

Platform one_host(int cores, CpuProfile prof) {
  Platform p;
  Host h;
  h.name = "h0";
  h.cores = cores;
  h.speed_flops = prof.speeds[static_cast<size_t>(prof.initial_pstate)];
  h.cpu_profile = p.add_cpu_profile(std::move(prof));
  p.add_host(std::move(h));
  return p;
}

struct Recorder : cpu::CpuClient {
  std::map<uint32_t, SimTime> done;
  void computation_done(uint32_t token, SimTime t) override { done[token] = t; }
};

constexpr int64_t kSecond = 1'000'000'000'000;

TEST(EnergyPower, OneCoreSemanticsIsTheThesisLine) {
  const PstatePower w{92, 100, 144};
  const energy::PowerLine l = energy::power_line(w, 12, MiddleValue::kOneCore);
  EXPECT_DOUBLE_EQ(l.watts(0), 92);
  EXPECT_DOUBLE_EQ(l.watts(1), 100);
  for (int k = 1; k <= 12; ++k) EXPECT_NEAR(l.watts(k), 100 + (k - 1) * (144.0 - 100) / 11, 1e-12) << k;
  EXPECT_DOUBLE_EQ(l.watts(12), 144);
  EXPECT_DOUBLE_EQ(l.watts(30), 144);  // u is capped at 1
  const energy::PowerLine one = energy::power_line(w, 1, MiddleValue::kOneCore);
  EXPECT_DOUBLE_EQ(one.per_core_w, 0);  // N = 1: slope 0
  EXPECT_DOUBLE_EQ(one.watts(1), 100);
  // SimGrid 3.32's epsilon reading: P(u) = eps + u (All - eps).
  const energy::PowerLine eps = energy::power_line(w, 12, MiddleValue::kEpsilon);
  EXPECT_NEAR(eps.watts(6), 100 + 0.5 * 44, 1e-12);
  EXPECT_NEAR(eps.watts(12), 144, 1e-12);
}

// All 12 cores of a taurus host busy with 1 s of work each (sized at 2300 MHz), the host set to
// `pstate` first; the report covers [0, makespan] (0: until the work ends).
struct FullLoad {
  SimTime end;
  energy::EnergyReport report;
};
FullLoad full_load(int pstate, int64_t makespan_ps = 0) {
  Platform p = one_host(12, taurus(0));
  Engine engine;
  cpu::HostCpus cpus(engine, p, {1});
  Recorder rec;
  cpus.set_client(&rec);
  std::vector<HostId> rank_host{0};
  energy::EnergyMeter meter(p, cpus, rank_host, MiddleValue::kOneCore, false);
  cpus.add_observer(&meter);
  cpus.set_pstate(0, pstate);
  for (uint32_t i = 0; i < 12; ++i) cpus.start(0, i, kSecond);
  engine.run();
  SimTime end = SimTime::zero();
  for (auto& [tok, t] : rec.done) end = max(end, t);
  const SimTime T = makespan_ps ? SimTime::ps(makespan_ps) : end;
  return {end, meter.finish(T, {T}, NetworkStats{})};
}

TEST(EnergyMeter, Figure93FullLoadThenIdleIs25425Joules) {
  // 1 s of all 12 cores at 2300 MHz, then idle until 1.8 s: 179.25 + 0.8 * 93.75.
  const FullLoad f = full_load(0, 18 * kSecond / 10);
  EXPECT_EQ(f.end.ps(), kSecond);
  ASSERT_EQ(f.report.hosts.size(), 1u);
  EXPECT_NEAR(f.report.total_j, 254.25, 1e-9);
  EXPECT_NEAR(f.report.hosts[0].idle_s, 0.8, 1e-12);
}

TEST(EnergyMeter, Figure93SameWorkAt1200MHzIs24006Joules) {
  // The same flops at 1200 MHz: 2300/1200 s at 125.25 W = 240.0625 J.
  const FullLoad f = full_load(11);
  EXPECT_NEAR(f.end.seconds(), 2300.0 / 1200.0, 1e-12);
  EXPECT_NEAR(f.report.total_j, 240.0625, 1e-6);
}

TEST(EnergyMeter, Table91LossColumn) {
  // Full-load energy of W flops sized to 1 s at 2300 MHz, at each pstate, minus 179.25 J.
  const double expected[12] = {0, 0.694, 2.833, 5.681, 8.527, 12.417, 16.588, 22.978, 29.283, 38.231, 48.768, 60.812};
  for (int f = 0; f < 12; ++f)
    EXPECT_NEAR(full_load(f).report.total_j - 179.25, expected[f], 0.01) << kMhz[f] << " MHz";
}

TEST(HostCpus, CoresAreSharedFairlyBeyondTheirNumber) {
  // 4 cores of 1 Gf/s, tasks of 1 Gflop: 2 tasks end at 1 s, 8 tasks at 2 s (rate n C / p).
  for (int tasks : {2, 4, 8}) {
    CpuProfile prof;
    prof.speeds = {1e9, 5e8};  // two pstates: the host is modelled dynamically
    Platform p = one_host(4, prof);
    Engine engine;
    cpu::HostCpus cpus(engine, p, {1});
    Recorder rec;
    cpus.set_client(&rec);
    for (int i = 0; i < tasks; ++i) cpus.start(0, static_cast<uint32_t>(i), kSecond);
    EXPECT_EQ(cpus.busy(0), tasks);
    engine.run();
    ASSERT_EQ(rec.done.size(), static_cast<size_t>(tasks));
    for (auto& [tok, t] : rec.done) EXPECT_EQ(t.ps(), tasks <= 4 ? kSecond : 2 * kSecond) << tasks << " tasks";
  }
}

TEST(HostCpus, AShareGrowsWhenAnotherTaskEnds) {
  // 1 core, tasks of 1 s and 3 s started together: both at half speed until 2 s, when the short
  // one ends; the long one has 2 s of work left and finishes alone at 4 s.
  Platform p = one_host(1, CpuProfile{{1e9}, {}, 0, 0, {}, {}, {}});
  Engine engine;
  cpu::HostCpus cpus(engine, p, {2});  // two ranks on one core: shared
  ASSERT_TRUE(cpus.dynamic(0));
  Recorder rec;
  cpus.set_client(&rec);
  cpus.start(0, 1, kSecond);
  cpus.start(0, 2, 3 * kSecond);
  engine.run();
  EXPECT_EQ(rec.done.at(1).ps(), 2 * kSecond);
  EXPECT_EQ(rec.done.at(2).ps(), 4 * kSecond);
}

TEST(HostCpus, PstateSwitchMidTaskFinishesAtThreeSeconds) {
  // Pstates 100, 50, 20 Mflop/s; 100 Mflop. At pstate 0: 1 s; at pstate 2: 5 s; switched from 0
  // to 2 at 0.5 s: 0.5 + 50 / 20 = 3.0 s.
  CpuProfile prof;
  prof.speeds = {100e6, 50e6, 20e6};
  for (int case_ = 0; case_ < 3; ++case_) {
    Platform p = one_host(1, prof);
    Engine engine;
    cpu::HostCpus cpus(engine, p, {1});
    Recorder rec;
    cpus.set_client(&rec);
    struct Switch : EventHandler {
      cpu::HostCpus* cpus;
      void handle(SimTime, uint64_t) override { cpus->set_pstate(0, 2); }
    } sw;
    sw.cpus = &cpus;
    engine.set_handler(EventKind::kFrontEnd, &sw);
    if (case_ == 1) cpus.set_pstate(0, 2);
    if (case_ == 2) engine.schedule(SimTime::ps(kSecond / 2), EventKind::kFrontEnd, 0);
    cpus.start(0, 7, kSecond);  // 100 Mflop at 100 Mflop/s
    engine.run();
    const int64_t expected[3] = {kSecond, 5 * kSecond, 3 * kSecond};
    EXPECT_EQ(rec.done.at(7).ps(), expected[case_]) << "case " << case_;
  }
}

TEST(EnergyMeter, LoadHistogramOfTable81) {
  // Table 8.1: time at each number of busy cores; E = sum_k P(k/12) t_k.
  const double t[13] = {0.105638, 0.316098, 0.016594, 0.247750, 0.284455, 0.473350, 1.607626,
                        0.977106, 2.194727, 5.018271, 5.915051, 13.126249, 51.053753};
  const PstatePower w{92, 105, 190};
  CpuProfile prof;
  prof.speeds = {2.3e9};
  prof.power = {w};
  Platform p = one_host(12, prof);  // a fixed host: the intervals path
  Engine engine;
  cpu::HostCpus cpus(engine, p, {12});
  ASSERT_FALSE(cpus.dynamic(0));
  std::vector<HostId> rank_host(12, 0);
  energy::EnergyMeter meter(p, cpus, rank_host, MiddleValue::kOneCore, false);
  cpus.add_observer(&meter);
  // Phase k: k computations over [start, start + t_k).
  int64_t start = 0;
  double expected = 0, busy_core_s = 0, total = 0;
  const energy::PowerLine line = energy::power_line(w, 12, MiddleValue::kOneCore);
  for (int k = 0; k <= 12; ++k) {
    const int64_t d = std::llround(t[k] * 1e12);
    for (int i = 0; i < k; ++i) cpus.fixed(0, SimTime::ps(start), SimTime::ps(start + d));
    expected += line.watts(k) * static_cast<double>(d) * 1e-12;
    busy_core_s += k * static_cast<double>(d) * 1e-12;
    total += static_cast<double>(d) * 1e-12;
    start += d;
  }
  EXPECT_NEAR(total, 81.3367, 1e-4);
  EXPECT_NEAR(busy_core_s / total, 11.065, 1e-3);
  const energy::EnergyReport rep = meter.finish(SimTime::ps(start), std::vector<SimTime>(12, SimTime::ps(start)), {});
  EXPECT_NEAR(rep.total_j, expected, 1e-6);
  EXPECT_NEAR(rep.hosts[0].idle_s, 0.105638, 1e-9);
}

TEST(EnergyMeter, PollingRanksDrawBusyPowerUntilTheyFinish) {
  // 12 ranks on a 12-core host that never compute: polling keeps every core busy until each
  // finishes (seed 001 §2.14: ~188 W polling against 92 W idle).
  CpuProfile prof;
  prof.speeds = {2.3e9};
  prof.power = {{92, 100, 188}};
  Platform p = one_host(12, prof);
  Engine engine;
  cpu::HostCpus cpus(engine, p, {12});
  std::vector<HostId> rank_host(12, 0);
  std::vector<SimTime> finish(12, SimTime::ps(kSecond));
  finish[11] = SimTime::ps(2 * kSecond);  // the last rank finishes 1 s later
  energy::EnergyMeter busy(p, cpus, rank_host, MiddleValue::kOneCore, true);
  energy::EnergyMeter idle(p, cpus, rank_host, MiddleValue::kOneCore, false);
  const SimTime T = SimTime::ps(2 * kSecond);
  EXPECT_NEAR(busy.finish(T, finish, {}).total_j, 188 + 100, 1e-9);  // 12 cores for 1 s, then 1 core
  EXPECT_NEAR(idle.finish(T, finish, {}).total_j, 2 * 92, 1e-9);
}

TEST(Governor, DecisionRules) {
  using energy::GovernorKind;
  // ondemand: above the threshold, the fastest; else in proportion to the load.
  EXPECT_EQ(energy::next_pstate(GovernorKind::kOndemand, 5, 0.9, 0, 11, 0.8, 0.2), 0);
  EXPECT_EQ(energy::next_pstate(GovernorKind::kOndemand, 0, 0.0, 0, 11, 0.8, 0.2), 11);
  EXPECT_EQ(energy::next_pstate(GovernorKind::kOndemand, 0, 0.5, 0, 11, 0.8, 0.2), 5);
  // conservative: one step per period.
  EXPECT_EQ(energy::next_pstate(GovernorKind::kConservative, 5, 0.9, 0, 11, 0.8, 0.2), 4);
  EXPECT_EQ(energy::next_pstate(GovernorKind::kConservative, 5, 0.1, 0, 11, 0.8, 0.2), 6);
  EXPECT_EQ(energy::next_pstate(GovernorKind::kConservative, 5, 0.5, 0, 11, 0.8, 0.2), 5);
  EXPECT_EQ(energy::next_pstate(GovernorKind::kConservative, 0, 0.9, 0, 11, 0.8, 0.2), 0);
  EXPECT_EQ(energy::next_pstate(GovernorKind::kConservative, 11, 0.0, 0, 11, 0.8, 0.2), 11);
  // performance and powersave are constant.
  for (double load : {0.0, 0.5, 1.0}) {
    EXPECT_EQ(energy::next_pstate(GovernorKind::kPerformance, 7, load, 2, 9, 0.8, 0.2), 2);
    EXPECT_EQ(energy::next_pstate(GovernorKind::kPowersave, 3, load, 2, 9, 0.8, 0.2), 9);
  }
}

// A governor run on one 1-core host with pstates 2 and 1 Gf/s, starting at `initial`, with one
// computation of 1 s of work at the initial speed; returns its end.
SimTime governed_task(energy::GovernorKind kind, int initial) {
  CpuProfile prof;
  prof.speeds = {2e9, 1e9};
  prof.initial_pstate = initial;
  Platform p = one_host(1, prof);
  Engine engine;
  cpu::HostCpus cpus(engine, p, {1});
  Recorder rec;
  cpus.set_client(&rec);
  energy::GovernorParams gp;
  gp.kind = kind;
  energy::Governor g(engine, cpus, p, gp);
  cpus.add_observer(&g);
  g.start(nullptr);
  cpus.start(0, 1, kSecond);
  engine.run();
  return rec.done.at(1);
}

TEST(Governor, PowersaveSlowsTheHostFromTheStart) {
  EXPECT_EQ(governed_task(energy::GovernorKind::kPowersave, 0).ps(), 2 * kSecond);  // 2 Gflop at 1 Gf/s
  EXPECT_EQ(governed_task(energy::GovernorKind::kPerformance, 1).ps(), kSecond / 2);  // 1 Gflop at 2 Gf/s
}

TEST(Governor, OndemandSpeedsUpAFullyLoadedHostAtItsFirstTick) {
  // Starts at 1 Gf/s; the tick at 0.1 s sees load 1 > 0.8 and goes to pstate 0 (2 Gf/s): the
  // remaining 0.9 Gflop take 0.45 s, so the task ends at 0.55 s.
  EXPECT_EQ(governed_task(energy::GovernorKind::kOndemand, 1).ps(), 55 * kSecond / 100);
  // conservative steps one pstate faster: here the same single step.
  EXPECT_EQ(governed_task(energy::GovernorKind::kConservative, 1).ps(), 55 * kSecond / 100);
}

}  // namespace
}  // namespace simfab

namespace simfab {
namespace {

TEST(Adagio, NeverSpeedsUpOnceSlowedDown) {
  // Seed 001 test 10: 12 pstates; the task's work (seconds at pstate 0) varies by iteration
  // while the iteration end is fixed at 1.5 s. Adagio fits each task into its last slack, so its
  // pstate index never decreases: it never speeds up, even when a heavier task comes.
  std::vector<double> speeds;
  for (int i = 0; i < 12; ++i) speeds.push_back((2300 - 100 * i) * 1e6);
  const double work[] = {1.0, 1.2, 1.0, 1.3, 1.0, 1.25, 1.1, 1.3};
  int p = 0, raised = 0;
  for (int it = 0; it < 40; ++it) {
    const double t_comp = work[it % 8] * speeds[0] / speeds[static_cast<size_t>(p)];
    const double t_lib = std::max(0.0, 1.5 - t_comp);
    const int next = energy::adagio_next(t_comp, t_lib, p, speeds, 0, 11);
    EXPECT_GE(next, p) << "iteration " << it;
    raised = std::max(raised, next);
    p = next;
  }
  EXPECT_GT(raised, 0);
}

TEST(Adagio, ImprovedSpeedsUpHalfwayWhenOthersWaitForIt) {
  std::vector<double> speeds;
  for (int i = 0; i < 12; ++i) speeds.push_back((2300 - 100 * i) * 1e6);
  energy::TminWindow t_min;
  t_min.push(0.10);
  // MPI time at or below t_min * factor: others wait for this host; pstate 9 -> 4 (9 / 2).
  EXPECT_EQ(energy::adagio_improved_next(1.0, 0.11, 9, speeds, 0, 11, 1.2, &t_min), 4);
  EXPECT_DOUBLE_EQ(t_min.t_min(), 0.11);  // Listing 5: t_min = t_lib
  // Well above: Adagio's rule, the slowest pstate that fits 0.99 (t_comp + t_lib).
  EXPECT_EQ(energy::adagio_improved_next(1.0, 0.5, 0, speeds, 0, 11, 1.2, &t_min),
            energy::adagio_next(1.0, 0.5, 0, speeds, 0, 11));
  EXPECT_EQ(energy::adagio_next(1.0, 0.5, 0, speeds, 0, 11), 7);  // 2300/1600 = 1.4375 <= 1.485
  EXPECT_DOUBLE_EQ(t_min.t_min(), 0.11);  // the larger t_lib joined the history; the least stays
}

TEST(Adagio, TminOverAWindowOfPastExecutions) {
  energy::TminWindow all, last3(3);
  for (double t : {0.5, 0.1, 0.4, 0.3, 0.6}) {
    all.push(t);
    last3.push(t);
  }
  EXPECT_DOUBLE_EQ(all.t_min(), 0.1);    // every execution
  EXPECT_DOUBLE_EQ(last3.t_min(), 0.3);  // 0.4, 0.3, 0.6
  last3.push(0.7);
  last3.push(0.8);
  EXPECT_DOUBLE_EQ(last3.t_min(), 0.6);  // 0.6, 0.7, 0.8
  last3.restart(0.9);
  EXPECT_DOUBLE_EQ(last3.t_min(), 0.9);
  EXPECT_TRUE(energy::TminWindow().empty());
}

// Two pstates (2 and 1 Gflop/s), busy 200 and 120 W, idle 100 W, rho = 10: the values are worked
// out by hand in the comments (g(f) + 5 (T - t - lambda)^2).
TEST(Lagrange, OneAdmmStepOnTwoHostsByHand) {
  const std::vector<double> busy{200, 120}, idle{100, 100};
  energy::LagrangeParams params;
  // Host A: T = 1 s or 2 s, s = 1.9 s, t = 1, lambda = 0.
  //   f0: 1 x 200 + (1.9 - 1) x 100 + 5 x 0^2 = 290;  f1: 2 x 120 + 0 + 5 x 1^2 = 245  -> f1
  //   t = min(2 - 0, 1.9) = 1.9;  lambda = 0 - (2 - 1.9) = -0.1
  energy::LagrangeState a{1.0, 0.0};
  EXPECT_EQ(energy::lagrange_step({1.0, 2.0}, busy, idle, 0, 1, 1.9, params, &a), 1);
  EXPECT_DOUBLE_EQ(a.t, 1.9);
  EXPECT_NEAR(a.lambda, -0.1, 1e-12);
  // Host B: T = 0.5 s or 1 s, s = 0.6 s, t = 0.5, lambda = 0.
  //   f0: 0.5 x 200 + 0.1 x 100 = 110;  f1: 1 x 120 + 5 x 0.5^2 = 121.25  -> f0;  t = 0.5, lambda = 0
  energy::LagrangeState b{0.5, 0.0};
  EXPECT_EQ(energy::lagrange_step({0.5, 1.0}, busy, idle, 0, 1, 0.6, params, &b), 0);
  EXPECT_DOUBLE_EQ(b.t, 0.5);
  EXPECT_DOUBLE_EQ(b.lambda, 0.0);
  // A again: f0 290 + 5 x (1 - 1.9 + 0.1)^2 = 293.2, f1 240 + 5 x 0.2^2 = 240.2 -> f1;
  // t = min(2 + 0.1, 1.9) = 1.9, lambda = -0.2: the excess over s accumulates.
  EXPECT_EQ(energy::lagrange_step({1.0, 2.0}, busy, idle, 0, 1, 1.9, params, &a), 1);
  EXPECT_NEAR(a.lambda, -0.2, 1e-12);
  // Only f0 allowed: no choice, but t and lambda still step.
  energy::LagrangeState c{1.0, 0.0};
  EXPECT_EQ(energy::lagrange_step({1.0, 2.0}, busy, idle, 0, 0, 0.8, params, &c), 0);
  EXPECT_DOUBLE_EQ(c.t, 0.8);
  EXPECT_NEAR(c.lambda, -0.2, 1e-12);
}

TEST(Lagrange, PrintedFormsAsTheThesisPrintsThem) {
  const std::vector<double> busy{200, 120}, idle{100, 100};
  energy::LagrangeParams printed_idle;
  printed_idle.printed_idle = true;
  // g(f) = T E(f) + min(s, T) E_idle: f0 200 + 100 = 300; f1 240 + 190 + 5 = 435 -> f0.
  energy::LagrangeState a{1.0, 0.0};
  EXPECT_EQ(energy::lagrange_step({1.0, 2.0}, busy, idle, 0, 1, 1.9, printed_idle, &a), 0);
  // The printed dual step lambda += T - t doubles lambda once T - lambda <= s.
  energy::LagrangeParams printed_dual;
  printed_dual.printed_dual = true;
  energy::LagrangeState d{1.0, 0.0};
  const std::vector<double> only{1.0};
  energy::lagrange_step(only, {200}, {100}, 0, 0, 0.9, printed_dual, &d);  // t = 0.9, lambda = 0.1
  EXPECT_NEAR(d.lambda, 0.1, 1e-12);
  energy::lagrange_step(only, {200}, {100}, 0, 0, 0.9, printed_dual, &d);  // t = 0.9, lambda = 0.2
  EXPECT_NEAR(d.lambda, 0.2, 1e-12);
  energy::lagrange_step(only, {200}, {100}, 0, 0, 0.9, printed_dual, &d);  // t = 0.8, lambda = 0.4
  EXPECT_NEAR(d.t, 0.8, 1e-12);
  EXPECT_NEAR(d.lambda, 0.4, 1e-12);
  energy::lagrange_step(only, {200}, {100}, 0, 0, 0.9, printed_dual, &d);  // t = 0.6, lambda = 0.8
  EXPECT_NEAR(d.lambda, 0.8, 1e-12);
}

}  // namespace
}  // namespace simfab

namespace simfab {
namespace {

TEST(GreedyLb, HeaviestFirstOntoTheHostThatFinishesEarliest) {
  Platform p;
  for (int i = 0; i < 2; ++i) {
    Host h;
    h.name = "h" + std::to_string(i);
    h.speed_flops = 1e9;
    p.add_host(std::move(h));
  }
  // Loads 5, 4, 3, 3, 1 (Gflop) all on h0: greedy puts 5 on h0, 4 on h1, 3 on h1 (4 < 5), 3 on
  // h0 (5 < 7), 1 on h1 (7 < 8): finishes 8 s and 8 s.
  const std::vector<double> loads{3e9, 5e9, 1e9, 4e9, 3e9};
  const std::vector<HostId> hosts{0, 0, 0, 0, 1};
  const std::vector<HostId> next = energy::greedy_lb(loads, hosts, p);
  EXPECT_EQ(next, (std::vector<HostId>{1, 0, 1, 1, 0}));
  // Migration costs latency + bytes / bandwidth of the route; none without a route or bytes.
  EXPECT_EQ(energy::migration_time(p, 0, 0, 1 << 20).ps(), 0);
  EXPECT_EQ(energy::migration_time(p, 0, 1, 0).ps(), 0);
}

}  // namespace
}  // namespace simfab

namespace simfab {
namespace {

TEST(CStates, MenuRuleAndEnergyByHand) {
  std::string why;
  const auto states = parse_cstates("C1:80:2us, C6:40:300us", &why);
  ASSERT_TRUE(states) << why;
  ASSERT_EQ(states->size(), 2u);
  EXPECT_EQ((*states)[1].name, "C6");
  EXPECT_DOUBLE_EQ((*states)[1].latency_s, 300e-6);
  // Target residency 2 x latency: C6 needs a predicted 600 us, C1 4 us.
  EXPECT_EQ(energy::choose_cstate(*states, 1e-3, 2), 1);
  EXPECT_EQ(energy::choose_cstate(*states, 500e-6, 2), 0);
  EXPECT_EQ(energy::choose_cstate(*states, 3e-6, 2), -1);
  // 1 s in C6 against 100 W idle: (40 - 100) x (1 - 300e-6); a period shorter than the latency: 0.
  EXPECT_NEAR(energy::cstate_energy_change(*states, 1, 1.0, 100), -59.982, 1e-12);
  EXPECT_DOUBLE_EQ(energy::cstate_energy_change(*states, 1, 100e-6, 100), 0.0);
  EXPECT_DOUBLE_EQ(energy::cstate_energy_change(*states, -1, 1.0, 100), 0.0);
  // menu predicts from the previous period, oracle from this one.
  energy::CStateIdle menu(energy::CStateRule::kMenu, 2, 1), oracle(energy::CStateRule::kOracle, 2, 1);
  EXPECT_DOUBLE_EQ(menu.idle_period(0, *states, 1.0, 100), 0.0);
  EXPECT_NEAR(menu.idle_period(0, *states, 1.0, 100), -59.982, 1e-12);
  EXPECT_NEAR(oracle.idle_period(0, *states, 1.0, 100), -59.982, 1e-12);
  EXPECT_FALSE(parse_cstates("C1:80", &why));
  EXPECT_FALSE(parse_cstates("C1:x:2us", &why));
  CpuProfile p;
  p.speeds = {1e9};
  p.cstates = {{"C1", 40, 2e-6}, {"C6", 80, 300e-6}};
  EXPECT_NE(check_cpu_profile(p).find("deeper state"), std::string::npos);
}

}  // namespace
}  // namespace simfab
