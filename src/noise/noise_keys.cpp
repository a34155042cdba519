#include "noise/noise_keys.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "noise/detour_histogram.hpp"
#include "noise/noise_classes.hpp"
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
               "periods that then repeat, and at most half a period; histogram: drawn the same way from the "
               "bins of noise/histogram (no noise/duration)",
               {"fixed", "exponential", "uniform", "histogram"}});
  cfg.declare({"noise/histogram", CfgType::kText, "none",
               "detour lengths for noise/distribution=histogram: `<duration_ns> <count>` per bin (# comments) or "
               "a CSV with the header duration_ns,weight; each bin shorter than noise/period, the mean at most "
               "half of it", {}});
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
  cfg.declare({"noise/collectives", CfgType::kBool, "no",
               "yes: OS noise stretches only the CPU intervals of collectives (their overheads and reduction "
               "work; LogGOPSim's collnoise), not computations and point-to-point overheads", {}});
  cfg.declare({"noise/classes", CfgType::kText, "none",
               "noise per host class (YAML host/cluster noise_class:, XML <prop id=\"noise_class\">): "
               "CLASS:off or CLASS:KEY=VALUE,... with KEY trace, period, duration, distribution or histogram, "
               "entries separated by ';'; other hosts take the global noise/* settings", {}});
}

bool is_noise_key(std::string_view key) { return key.starts_with("noise/"); }

