// `simfab run --sweep SPEC`: the same job at several settings, one line of time and energy per
// setting: the raw material of capacity planning and DVFS studies (seed 001 §2.15, ch. 9).
//
// SPEC is KEY=A..B (every integer from A to B), KEY=v1,v2,... (those values), or the path of a
// sweep file: one setting per line, each a space-separated list of key=value assignments; blank
// lines and lines starting with '#' are skipped. `pstate` is short for energy/pstate (every host
// with several pstates starts at that one). Each setting is applied on top of the run's own --cfg.
// A bad spec, key or value is an input error (exit 2) before any run; a run that deadlocks stops
// the sweep (exit 3). With --json FILE the table is also written as JSON:
//   {"sweep": [{"setting": "energy/pstate=0", "makespan_s": ..., "makespan_ps": ..., "energy_j": ...,
//               "mean_power_w": ...}, ...]}    (energy_j and mean_power_w: null without power)
#pragma once

#include <string>

#include "core/config.hpp"
#include "sim/simulation.hpp"

namespace simfab {

// The settings SPEC describes, each a list of "key=value" assignments. Throws InputError.
std::vector<std::vector<std::string>> parse_sweep(const std::string& spec);

int run_sweep(const std::string& spec, const SimulationInput& in, const Config& cfg, const std::string& json_path,
              bool quiet);

}  // namespace simfab
