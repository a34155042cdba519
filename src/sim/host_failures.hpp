// Host failures: SimGrid's state profiles of hosts (state_file, <trace_connect kind="HOST_AVAIL">;
// platform/availability.hpp) during a run (issue 37).
//
// A host is off while its profile's value is <= 0. When a host turns off with a rank on it that
// has not finished, that rank dies; under MPI's default error handler (MPI_ERRORS_ARE_FATAL) a
// dead process aborts the whole job, so the run stops at that instant with a PlatformFailure
// naming the rank, the host, the time and the profile, and simfab exits with status 5: not a
// crash, not a deadlock report. A host that turns off after its ranks finished changes nothing;
// a host that comes back on is of no use to a job that has already aborted. (Link failures: the
// flow model's, net/flow/flow_network.hpp.)
//
// Events: one per host with a state profile and ranks, at its first off time (found within one
// iteration of the profile: a periodic profile that is never <= 0 in its first iteration never
// is). A deadlocked application on a host that fails later is reported as the failure.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "platform/platform.hpp"

namespace simfab {

class HostFailures final : public EventHandler {
 public:
  // rank_host[r]: rank r's host; finished(r, t): whether rank r has finished by time t.
  HostFailures(Engine& engine, const Platform& platform, const std::vector<HostId>& rank_host,
               std::function<bool(int, SimTime)> finished);
  bool armed() const { return armed_; }
  void handle(SimTime now, uint64_t host) override;

 private:
  const Platform& platform_;
  const std::vector<HostId>& rank_host_;
  std::function<bool(int, SimTime)> finished_;
  bool armed_ = false;
};

}  // namespace simfab
