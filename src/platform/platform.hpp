// Platform: the machine a run is predicted on: hosts (cores, speed in flop/s), links (bandwidth,
// latency) and the route between every pair of hosts.
//
// Routes come from two places: a `cluster` generator (each host has one private link to the
// cluster's backbone; the route a->b is [private(a), backbone, private(b)], as SimGrid's Cluster
// zone with a backbone) and explicit `routes` between named hosts (symmetric unless declared
// one-way). Route queries are O(1) for cluster members and O(log R) for explicit routes.
//
// Ranks map to hosts round-robin (rank i on host i mod H) unless a mapping is given; the replay
// refuses to start when there are fewer hosts than ranks (seed 004 has one rank per HCA).
// Thread-safety: immutable after loading.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab {

using LinkId = int32_t;

struct Host {
  std::string name;
  int cores = 1;
  double speed_flops = 1e9;  // flop/s of one core
  int cluster = -1;          // index into clusters, or -1 for a standalone host
  LinkId private_link = -1;  // its link to the cluster backbone, or -1
};

struct Link {
  std::string name;
  double bandwidth_Bps = 0;  // bytes per second, > 0
  SimTime latency;
};

struct Cluster {
  std::string name;
  LinkId backbone = -1;  // -1: hosts meet in a non-blocking crossbar (no backbone link)
};

class Platform {
 public:
  // An ideal platform of n hosts with infinite speed and no links (GOAL without --platform).
  static Platform ideal(int n);

  HostId add_host(Host h);
  LinkId add_link(Link l);
  int add_cluster(Cluster c);
  // Declares the route a->b (and b->a unless one_way). Replaces a previous declaration.
  void add_route(HostId a, HostId b, std::vector<LinkId> links, bool one_way);

  int host_count() const { return static_cast<int>(hosts_.size()); }
  const Host& host(HostId h) const { return hosts_[static_cast<size_t>(h)]; }
  const Link& link(LinkId l) const { return links_[static_cast<size_t>(l)]; }
  const std::vector<Host>& hosts() const { return hosts_; }
  const std::vector<Link>& links() const { return links_; }
  const std::vector<Cluster>& clusters() const { return clusters_; }
  std::optional<HostId> find_host(const std::string& name) const;
  std::optional<LinkId> find_link(const std::string& name) const;
  bool is_ideal() const { return ideal_; }
  const std::string& source() const { return source_; }
  void set_source(std::string s) { source_ = std::move(s); }

  // The links from a to b; nullopt when no route is known. Empty for a == b (loopback).
  std::optional<std::vector<LinkId>> route(HostId a, HostId b) const;

  // What analytic models need of a route, without materialising it (no allocation: one call per
  // message): the sum of its latencies and its slowest link (infinite for a == b).
  struct RouteSummary {
    SimTime latency;
    double bandwidth_Bps;
  };
  std::optional<RouteSummary> route_summary(HostId a, HostId b) const;

 private:
  // Calls fn(LinkId) for each link from a to b in order; false when no route is known.
  template <class Fn>
  bool for_each_route_link(HostId a, HostId b, Fn&& fn) const;

  std::vector<Host> hosts_;
  std::vector<Link> links_;
  std::vector<Cluster> clusters_;
  std::map<std::pair<HostId, HostId>, std::vector<LinkId>> routes_;
  std::map<std::string, HostId, std::less<>> host_index_;
  std::map<std::string, LinkId, std::less<>> link_index_;
  bool ideal_ = false;
  std::string source_;
};

}  // namespace simfab
