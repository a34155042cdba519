// StatsReport: the finished run statistics as plain data (what RunStats computes at the end of a
// run), serialised by stats_json.* (the JSON the HTML report reads) and stats_csv.* (one CSV file
// per table). Definitions of every field are in report/run_stats.hpp, with the JSON schema.
#pragma once

#include "energy/power_timeline.hpp"
#include "energy/pstate_log.hpp"
#include "nic/nic_result.hpp"
#include "sim/model_switch.hpp"
#include "net/network.hpp"
#include "mpi/region_times.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab {

// One rank's time. With calls: compute + p2p + collective + wait + other = finish; without calls
// (GOAL, online) collective = other = 0 and wait absorbs the rest (see run_stats.hpp). Always
// finish + idle = makespan.
struct RankTimes {
  RankId rank = 0;
  std::string host;
  SimTime finish, compute, p2p, collective, wait, other, idle;
};

struct MessageTotals {
  uint64_t count = 0, bytes = 0;
  uint64_t p2p_count = 0, p2p_bytes = 0;
  uint64_t collective_count = 0, collective_bytes = 0;
};

// Messages from world rank src to world rank dst (only pairs that exchanged any).
struct MatrixEntry {
  RankId src = 0, dst = 0;
  uint64_t messages = 0, bytes = 0;
};

// Messages of size in (previous upper, upper_bytes]; the last bucket has no upper bound.
struct SizeBucket {
  std::optional<uint64_t> upper_bytes;
  uint64_t p2p_messages = 0, p2p_bytes = 0;
  uint64_t collective_messages = 0, collective_bytes = 0;
};

// One (collective, algorithm): calls counted per rank (a 4-rank allreduce is 4 calls).
struct CollectiveRow {
  std::string name;
  std::optional<std::string> algorithm;  // nullopt: the front-end named none
  uint64_t calls = 0;
  SimTime time;  // summed over the calls
  SimTime max;   // the longest single call
};

struct LinkRow {
  std::string name;
  double bandwidth_Bps = 0;
  uint64_t bytes = 0;
  std::optional<SimTime> busy;  // known from flow models only
  double utilisation = 0;       // bytes / (bandwidth * makespan)
};

// Model switches (--stats phase_matrix.csv, phase_links.csv): a row of phase `phase` (an index
// into StatsReport::phases).
struct PhaseMatrixEntry {
  size_t phase = 0;
  MatrixEntry entry;
};
struct PhaseLinkRow {
  size_t phase = 0;
  std::string name;
  uint64_t bytes = 0;  // by route (report/phase_split.hpp)
};

struct TimelineSeries {
  std::string name;            // the link (packet model: the port)
  std::vector<double> bytes;   // per bin: bin i covers [i * bin, (i + 1) * bin); integers when
                               // route-derived (link_timeline.hpp)
  bool fatpipe = false;        // carried bytes of a fatpipe link (can exceed its bandwidth)
};

struct HostEnergyRow {
  std::string name;
  double energy_j = 0;
  double off_s = 0;  // time switched off (shutting down, off, booting)
};

struct StatsReport {
  SimTime makespan;
  int num_ranks = 0;
  std::vector<RankTimes> ranks;
  MessageTotals messages;
  std::vector<MatrixEntry> matrix;        // sorted by (src, dst)
  std::vector<SizeBucket> histogram;      // every bucket, smallest first
  std::vector<CollectiveRow> collectives; // sorted by (name, algorithm), no algorithm first
  std::vector<LinkRow> links;             // platform order
  SimTime bin;                            // link timeline bin width
  std::vector<TimelineSeries> timeline;   // busiest first
  bool timeline_carried = false;          // bytes carried (NetworkStats::carried), not offered
  bool energy_known = false;
  double energy_total_j = 0;
  std::vector<HostEnergyRow> energy_hosts;  // platform order
  energy::PowerPlot power;                   // hosts' power over time (energy/power_timeline.hpp)
  std::vector<energy::PstateTrack> pstates;  // DVFS hosts' pstate over time
  // Packet models (NetworkStats::packet): per port (link direction) its packets, credit stall,
  // FECN marks and buffer occupancy, and the busiest ports' occupancy over time.
  bool packet = false;
  std::vector<LinkUsage> ports;                      // platform order
  SimTime queue_bin;
  std::vector<NetworkStats::QueueSeries> queues;     // highest mean occupancy first
  NicResult nic;  // nic/model=portals: per NIC counters (nics.csv)
  std::vector<PhaseResult> phases;  // model switches: per phase (phases.csv)
  std::vector<PhaseMatrixEntry> phase_matrix;  // by phase, then (src, dst)
  std::vector<PhaseLinkRow> phase_links;       // by phase, then platform order
  std::vector<RegionRow> regions;  // computation per code region, first appearance first
  std::vector<SimTime> noise;      // per rank: OS noise injected (noise/noise_model.hpp); empty: no noise
};

}  // namespace simfab
