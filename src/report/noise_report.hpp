// The noise section of a run's results (noise/noise_model.hpp), when noise is on:
//   text   one line: "noise: <total> injected in <n> detours (rule R, O offsets[, collectives
//          only][, k host classes])", then the rank most delayed: ", most on rank r: <time>"
//   JSON   "noise": {"source", "rule", "offsets", "period_ps", "detours_per_period",
//          ["collectives_only": true,] ["classes": [{"name", "source", "period_ps",
//          "detours_per_period"}],] "total_ps", "detours",
//          "ranks": [{"rank", ["class",] "offset_ps", "noise_ps", "detours"}]}  (ranks in order;
//          "class" is the rank's class name, null for the global settings)
//   The bracketed parts appear only with noise/collectives=yes and noise/classes: without them the
//   section is byte for byte what it was before they existed.
// Nothing at all when noise is off, so such runs keep their output byte for byte.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "noise/noise_model.hpp"

namespace simfab {

void print_noise(std::ostream& os, const noise::NoiseResult& n);
nlohmann::ordered_json noise_json(const noise::NoiseResult& n);

}  // namespace simfab
