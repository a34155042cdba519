#include "net/loggops/loggops_network.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace simfab {

void register_loggops_keys(Config& cfg) {
  cfg.declare({"loggops/L", CfgType::kTime, "2500",
               "LogGOPS latency L (ps). Default: from the platform route when --platform is given, "
               "else 2500 (LogGOPSim's default)", {}});
  cfg.declare({"loggops/o", CfgType::kTime, "1500", "LogGOPS CPU overhead per message o (ps)", {}});
  cfg.declare({"loggops/g", CfgType::kTime, "1000", "LogGOPS NIC gap per message g (ps)", {}});
  cfg.declare({"loggops/G", CfgType::kPerByte, "6",
               "LogGOPS NIC gap per byte G (ps/B, or a bandwidth such as 10Gbps). Default: from the "
               "route's bottleneck link when --platform is given, else 6", {}});
  cfg.declare({"loggops/L-per-hop", CfgType::kTime, "0",
               "With --platform: when > 0, L of a message is its route's hop count times this (ps), "
               "instead of the sum of the route's link latencies", {}});
  cfg.declare({"loggops/O", CfgType::kPerByte, "0", "LogGOPS CPU overhead per byte O (ps/B)", {}});
  cfg.declare({"loggops/S", CfgType::kBytes, "65535",
               "LogGOPS eager threshold S: messages of more than S bytes use rendezvous", {}});
}

LogGOPSParams loggops_params(const Config& cfg) {
  return LogGOPSParams{cfg.time("loggops/L"),      cfg.time("loggops/o"),
                       cfg.time("loggops/g"),      cfg.per_byte("loggops/G"),
                       cfg.per_byte("loggops/O"),  cfg.bytes("loggops/S")};
}

namespace {

// (size-1) * cost, rounded to the nearest ps; saturates at the end of time (an absurd message
// then makes the executor report the overflow instead of wrapping around).
SimTime per_byte(double ps_per_byte, Bytes size) {
  if (size <= 1 || ps_per_byte == 0) return SimTime::zero();
  const double ps = ps_per_byte * static_cast<double>(size - 1);
  if (!(ps < 9.2e18)) return SimTime::never();
  return SimTime::ps(std::llround(ps));
}
}  // namespace

LogGOPSNetwork::LogGOPSNetwork(Engine& engine, const Platform& platform, LogGOPSParams params, EventKinds kinds)
    : Network(kinds), engine_(engine), platform_(platform), p_(params) {}

LogGOPSNetwork::LogGOPSNetwork(Engine& engine, const Platform& platform, const Config& cfg, EventKinds kinds)
    : Network(kinds), engine_(engine), platform_(platform), p_(loggops_params(cfg)) {
  route_L_ = !platform.is_ideal() && !cfg.is_explicit("loggops/L");
  route_G_ = !platform.is_ideal() && !cfg.is_explicit("loggops/G");
  per_hop_ = cfg.time("loggops/L-per-hop");
  if (per_hop_ > SimTime::zero() && cfg.is_explicit("loggops/L"))
    throw InputError(SourceLoc{"--cfg", 0, 0}, "loggops/L and loggops/L-per-hop are both set; give one "
                                               "(a fixed L, or L = hops x L-per-hop from the platform's routes)");
  if (per_hop_ > SimTime::zero() && platform.is_ideal())
    throw InputError(SourceLoc{"--cfg", 0, 0}, "loggops/L-per-hop needs a platform (--platform) to count hops on");
}

std::vector<std::pair<std::string, std::string>> LogGOPSNetwork::derived_parameters() const {
  std::vector<std::pair<std::string, std::string>> d;
  if (route_L_)
    d.emplace_back("loggops/L", per_hop_ > SimTime::zero() ? "per host pair: route hops x loggops/L-per-hop"
                                                           : "per host pair: sum of the route's link latencies");
  if (route_G_) d.emplace_back("loggops/G", "per host pair: 1 / bandwidth of the route's slowest link");
  return d;
}

Platform::RouteSummary LogGOPSNetwork::route(HostId src, HostId dst) const {
  auto r = platform_.route_summary(src, dst, {}, engine_.now());  // profiles: L and G as of now
  if (!r)
    throw InputError(SourceLoc{platform_.source(), 0, 0},
                     "no route between host '" + platform_.host(src).name + "' and host '" +
                         platform_.host(dst).name + "' (a message needs one)");
  return *r;
}

SimTime LogGOPSNetwork::latency(HostId src, HostId dst) const {
  if (!route_L_) return p_.L;
  const Platform::RouteSummary r = route(src, dst);
  if (per_hop_ == SimTime::zero()) return r.latency;
  if (r.hops > 0 && per_hop_.ps() > std::numeric_limits<int64_t>::max() / r.hops) return SimTime::never();
  return SimTime::ps(per_hop_.ps() * r.hops);
}

// With routes, G is the time per byte of the slowest link; a message to the same host (no link:
// infinite bandwidth) is a memory copy, free at this fidelity.
double LogGOPSNetwork::gap_per_byte(HostId src, HostId dst) const {
  return route_G_ ? 1e12 / route(src, dst).bandwidth_Bps : p_.G;
}

SimTime LogGOPSNetwork::send_overhead(HostId, HostId, Bytes size) const {
  return saturating_add(p_.o, per_byte(p_.O, size));
}

SimTime LogGOPSNetwork::recv_overhead(HostId src, HostId dst, Bytes size) const {
  return saturating_add(p_.o, max(per_byte(p_.O, size), per_byte(gap_per_byte(src, dst), size)));
}

SimTime LogGOPSNetwork::send_gap(HostId src, HostId dst, Bytes size) const {
  return saturating_add(p_.g, per_byte(gap_per_byte(src, dst), size));
}

SimTime LogGOPSNetwork::recv_gap(HostId src, HostId dst, Bytes size) const {
  return send_gap(src, dst, size);
}

void LogGOPSNetwork::transfer(const NetMessage& m) {
  const SimTime arrival = saturating_add(saturating_add(m.issued, p_.o), latency(m.src, m.dst));
  if (arrival == SimTime::never())
    throw InputError(SourceLoc{}, "simulated time overflows 64-bit picoseconds (about 106 days): a message "
                                  "from host '" + platform_.host(m.src).name + "' arrives too late");
  engine_.schedule(arrival, kinds_.delivery, m.token);
}

}  // namespace simfab
