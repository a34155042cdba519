// CpuProfile: what a host's processor can do and what it draws (seed 001 §2.3, §2.13, §4.1;
// ../shared/spec/seed-001-energy.md).
//
// Performance states (pstates). speeds[p] is the flop/s of one core at pstate p; pstate 0 comes
// first in the platform file (SimGrid's `speed="2.3Gf,2.2Gf,..."`, by convention the fastest, but
// simfab does not require an order: a "booting" or I/O pstate may be slow or even listed first).
// Only one pstate is active per host at a time (seed 001 §2.3: per-host DVFS, not per core).
//
// Power per pstate, the thesis's triple (Idle, OneCore, AllCores), in watts. With N cores and u =
// min(N, busy computations) / N:
//     P(0)  = Idle                                  (C-states: the static power is not drawn)
//     P(u)  = OneCore + (u - 1/N) * slope   for u > 0, slope = (AllCores - OneCore) / (1 - 1/N)
//                                                  (slope = 0 when N = 1)
//     P(off) = power_off
// SimGrid 3.32 reads the middle value as "Epsilon" instead (all cores at ~0 % load but not idle):
// P(u) = Epsilon + u * (AllCores - Epsilon) for u > 0; the key energy/middle-value chooses
// (energy/power_model.hpp evaluates both).
//
// Validation (check_cpu_profile): at least one speed, every speed >= 0 (0: SimGrid's "0f" of a
// booting or switched-off pstate, energy_boot.xml) and the initial pstate's > 0; the initial
// pstate one of them; power either absent or one triple per speed; every value >= 0 and finite; AllCores >=
// OneCore; power_off >= 0; boot and shutdown times and energies finite and >= 0; C-states with
// powers >= 0 that do not rise and latencies >= 0 that do not fall from one to the next. Errors are returned as text naming the offending pstate, for the
// loaders to prefix with the host and attribute; diagnose_cpu_profile also says which part of
// the profile (hence which attribute of the platform file) is wrong, for the loaders to locate.
//
// Links (seed 001 §2.4; SimGrid's wattage_range "Idle:Busy"): P = idle + (busy - idle) * u.
// check_link_power wants both finite, >= 0, and busy >= idle.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simfab {

struct PstatePower {
  double idle_w = 0;       // no computation on the host
  double one_core_w = 0;   // exactly one core busy (thesis) or "epsilon" load (SimGrid 3.32)
  double all_cores_w = 0;  // every core busy
};

// Switching a host off or on (seed 001 §2.13: the off state; cpu/host_power.hpp): how long it
// takes and the energy it costs, drawn evenly over that time (all at once when the time is 0).
struct PowerTransition {
  double time_s = 0;
  double energy_j = 0;
};

// An idle state of the processor (a C-state: energy/cstates.hpp): the host's power while in it
// and the time it takes to enter and leave it (spent at idle power).
struct CState {
  std::string name;
  double power_w = 0;
  double latency_s = 0;
};

struct CpuProfile {
  std::vector<double> speeds;       // flop/s of one core per pstate; size >= 1
  std::vector<PstatePower> power;   // empty: no power model; else one per pstate
  double power_off_w = 0;           // a host switched off
  int initial_pstate = 0;           // the pstate a run starts in
  PowerTransition boot;             // from off to on
  PowerTransition shutdown;         // from on to off
  std::vector<CState> cstates;      // shallowest first; empty: idle power is flat

  int pstates() const { return static_cast<int>(speeds.size()); }
  bool has_power() const { return !power.empty(); }
  // The last pstate a governor may choose: the end of the run of computing (speed > 0) pstates
  // that starts at pstate 0. SimGrid's idiom for booting and switching off (energy_boot.xml) adds
  // pstates of speed 0 after the real ones; only an explicit set_pstate enters them.
  int last_computing_pstate() const {
    int p = 0;
    while (p + 1 < pstates() && speeds[static_cast<size_t>(p + 1)] > 0) ++p;
    return p;
  }
};

// Empty when `p` is valid; else what is wrong, e.g. "pstate 2: AllCores 90 W is below OneCore
// 100 W", for the caller to prefix with the host and attribute.
std::string check_cpu_profile(const CpuProfile& p);

// What check_cpu_profile finds, with the part of the profile it is about: kSpeeds (speeds),
// kInitialPstate (initial_pstate), kPower (power; pstate = the offending triple, or -1 when their
// number is wrong), kPowerOff (power_off). field == kNone and text empty when valid.
struct CpuProfileError {
  enum class Field { kNone, kSpeeds, kInitialPstate, kPower, kPowerOff, kBoot, kShutdown, kCStates };
  Field field = Field::kNone;
  int pstate = -1;
  std::string text;
};
CpuProfileError diagnose_cpu_profile(const CpuProfile& p);

// SimGrid's watt_per_state / wattage_per_state value: "Idle:OneCore:AllCores" per pstate,
// pstates separated by ',' (spaces allowed). SimGrid's older pair "Idle:AllCores" is accepted
// too, as SimGrid reads it: the middle value equals Idle. Returns nullopt and sets *error on a
// malformed value.
std::optional<std::vector<PstatePower>> parse_watt_per_state(std::string_view text, std::string* error);

// simfab's C-states "name:watts:latency, ..." (e.g. "C1:80:2us, C6:45:300us"; latency with a
// time unit: ps ns us ms s), shallowest first. nullopt and *error on a malformed value.
std::optional<std::vector<CState>> parse_cstates(std::string_view text, std::string* error);

// A power in watts written alone (SimGrid's wattage_off): a finite decimal number, spaces around
// allowed. nullopt when it is not one (the sign is left to check_cpu_profile).
std::optional<double> parse_watts(std::string_view text);

// SimGrid's wattage_range / watt_range of a link: "Idle:Busy", in watts. Returns {idle, busy}, or
// nullopt and sets *error on a malformed value.
std::optional<std::pair<double, double>> parse_wattage_range(std::string_view text, std::string* error);

// Empty when idle and busy are a valid link power; else what is wrong, e.g. "busy 5 W is below
// idle 10 W".
std::string check_link_power(double idle_w, double busy_w);

}  // namespace simfab
