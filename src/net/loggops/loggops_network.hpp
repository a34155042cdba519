// LogGOPS: the analytic network model of LogGOPSim (Hoefler, Schneider, Lumsdaine, HPDC'10), with
// its exact semantics as described in seed 004 §2.1-2.2 and §4.1.
//
//   L  latency              o  CPU overhead per message     g  NIC gap per message
//   G  NIC gap per byte     O  CPU overhead per byte        S  eager/rendezvous threshold (bytes)
//
// A message of s bytes sent at time t (all per-byte terms use s-1: "G is charged for every byte
// of a message except the first"):
//   sender CPU busy      t .. t + o + (s-1)O          (send_overhead)
//   sender NIC busy      t .. t + g + (s-1)G          (send_gap)
//   arrival at receiver  t + o + L                    (transfer; LogGOPSim's MSG event time)
//   receiver CPU busy    + o + max((s-1)O, (s-1)G)    (recv_overhead), from when CPU and NIC are free
//   receiver NIC busy    + g + (s-1)G                 (recv_gap)
//   protocol             eager if s <= S, else rendezvous
// Worked example (seed 004 §3.1, L=2500 o=1500 g=1000 G=6 O=0 S=65535 ps): calc 100, then a 10-byte
// message each way: arrival at 100+1500+2500 = 4100, receiver done at 4100+1500+9*6 = 5654.
//
// Defaults are LogGOPSim's: L=2500, o=1500, g=1000, G=6, O=0, S=65535. With a platform, L and G
// are taken per host pair from the route (L = sum of link latencies, G = 1/bottleneck bandwidth)
// unless `loggops/L` / `loggops/G` are set explicitly; this is the natural heterogeneous
// extension (LogGOPSim itself has one L and one G). `loggops/L-per-hop` > 0 makes L the route's
// hop count times that latency instead (a per-switch latency, as in seed 004's IB topologies;
// platform/platform.hpp defines hops). Routes come from Platform::route_summary with no request,
// so a Valiant topology gives each host pair one fixed detour and UGAL goes minimal: LogGOPS has no
// link state to adapt to. Complexity: O(route length) per query (O(1) for a cluster route).
// Availability profiles (platform/availability.hpp): L and G are the route's latency and bottleneck
// bandwidth in force when the query is made (the send or receive), not integrated over the
// message: a change in the middle of a long message applies to the next one (the flow and packet
// models follow it within the message).
#pragma once

#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "net/network.hpp"
#include "platform/platform.hpp"

namespace simfab {

struct LogGOPSParams {
  SimTime L = SimTime::ps(2500);
  SimTime o = SimTime::ps(1500);
  SimTime g = SimTime::ps(1000);
  double G = 6;  // ps per byte
  double O = 0;  // ps per byte
  Bytes S = 65535;
};

class LogGOPSNetwork final : public Network {
 public:
  // Reads loggops/* from cfg. When the platform is not ideal and L or G is not explicit, they are
  // derived per host pair from the platform's routes.
  LogGOPSNetwork(Engine& engine, const Platform& platform, const Config& cfg, EventKinds kinds = {});
  LogGOPSNetwork(Engine& engine, const Platform& platform, LogGOPSParams params, EventKinds kinds = {});

  const char* name() const override { return "loggops"; }
  Protocol protocol(Bytes size) const override {
    return size <= p_.S ? Protocol::kEager : Protocol::kRendezvous;
  }
  SimTime send_overhead(HostId src, HostId dst, Bytes size) const override;
  SimTime recv_overhead(HostId src, HostId dst, Bytes size) const override;
  SimTime send_gap(HostId src, HostId dst, Bytes size) const override;
  SimTime recv_gap(HostId src, HostId dst, Bytes size) const override;
  void transfer(const NetMessage& m) override;

  std::vector<std::pair<std::string, std::string>> derived_parameters() const override;

  const LogGOPSParams& params() const { return p_; }
  bool latency_from_routes() const { return route_L_; }
  bool gap_from_routes() const { return route_G_; }

 private:
  Platform::RouteSummary route(HostId src, HostId dst) const;  // throws InputError when none
  SimTime latency(HostId src, HostId dst) const;
  double gap_per_byte(HostId src, HostId dst) const;

  Engine& engine_;
  const Platform& platform_;
  LogGOPSParams p_;
  bool route_L_ = false;
  bool route_G_ = false;
  SimTime per_hop_;  // > 0: L = hops x per_hop_
};

// Declares loggops/* keys.
void register_loggops_keys(Config& cfg);
// The loggops/* values as set (no route derivation).
LogGOPSParams loggops_params(const Config& cfg);

}  // namespace simfab
