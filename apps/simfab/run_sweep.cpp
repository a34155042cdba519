#include "run_sweep.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <numeric>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"
#include "sweep/point_runner.hpp"

namespace simfab {
namespace {

constexpr int64_t kMaxSettings = 10'000;

std::string full_key(std::string key) { return key == "pstate" ? "energy/pstate" : key; }

bool parse_int(std::string_view s, int64_t* v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::vector<std::vector<std::string>> parse_sweep(const std::string& spec) {
  std::vector<std::vector<std::string>> out;
  const size_t eq = spec.find('=');
  if (eq == std::string::npos) {  // a sweep file
    std::ifstream f(spec);
    if (!f) throw InputError(SourceLoc{spec, 0, 0}, "cannot read the sweep file (or give KEY=A..B)");
    std::string line;
    int n = 0;
    while (std::getline(f, line)) {
      ++n;
      std::istringstream words(line);
      std::vector<std::string> setting;
      std::string w;
      while (words >> w) {
        if (w[0] == '#') break;
        const size_t e = w.find('=');
        if (e == std::string::npos || e == 0)
          throw InputError(SourceLoc{spec, n, 0}, "'" + w + "' is not key=value; a sweep file has one setting per "
                                                  "line, as space-separated key=value assignments");
        setting.push_back(full_key(w.substr(0, e)) + w.substr(e));
      }
      if (!setting.empty()) out.push_back(std::move(setting));
      if (static_cast<int64_t>(out.size()) > kMaxSettings)
        throw InputError(SourceLoc{spec, n, 0}, "more than 10000 settings in one sweep");
    }
    if (out.empty()) throw InputError(SourceLoc{spec, n, 0}, "the sweep file has no setting");
    return out;
  }
  const std::string key = full_key(spec.substr(0, eq));
  const std::string values = spec.substr(eq + 1);
  const SourceLoc at{"--sweep", 0, 0};
  if (key.empty() || values.empty()) throw InputError(at, "'" + spec + "': expected KEY=A..B or KEY=v1,v2,...");
  if (const size_t dots = values.find(".."); dots != std::string::npos) {
    int64_t a = 0, b = 0;
    if (!parse_int(std::string_view(values).substr(0, dots), &a) ||
        !parse_int(std::string_view(values).substr(dots + 2), &b) || b < a)
      throw InputError(at, "'" + spec + "': expected integers A..B with A <= B");
    if (b - a >= kMaxSettings) throw InputError(at, "'" + spec + "': more than 10000 settings in one sweep");
    for (int64_t v = a; v <= b; ++v) out.push_back({key + "=" + std::to_string(v)});
    return out;
  }
  std::istringstream list(values);
  std::string v;
  while (std::getline(list, v, ',')) {
    if (v.empty()) throw InputError(at, "'" + spec + "': an empty value in the list");
    out.push_back({key + "=" + v});
  }
  return out;
}

std::vector<std::string> single_run_arguments(const std::vector<std::string>& args) {
  std::vector<std::string> out = {"run"};
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--quiet" || a == "--reproducible") continue;
    if (a == "--sweep" || a == "--json") {
      ++i;  // and its value
      continue;
    }
    if (a.rfind("--sweep=", 0) == 0 || a.rfind("--json=", 0) == 0) continue;
    out.push_back(a);
  }
  return out;
}

namespace {

// A setting's run ended otherwise than with a result: its own messages, then why the sweep stops.
int report_failed_setting(const std::string& name, const PointOutcome& o) {
  std::fflush(stdout);
  std::cerr << o.stderr_text;
  if (o.exit_code == 3) {
    std::cerr << "simfab: sweep setting '" << name << "' deadlocks; the sweep stops\n";
    return 3;
  }
  if (o.signal != 0) {
    std::cerr << "simfab: sweep setting '" << name << "' was killed by signal " << o.signal << "; the sweep stops\n";
    return 1;
  }
  return o.exit_code;
}

}  // namespace

int run_sweep(const std::string& spec, const std::vector<std::string>& run_args, const Config& cfg,
              const std::string& json_path, bool quiet) {
  const std::vector<std::vector<std::string>> settings = parse_sweep(spec);
  // Every setting is checked before the first run: a typo fails at once, not after hours.
  for (const auto& setting : settings) {
    Config c = cfg;
    for (const std::string& a : setting) c.set_assignment(a, SourceLoc{"--sweep", 0, 0});
  }
  // The setting column is as wide as its longest name (at least 40), so every row lines up.
  std::vector<std::string> names;
  int width = 40;
  for (const auto& setting : settings) {
    std::string name;
    for (const std::string& a : setting) name += (name.empty() ? "" : " ") + a;
    width = std::max(width, static_cast<int>(name.size()));
    names.push_back(std::move(name));
  }
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  if (!quiet) std::printf("%-*s %16s %16s %14s\n", width, "setting", "makespan (s)", "energy (J)", "mean power (W)");
  std::fflush(stdout);
  // Each setting is its own simfab process (sweep/point_runner.hpp), as for `simfab sweep`; rows
  // are printed in the settings' order as soon as every earlier one is done.
  std::vector<std::optional<PointOutcome>> outcomes(settings.size());
  std::vector<size_t> todo(settings.size());
  std::iota(todo.begin(), todo.end(), size_t{0});
  size_t printed = 0;
  int status = 0;
  PointRunner runner(available_cores(), 0);
  runner.run(
      todo,
      [&](size_t i, const std::string& json) {
        std::vector<std::string> a = run_args;
        for (const std::string& s : settings[i]) a.insert(a.end(), {"--cfg", s});
        a.insert(a.end(), {"--json", json, "--reproducible", "--quiet"});
        return a;
      },
      [&](size_t i, PointOutcome& o) {
        outcomes[i] = std::move(o);
        for (; printed < settings.size() && outcomes[printed]; ++printed) {
          const PointOutcome& done = *outcomes[printed];
          if (done.exit_code != 0) {
            status = report_failed_setting(names[printed], done);
            return false;
          }
          const auto j = nlohmann::json::parse(done.json);
          const double T = j.at("makespan_s").get<double>();
          const std::string& name = names[printed];
          nlohmann::ordered_json row = {{"setting", name}, {"makespan_s", T}, {"makespan_ps", j.at("makespan_ps")}};
          if (j.contains("energy_j") && !j["energy_j"].is_null()) {
            const double energy = j["energy_j"].get<double>();
            row["energy_j"] = energy;
            row["mean_power_w"] = T > 0 ? energy / T : 0.0;
            if (!quiet)
              std::printf("%-*s %16.9g %16.9g %14.6g\n", width, name.c_str(), T, energy, T > 0 ? energy / T : 0.0);
          } else {
            row["energy_j"] = nullptr;
            row["mean_power_w"] = nullptr;
            if (!quiet) std::printf("%-*s %16.9g %16s %14s\n", width, name.c_str(), T, "-", "-");
          }
          std::fflush(stdout);
          rows.push_back(std::move(row));
        }
        return true;
      },
      nullptr);
  if (status != 0) return status;
  if (!json_path.empty())
    write_file_atomically(json_path, "the JSON output file", [&](std::ostream& out) {
      nlohmann::ordered_json j;
      j["sweep"] = std::move(rows);
      out << j.dump(2) << "\n";
    });
  return 0;
}

}  // namespace simfab
