// `simfab run --sweep SPEC`: the same job at several settings, one line of time and energy per
// setting: the raw material of capacity planning and DVFS studies (seed 001 §2.15, ch. 9).
//
// SPEC is KEY=A..B (every integer from A to B), KEY=v1,v2,... (those values), or the path of a
// sweep file: one setting per line, each a space-separated list of key=value assignments; blank
// lines and lines starting with '#' are skipped. `pstate` is short for energy/pstate (every host
// with several pstates starts at that one). Each setting is applied on top of the run's own --cfg.
// A bad spec, key or value is an input error (exit 2) before any run. The settings run as child
// processes on all cores (as `simfab sweep`, apps/simfab/sweep_cmd.hpp, whose YAML spec is the long
// form); rows print in order. The first setting in order whose run fails stops the sweep with its
// messages and status (2 bad input, 3 deadlock). With --json FILE the table is also written as JSON:
//   {"sweep": [{"setting": "energy/pstate=0", "makespan_s": ..., "makespan_ps": ..., "energy_j": ...,
//               "mean_power_w": ...}, ...]}    (energy_j and mean_power_w: null without power)
#pragma once

#include <string>
#include <vector>

#include "core/config.hpp"
#include "sim/simulation.hpp"

namespace simfab {

// The settings SPEC describes, each a list of "key=value" assignments. Throws InputError.
std::vector<std::vector<std::string>> parse_sweep(const std::string& spec);

// The arguments of `simfab run` without --sweep, --json, --quiet and --reproducible: one setting's run.
std::vector<std::string> single_run_arguments(const std::vector<std::string>& args);

// Runs each setting as its own process (sweep/point_runner.hpp, all cores), `run_args` (from
// single_run_arguments) plus the setting's --cfg. REQUIRES: cfg holds the run's own --cfg.
int run_sweep(const std::string& spec, const std::vector<std::string>& run_args, const Config& cfg,
              const std::string& json_path, bool quiet);

}  // namespace simfab
