// The network section of the results: what a model that shares links (flow) saw of them.
//
// JSON, key "network" (present only for such models; keys are only ever added):
//   flows               flows that went through the sharing phase
//   peak_flows          most flows sharing at once
//   solves              bandwidth-sharing solves (one per simulated instant with changes)
//   recomputed_flows    flow rates recomputed over all solves (the solver's work)
//   mean_flow_s         mean duration of a flow's sharing phase
//   links               [{name, bandwidth_Bps, bytes, flows, peak_flows, busy_s, utilisation}]
//                       every link that carried traffic, in platform order. busy_s: time with at
//                       least one flow on it; utilisation = bytes / (bandwidth * makespan), the
//                       mean fraction of its capacity used over the run (a fatpipe link can exceed
//                       1: each of its flows may use all of it).
// The text summary prints the totals and the five most utilised links.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "net/network.hpp"

namespace simfab {

void print_network_stats(std::ostream& os, const NetworkStats& st, SimTime makespan);
nlohmann::ordered_json network_stats_json(const NetworkStats& st, SimTime makespan);

}  // namespace simfab
