// PhaseSplit: --stats per model-switch phase (issue 24; sim/model_switch.hpp): the communication
// matrix and the bytes each link carried of the messages whose sends started in each phase
// (MessageRecord::phase, the same messages phases.csv counts). Link bytes are by route, as
// LinkTraffic counts them (report/link_traffic.hpp: every byte of a message on every link of its
// host pair's fixed route), so they add up over the phases to the route bytes of the whole run.
//
// Phase 0 (the run's first) is never stored: it is the whole run's matrix and route bytes minus
// the other phases'. A run without switches pays one comparison per message and no memory; a
// switched run pays, for the messages of phases after the first, one sparse matrix cell per
// communicating pair and phase (CommMatrix) and one counter per link and phase, plus a route
// lookup per message (RouteCache).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "mpi/activity.hpp"
#include "platform/platform.hpp"
#include "report/comm_matrix.hpp"
#include "report/route_cache.hpp"
#include "report/stats_report.hpp"

namespace simfab {

class PhaseSplit {
 public:
  // Before the first message; `platform` null: no links. Clears everything.
  void start(const Platform* platform);
  void add(HostId src, HostId dst, const MessageRecord& m);
  // After the run: s.phase_matrix and s.phase_links from s.phases, s.matrix and `route_links`
  // (the whole run's route bytes, LinkTraffic::rows). Nothing when s.phases is empty.
  void finish(const std::vector<LinkRow>& route_links, StatsReport& s) const;

 private:
  struct Part {
    CommMatrix matrix;
    std::map<LinkId, uint64_t> link_bytes;
  };
  const Platform* platform_ = nullptr;
  RouteCache routes_;
  std::map<uint32_t, Part> parts_;              // by PhaseResult::id, never 0
  std::unordered_map<LinkId, std::string> names_;  // the links parts_ name (lookups only)
};

}  // namespace simfab
