#include "report/network_stats.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

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
  if (st.packet) {
    std::snprintf(buf, sizeof buf, "network: %llu packets, %llu packet hops, %llu FECN marks, %llu BECNs\n",
                  static_cast<unsigned long long>(st.packets), static_cast<unsigned long long>(st.packet_hops),
                  static_cast<unsigned long long>(st.fecn), static_cast<unsigned long long>(st.becn));
    os << buf;
  } else {
  std::snprintf(buf, sizeof buf, "network: %llu flows (at most %u at once), %llu solves, %llu rates recomputed\n",
                static_cast<unsigned long long>(st.flows), st.peak_flows, static_cast<unsigned long long>(st.solves),
                static_cast<unsigned long long>(st.recomputed));
  os << buf;
  }
  std::vector<size_t> order(st.links.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return utilisation(st.links[a], makespan) > utilisation(st.links[b], makespan);
  });
  if (order.size() > 5) order.resize(5);
  if (!order.empty()) os << "most utilised links:\n";
  for (size_t i : order) {
    const LinkUsage& l = st.links[i];
    if (st.packet)
      std::snprintf(buf, sizeof buf, "  %s: %.1f%% of %.4g B/s, %.6g B in %llu packets, credit stall %.4g s, "
                    "queue mean %.0f B peak %llu B, %llu FECN\n",
                    l.name.c_str(), 100 * utilisation(l, makespan), l.bandwidth_Bps, l.bytes,
                    static_cast<unsigned long long>(l.packets), l.credit_stall.seconds(), l.mean_queue_bytes,
                    static_cast<unsigned long long>(l.peak_queue_bytes), static_cast<unsigned long long>(l.fecn));
    else
    std::snprintf(buf, sizeof buf, "  %s: %.1f%% of %.4g B/s, %.6g B in %llu flows (at most %u at once)\n",
                  l.name.c_str(), 100 * utilisation(l, makespan), l.bandwidth_Bps, l.bytes,
                  static_cast<unsigned long long>(l.flows), l.peak_flows);
    os << buf;
  }
}

nlohmann::ordered_json network_stats_json(const NetworkStats& st, SimTime makespan) {
  nlohmann::ordered_json j;
  j["flows"] = st.flows;
  j["peak_flows"] = st.peak_flows;
  j["solves"] = st.solves;
  j["recomputed_flows"] = st.recomputed;
  j["mean_flow_s"] = st.flows ? st.flow_seconds / static_cast<double>(st.flows) : 0.0;
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
