// LinkTraffic: what the messages of a run put on the platform's links, from their routes: bytes per
// link and the link timeline (link_timeline.hpp). Fed one MessageRecord at a time during the run
// (the platform is valid then, not at the end): each message adds its bytes to every link of the
// route between its ranks' hosts (route_cache.hpp), spread over [sent, arrived) in the timeline.
// A platform-less (ideal) run has no links.
//
// Bounds: per link that carried traffic, its name, bandwidth and byte count (plus one int per
// platform link for the id -> index map); timelines only for the first kTimelineLinks links that
// carried traffic (in message order: deterministic), so timeline memory is at most
// kTimelineLinks x bins x 8 B = 6.5 MB. A later link still gets its bytes counted, but no
// timeline, so it cannot appear among the plotted busiest links.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mpi/activity.hpp"
#include "platform/platform.hpp"
#include "report/link_timeline.hpp"
#include "report/route_cache.hpp"
#include "report/stats_report.hpp"

namespace simfab {

class LinkTraffic {
 public:
  static constexpr size_t kTimelineLinks = 4096;
  static constexpr size_t kPlottedLinks = 16;

  explicit LinkTraffic(int bins = LinkTimeline::kDefaultBins) : timeline_(bins) {}
  // Before the first message; `platform` null: no links. Clears everything.
  void start(const Platform* platform);
  void add(HostId src, HostId dst, const MessageRecord& m);

  // After the run. Links that carried traffic in platform (LinkId) order; busy unknown.
  std::vector<LinkRow> rows(SimTime makespan) const;
  // The timeline widened to cover the makespan; the kPlottedLinks links with the most bytes (among
  // those with a timeline; ties: platform order), busiest first, each trimmed to its used bins.
  SimTime bin_width(SimTime makespan);
  std::vector<TimelineSeries> busiest(SimTime makespan);

 private:
  struct Carried {  // one link that carried traffic
    LinkId id = 0;
    std::string name;
    double bandwidth_Bps = 0;
    uint64_t bytes = 0;
    bool timeline = false;  // among the first kTimelineLinks: series index = index in links_
  };
  const Platform* platform_ = nullptr;
  RouteCache routes_;
  std::vector<int32_t> index_;  // per LinkId: index in links_, or -1
  std::vector<Carried> links_;  // in order of first traffic
  LinkTimeline timeline_;
};

// bytes / (bandwidth * makespan): the mean fraction of a link's capacity used over the run (0 for
// an empty run); a fatpipe link can exceed 1.
double link_utilisation(double bytes, double bandwidth_Bps, SimTime makespan);

}  // namespace simfab
