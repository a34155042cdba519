#include "energy/pstate_log.hpp"

namespace simfab::energy {

PstateLog::PstateLog(const Platform& platform, const cpu::HostCpus& cpus)
    : track_of_(static_cast<size_t>(platform.host_count()), -1) {
  for (HostId h : cpus.dynamic_hosts()) {
    if (cpus.pstates(h) < 2 || tracks_.size() == kMaxHosts) continue;
    track_of_[static_cast<size_t>(h)] = static_cast<int>(tracks_.size());
    tracks_.push_back({platform.host(h).name, {{SimTime::zero(), cpus.pstate(h)}}, 0, false});
    last_.push_back(cpus.pstate(h));
  }
}

void PstateLog::on_cpu_state(HostId h, SimTime t, int /*busy*/, int pstate) {
  const int k = track_of_[static_cast<size_t>(h)];
  if (k < 0 || last_[static_cast<size_t>(k)] == pstate) return;
  last_[static_cast<size_t>(k)] = pstate;
  PstateTrack& track = tracks_[static_cast<size_t>(k)];
  ++track.changes;
  if (track.truncated) return;
  auto& steps = track.steps;
  if (steps.back().first == t) {
    steps.back().second = pstate;  // several changes at one instant: the last one holds
    if (steps.size() > 1 && steps[steps.size() - 2].second == pstate) steps.pop_back();
  } else if (steps.size() < kMaxSteps) {
    steps.emplace_back(t, pstate);
  } else {
    track.truncated = true;
  }
}

}  // namespace simfab::energy