namespace {

// Where the keys of a noise source were given: the command line's noise/* keys, or one class of
// noise/classes (whose keys all point there).
struct Scope {
  std::string cls;  // "" for the global keys
  SourceLoc loc(std::string_view key) const {
    return SourceLoc{cls.empty() ? "--cfg " + std::string(key) : "--cfg noise/classes (class '" + cls + "')", 0, 0};
  }
};

struct Source {
  DetourTrace trace;
  std::string description;  // the trace file, or "synthetic..."
};

// kDrawnPeriods periods of one detour each, at the start of its period, with the length `draw`
// gives; the whole repeats (period kDrawnPeriods x P), so each rank, at its offset, meets its own
// sequence. The stream is the seed's, apart from the offsets' (a constant xored).
template <class Draw>
DetourTrace drawn_trace(const Config& cfg, const Scope& sc, int64_t period, Draw draw) {
  constexpr int64_t kDrawnPeriods = 1024;
  if (period > INT64_MAX / kDrawnPeriods)
    throw InputError(sc.loc("noise/period"), "noise/period is too long for drawn durations (at most about 100 days / 1024)");
  SplitMix64 rng(static_cast<uint64_t>(cfg.integer("noise/seed")) ^ 0x6e6f697365ULL);
  std::vector<Detour> detours;
  detours.reserve(static_cast<size_t>(kDrawnPeriods));
  for (int64_t i = 0; i < kDrawnPeriods; ++i) detours.push_back(Detour{i * period, draw(rng)});
  return DetourTrace(std::move(detours), kDrawnPeriods * period);
}

Source from_histogram(const Config& cfg, const Scope& sc) {
  if (!cfg.is_explicit("noise/histogram"))
    throw InputError(sc.loc("noise/distribution"),
                     "noise/distribution=histogram draws detour lengths from noise/histogram=FILE: add it");
  if (cfg.is_explicit("noise/duration"))
    throw InputError(sc.loc("noise/duration"), "with noise/distribution=histogram the histogram gives the detour "
                                               "lengths: leave noise/duration out");
  if (!cfg.is_explicit("noise/period"))
    throw InputError(sc.loc("noise/histogram"), "noise/histogram needs noise/period (one detour per period)");
  const int64_t period = cfg.time("noise/period").ps();
  if (period <= 0) throw InputError(sc.loc("noise/period"), "noise/period must be more than 0");
  const std::string& file = cfg.text("noise/histogram");
  const DetourHistogram h = DetourHistogram::read(file);
  h.fit_period(period);
  return {drawn_trace(cfg, sc, period, [&](SplitMix64& rng) { return h.draw(rng.next()); }),
          "synthetic, histogram durations from " + file};
}

Source synthetic(const Config& cfg, const Scope& sc) {
  const std::string& law = cfg.choice("noise/distribution");
  if (law == "histogram") return from_histogram(cfg, sc);
  if (cfg.is_explicit("noise/histogram"))
    throw InputError(sc.loc("noise/histogram"), "noise/histogram gives the detour lengths of "
                                                "noise/distribution=histogram: add that (or leave noise/histogram out)");
  const SimTime period = cfg.time("noise/period"), duration = cfg.time("noise/duration");
  if (!cfg.is_explicit("noise/period") || !cfg.is_explicit("noise/duration"))
    throw InputError(sc.loc(cfg.is_explicit("noise/period") ? "noise/duration" : "noise/period"),
                     "synthetic noise needs both noise/period and noise/duration (a detour of duration every period)");
  if (duration <= SimTime::zero())
    throw InputError(sc.loc("noise/duration"), "noise/duration must be more than 0 (a detour takes time)");
  if (period <= duration)
    throw InputError(sc.loc("noise/period"),
                     "noise/period (" + std::to_string(period.ps()) + " ps) must be longer than noise/duration (" +
                         std::to_string(duration.ps()) + " ps): the detours would leave no time for computation");
  if (law == "fixed") return {DetourTrace({{0, duration.ps()}}, period.ps()), "synthetic"};
  const double mean = static_cast<double>(duration.ps());
  const int64_t cap = period.ps() / 2;
  const bool exponential = law == "exponential";
  return {drawn_trace(cfg, sc, period.ps(),
                      [&](SplitMix64& rng) {
                        const double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;  // [0, 1)
                        const double d = exponential ? -mean * std::log1p(-u) : 2 * mean * u;
                        return std::clamp<int64_t>(std::llround(d), 1, std::max<int64_t>(1, cap));
                      }),
          "synthetic, " + law + " durations"};
}

// The detours the source keys of `cfg` give (noise/trace, period, duration, distribution,
// histogram), or nullopt when they give none.
std::optional<Source> detour_source(const Config& cfg, const Scope& sc) {
  const std::string& file = cfg.text("noise/trace");
  const bool traced = file != "none";
  const bool synth =
      cfg.is_explicit("noise/period") || cfg.is_explicit("noise/duration") || cfg.is_explicit("noise/histogram");
  if (traced && cfg.is_explicit("noise/distribution"))
    throw InputError(sc.loc("noise/distribution"),
                     "noise/distribution draws synthetic detours (noise/period, noise/duration); a noise/trace gives "
                     "its own");
  if (traced && synth)
    throw InputError(sc.loc(cfg.is_explicit("noise/period")     ? "noise/period"
                            : cfg.is_explicit("noise/duration") ? "noise/duration"
                                                                : "noise/histogram"),
                     "noise comes from noise/trace or from noise/period and noise/duration, not both");
  if (traced) return Source{read_noise_trace(file), file};
  if (synth) return synthetic(cfg, sc);
  return std::nullopt;
}

// A class's source: its SPEC's keys on a configuration of their own.
std::optional<Source> class_source(const ClassSpec& c) {
  if (c.off) return std::nullopt;
  const Scope sc{c.name};
  Config sub;
  register_noise_keys(sub);
  for (const auto& [key, value] : c.keys) sub.set("noise/" + key, value, sc.loc(key));
  std::optional<Source> s = detour_source(sub, sc);
  if (!s)
    throw InputError(sc.loc(""), "class '" + c.name + "' gives no noise: expected off, trace=FILE, "
                                 "period=T,duration=T or period=T,distribution=histogram,histogram=FILE");
  return s;
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

NoiseResult NoiseSetup::result() const {
  NoiseResult r = model->result(offsets, source);
  if (!global) {
    r.period_ps = 0;
    r.detours_per_period = 0;
  }
  r.classes = classes;
  r.rank_class = rank_class;
  return r;
}

NoiseSetup make_noise(const Config& cfg, int num_ranks) {
  return make_noise(cfg, {}, std::vector<int>(static_cast<size_t>(num_ranks), -1));
}

NoiseSetup make_noise(const Config& cfg, const std::vector<std::string>& class_names,
                      const std::vector<int>& rank_class) {
  NoiseSetup s;
  const size_t num_ranks = rank_class.size();
  std::optional<Source> global = detour_source(cfg, Scope{});
  // The classes: their sources, and for each platform class the spec that names it (-1: none).
  std::vector<ClassSpec> specs;
  if (const std::string& text = cfg.text("noise/classes"); text != "none") specs = parse_noise_classes(text);
  std::vector<std::optional<Source>> class_src;
  std::vector<int> spec_of(class_names.size(), -1);
  for (size_t k = 0; k < specs.size(); ++k) {
    const auto it = std::find(class_names.begin(), class_names.end(), specs[k].name);
    if (it == class_names.end())
      throw InputError(Scope{specs[k].name}.loc(""),
                       "no host of the platform has noise_class '" + specs[k].name + "' (" +
                           (class_names.empty() ? "the platform declares no noise class: give hosts or clusters "
                                                  "`noise_class: NAME` (YAML) or <prop id=\"noise_class\" value=\"NAME\"/>"
                                                : "its classes: " + listed(class_names)) +
                           ")");
    spec_of[static_cast<size_t>(it - class_names.begin())] = static_cast<int>(k);
    class_src.push_back(class_source(specs[k]));
  }
  const bool any_class = std::any_of(class_src.begin(), class_src.end(), [](const auto& c) { return c.has_value(); });
  if (!global && !any_class) {
    for (const auto& entry : cfg.keys())
      if (const std::string& key = entry.first; is_noise_key(key) && cfg.is_explicit(key))
        throw InputError(Scope{}.loc(key), key + " says how to inject OS noise, but there is none: add noise/trace=FILE, "
                                               "or noise/period and noise/duration");
    return s;
  }
  // Traces: the global one first (index 0), then each class's; per rank its source and period.
  std::vector<DetourTrace> traces;
  std::vector<int32_t> class_trace(specs.size(), -1);
  if (global) traces.push_back(global->trace);
  for (size_t k = 0; k < specs.size(); ++k)
    if (class_src[k]) {
      class_trace[k] = static_cast<int32_t>(traces.size());
      traces.push_back(class_src[k]->trace);
    }
  std::vector<int32_t> source(num_ranks, global ? 0 : -1);
  std::vector<int64_t> periods(num_ranks);
  if (!specs.empty()) s.rank_class.assign(num_ranks, -1);
  for (size_t r = 0; r < num_ranks; ++r) {
    if (const int c = rank_class[r]; c >= 0 && spec_of[static_cast<size_t>(c)] >= 0) {
      const int k = spec_of[static_cast<size_t>(c)];
      source[r] = class_trace[static_cast<size_t>(k)];
      s.rank_class[r] = k;
    }
    periods[r] = source[r] < 0 ? 0 : traces[static_cast<size_t>(source[r])].period_ps();
  }
  std::vector<int64_t> offsets;
  if (const std::string& list = cfg.text("noise/offsets"); list != "none") {
    if (cfg.is_explicit("noise/cosched") || cfg.is_explicit("noise/seed"))
      throw InputError(Scope{}.loc("noise/offsets"), "noise/offsets fixes every offset: noise/cosched and noise/seed "
                                                     "would do nothing (leave them out)");
    std::string why;
    auto fixed = fixed_offsets(list, periods, &why);
    if (!fixed) throw InputError(Scope{}.loc("noise/offsets"), "noise/offsets=" + list + ": " + why);
    offsets = std::move(*fixed);
    s.offsets = "fixed";
  } else {
    const bool cosched = cfg.boolean("noise/cosched");
    offsets = drawn_offsets(static_cast<uint64_t>(cfg.integer("noise/seed")), cosched, periods);
    s.offsets = cosched ? "co-scheduled" : "independent";
  }
  const NoiseRule rule = cfg.choice("noise/rule") == "preempt" ? NoiseRule::kPreempt : NoiseRule::kLoggopsim;
  s.model = std::make_unique<NoiseModel>(std::move(traces), std::move(source), rule, std::move(offsets));
  s.model->set_collectives_only(cfg.boolean("noise/collectives"));
  s.global = global.has_value();
  s.source = global ? global->description : "none";
  for (size_t k = 0; k < specs.size(); ++k) {
    NoiseResult::Class c;
    c.name = specs[k].name;
    c.source = class_src[k] ? class_src[k]->description : "off";
    if (class_src[k]) {
      c.period_ps = class_src[k]->trace.period_ps();
      c.detours_per_period = class_src[k]->trace.size();
    }
    s.classes.push_back(std::move(c));
  }
  return s;
}

}  // namespace simfab::noise
