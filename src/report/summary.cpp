#include "report/summary.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "report/energy_report.hpp"
#include "report/network_stats.hpp"
#include "report/nic_report.hpp"
#include "report/noise_report.hpp"
#include "report/plural.hpp"

namespace simfab {

std::string human_time(SimTime t) {
  const double ps = static_cast<double>(t.ps());
  static const struct { double scale; const char* unit; } kUnits[] = {
      {1e12, "s"}, {1e9, "ms"}, {1e6, "us"}, {1e3, "ns"}, {1, "ps"}};
  for (const auto& u : kUnits) {
    if (ps >= u.scale || u.scale == 1) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.4g %s", ps / u.scale, u.unit);
      return buf;
    }
  }
  return "0 ps";
}

namespace {

std::string with_ps(SimTime t) { return std::to_string(t.ps()) + " ps (" + human_time(t) + ")"; }

// Model switches (sim/model_switch.hpp): a line per phase.
void print_phases(std::ostream& os, const std::vector<PhaseResult>& phases) {
  if (phases.empty()) return;
  os << "phases:\n";
  char buf[160];
  for (size_t i = 0; i < phases.size(); ++i) {
    const PhaseResult& p = phases[i];
    os << "  " << i << ": " << human_time(p.from) << " to " << human_time(p.to) << ", " << p.model;
    if (!p.changes.empty()) os << " (" << changes_text(p.changes) << ")";
    std::snprintf(buf, sizeof buf, ", %llu messages, %llu events, %.3f s\n", static_cast<unsigned long long>(p.messages),
                  static_cast<unsigned long long>(p.events), p.wall_s);
    os << buf;
  }
}

nlohmann::ordered_json phases_json(const std::vector<PhaseResult>& phases, bool reproducible) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const PhaseResult& p : phases) {
    nlohmann::ordered_json changes = nlohmann::ordered_json::object();
    for (const auto& [k, v] : p.changes) changes[k] = v;
    a.push_back({{"from_ps", p.from.ps()},
                 {"to_ps", p.to.ps()},
                 {"changes", std::move(changes)},
                 {"model", p.model},
                 {"messages", p.messages},
                 {"bytes", p.bytes},
                 {"events", p.events},
                 {"wall_s", reproducible ? 0.0 : p.wall_s}});
  }
  return a;
}

nlohmann::ordered_json config_json(const RunResult& r, const Config& cfg) {
  nlohmann::ordered_json c = nlohmann::ordered_json::object();
  for (const auto& entry : cfg.keys()) {
    const std::string& name = entry.first;  // not a structured binding: lambdas capture it
    auto derived = std::find_if(r.derived.begin(), r.derived.end(), [&](const auto& d) { return d.first == name; });
    if (derived != r.derived.end()) {
      c[name] = derived->second;
      continue;
    }
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, SimTime>) c[name] = v.ps();
          else c[name] = v;
        },
        cfg.value(name));
  }
  return c;
}

}  // namespace

// With cpu/region-factors: how many regions it scaled and what it changed; the file's regions that
// never computed (a typo, or code this run did not reach) are named, not silently ignored.
void print_region_factors(std::ostream& os, const RunResult& r, const Config& cfg) {
  const std::string& file = cfg.text("cpu/region-factors");
  if (file == "none") return;
  size_t scaled = 0;
  uint64_t given = 0, charged = 0;
  for (const RegionRow& g : r.regions) {
    scaled += g.factor != 1;
    given += g.given_ps;
    charged += g.charged_ps;
  }
  os << "region factors (" << file << "): " << scaled << " of " << r.regions.size() << " regions scaled, computation "
     << human_time(SimTime::ps(static_cast<int64_t>(given))) << " given, "
     << human_time(SimTime::ps(static_cast<int64_t>(charged))) << " charged\n";
  if (!r.unused_region_factors.empty())
    os << "warning: " << r.unused_region_factors.size() << " region(s) of " << file << " never computed in this run, e.g. '"
       << r.unused_region_factors.front() << "'\n";
}

nlohmann::ordered_json region_factors_json(const RunResult& r) {
  size_t scaled = 0;
  for (const RegionRow& g : r.regions) scaled += g.factor != 1;
  return {{"regions", r.regions.size()}, {"scaled", scaled}, {"unused", r.unused_region_factors}};
}

