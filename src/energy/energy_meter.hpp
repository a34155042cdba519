// EnergyMeter: energy to solution per host and per link (seed 001 §2.13, §4.2; spec tests 2, 3,
// 16, 17). An observer of the hosts' CPUs (cpu/host_cpus.hpp), never a hook in the kernel.
//
// Hosts. Power is piecewise constant between changes of a host's load or pstate, so
//     E_h = sum over intervals [t_i, t_{i+1}) of P_h(busy_i, pstate_i) * (t_{i+1} - t_i)
// integrated exactly, O(1) per change, the old state applied up to the change (power_model.hpp
// gives P). A fixed host (one pstate, no more ranks than cores) reports each computation as its
// interval [s, e) when it starts, starts in time order; with busy(t) the number of intervals
// covering t, its energy is
//     E_h = Idle * (T - U) + base * U + per_core * S,   U = |union of the intervals|, S = sum of
//     their lengths,
// exact because P is affine in busy once busy >= 1 (U grows in O(1) per interval: starts never
// decrease, so only the latest covered end matters). T is the makespan: every host draws power
// until the whole run ends, idle hosts included (SimGrid does the same).
//
// Polling (energy/polling=busy): real MPI libraries spin while a rank waits, so each rank keeps
// one core busy from the start until it finishes (seed 001 §2.14: 12 polling cores draw ~188 W
// against 92 W idle). Then busy(t) = the host's unfinished ranks, known at the end of the run:
// finish() integrates it against the pstate history it recorded for the dynamic hosts.
// Idle time (idle_s) is always the time with no computation, the thesis's tables' meaning.
// rank_host is read at the end (the executor's, which load balancing changes): under polling a
// migrated rank's waiting counts on its last host.
//
// C-states (energy/cstates.hpp; polling=idle only): each idle period of a host (no computation;
// not counting its time off) changes its energy by the C-state the menu rule picks for it.
//
// Hosts switched off (cpu/host_power.hpp): over their off and transition intervals a host draws
// power_off or the transition's power instead of its idle power (no rank computes there then).
//
// Power over time (EnergyReport::power, power_timeline.hpp): every term above is also drawn as
// power over its interval, so each host's bins sum to its energy; C-states' changes are spread
// over their idle period (exact integral, mean power within the period).
//
// Links with power: P = Idle + (Busy - Idle) * u, u = throughput / bandwidth, so
//     E_l = Idle * T + (Busy - Idle) * bytes_l / bandwidth_l
// exactly, from the bytes each link carried (models with link statistics: flow, smpi). Under a
// model without them (loggops) links draw their idle power only, and the report says so.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cpu/host_cpus.hpp"
#include "cpu/host_power.hpp"
#include "energy/cstates.hpp"
#include "energy/power_model.hpp"
#include "energy/power_timeline.hpp"
#include "net/network.hpp"

namespace simfab::energy {

struct HostEnergy {
  std::string name;
  double energy_j = 0;
  double idle_s = 0;  // time with no computation, within [0, makespan] (off time included)
  double off_s = 0;   // time shutting down, off or booting (cpu/host_power.hpp)
  int offs = 0;       // times it was switched off
};

struct LinkClassEnergy {
  std::string name;  // the links' names with every run of digits replaced by '*'
  int links = 0;
  double energy_j = 0;
};

struct EnergyReport {
  bool present = false;   // some host or link has power
  double total_j = 0;
  double hosts_j = 0;
  double links_j = 0;
  double nics_j = 0;  // NICs of the NIC model (nic/power-idle, nic/power-busy), in total_j too
  bool links_busy_modelled = true;  // false: a model without link statistics (idle power only)
  std::vector<HostEnergy> hosts;    // hosts with a power model, in platform order
  std::vector<LinkClassEnergy> link_classes;
  PowerPlot power;  // hosts' power over time: the total and the kPlottedHosts with most energy
};

// Whether a platform declares any power (then a run reports energy).
bool platform_has_power(const Platform& platform);

class EnergyMeter : public cpu::CpuObserver {
 public:
  static constexpr size_t kPlottedHosts = 16;

  EnergyMeter(const Platform& platform, const cpu::HostCpus& cpus, const std::vector<HostId>& rank_host,
              MiddleValue middle, bool polling, CStateIdle cstates = CStateIdle(CStateRule::kOff, 2, 0));

  void on_cpu_state(HostId h, SimTime t, int busy, int pstate) override;
  void on_fixed_computation(HostId h, SimTime start, SimTime end) override;

  // Hosts switched off and on (cpu/host_power.hpp): their off and transition power replaces idle
  // power over those intervals. Null: every host is on all along.
  void set_host_power(const cpu::HostPower* p) { host_power_ = p; }
  // The report at the end of a run of length `makespan`; finish[r] is rank r's finish time.
  EnergyReport finish(SimTime makespan, const std::vector<SimTime>& finish, const NetworkStats& net) const;

 private:
  struct Meter {
    SimTime t_last = SimTime::zero();
    int busy = 0;
    int pstate = 0;
    double energy_j = 0;  // dynamic hosts: integrated up to t_last
    double idle_ps = 0;   // dynamic hosts: up to t_last
    double union_ps = 0;  // fixed hosts: |union of the computations|
    double sum_ps = 0;    // fixed hosts: sum of their lengths
    SimTime cover_end = SimTime::zero();
    SimTime idle_since = SimTime::zero();  // dynamic hosts: the start of the current idle period
    double cstate_j = 0;                   // C-states: the idle periods' energy change so far
    std::vector<std::pair<SimTime, int>> pstates;  // polling, dynamic hosts: (from, pstate)
  };
  // The power line of host h at pstate p: built once per (profile, cores) in the constructor.
  const PowerLine& line(HostId h, int pstate) const { return (*lines_[static_cast<size_t>(h)])[static_cast<size_t>(pstate)]; }
  bool has_power(HostId h) const { return lines_[static_cast<size_t>(h)] != nullptr; }
  double host_energy_polling(HostId h, const Meter& m, SimTime makespan, const std::vector<SimTime>& finish,
                             PowerTimeline& power) const;
  // An idle period [from, to) of host h at pstate p: its C-state energy change (0 without them).
  double idle_period(CStateIdle& c, HostId h, int p, SimTime from, SimTime to) const;

  const Platform& platform_;
  const cpu::HostCpus& cpus_;
  const std::vector<HostId>& rank_host_;
  MiddleValue middle_;
  bool polling_;
  const cpu::HostPower* host_power_ = nullptr;
  CStateIdle cstates_;
  std::vector<Meter> meters_;  // per host
  PowerTimeline power_;        // the terms drawn during the run (finish adds the rest to a copy)
  std::map<std::pair<int, int>, std::vector<PowerLine>> line_sets_;  // per (profile, cores)
  std::vector<const std::vector<PowerLine>*> lines_;                // per host; nullptr: no power
};

}  // namespace simfab::energy
