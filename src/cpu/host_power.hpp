// HostPower: hosts switched off and on during a run (seed 001 §2.13: a host that is off draws
// power_off; the platform gives each host's boot and shutdown time and energy, CpuProfile).
//
// Every host is on when the run starts. turn_off(h, t): the host shuts down over
// [t, t + shutdown.time), drawing shutdown.energy evenly, then is off (power_off) until turned on.
// turn_on(h, t): it boots over [s, s + boot.time), s = max(t, the end of its shutdown), drawing
// boot.energy, then is on again (idle until a rank computes there). A transition of time 0 costs
// its energy at once. No rank may run on a host that is not on: turning off a host one of whose
// ranks has not finished is an error, as are turning off a host that is not on and turning on
// one that is on or booting. (The trace action and the online call that drive it: host_off,
// host_on in replay/ti_trace.hpp; simfab_host_off/on in <simfab/mpi.h>.)
//
// Energy (energy/energy_meter.hpp): the meter integrates each host as if it were on all along
// (idle when it computes nothing) and adds extra_joules(): for each interval clipped to the run,
// (P_state - P_idle) x its length, P_state = power_off, or energy / time for a transition.
// Cost: O(1) per switch; state() and the summaries O(switches of the host).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/sim_time.hpp"
#include "platform/platform.hpp"

namespace simfab::cpu {

class HostPower {
 public:
  enum class State : uint8_t { kOn, kShuttingDown, kOff, kBooting };
  struct Interval {
    SimTime from;
    SimTime to;  // SimTime::never(): until the end of the run
    State state;
  };

  explicit HostPower(const Platform& platform);

  // "" when done; else why not (the caller says where the request came from). `unfinished_here`:
  // the ranks on h that have not finished.
  std::string turn_off(HostId h, SimTime t, const std::vector<RankId>& unfinished_here);
  std::string turn_on(HostId h, SimTime t);
  State state(HostId h, SimTime t) const;
  bool any() const { return switches_ > 0; }

  // Over [0, end]: the time not on (shutting down, off, booting), the times it was turned off,
  // and the energy beyond idle power (idle_w: the host's idle power when on).
  double off_seconds(HostId h, SimTime end) const;
  // The time not on within [from, to).
  double overlap(HostId h, SimTime from, SimTime to) const;
  int offs(HostId h) const;
  // `each`, when given, gets each interval's part of it: (from, to, joules), drawn evenly over
  // [from, to), or at `from` when to == from (a transition of time 0).
  double extra_joules(HostId h, SimTime end, double idle_w,
                      const std::function<void(SimTime, SimTime, double)>& each = {}) const;

 private:
  const Platform& platform_;
  std::vector<std::vector<Interval>> intervals_;  // per host, in time order
  int switches_ = 0;
};

const char* state_name(HostPower::State s);

}  // namespace simfab::cpu
