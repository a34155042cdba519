// Topology: a generated interconnect (fat-tree, torus, dragonfly, explicit graph) and its routing
// function, the part of a Platform that answers "which links does a message from a to b cross".
//
// A generator (src/topo/<kind>.hpp) adds the topology's hosts, switches and links to the Platform
// and returns a Topology that keeps only what routing needs: the parameters and the first id of
// each block of links, so a route is computed from coordinates in O(route length) with no
// per-pair table (nothing grows with hosts^2). Hosts of a topology are numbered locally
// 0..host_count()-1 (Host::topo_index); the Platform maps them to HostIds.
//
// Routing contract (route()):
//   - a != b, except for SimGrid's cluster topologies (platform/xml_fat_tree.hpp, xml_torus.hpp,
//     xml_dragonfly.hpp), which also route a host to itself as SimGrid does; the links are
//     emitted in order from a to b, each the direction actually crossed
//     (one direction of a full-duplex cable, or the shared link of a half-duplex one);
//   - consecutive links are adjacent: link i's `to` is link i+1's `from` (for a half-duplex link
//     either end), the first starts at a's host node and the last ends at b's;
//   - the same (a, b, request.salt) with the same loads gives the same route (determinism).
// Oblivious routings ignore the request; randomised ones (Valiant) draw from
// hash(a, b, request.salt); adaptive ones (UGAL) also read request.load.
//
// Seed: ../shared/spec/seed-004-loggopsim-ib.md §2.7 and §6 test 13 (verification topologies),
// ../shared/spec/seed-000-s4bxi.md §2 (BXI fat-tree).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/function_ref.hpp"
#include "platform/ids.hpp"

namespace simfab {

class Platform;

using LinkSink = FunctionRef<void(LinkId)>;

// The network model's view of load, for adaptive routing: a non-negative number per link that
// grows with its congestion (the flow model: flows crossing it).
class LinkLoad {
 public:
  virtual ~LinkLoad() = default;
  virtual double load(LinkId l) const = 0;
};

// Links a route should not cross: those that are off (availability state profiles). Routings
// with alternatives route around them (SimGrid's Floyd and Dijkstra zones:
// platform/xml_zone_tree.hpp); the others ignore it and the network model reports the failure.
class LinkFilter {
 public:
  virtual ~LinkFilter() = default;
  virtual bool avoid(LinkId l) const = 0;
};

struct RouteRequest {
  uint64_t salt = 0;                 // per-message randomness (0: the pair's fixed choice)
  const LinkLoad* load = nullptr;    // null: no load known (adaptive routing then goes minimal)
  const LinkFilter* avoid = nullptr;  // null: every link may be used
};

// Impossible generator parameters. `param` names the YAML key at fault (empty: the topology as
// a whole); the message says what values would work.
class TopologyError : public std::runtime_error {
 public:
  TopologyError(std::string param, const std::string& message)
      : std::runtime_error(message), param_(std::move(param)) {}
  const std::string& param() const { return param_; }

 private:
  std::string param_;
};

class Topology {
 public:
  virtual ~Topology() = default;
  // The generator's name ("fat-tree", "torus", "dragonfly", "graph") and the routing in use.
  virtual std::string_view kind() const = 0;
  virtual std::string_view routing() const = 0;

  // The name given in the platform file (the prefix of its switches and links).
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  int host_count() const { return static_cast<int>(hosts_.size()); }
  HostId host(int local) const { return hosts_[static_cast<size_t>(local)]; }

  // Emits the links from local host a to local host b (a != b but for SimGrid's clusters); see
  // the routing contract above.
  virtual void route(int a, int b, const RouteRequest& request, LinkSink sink) const = 0;

  // The routing's longest route in hops, when the generator knows it in closed form.
  virtual std::optional<int> diameter() const { return std::nullopt; }

  // Destination-based routing only: the link a packet for local host `dst` leaves switch `at` by
  // (InfiniBand's linear forwarding table). nullopt when the routing is not destination-based.
  virtual std::optional<LinkId> forward(SwitchId at, int dst) const {
    (void)at;
    (void)dst;
    return std::nullopt;
  }

  // Called by the Platform when it takes the topology: local index -> HostId.
  void set_hosts(std::vector<HostId> hosts) { hosts_ = std::move(hosts); }
  const std::vector<HostId>& hosts() const { return hosts_; }

 private:
  std::string name_;
  std::vector<HostId> hosts_;
};

}  // namespace simfab
