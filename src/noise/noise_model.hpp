// NoiseModel: OS noise injected into every CPU interval a rank spends (LogGOPSim's noise, seed 004;
// issue 33). The executor asks it once per interval: computations (calc ops: TI compute and sleep,
// GOAL calc, online bursts, collectives' reduction work) and send/receive CPU overheads (LogGOPS
// o + (s-1)O, the flow models' os/or, the NIC model's), in every network model and front-end.
//
// Definitions. A trace (detour_trace.hpp) of period P holds detours [s_i, e_i) repeated every P.
// Rank r reads it at its offset o_r in [0, P) (noise_offsets.hpp): the rank's simulated time t is
// trace time u = (t + o_r) mod P. A CPU interval starts at t and needs C > 0 of CPU time.
//
// Rule loggopsim (noise/rule=loggopsim, the default; LogGOPSim's Noise::get_noise, on its times):
//   noise(t, C) = R(u) + sum { d_j : u < s_j + kP < u + C }        (over the periodic extension)
//   R(u)        = e_i - u for the detour with s_i <= u < e_i, else 0 (the rest of a detour in
//                 progress when the interval starts; a detour starting exactly at u is in progress)
//   The interval ends at t + C + noise. Only detours that start inside the unstretched interval
//   [u, u + C) count: one that starts in the extension [u + C, u + C + noise) is not charged.
//   Detours counted: [R(u) > 0] + #{j : u < s_j + kP < u + C}.
// Rule preempt (noise/rule=preempt, exact preemption): the interval ends at the first time y at
//   which C of time outside detours has elapsed since u: y = free_end(u, C), noise = y - u - C.
//   Detours in the extension count, so preempt >= loggopsim, equal when no detour starts in
//   the extension. Detours counted: those that overlap [u, y).
// A zero-length interval (C = 0: a zero overhead, a zero calc) spends no CPU and gets no noise
// (LogGOPSim would still charge R(u) there).
// Where LogGOPSim's own code differs (by design, not reproduced): it reduces t + o_r modulo
// (last start - C), so its wrap point moves with the interval's length, and it identifies the
// trace's last detour with the first one of the next round; here the trace is periodic with P,
// the end of its last detour (or of its last zero-duration line: noise_trace_file.hpp).
// A message's departure: under LogGOPS it leaves at issue + o as in LogGOPSim (noise delays the
// CPU, not the wire); models that start a transfer when the sender's overhead is over (flow, smpi,
// packet, NIC) start it at the stretched end.
//
// Sources (issue 33): the model holds one trace per noise source (the global noise/* settings,
// each host class's: noise_classes.hpp); rank r reads traces[source_r] at its offset, or has no
// noise (source_r = -1: its class says off, or no global noise for an unclassed host).
// Collectives only (noise/collectives=yes, LogGOPSim's collnoise): the executor says for every
// interval whether it belongs to a collective (its op's or message's matching context is a
// collective context, odd: mpi/op.hpp); the other intervals are not stretched.
//
// Complexity: O(log n) per interval (n detours per period), no allocation; memory 28 B per rank
// (offset, injected time, detour count, source).
// Determinism: integer picoseconds, offsets from noise/seed (the same seed gives the same run).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/sim_time.hpp"
#include "noise/detour_trace.hpp"

namespace simfab::noise {

enum class NoiseRule { kLoggopsim, kPreempt };

// What a run reports about its noise (report/noise_report.hpp); present only when noise is on.
struct NoiseResult {
  bool present = false;
  std::string rule;     // "loggopsim" or "preempt"
  std::string offsets;  // "independent", "co-scheduled" or "fixed"
  std::string source;   // the trace file, or "synthetic"
  int64_t period_ps = 0;              // the global trace's (0: the global settings inject none)
  uint64_t detours_per_period = 0;
  bool collectives_only = false;      // noise/collectives=yes
  // Host classes with their own noise (noise_classes.hpp); empty: none (then rank_class is empty).
  struct Class {
    std::string name;
    std::string source;  // a trace file, "synthetic...", or "off"
    int64_t period_ps = 0;
    uint64_t detours_per_period = 0;
  };
  std::vector<Class> classes;
  std::vector<int32_t> rank_class;  // per rank: index into classes, -1: the global settings
  std::vector<int64_t> offset_ps;   // per rank
  std::vector<int64_t> noise_ps;    // per rank: injected time
  std::vector<uint64_t> detours;    // per rank: detours that hit it
  int64_t total_ps() const;
  uint64_t total_detours() const;
};

// The noise of one interval.
struct Stretch {
  int64_t noise_ps = 0;
  uint64_t detours = 0;
};

class NoiseModel {
 public:
  // Every rank reads `trace`; offsets: o_r per rank, each in [0, period).
  NoiseModel(DetourTrace trace, NoiseRule rule, std::vector<int64_t> offsets);
  // Rank r reads traces[source[r]] (source[r] = -1: no noise) at offsets[r], in [0, its period)
  // (0 without a trace). REQUIRES: traces non-empty, source and offsets of one size.
  NoiseModel(std::vector<DetourTrace> traces, std::vector<int32_t> source, NoiseRule rule,
             std::vector<int64_t> offsets);

  // The noise of an interval starting at trace time u in [0, P) of trace `i` that needs c > 0 ps
  // (pure).
  Stretch at(int64_t u, int64_t c, size_t i = 0) const;
  // Rank r's interval [t, t + c): its stretched length c + noise, counted in the rank's totals.
  // c <= 0, a rank without noise, or (collectives only) an interval outside collectives returns c.
  // Throws InputError when the stretched length leaves 64-bit picoseconds.
  SimTime stretch(int32_t r, SimTime t, SimTime c, bool in_collective = false);
  void set_collectives_only(bool on) { collectives_only_ = on; }

  NoiseRule rule() const { return rule_; }
  // The result, with the description fields (offsets, source) given by the caller; period_ps and
  // detours_per_period are trace 0's.
  NoiseResult result(std::string offsets, std::string source) const;

 private:
  void check_sources() const;  // the constructors' REQUIRES (SIMFAB_CHECK)
  std::vector<DetourTrace> traces_;
  std::vector<int32_t> source_;
  NoiseRule rule_;
  bool collectives_only_ = false;
  std::vector<int64_t> offset_;
  std::vector<int64_t> injected_;
  std::vector<uint64_t> count_;
};

}  // namespace simfab::noise
