// RunStats: the statistics of one run (`simfab run --stats DIR`, and the HTML report), gathered as
// a RunObserver (report/run_observer.hpp) while the run goes, computed at finish(), then written
// as JSON (to_json) or CSV files (write_csv). The parts, each in its own file:
//   rank_breakdown.*    per rank time breakdown
//   comm_matrix.*       messages and bytes per (src, dst) rank pair, sparse
//   size_histogram.*    seed 002's power-of-4 size buckets, point-to-point / collective apart
//   collective_stats.*  per (collective, algorithm): calls, time, longest call
//   link_traffic.*      per link bytes from the messages' routes (route_cache.*), and the link
//                       timeline (link_timeline.*)
//   stats_json.*, stats_csv.*   the two serialisations of the finished StatsReport
//
// DEFINITIONS (all times integer picoseconds)
//   makespan        the run's makespan; finish: ExecutionResult::finish of the rank
//   rank breakdown  when the front-end reports calls for a rank (TI replay, online mode), its call intervals
//                   tile [0, finish] and each counts in its CallInfo::cls: compute (compute,
//                   sleep), p2p (blocking point-to-point, posting non-blocking ones), collective
//                   (collectives, communicator creation), wait (wait*, probe), other (anything
//                   else, and any time no interval covers); they sum to finish.
//                   When a rank gets no call interval (GOAL schedules): compute = its
//                   CPU busy with CpuUse::kCompute, p2p = its CPU busy with send/receive overheads,
//                   collective = other = 0, wait = max(0, finish - compute - p2p).
//                   Always idle = makespan - finish, so a rank's columns sum to the makespan
//                   (without calls: unless its CPU intervals overlapped, the clamp case).
//   messages        every message whose data reached its receiver (MessageRecord): collectives
//                   are expanded into their point-to-point messages; collective traffic is what
//                   a collective algorithm generated (MessageRecord::collective()); envelopes of
//                   detached/synchronous sends are not messages.
//   matrix          messages and bytes per (src, dst) world-rank pair that exchanged any.
//   histogram       bucket k holds sizes s <= 16 * 4^k (k = 0 .. 13: 16 B .. 1 GiB), the last one
//                   everything larger (seed 002 §2.5): 16 B is in the first bucket, 17 B in the
//                   second.
//   collectives     per (CallInfo::name, CallInfo::algorithm) of collective-class call intervals:
//                   calls (one per rank and call), time (summed over them), max (longest one).
//   links           with a model that keeps link statistics (flow, smpi: RunResult::network),
//                   its links: bytes, busy (time with at least one flow) and bandwidth as the model
//                   saw them. Otherwise bytes from the messages: each message's bytes count on
//                   every link of the fixed route between its ranks' hosts (the hosts at the
//                   start of the run), busy unknown. No platform (ideal): no links.
//                   utilisation = bytes / (bandwidth * makespan).
//   link timeline   the (at most 16) links with the most bytes, busiest first, in bins of bin_ps
//                   (a power of two, the smallest with 200 bins covering the makespan); only bins
//                   up to the makespan. Two sources:
//                   carried (flow, smpi, packet: NetworkStats::carried) the bytes the model moved
//                     over each link (packet: port) in each bin, from its constant-rate segments
//                     (net/link_bytes_timeline.hpp): never above the bandwidth on a shared link
//                     (exceptions: flow_network.hpp; fatpipe links are marked "fatpipe": true);
//                     real bytes per bin, summing to the link's bytes.
//                   offered (any other model) each message's bytes spread uniformly over
//                     [sent, arrived) on each link of its route: the load offered, which can
//                     exceed the bandwidth; integer bytes per bin, exact (link_timeline.hpp).
//   energy          when the platform declares power (RunResult::energy): total and per host,
//                   and the hosts' power over time (energy/power_timeline.hpp).
//
// JSON SCHEMA (to_json; the HTML report reads it; keys in this order):
//   {"makespan_ps": int, "num_ranks": int,
//    "ranks": [{"rank", "host", "finish_ps", "compute_ps", "p2p_ps", "collective_ps", "wait_ps",
//               "other_ps", "idle_ps"}]                                        rank order
//    "messages": {"count", "bytes", "p2p_count", "p2p_bytes", "collective_count",
//                 "collective_bytes"},
//    "matrix": [[src, dst, messages, bytes], ...]                              by (src, dst)
//    "histogram": [{"upper_bytes": 16, 64, ... or null for the last, "p2p_messages", "p2p_bytes",
//                   "collective_messages", "collective_bytes"}]                all 15 buckets
//    "collectives": [{"name", "algorithm": string or null, "calls", "time_ps", "max_ps"}]
//                                                                              by (name, algorithm)
//    "links": [{"name", "bandwidth_Bps": number, "bytes": int, "busy_ps": int or null,
//               "utilisation": number}]                                        platform order
//    "link_timeline": {"bin_ps": int, "carried": bool, "links": [{"name", "bytes": [number per
//                      bin], "fatpipe": true only for a fatpipe link}]}
//    "energy": {"total_j", "hosts": [{"name", "energy_j", "off_s"}],           only when known
//               "power": {"bin_ps", "end_ps", "total": SERIES, "hosts": [SERIES]}}
//      SERIES = {"name", "energy_j", "watts": [mean W per bin]}: bin i covers [i * bin_ps,
//      (i + 1) * bin_ps) ∩ [0, end_ps), watts its mean power there, so sum of watts x that length
//      = energy_j = the host's energy (energy/power_timeline.hpp); "total" sums the hosts (not
//      links nor NICs); hosts: the 16 with the most energy, most first
//    "ports": [{"name", "packets", "credit_stall_ps", "fecn", "queue_mean_bytes",
//               "queue_peak_bytes"}]                                           packet model only
//    "port_queues": {"bin_ps", "ports": [{"name", "mean_bytes": [per bin]}]}   packet model only
//   }
//
// CSV FILES (write_csv; each with a header row, all-or-nothing; times in seconds with exactly 12
// decimals from the integer picoseconds (time_format.hpp seconds_text), bytes and counts as
// integers, other reals %.12g; fields holding a comma or quote are quoted):
//   ranks.csv          rank,host,finish_s,compute_s,p2p_s,collective_s,wait_s,other_s,idle_s
//                      (and noise_s, the OS noise injected into the rank, when noise is on)
//   matrix.csv         src,dst,messages,bytes
//   sizes.csv          upper_bytes,p2p_messages,p2p_bytes,collective_messages,collective_bytes
//                      (upper_bytes empty for the last bucket)
//   collectives.csv    name,algorithm,calls,time_s,max_s (algorithm empty when none)
//   links.csv          name,bandwidth_Bps,bytes,busy_s,utilisation (busy_s empty when unknown)
//   link_timeline.csv  link,bin,start_s,end_s,bytes (one row per plotted link and bin; bytes an
//                      integer when offered, a real when carried)
//   energy.csv         host,energy_j,off_s (only when energy is known)
//   regions.csv        region,executions,given_s,charged_s,factor (only when something computed):
//                      per code region (mpi/region_times.hpp) its computations, their time as the
//                      trace or measurement gave it and as charged after cpu/region-factors
//   ports.csv          name,packets,credit_stall_s,fecn,queue_mean_bytes,queue_peak_bytes (packet
//                      model only: one row per link direction that carried packets)
//   port_queues.csv    port,bin,start_s,end_s,mean_bytes (packet model: the 16 ports with the
//                      highest mean buffer occupancy, at most 128 bins; NetworkStats::queues)
//
// Memory: O(ranks + communicating pairs + links carrying traffic) plus the bounded route cache and
// timelines (route_cache.hpp, link_traffic.hpp); no event is stored.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/collective_stats.hpp"
#include "report/comm_matrix.hpp"
#include "report/link_traffic.hpp"
#include "report/phase_split.hpp"
#include "report/rank_breakdown.hpp"
#include "report/run_observer.hpp"
#include "report/size_histogram.hpp"
#include "report/stats_report.hpp"

namespace simfab {

class RunStats final : public RunObserver {
 public:
  void start_run(const RunInfo& info) override;
  void call_interval(RankId r, SimTime begin, SimTime end, const CallInfo& c) override;
  void cpu_busy(RankId r, uint8_t cpu, CpuUse use, SimTime begin, SimTime end) override;
  void message(const MessageRecord& m) override;
  void finish(const RunResult& result) override;

  // Valid after finish().
  const StatsReport& report() const { return report_; }
  nlohmann::ordered_json to_json() const;
  // Writes the CSV files into `dir`, which must exist (prepare_stats_dir). Throws InputError.
  void write_csv(const std::string& dir) const;

 private:
  std::vector<HostId> rank_host_id_;
  RankBreakdown breakdown_;
  CommMatrix matrix_;
  SizeHistogram sizes_;
  CollectiveStats collectives_;
  LinkTraffic links_;
  PhaseSplit phase_split_;
  StatsReport report_;
};

}  // namespace simfab
