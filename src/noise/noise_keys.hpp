// The noise/* configuration keys and the NoiseModel they describe (noise_model.hpp).
//
//   noise/trace=FILE            detours from a trace (noise_trace_file.hpp)
//   noise/period=T, noise/duration=T   synthetic noise: one detour of `duration` at trace time 0 of
//                               every `period` (needs period > duration > 0); not with noise/trace
//   noise/distribution=fixed|exponential|uniform|histogram   synthetic detour lengths:
//                               noise/duration, or drawn from noise/seed for 1024 periods (then
//                               repeated): with mean noise/duration (each at most half a period),
//                               or from the bins of noise/histogram=FILE (detour_histogram.hpp;
//                               then without noise/duration)
//   noise/rule=loggopsim|preempt      how a detour stretches an interval (noise_model.hpp)
//   noise/cosched=yes|no, noise/seed=N, noise/offsets=LIST   each rank's offset (noise_offsets.hpp)
//   noise/collectives=yes|no    yes: only CPU intervals inside collectives are stretched
//                               (LogGOPSim's collnoise; noise_model.hpp says how the executor knows)
//   noise/classes=CLASS:SPEC;...   noise per host class (noise_classes.hpp)
// Noise is off unless noise/trace, noise/period with noise/duration (or noise/histogram), or a
// class with noise is given; the other keys without them are an input error (they would silently
// do nothing). Off, a run is byte-identical to a run of a simfab without noise (the JSON's config
// lists the noise/* keys at their defaults, as it lists every key). Unset, the new keys change
// nothing either.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "noise/noise_model.hpp"

namespace simfab::noise {

void register_noise_keys(Config& cfg);

// The run's noise: model null when noise is off. Throws InputError on bad keys or a bad trace.
struct NoiseSetup {
  std::unique_ptr<NoiseModel> model;
  std::string offsets;  // "independent", "co-scheduled" or "fixed"
  std::string source;   // the trace's path, "synthetic..." or "none" (only classes have noise)
  bool global = true;   // whether the global noise/* keys give noise
  std::vector<NoiseResult::Class> classes;  // noise/classes's, in its order; empty without
  std::vector<int32_t> rank_class;          // per rank: index into classes or -1 (with classes)
  // The model's result with the descriptions above. REQUIRES: model.
  NoiseResult result() const;
};
// class_names: the platform's noise classes (Platform::noise_classes()); rank_class: per rank, its
// host's class (an index into class_names) or -1. Its size is the number of ranks.
NoiseSetup make_noise(const Config& cfg, const std::vector<std::string>& class_names,
                      const std::vector<int>& rank_class);
// Without host classes (tests): every rank unclassed.
NoiseSetup make_noise(const Config& cfg, int num_ranks);

// Whether `key` is a noise/* key (left out of the JSON's config when noise is off).
bool is_noise_key(std::string_view key);

}  // namespace simfab::noise
