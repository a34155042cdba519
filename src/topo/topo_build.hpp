// What every topology generator shares: the common parameters (hosts, link classes, duplex) and
// the two ways of adding elements to the Platform (a host, a cable between two nodes).
//
// Host and switch names share one namespace: a generated host may not take a switch's name, nor
// a switch a host's (routes, exports and messages name nodes by name).
//
// Names. A topology named T generates switches "T_<what>" (each generator documents <what>),
// cables "T_<from>_<to>" in the generator's own naming, and hosts prefix + index + suffix with
// index 0..n-1 in the generator's host order, which is the topology's local host order.
// Full-duplex cables are two directed links, "<cable>_UP" (from -> to, the direction towards the
// core or the positive direction) and "<cable>_DOWN" (to -> from), each with the full bandwidth
// and latency, twins of each other as SimGrid's SPLITDUPLEX links are; a half-duplex cable is one
// shared link crossed both ways. A name already taken is a TopologyError (param "name" or
// "prefix"), never an internal failure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "platform/platform.hpp"
#include "topo/topology.hpp"

namespace simfab {

struct LinkSpec {
  double bandwidth_Bps = 0;  // > 0
  SimTime latency;
  LinkSharing sharing = LinkSharing::kShared;  // of each directed link (kFatpipe: no sharing)
};

struct HostSpec {
  std::string prefix;
  std::string suffix;
  double speed_flops = 1e9;
  int cores = 1;
  std::optional<LinkSpec> loopback;  // "<host>_loopback", internal to the host
  std::optional<LinkSpec> limiter;   // "<host>_limiter", crossed by every flow to or from the host
  // When not empty, the loopback and limiter are named link_prefix + index + "_loopback" /
  // "_limiter" instead (SimGrid's cluster names "<cluster>_link_<i>_loopback").
  std::string link_prefix;
  int cpu_profile = -1;  // Host::cpu_profile of every host (speed_flops: its initial pstate's speed)
};

struct TopoCommon {
  std::string name;      // T, the prefix of generated switch and link names
  HostSpec hosts;
  LinkSpec host_link;    // host <-> its switch
  LinkSpec link;         // switch <-> switch
  bool full_duplex = true;
};

// The directed links of one cable: from -> to (up) and to -> from (down); the same link when the
// cable is half-duplex.
struct Cable {
  LinkId up;
  LinkId down;
};

// Checks that `hosts`, `switches` and `links` more elements fit the platform's element limit
// (TopologyError(param) saying how many and the limit, before anything is built) and reserves
// room for them. Generators call it with their exact (or upper-bound) counts.
void reserve_elements(Platform& p, int64_t hosts, int64_t switches, int64_t links, const std::string& param);

// Adds host prefix + index + suffix (and its loopback and limiter). Throws TopologyError("prefix") when the
// name is taken.
HostId add_topo_host(Platform& p, const HostSpec& spec, int64_t index);

// Adds switch `name`; TopologyError("name") when taken.
SwitchId add_topo_switch(Platform& p, std::string name);

// Adds the cable `name` from node `from` to node `to`. TopologyError("name") when a name is taken.
Cable add_cable(Platform& p, const std::string& name, NodeId from, NodeId to, const LinkSpec& spec,
                bool full_duplex);

}  // namespace simfab
