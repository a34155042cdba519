#include "report/network_stats.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "report/plural.hpp"

namespace simfab {

namespace {

double utilisation(const LinkUsage& l, SimTime makespan) {
  const double capacity = l.bandwidth_Bps * makespan.seconds();
  return capacity > 0 ? l.bytes / capacity : 0;
}

}  // namespace

void print_network_stats(std::ostream& os, const NetworkStats& st, SimTime makespan) {
  if (!st.present) return;
  char buf[256];
  if (st.packet)
    os << "network: " << counted(st.packets, "packet") << ", " << counted(st.packet_hops, "packet hop") << ", "
       << counted(st.fecn, "FECN mark") << ", " << counted(st.becn, "BECN") << "\n";
  else
    os << "network: " << counted(st.flows, "flow") << " (at most " << st.peak_flows << " at once), "
       << counted(st.solves, "solve") << ", " << counted(st.recomputed, "rate") << " recomputed"
       << (st.reroutes ? ", " + counted(st.reroutes, "message") + " routed around links that were off" : "") << "\n";
  std::vector<size_t> order(st.links.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return utilisation(st.links[a], makespan) > utilisation(st.links[b], makespan);
  });
  if (order.size() > 5) order.resize(5);
  if (!order.empty()) os << "most utilised links:\n";
  for (size_t i : order) {
    const LinkUsage& l = st.links[i];
    std::snprintf(buf, sizeof buf, "  %s: %.1f%% of %.4g B/s, %.6g B in ", l.name.c_str(),
                  100 * utilisation(l, makespan), l.bandwidth_Bps, l.bytes);
    os << buf;
    if (st.packet) {
      std::snprintf(buf, sizeof buf, ", credit stall %.4g s, queue mean %.0f B peak %llu B, %llu FECN\n",
                    l.credit_stall.seconds(), l.mean_queue_bytes, static_cast<unsigned long long>(l.peak_queue_bytes),
                    static_cast<unsigned long long>(l.fecn));
      os << counted(l.packets, "packet") << buf;
    } else {
      os << counted(l.flows, "flow") << " (at most " << l.peak_flows << " at once)\n";
    }
  }
}

nlohmann::ordered_json network_stats_json(const NetworkStats& st, SimTime makespan) {
  nlohmann::ordered_json j;
  j["flows"] = st.flows;
  j["peak_flows"] = st.peak_flows;
  j["solves"] = st.solves;
  j["recomputed_flows"] = st.recomputed;
  j["mean_flow_s"] = st.flows ? st.flow_seconds / static_cast<double>(st.flows) : 0.0;
  if (st.reroutes) j["reroutes"] = st.reroutes;
  if (st.packet) {
    j["packets"] = st.packets;
    j["packet_hops"] = st.packet_hops;
    j["fecn"] = st.fecn;
    j["becn"] = st.becn;
  }
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (const LinkUsage& l : st.links) {
    links.push_back({{"name", l.name},
                     {"bandwidth_Bps", l.bandwidth_Bps},
                     {"bytes", l.bytes},
                     {"flows", l.flows},
                     {"peak_flows", l.peak_flows},
                     {"busy_s", l.busy.seconds()},
                     {"utilisation", utilisation(l, makespan)}});
    if (st.packet) {
      auto& b = links.back();
      b["packets"] = l.packets;
      b["credit_stall_s"] = l.credit_stall.seconds();
      b["fecn"] = l.fecn;
      b["queue_peak_bytes"] = l.peak_queue_bytes;
      b["queue_mean_bytes"] = l.mean_queue_bytes;
    }
  }
  j["links"] = std::move(links);
  return j;
}

}  // namespace simfab
