#include "report/platform_report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/plural.hpp"
#include "report/summary.hpp"
#include "topo/export.hpp"
#include "topo/metrics.hpp"

namespace simfab {
namespace {

using nlohmann::ordered_json;

std::string node_or_unknown(const Platform& p, NodeId n) { return n == kNoNode ? "?" : p.node_name(n); }

ordered_json route_json(const Platform& p, HostId a, HostId b, const RouteRequest& req) {
  const auto links = p.route(a, b, req).value();
  const auto s = p.route_summary(a, b, req).value();
  ordered_json ls = ordered_json::array();
  NodeId at = host_node(a);  // where the route is: a half-duplex link may be crossed to -> from
  for (LinkId l : links) {
    const Link& k = p.link(l);
    const bool backwards = k.from != k.to && k.to == at && k.twin < 0;
    const NodeId from = backwards ? k.to : k.from, to = backwards ? k.from : k.to;
    if (from == at) at = to;
    ls.push_back({{"name", k.name},
                  {"from", node_or_unknown(p, from)},
                  {"to", node_or_unknown(p, to)},
                  {"bandwidth_Bps", k.bandwidth_Bps},
                  {"latency_ps", k.latency.ps()},
                  {"internal", !p.is_hop(l)}});
  }
  return ordered_json{{"from", p.host(a).name},
                      {"to", p.host(b).name},
                      {"hops", s.hops},
                      {"latency_ps", s.latency.ps()},
                      {"bandwidth_Bps", s.bandwidth_Bps == std::numeric_limits<double>::infinity()
                                            ? ordered_json(nullptr)
                                            : ordered_json(s.bandwidth_Bps)},
                      {"links", std::move(ls)}};
}

std::string shortest(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string rate(double bytes_per_s) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g GB/s (%.4g Gb/s)", bytes_per_s / 1e9, bytes_per_s * 8 / 1e9);
  return buf;
}

std::string bisection_text(double bw, int hosts) {
  if (hosts < 2) return "none (fewer than 2 hosts)";
  if (std::isnan(bw)) return "unknown (links declared without endpoints are not in the graph)";
  if (std::isinf(bw)) return "unbounded (only fatpipe links separate the halves)";
  return rate(bw) + " (hosts 0.." + std::to_string(hosts / 2 - 1) + " -> the rest)";
}

void print_route_text(std::ostream& out, const ordered_json& r) {
  out << "route " << r["from"].get<std::string>() << " -> " << r["to"].get<std::string>() << ": "
      << r["hops"].get<int>() << " hops, latency " << human_time(SimTime::ps(r["latency_ps"].get<int64_t>()))
      << ", bottleneck " << (r["bandwidth_Bps"].is_null() ? "none" : rate(r["bandwidth_Bps"].get<double>())) << "\n";
  int hop = 0;
  for (const auto& l : r["links"]) {
    const bool internal = l["internal"].get<bool>();
    char idx[16] = "   ";
    if (!internal) std::snprintf(idx, sizeof idx, "%2d ", ++hop);
    out << "  " << idx << l["from"].get<std::string>() << " -> " << l["to"].get<std::string>() << "  via "
        << l["name"].get<std::string>() << " (" << rate(l["bandwidth_Bps"].get<double>()) << ", "
        << human_time(SimTime::ps(l["latency_ps"].get<int64_t>())) << (internal ? ", internal" : "") << ")\n";
  }
}

}  // namespace

void print_route(std::ostream& out, const Platform& p, HostId a, HostId b, const RouteRequest& req, bool json) {
  const ordered_json r = route_json(p, a, b, req);
  if (json) out << r.dump(2) << "\n";
  else print_route_text(out, r);
}

// Availability profiles attached to hosts and links (SimGrid's speed_file, ..., trace_connect),
// one entry per attachment (a split-duplex link's directions share theirs: listed once).
ordered_json profiles_json(const Platform& p) {
  ordered_json a = ordered_json::array();
  auto add = [&](const std::string& element, const char* kind, int index) {
    if (index < 0) return;
    const Availability& av = p.availability(index);
    a.push_back({{"element", element},
                 {"kind", kind},
                 {"profile", av.name},
                 {"events", av.dates.size()},
                 {"period_s", av.period.seconds()}});
  };
  for (HostId h = 0; h < p.host_count(); ++h) {
    add(p.host(h).name, "speed", p.host(h).speed_profile);
    add(p.host(h).name, "host state", p.host(h).state_profile);
  }
  for (LinkId l = 0; l < static_cast<LinkId>(p.links().size()); ++l) {
    const Link& k = p.link(l);
    if (k.twin >= 0 && k.twin < l) continue;
    add(k.name, "bandwidth", k.bandwidth_profile);
    add(k.name, "latency", k.latency_profile);
    add(k.name, "link state", k.state_profile);
  }
  return a;
}

ordered_json disks_json(const Platform& p) {
  ordered_json a = ordered_json::array();
  for (const Disk& d : p.disks())
    a.push_back({{"host", p.host(d.host).name}, {"disk", d.name}, {"read_Bps", d.read_Bps}, {"write_Bps", d.write_Bps}});
  return a;
}

void describe_platform(std::ostream& out, const Platform& p, bool json) {
  const RouteStats st = route_stats(p);
  // Links declared without endpoints (`links:` used by explicit routes) are not in the graph the
  // max flow runs on: the bisection is unknown then, not 0.
  const bool graph_known = std::none_of(p.links().begin(), p.links().end(), [](const Link& l) { return l.from == kNoNode; });
  const double bisection = graph_known ? bisection_bandwidth(p) : std::nan("");
  ordered_json j;
  j["platform"] = p.source();
  j["hosts"] = p.host_count();
  j["switches"] = p.switch_count();
  j["links"] = p.links().size();
  const ordered_json topologies = topologies_json(p);
  j["topologies"] = topologies;
  j["diameter"] = st.diameter;
  j["avg_hops"] = st.avg_hops;
  j["avg_hops_exact"] = st.exact;
  j["pairs"] = st.pairs;
  j["unrouted_pairs"] = st.unrouted;
  j["bisection_bw"] = std::isfinite(bisection) ? ordered_json(bisection) : ordered_json(nullptr);
  const HostId last = p.host_count() - 1;
  j["sample_route"] = last > 0 && p.route(0, last) ? route_json(p, 0, last, {}) : ordered_json(nullptr);
  j["profiles"] = profiles_json(p);
  j["disks"] = disks_json(p);
  if (json) {
    out << j.dump(2) << "\n";
    return;
  }
  out << "platform " << p.source() << "\n"
      << "  hosts       " << p.host_count() << "\n"
      << "  switches    " << p.switch_count() << "\n"
      << "  links       " << p.links().size() << " (directed; a full-duplex cable is two)\n";
  for (const auto& t : topologies)
    out << "  topology    " << t["name"].get<std::string>() << ": " << t["kind"].get<std::string>() << ", "
        << t["hosts"].get<int>() << " hosts, routing " << t["routing"].get<std::string>() << "\n";
  char avg[32];
  std::snprintf(avg, sizeof avg, "%.4f", st.avg_hops);
  out << "  diameter    " << st.diameter << " hops" << (st.exact ? "" : " (the most in the sample: a lower bound)") << "\n"
      << "  avg hops    " << avg << " (" << (st.exact ? "all " : "a deterministic sample of ") << st.pairs
      << " ordered pairs" << (st.unrouted ? ", " + std::to_string(st.unrouted) + " without a route" : "") << ")\n"
      << "  bisection   " << bisection_text(bisection, p.host_count()) << "\n";
  if (!j["sample_route"].is_null()) {
    out << "  sample ";
    print_route_text(out, j["sample_route"]);
  }
  for (const auto& f : j["profiles"]) {
    const double period = f["period_s"].get<double>();
    out << "  profile     " << f["kind"].get<std::string>() << " of '" << f["element"].get<std::string>()
        << "': " << f["profile"].get<std::string>() << ", " << counted(f["events"].get<uint64_t>(), "event")
        << (period > 0 ? ", repeating every " + shortest(period) + " s" : std::string()) << "\n";
  }
  for (const auto& d : j["disks"])
    out << "  disk        '" << d["disk"].get<std::string>() << "' of host '" << d["host"].get<std::string>()
        << "': read " << rate(d["read_Bps"].get<double>()) << ", write " << rate(d["write_Bps"].get<double>()) << "\n";
}

}  // namespace simfab
