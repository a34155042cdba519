#include "noise/noise_keys.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "noise/noise_offsets.hpp"
#include "noise/noise_trace_file.hpp"

namespace simfab::noise {

void register_noise_keys(Config& cfg) {
  cfg.declare({"noise/trace", CfgType::kText, "none",
               "OS noise from a trace: `<start_ns> <duration_ns>` per detour (LogGOPSim's format, # comments) or a "
               "CSV with the header start_ns,duration_ns; periodic with the end of its last detour; every CPU "
               "interval (computation, send/receive overhead) is stretched by the detours that hit it", {}});
  cfg.declare({"noise/period", CfgType::kTime, "0",
               "synthetic OS noise: a detour of noise/duration every noise/period (0: off; not with noise/trace)", {}});
  cfg.declare({"noise/duration", CfgType::kTime, "0", "synthetic OS noise: the length of each detour (< noise/period)",
               {}});
  cfg.declare({"noise/distribution", CfgType::kChoice, "fixed",
               "synthetic OS noise: the length of each detour: fixed (noise/duration), exponential or uniform "
               "(on [0, 2 x noise/duration]), both with mean noise/duration, drawn from noise/seed for 1024 "
               "periods that then repeat, and at most half a period",
               {"fixed", "exponential", "uniform"}});
  cfg.declare({"noise/rule", CfgType::kChoice, "loggopsim",
               "how detours stretch a CPU interval [t, t+C): loggopsim (the rest of a detour in progress plus every "
               "detour starting in [t, t+C), LogGOPSim's rule) or preempt (the interval ends once C of time outside "
               "detours has passed: detours in the stretch count too)",
               {"loggopsim", "preempt"}});
  cfg.declare({"noise/cosched", CfgType::kBool, "no",
               "yes: every rank reads the noise trace at the same offset (co-scheduled noise); no: independent "
               "offsets per rank", {}});
  cfg.declare({"noise/seed", CfgType::kInt, "0",
               "seed of the noise offsets (splitmix64): the same seed gives the same offsets and results", {}});
  cfg.declare({"noise/offsets", CfgType::kText, "none",
               "fixed noise offsets instead of drawn ones: one time for every rank or a comma-separated time per "
               "rank (each modulo the trace period; for tests and hand computations)", {}});
}

bool is_noise_key(std::string_view key) { return key.starts_with("noise/"); }

namespace {

SourceLoc key_loc(std::string_view key) { return SourceLoc{"--cfg " + std::string(key), 0, 0}; }

DetourTrace synthetic(const Config& cfg) {
  const SimTime period = cfg.time("noise/period"), duration = cfg.time("noise/duration");
  if (!cfg.is_explicit("noise/period") || !cfg.is_explicit("noise/duration"))
    throw InputError(key_loc(cfg.is_explicit("noise/period") ? "noise/duration" : "noise/period"),
                     "synthetic noise needs both noise/period and noise/duration (a detour of duration every period)");
  if (duration <= SimTime::zero())
    throw InputError(key_loc("noise/duration"), "noise/duration must be more than 0 (a detour takes time)");
  if (period <= duration)
    throw InputError(key_loc("noise/period"),
                     "noise/period (" + std::to_string(period.ps()) + " ps) must be longer than noise/duration (" +
                         std::to_string(duration.ps()) + " ps): the detours would leave no time for computation");
  const std::string& law = cfg.choice("noise/distribution");
  if (law == "fixed") return DetourTrace({{0, duration.ps()}}, period.ps());
  // Drawn durations: kDrawnPeriods periods of one detour each, at the start of its period, with
  // its own length; the whole repeats (period kDrawnPeriods x P), so each rank, at its offset,
  // meets its own sequence. The stream is the seed's, apart from the offsets' (a constant xored).
  constexpr int64_t kDrawnPeriods = 1024;
  if (period.ps() > INT64_MAX / kDrawnPeriods)
    throw InputError(key_loc("noise/period"), "noise/period is too long for drawn durations (at most about 100 days / 1024)");
  SplitMix64 rng(static_cast<uint64_t>(cfg.integer("noise/seed")) ^ 0x6e6f697365ULL);
  const double mean = static_cast<double>(duration.ps());
  const int64_t cap = period.ps() / 2;
  std::vector<Detour> detours;
  detours.reserve(static_cast<size_t>(kDrawnPeriods));
  for (int64_t i = 0; i < kDrawnPeriods; ++i) {
    const double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;  // [0, 1)
    const double d = law == "exponential" ? -mean * std::log1p(-u) : 2 * mean * u;
    detours.push_back(Detour{i * period.ps(), std::clamp<int64_t>(std::llround(d), 1, std::max<int64_t>(1, cap))});
  }
  return DetourTrace(std::move(detours), kDrawnPeriods * period.ps());
}

}  // namespace

NoiseSetup make_noise(const Config& cfg, int num_ranks) {
  NoiseSetup s;
  const std::string& file = cfg.text("noise/trace");
  const bool traced = file != "none";
  const bool synth = cfg.is_explicit("noise/period") || cfg.is_explicit("noise/duration");
  if (traced && cfg.is_explicit("noise/distribution"))
    throw InputError(key_loc("noise/distribution"),
                     "noise/distribution draws synthetic detours (noise/period, noise/duration); a noise/trace gives "
                     "its own");
  if (traced && synth)
    throw InputError(key_loc(cfg.is_explicit("noise/period") ? "noise/period" : "noise/duration"),
                     "noise comes from noise/trace or from noise/period and noise/duration, not both");
  if (!traced && !synth) {
    for (const auto& entry : cfg.keys())
      if (const std::string& key = entry.first; is_noise_key(key) && cfg.is_explicit(key))
        throw InputError(key_loc(key), key + " says how to inject OS noise, but there is none: add noise/trace=FILE, "
                                             "or noise/period and noise/duration");
    return s;
  }
  DetourTrace trace = traced ? read_noise_trace(file) : synthetic(cfg);
  const int64_t period = trace.period_ps();
  std::vector<int64_t> offsets;
  if (const std::string& list = cfg.text("noise/offsets"); list != "none") {
    if (cfg.is_explicit("noise/cosched") || cfg.is_explicit("noise/seed"))
      throw InputError(key_loc("noise/offsets"), "noise/offsets fixes every offset: noise/cosched and noise/seed "
                                                 "would do nothing (leave them out)");
    std::string why;
    auto fixed = fixed_offsets(list, num_ranks, period, &why);
    if (!fixed) throw InputError(key_loc("noise/offsets"), "noise/offsets=" + list + ": " + why);
    offsets = std::move(*fixed);
    s.offsets = "fixed";
  } else {
    const bool cosched = cfg.boolean("noise/cosched");
    offsets = drawn_offsets(static_cast<uint64_t>(cfg.integer("noise/seed")), cosched, num_ranks, period);
    s.offsets = cosched ? "co-scheduled" : "independent";
  }
  const NoiseRule rule = cfg.choice("noise/rule") == "preempt" ? NoiseRule::kPreempt : NoiseRule::kLoggopsim;
  s.model = std::make_unique<NoiseModel>(std::move(trace), rule, std::move(offsets));
  s.source = traced ? file : cfg.choice("noise/distribution") == "fixed"
                                   ? "synthetic"
                                   : "synthetic, " + cfg.choice("noise/distribution") + " durations";
  return s;
}

}  // namespace simfab::noise
