// `simfab platform describe` and `simfab platform routes`: a platform's vital figures and one
// route hop by hop, for people (text) and scripts (JSON).
//
// describe JSON contract (keys are only ever added):
//   platform       the file
//   hosts, switches, links       counts (links: directed links, internal ones included)
//   topologies     [{name, kind, routing, hosts}]
//   diameter       most hops over the measured host pairs (topo/metrics.hpp)
//   avg_hops       mean hops over the measured ordered pairs; avg_hops_exact: all pairs or a
//                  deterministic sample; pairs: how many; unrouted_pairs: pairs with no route
//   bisection_bw   bytes/s from the first half of the hosts to the second (max flow); null when
//                  unbounded (fatpipes only) or unknown (links declared without endpoints)
//   sample_route   the route from the first host to the last (as `routes` gives it)
// routes JSON: {from, to, hops, latency_ps, bandwidth_Bps, links: [{name, from, to,
//   bandwidth_Bps, latency_ps, internal}]}.
#pragma once

#include <ostream>

#include "platform/platform.hpp"

namespace simfab {

void describe_platform(std::ostream& out, const Platform& p, bool json);
// REQUIRES: a route exists (callers check Platform::route first and report its absence).
void print_route(std::ostream& out, const Platform& p, HostId a, HostId b, const RouteRequest& req, bool json);

}  // namespace simfab
