// PowerTimeline: each host's power over time, per bin, whose integral is the host's energy
// (energy_meter.hpp), for the report's "Power over time" panel.
//
// The meter draws every term of its energy as power over an interval, so for every host h
//     sum over bins i of joules_h(i) = E_h          (up to floating-point summation order)
// and the total series (all hosts with power, kept or not) sums to the hosts' energy. Terms:
//   dynamic hosts  P(busy, pstate) over each interval between two changes: exact per bin;
//   fixed hosts    E = Idle x T + (Base - Idle) x U + PerCore x S (energy_meter.hpp): Idle over
//                  [0, T), Base - Idle over the part of each computation that extends the union,
//                  PerCore over each computation: the same power, bin by bin, as busy(t) gives;
//   polling        P(unfinished ranks, pstate) over each interval of the end-of-run integration:
//                  exact per bin;
//   host off/on    (P_state - Idle) over each shutdown, off and boot interval; a transition of
//                  time 0 as its energy at its instant: exact per bin;
//   C-states       each idle period's energy change (the C-state's power and its entry/exit cost
//                  against idle) spread evenly over the idle period: the integral is exact, but
//                  within a period longer than a bin the power drawn is the period's mean, not
//                  the instants of entry and exit.
// Bins: RateBins (core/rate_bins.hpp) of watts, so integral(i) is in W·ps. Series are kept for
// the first kMaxHosts hosts with power (platform order) and for the total: memory at most
// (kMaxHosts + 1) x kBins x 8 B = 6.5 MB; a later host counts in the total only, so it cannot be
// among the plotted hosts. Cost: O(1 + bins crossed) per term. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/rate_bins.hpp"
#include "core/sim_time.hpp"
#include "platform/platform.hpp"

namespace simfab::energy {

// Power per bin: bin i covers [i x bin, (i + 1) x bin) ∩ [0, end); watts[i] is the mean power
// over that part, so sum of watts[i] x its length = the energy.
struct PowerSeries {
  std::string name;  // the host; "total" for the sum over hosts
  double energy_j = 0;
  std::vector<double> watts;
};

struct PowerPlot {
  SimTime bin;
  SimTime end;
  PowerSeries total;
  std::vector<PowerSeries> hosts;  // the most energy first (ties: platform order)
};

class PowerTimeline {
 public:
  static constexpr size_t kMaxHosts = 4096;
  static constexpr size_t kBins = 200;

  explicit PowerTimeline(int host_count = 0) : slot_(static_cast<size_t>(host_count), -1) {}

  // Host h drew `watts` over [from, to) (nothing when to <= from).
  void add(HostId h, SimTime from, SimTime to, double watts);
  // Host h drew `joules` at the instant t.
  void add_at(HostId h, SimTime t, double joules);
  // Host h drew `joules` evenly over [from, to), or at `from` when to <= from.
  void add_energy(HostId h, SimTime from, SimTime to, double joules);

  // The total and the `count` hosts with the most energy, names from `platform`, on one bin
  // width covering [0, end) (the smallest power of two in ps with kBins bins, or wider).
  PowerPlot plot(const Platform& platform, size_t count, SimTime end) const;

 private:
  RateBins* host_bins(HostId h);

  std::vector<int32_t> slot_;  // per host: index in hosts_, or -1
  std::vector<HostId> host_of_;
  std::vector<RateBins> hosts_;
  RateBins total_{1, kBins};
};

}  // namespace simfab::energy