void print_summary(std::ostream& os, const RunResult& r, const Config& cfg) {
  const ExecutionResult& e = r.exec;
  os << "simfab " << SIMFAB_VERSION << ": " << r.application << " (" << r.application_format
     << (r.goal_compiled ? ", compiled" : "") << ", "
     << counted(static_cast<uint64_t>(r.num_ranks), "rank") << ") on " << r.platform << ", network model " << r.model << "\n";
  os << "predicted makespan: " << with_ps(e.makespan) << "\n";
  const size_t n = e.finish.size();
  if (n <= 16) {
    os << "rank finish times:\n";
    for (size_t i = 0; i < n; ++i)
      os << "  rank " << i << " on " << r.rank_host[i] << ": " << with_ps(e.finish[i]) << "\n";
  } else if (n > 0) {
    auto [lo, hi] = std::minmax_element(e.finish.begin(), e.finish.end());
    __int128 sum = 0;
    for (SimTime t : e.finish) sum += t.ps();
    SimTime mean = SimTime::ps(static_cast<int64_t>(sum / static_cast<__int128>(n)));
    os << "rank finish times (" << n << " ranks): earliest rank " << (lo - e.finish.begin()) << " at "
       << with_ps(*lo) << ", latest rank " << (hi - e.finish.begin()) << " at " << with_ps(*hi)
       << ", mean " << with_ps(mean) << "\n";
  }
  os << "messages: " << e.messages << ", bytes: " << e.bytes;
  if (e.unmatched_messages) os << ", never received: " << e.unmatched_messages;
  os << "\n";
  char buf[128];
  std::snprintf(buf, sizeof buf,
                "events: %llu, wall time: %.3f s (simulation %.3f s, %.3g events/s), peak memory: %.1f MiB\n",
                static_cast<unsigned long long>(e.events), r.wall_s, r.simulate_s,
                r.simulate_s > 0 ? static_cast<double>(e.events) / r.simulate_s : 0.0,
                static_cast<double>(r.peak_rss_bytes) / 1048576.0);
  os << buf;
  print_network_stats(os, r.network, e.makespan);
  if (r.nic.present) print_nic(os, r.nic);
  print_phases(os, r.phases);
  print_energy(os, r, cfg);
  print_region_factors(os, r, cfg);
  print_noise(os, r.noise);
  for (const auto& [k, how] : r.derived) os << "note: " << k << " = " << how << "\n";
}

std::string result_json(const RunResult& r, const Config& cfg, bool reproducible) {
  return result_json_value(r, cfg, reproducible).dump(2) + "\n";
}

nlohmann::ordered_json result_json_value(const RunResult& r, const Config& cfg, bool reproducible) {
  const ExecutionResult& e = r.exec;
  nlohmann::ordered_json j;
  j["version"] = SIMFAB_VERSION;
  j["config"] = config_json(r, cfg);
  j["inputs"] = {{"platform", r.platform}, {"application", r.application}, {"format", r.application_format}};
  if (r.goal_compiled) j["inputs"]["compiled"] = true;
  j["model"] = r.model;
  j["makespan_ps"] = e.makespan.ps();
  j["makespan_s"] = e.makespan.seconds();
  j["num_ranks"] = r.num_ranks;
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (size_t i = 0; i < e.finish.size(); ++i)
    ranks.push_back({{"rank", i}, {"host", r.rank_host[i]}, {"finish_ps", e.finish[i].ps()}});
  j["ranks"] = std::move(ranks);
  j["messages"] = e.messages;
  j["bytes"] = e.bytes;
  j["unmatched_messages"] = e.unmatched_messages;
  j["events"] = e.events;
  if (r.network.present) j["network"] = network_stats_json(r.network, e.makespan);
  if (r.nic.present) j["nic"] = nic_json(r.nic);
  if (!r.phases.empty()) j["phases"] = phases_json(r.phases, reproducible);
  add_energy_json(j, r, cfg);
  if (cfg.text("cpu/region-factors") != "none") j["region_factors"] = region_factors_json(r);
  if (r.noise.present) j["noise"] = noise_json(r.noise);
  j["wall_s"] = reproducible ? 0.0 : r.wall_s;
  j["simulate_s"] = reproducible ? 0.0 : r.simulate_s;
  j["peak_rss_bytes"] = reproducible ? 0 : r.peak_rss_bytes;
  return j;
}

}  // namespace simfab
