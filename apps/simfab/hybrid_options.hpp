// The options of a hybrid run's simulator (`simfab hybrid`, issue 25): `simfab hybrid` checks them
// before it starts the job and hands them to the simulator process through SIMFAB_HYBRID_OPTS
// (joined by kOptionSeparator), which parses them again (apps/hybrid/sim/main.cpp).
#pragma once

#include <string>
#include <vector>

#include "core/config.hpp"
#include "run_outputs.hpp"
#include "sim/simulation.hpp"

namespace simfab {

inline constexpr char kOptionSeparator = '\x1f';

struct HybridRunOptions {
  SimulationInput in;
  OutputOptions out;
  bool reproducible = false, quiet = false;
  std::string ti_out;  // --ti-out FILE: the ranks' streams as one TI trace (simfab run replays it)
};

// --platform, --hostfile, --cfg, --json, --reproducible, --quiet, --trace-out, --paje, --stats,
// --trace-ranks, --trace-window, --switch, --pcontrol, --switch-after, --ti-out. Throws usage_error.
void parse_hybrid_options(const std::vector<std::string>& args, HybridRunOptions& o, Config& cfg);

std::string join_options(const std::vector<std::string>& args);
std::vector<std::string> split_options(const std::string& joined);

}  // namespace simfab
