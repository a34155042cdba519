// The energy section of a run's results (seed 001): text for people, JSON for scripts.
//
// JSON (added to the result when the platform declares power):
//   energy_j           total energy to solution, hosts + links, joules
//   hosts              [{name, energy_j, idle_s}] hosts with a power model, in platform order;
//                      idle_s = time without any computation before the makespan
//   energy             {hosts_j, links_j, links: [{class, links, energy_j}], links_busy_modelled,
//                      polling, middle_value, governor, governor_changes}
//                      link classes group links whose names differ only in digits
#pragma once

#include <ostream>

#include "core/config.hpp"
#include "sim/simulation.hpp"

#include <nlohmann/json.hpp>

namespace simfab {

void print_energy(std::ostream& os, const RunResult& r, const Config& cfg);
void add_energy_json(nlohmann::ordered_json& j, const RunResult& r, const Config& cfg);

}  // namespace simfab
