#include <cmath>

#include "report/nic_report.hpp"
#include "report/stats_json.hpp"

namespace simfab {

namespace {

using Json = nlohmann::ordered_json;

Json rank_json(const RankTimes& t) {
  return {{"rank", t.rank},
          {"host", t.host},
          {"finish_ps", t.finish.ps()},
          {"compute_ps", t.compute.ps()},
          {"p2p_ps", t.p2p.ps()},
          {"collective_ps", t.collective.ps()},
          {"wait_ps", t.wait.ps()},
          {"other_ps", t.other.ps()},
          {"idle_ps", t.idle.ps()}};
}

Json messages_json(const MessageTotals& m) {
  return {{"count", m.count},
          {"bytes", m.bytes},
          {"p2p_count", m.p2p_count},
          {"p2p_bytes", m.p2p_bytes},
          {"collective_count", m.collective_count},
          {"collective_bytes", m.collective_bytes}};
}

Json bucket_json(const SizeBucket& b) {
  return {{"upper_bytes", b.upper_bytes ? Json(*b.upper_bytes) : Json(nullptr)},
          {"p2p_messages", b.p2p_messages},
          {"p2p_bytes", b.p2p_bytes},
          {"collective_messages", b.collective_messages},
          {"collective_bytes", b.collective_bytes}};
}

Json collective_json(const CollectiveRow& c) {
  return {{"name", c.name},
          {"algorithm", c.algorithm ? Json(*c.algorithm) : Json(nullptr)},
          {"calls", c.calls},
          {"time_ps", c.time.ps()},
          {"max_ps", c.max.ps()}};
}

Json link_json(const LinkRow& l) {
  return {{"name", l.name},
          {"bandwidth_Bps", l.bandwidth_Bps},
          {"bytes", l.bytes},
          {"busy_ps", l.busy ? Json(l.busy->ps()) : Json(nullptr)},
          {"utilisation", l.utilisation}};
}

template <class T, class F>
Json array_of(const std::vector<T>& rows, F&& one) {
  Json a = Json::array();
  for (const T& r : rows) a.push_back(one(r));
  return a;
}

// An integral byte count as an integer (route-derived timelines), anything else as a real.
Json count_or_real(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) return static_cast<int64_t>(v);
  return v;
}

}  // namespace

nlohmann::ordered_json stats_json(const StatsReport& s) {
  Json j;
  j["makespan_ps"] = s.makespan.ps();
  j["num_ranks"] = s.num_ranks;
  j["ranks"] = array_of(s.ranks, rank_json);
  j["messages"] = messages_json(s.messages);
  j["matrix"] = array_of(s.matrix, [](const MatrixEntry& e) { return Json::array({e.src, e.dst, e.messages, e.bytes}); });
  j["histogram"] = array_of(s.histogram, bucket_json);
  j["collectives"] = array_of(s.collectives, collective_json);
  j["links"] = array_of(s.links, link_json);
  j["link_timeline"] = {{"bin_ps", s.bin.ps()},
                        {"carried", s.timeline_carried},
                        {"links", array_of(s.timeline, [](const TimelineSeries& t) {
                           Json bytes = Json::array();
                           for (double b : t.bytes) bytes.push_back(count_or_real(b));
                           Json out{{"name", t.name}, {"bytes", std::move(bytes)}};
                           if (t.fatpipe) out["fatpipe"] = true;
                           return out;
                         })}};
  if (s.packet) {
    j["ports"] = array_of(s.ports, [](const LinkUsage& l) {
      return Json{{"name", l.name},           {"packets", l.packets}, {"credit_stall_ps", l.credit_stall.ps()},
                  {"fecn", l.fecn},           {"queue_mean_bytes", l.mean_queue_bytes},
                  {"queue_peak_bytes", l.peak_queue_bytes}};
    });
    j["port_queues"] = {{"bin_ps", s.queue_bin.ps()},
                        {"ports", array_of(s.queues, [](const NetworkStats::QueueSeries& q) {
                           return Json{{"name", q.name}, {"mean_bytes", q.mean_bytes}};
                         })}};
  }
  if (s.nic.present) j["nics"] = nic_json(s.nic)["nics"];
  if (!s.pstates.empty())
    j["pstates"] = array_of(s.pstates, [](const energy::PstateTrack& t) {
      Json steps = Json::array();
      for (const auto& [from, p] : t.steps) steps.push_back(Json::array({from.ps(), p}));
      return Json{{"host", t.host}, {"steps", std::move(steps)}, {"changes", t.changes}, {"truncated", t.truncated}};
    });
  if (s.energy_known) {
    j["energy"] = {{"total_j", s.energy_total_j},
                   {"hosts", array_of(s.energy_hosts, [](const HostEnergyRow& h) {
                      return Json{{"name", h.name}, {"energy_j", h.energy_j}, {"off_s", h.off_s}};
                    })}};
    const auto series = [](const energy::PowerSeries& p) {
      return Json{{"name", p.name}, {"energy_j", p.energy_j}, {"watts", p.watts}};
    };
    if (s.power.bin > SimTime::zero())
      j["energy"]["power"] = {{"bin_ps", s.power.bin.ps()},
                              {"end_ps", s.power.end.ps()},
                              {"total", series(s.power.total)},
                              {"hosts", array_of(s.power.hosts, series)}};
  }
  return j;
}

}  // namespace simfab
