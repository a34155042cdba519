// PstateLog: the pstate of each DVFS host over simulated time (issue 32), for the report's pstate
// timeline: what a governor (energy/governor.hpp), simfab_set_pstate or --cfg energy/pstate did.
// An observer of the hosts' CPUs (cpu/host_cpus.hpp), like the energy meter.
//
// Track. For each dynamic host with more than one pstate, the steps (t_i, p_i): the host runs at
// pstate p_i over [t_i, t_{i+1}), t_0 = 0 with the pstate it starts at; a step is kept only when
// the pstate changes, so a track has 1 + (number of changes) steps.
//
// Bounds. At most kMaxHosts tracks (the first DVFS hosts in platform order) of at most kMaxSteps
// steps each; a track cut there says so (truncated) and counts every change (changes). Memory is
// O(kMaxHosts * kMaxSteps) whatever the run; O(1) per CPU state change.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cpu/host_cpus.hpp"
#include "platform/platform.hpp"

namespace simfab::energy {

struct PstateTrack {
  std::string host;
  std::vector<std::pair<SimTime, int>> steps;  // (from, pstate), from strictly increasing
  uint64_t changes = 0;                        // every change, also past the cut
  bool truncated = false;
};

class PstateLog : public cpu::CpuObserver {
 public:
  static constexpr size_t kMaxHosts = 64;
  static constexpr size_t kMaxSteps = 4096;

  PstateLog(const Platform& platform, const cpu::HostCpus& cpus);

  void on_cpu_state(HostId h, SimTime t, int busy, int pstate) override;
  void on_fixed_computation(HostId, SimTime, SimTime) override {}

  // The tracks, in platform order; empty when no host has several pstates.
  std::vector<PstateTrack> tracks() const { return tracks_; }

 private:
  std::vector<int> track_of_;  // per host: its track, or -1
  std::vector<int> last_;      // per track: the pstate last seen (past a cut too)
  std::vector<PstateTrack> tracks_;
};

}  // namespace simfab::energy
