#include "report/run_stats.hpp"

#include <algorithm>
#include <cmath>

#include "report/stats_csv.hpp"
#include "report/stats_json.hpp"
#include "sim/simulation.hpp"

namespace simfab {

namespace {

// The model's own link statistics (flow models): they saw each flow's real route and sharing.
std::vector<LinkRow> network_links(const NetworkStats& net, SimTime makespan) {
  std::vector<LinkRow> out;
  out.reserve(net.links.size());
  for (const LinkUsage& l : net.links)
    out.push_back({l.name, l.bandwidth_Bps, static_cast<uint64_t>(std::llround(l.bytes)), l.busy,
                   link_utilisation(l.bytes, l.bandwidth_Bps, makespan)});
  return out;
}

// The `count` series with the most carried bytes (ties: platform order), busiest first, on one
// bin width: the smallest power of two (ps) with LinkBytesTimeline::kBins bins covering the
// makespan, or wider when a series had to widen further; bins up to the makespan, or to the last
// that holds bytes when that is later.
std::vector<TimelineSeries> carried_timeline(std::vector<CarriedSeries> all, SimTime makespan, size_t count,
                                             SimTime& bin) {
  std::vector<size_t> order(all.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return all[a].bytes > all[b].bytes; });
  if (order.size() > count) order.resize(count);
  RateBins span(1, LinkBytesTimeline::kBins);
  span.cover(makespan);
  int64_t width = span.width();
  for (size_t i : order) width = std::max(width, all[i].bins.width());
  bin = SimTime::ps(width);
  std::vector<TimelineSeries> out;
  size_t used = static_cast<size_t>((makespan.ps() + width - 1) / width);
  for (size_t i : order) {
    RateBins& b = all[i].bins;
    b.coarsen_to(width);
    TimelineSeries t{all[i].name, {}, all[i].fatpipe};
    for (size_t k = 0; k < b.bins(); ++k) t.bytes.push_back(b.integral(k));
    while (t.bytes.size() > used && t.bytes.back() == 0) t.bytes.pop_back();
    used = std::max(used, t.bytes.size());
    out.push_back(std::move(t));
  }
  for (TimelineSeries& t : out) t.bytes.resize(used, 0.0);
  return out;
}

}  // namespace

void RunStats::start_run(const RunInfo& info) {
  rank_host_id_ = info.rank_host_id;
  breakdown_.reset(static_cast<int>(info.rank_host.size()));
  matrix_ = CommMatrix{};
  sizes_ = SizeHistogram{};
  collectives_ = CollectiveStats{};
  links_.start(info.platform);
  phase_split_.start(info.platform);
  report_ = StatsReport{};
}

void RunStats::call_interval(RankId r, SimTime begin, SimTime end, const CallInfo& c) {
  breakdown_.add_call(r, c.cls, end - begin);
  if (c.cls == CallClass::kCollective) collectives_.add(c, end - begin);
}

void RunStats::cpu_busy(RankId r, uint8_t, CpuUse use, SimTime begin, SimTime end) {
  breakdown_.add_cpu(r, use, end - begin);
}

void RunStats::message(const MessageRecord& m) {
  matrix_.add(m.src, m.dst, m.bytes);
  sizes_.add(m.bytes, m.collective());
  const auto host = [&](RankId r) { return rank_host_id_[static_cast<size_t>(r)]; };
  links_.add(host(m.src), host(m.dst), m);
  phase_split_.add(host(m.src), host(m.dst), m);
}

void RunStats::finish(const RunResult& result) {
  StatsReport& s = report_;
  s.makespan = result.exec.makespan;
  s.num_ranks = result.num_ranks;
  s.ranks.clear();
  for (size_t r = 0; r < result.exec.finish.size(); ++r) {
    RankTimes t = breakdown_.times(static_cast<RankId>(r), result.exec.finish[r], s.makespan);
    if (r < result.rank_host.size()) t.host = result.rank_host[r];
    s.ranks.push_back(std::move(t));
  }
  s.messages = sizes_.totals();
  s.matrix = matrix_.entries();
  s.histogram = sizes_.buckets();
  s.collectives = collectives_.rows();
  s.links = result.network.present ? network_links(result.network, s.makespan) : links_.rows(s.makespan);
  s.timeline_carried = !result.network.carried.empty();
  if (s.timeline_carried) {
    s.timeline = carried_timeline(result.network.carried, s.makespan, LinkTraffic::kPlottedLinks, s.bin);
  } else {
    s.bin = links_.bin_width(s.makespan);
    s.timeline = links_.busiest(s.makespan);
  }
  s.packet = result.network.packet;
  if (s.packet) {
    s.ports = result.network.links;
    s.queue_bin = result.network.queue_bin;
    s.queues = result.network.queues;
  }
  s.nic = result.nic;
  s.phases = result.phases;
  s.regions = result.regions;
  s.noise.clear();
  for (int64_t v : result.noise.noise_ps) s.noise.push_back(SimTime::ps(v));
  phase_split_.finish(links_.rows(s.makespan), s);
  s.energy_known = result.energy.present;
  s.energy_total_j = result.energy.total_j;
  s.energy_hosts.clear();
  for (const energy::HostEnergy& h : result.energy.hosts) s.energy_hosts.push_back({h.name, h.energy_j, h.off_s});
  s.power = result.energy.power;
  s.pstates = result.pstates;
}

nlohmann::ordered_json RunStats::to_json() const { return stats_json(report_); }

void RunStats::write_csv(const std::string& dir) const { write_stats_csv(report_, dir); }

}  // namespace simfab
