// DVFS governors (seed 001 §2.15, §4.8; spec test 11): every sampling period of simulated time a
// governor looks at each DVFS host's load over the period and sets its pstate. Pstate 0 is the
// fastest by convention (the platform lists speeds fastest first); a governor moves within
// [min-pstate, max-pstate] (energy/min-pstate, energy/max-pstate; -1 = the host's last).
//
// With load L = the mean over the period of min(busy, cores) / cores (computations only, not
// polling), and the current pstate p:
//   performance    p = min                         (from t = 0)
//   powersave      p = max                         (from t = 0)
//   ondemand       L > up:  p = min; else p = max - floor(L * (max - min + 1)), clamped to
//                  [min, max] (SimGrid's rule: a pstate in proportion to the load)
//   conservative   L > up:  p = p - 1 (one step faster); L < down: p = p + 1 (one step slower);
//                  else unchanged (SimGrid's; the thesis's Listing 3 steps down whenever L <= up)
//   adagio, adagio-improved, lagrange   per task, when the host's next computation starts
//                  (task_governor.hpp, adagio.hpp, lagrange.hpp)
// up = energy/up-threshold (0.8), down = energy/down-threshold (0.2), period =
// energy/sampling-period (0.1 s: SimGrid's plugin/dvfs/sampling-rate).
//
// The governor is an observer of the hosts' CPUs (for the load) and an engine event (the tick).
// A tick re-arms itself only while other events are pending, so a finished or deadlocked run
// still ends. Cost per tick: O(DVFS hosts).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "cpu/host_cpus.hpp"
#include "energy/cstates.hpp"
#include "energy/task_governor.hpp"

namespace simfab::energy {

enum class GovernorKind {
  kNone, kPerformance, kPowersave, kOndemand, kConservative, kAdagio, kAdagioImproved, kLagrange
};

struct GovernorParams {
  GovernorKind kind = GovernorKind::kNone;
  SimTime period = SimTime::ps(100'000'000'000);  // 0.1 s
  double up = 0.8;
  double down = 0.2;
  int min_pstate = 0;
  int max_pstate = -1;  // -1: the host's last pstate
  TaskGovernorParams task;  // adagio, adagio-improved, lagrange (its rule and pstate range are set here)
};

GovernorParams governor_params(const Config& cfg);
// The C-state rule of energy/cstates and energy/cstate-residency (cstates.hpp), for `hosts` hosts.
CStateIdle cstate_idle(const Config& cfg, size_t hosts);
void register_energy_keys(Config& cfg);

// The pure decision rule: the next pstate of a host at `current` with load L in [0, 1] over the
// last period, allowed pstates [lo, hi].
int next_pstate(GovernorKind kind, int current, double load, int lo, int hi, double up, double down);

class Governor : public cpu::CpuObserver, public EventHandler {
 public:
  Governor(Engine& engine, cpu::HostCpus& cpus, const Platform& platform, GovernorParams params);
  // Applies the constant governors and arms the first tick; call before the run starts.
  // `running` tells whether some rank is still unfinished: ticks stop once none is (they would
  // otherwise act after the makespan, on the way to stale events).
  void start(std::function<bool()> running);

  void on_cpu_state(HostId h, SimTime t, int busy, int pstate) override;
  void on_fixed_computation(HostId, SimTime, SimTime) override {}
  void on_task_start(HostId h, SimTime t, uint32_t task, uint64_t work_ps) override;
  void handle(SimTime now, uint64_t index) override;

  uint64_t ticks() const { return ticks_; }
  uint64_t changes() const { return changes_ + (tasks_ ? tasks_->changes() : 0); }

 private:
  struct Load {
    SimTime t_last = SimTime::zero();
    int busy = 0;
    double core_ps = 0;  // integral of min(busy, cores) over the current period
  };
  int lo(HostId h) const;
  int hi(HostId h) const;

  Engine& engine_;
  cpu::HostCpus& cpus_;
  const Platform& platform_;
  GovernorParams params_;
  std::vector<Load> load_;  // per host
  std::unique_ptr<TaskGovernor> tasks_;  // adagio, adagio-improved, lagrange
  std::function<bool()> running_;
  uint64_t ticks_ = 0;
  uint64_t changes_ = 0;
};

}  // namespace simfab::energy
