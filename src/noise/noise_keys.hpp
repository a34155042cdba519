// The noise/* configuration keys and the NoiseModel they describe (noise_model.hpp).
//
//   noise/trace=FILE            detours from a trace (noise_trace_file.hpp)
//   noise/period=T, noise/duration=T   synthetic noise: one detour of `duration` at trace time 0 of
//                               every `period` (needs period > duration > 0); not with noise/trace
//   noise/distribution=fixed|exponential|uniform   synthetic detour lengths: noise/duration, or
//                               drawn with that mean from noise/seed for 1024 periods (then
//                               repeated; each at most half a period)
//   noise/rule=loggopsim|preempt      how a detour stretches an interval (noise_model.hpp)
//   noise/cosched=yes|no, noise/seed=N, noise/offsets=LIST   each rank's offset (noise_offsets.hpp)
// Noise is off unless noise/trace or noise/period and noise/duration are given; the other keys
// without them are an input error (they would silently do nothing). Off, a run is byte-identical
// to a run of a simfab without noise: the keys are left out of the JSON's config.
#pragma once

#include <memory>
#include <string>

#include "core/config.hpp"
#include "noise/noise_model.hpp"

namespace simfab::noise {

void register_noise_keys(Config& cfg);

// The run's noise: model null when noise is off. Throws InputError on bad keys or a bad trace.
struct NoiseSetup {
  std::unique_ptr<NoiseModel> model;
  std::string offsets;  // "independent", "co-scheduled" or "fixed"
  std::string source;   // the trace's path or "synthetic"
};
NoiseSetup make_noise(const Config& cfg, int num_ranks);

// Whether `key` is a noise/* key (left out of the JSON's config when noise is off).
bool is_noise_key(std::string_view key);

}  // namespace simfab::noise
