// Host failures during a run (host_failures.hpp).
#include "sim/host_failures.hpp"

#include "report/time_format.hpp"

namespace simfab {

HostFailures::HostFailures(Engine& engine, const Platform& platform, const std::vector<HostId>& rank_host,
                           std::function<bool(int, SimTime)> finished)
    : platform_(platform), rank_host_(rank_host), finished_(std::move(finished)) {
  std::vector<bool> has_rank(static_cast<size_t>(platform.host_count()), false);
  for (HostId h : rank_host) has_rank[static_cast<size_t>(h)] = true;
  for (HostId h = 0; h < platform.host_count(); ++h) {
    const int p = platform.host(h).state_profile;
    if (p < 0 || !has_rank[static_cast<size_t>(h)]) continue;
    const SimTime off = platform.availability(p).first_off(SimTime::zero());
    if (off == SimTime::never()) continue;
    if (!armed_) engine.set_handler(EventKind::kFailure, this);
    armed_ = true;
    engine.schedule(off, EventKind::kFailure, static_cast<uint64_t>(h));
  }
}

void HostFailures::handle(SimTime now, uint64_t host) {
  const HostId h = static_cast<HostId>(host);
  for (size_t r = 0; r < rank_host_.size(); ++r) {
    if (rank_host_[r] != h || finished_(static_cast<int>(r), now)) continue;
    const Host& k = platform_.host(h);
    throw PlatformFailure("rank " + std::to_string(r) + " on host '" + k.name + "' failed at " + decimal_text(now.ps(), 12) +
                              " s: the host turned off (state profile " +
                              platform_.availability(k.state_profile).name +
                              "); MPI aborts a job whose process dies, so the run stops there",
                          now.ps());
  }
}

}  // namespace simfab
