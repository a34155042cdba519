// Whole-topology figures for `simfab platform describe`: diameter and average hop count of the
// routes the platform actually uses, and bisection bandwidth.
//
// TODO(helper): full teaching header.
#pragma once

#include <cstdint>

#include "platform/platform.hpp"

namespace simfab {

struct RouteStats {
  int diameter = 0;          // most hops over the pairs measured
  double avg_hops = 0;       // mean hops over ordered pairs (a != b) measured
  uint64_t pairs = 0;        // pairs measured
  bool exact = true;         // all ordered pairs (else a deterministic sample)
  uint64_t unrouted = 0;     // pairs without a route
};

// Over all ordered host pairs when hosts * (hosts - 1) <= max_pairs, else a deterministic sample
// of max_pairs pairs.
RouteStats route_stats(const Platform& p, uint64_t max_pairs = 4'000'000);

// Bisection bandwidth in bytes/s: the max flow from the first half of the hosts (host order) to
// the second half, over the link graph (internal links are node capacities).
double bisection_bandwidth(const Platform& p);

}  // namespace simfab
