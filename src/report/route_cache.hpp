// RouteCache: the links between two hosts, remembered for the next message of the same pair.
//
// Direct-mapped: kSlots slots, the pair (a, b) lives in slot mix(a, b) mod kSlots, and a miss
// replaces whatever the slot held. Memory is bounded by kSlots routes (4096 routes of a few links:
// ~100 KiB on a fat tree) whatever the number of communicating pairs (never P^2 routes); a hit is
// one hash and one compare, a miss one Platform::route_into. Deterministic (no recency state).
// Routes are the pair's fixed route (RouteRequest{}: salt 0, no load): randomised and adaptive
// routings (Valiant, UGAL) may have sent a given message elsewhere.
#pragma once

#include <cstdint>
#include <vector>

#include "core/sim_time.hpp"
#include "platform/platform.hpp"

namespace simfab {

class RouteCache {
 public:
  static constexpr size_t kSlots = 4096;

  // The links from host a to host b in route order; empty when the platform has no such route.
  // The reference is valid until the next call.
  const std::vector<LinkId>& route(const Platform& p, HostId a, HostId b);
  uint64_t misses() const { return misses_; }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  struct Slot {
    uint64_t key = kEmpty;
    std::vector<LinkId> links;
  };
  std::vector<Slot> slots_;  // kSlots once the first route is asked for
  uint64_t misses_ = 0;
};

}  // namespace simfab
