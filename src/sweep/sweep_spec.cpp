#include "sweep/sweep_spec.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <sstream>

#include "core/config.hpp"
#include "core/mapped_file.hpp"
#include "core/spelling.hpp"
#include "platform/platform_vars.hpp"
#include "platform/yaml_input.hpp"
#include "sim/simulation.hpp"

namespace simfab {
namespace {

constexpr size_t kMaxPoints = 100'000;
constexpr std::array<std::string_view, 8> kInputs = {"platform", "hostfile", "trace", "goal",
                                                     "otf2",     "speed",    "program", "np"};
constexpr std::array<std::string_view, 5> kPathInputs = {"platform", "hostfile", "trace", "goal", "otf2"};
constexpr std::array<std::string_view, 4> kApplications = {"trace", "goal", "otf2", "program"};

bool is_one_of(std::string_view name, std::span<const std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string resolve(const SweepSpec& spec, const std::string& path) {
  if (spec.base_dir.empty() || path.empty() || path[0] == '/') return path;
  return spec.base_dir + "/" + path;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The value a point runs with for `name`: its cell, else the fixed value, else "".
std::string effective(const SweepSpec& spec, const std::vector<std::string>& cells, std::string_view name) {
  for (size_t c = 0; c < spec.columns.size(); ++c)
    if (spec.columns[c] == name && !cells[c].empty()) return cells[c];
  for (const auto& [k, v] : spec.fixed)
    if (k == name) return v;
  return {};
}

class SpecReader {
 public:
  SpecReader(const YamlInput& in, SweepSpec& spec) : in_(in), spec_(spec) { register_builtin_keys(cfg_); }

  void read() {
    if (!in_.root().IsDefined() || in_.root().IsNull())
      throw InputError(SourceLoc{spec_.path, 1, 1}, "the sweep spec is empty: expected axes: or points: "
                                                    "(and the inputs: platform:, trace: ...)");
    const YamlMap top(in_, in_.root(), "the sweep spec",
                      {"platform", "hostfile", "trace", "goal", "otf2", "speed", "program", "np", "cfg", "axes",
                       "points", "repetitions", "timeout"});
    for (const YamlField& f : top.fields()) {
      if (is_one_of(f.key, kInputs)) {
        spec_.fixed.emplace_back(f.key, value(f.key, f.value, f.key_node));
      } else if (f.key == "cfg") {
        const YamlMap cfg(in_, f.value, "cfg");
        for (const YamlField& c : cfg.fields()) {
          const std::string name = setting(c.key_node);
          if (is_one_of(name, kInputs))
            throw in_.error(c.key_node, "'" + name + "' is an input, not a --cfg key: give it at the top level");
          spec_.fixed.emplace_back(name, value(name, c.value, c.key_node));
        }
      } else if (f.key == "repetitions") {
        spec_.repetitions = static_cast<int>(top.integer(f, 1, 1000));
      } else if (f.key == "timeout") {
        spec_.timeout_s = top.number(f, "seconds (a number >= 0; 0: no limit)", [](double v) { return v >= 0; });
      }
    }
    if (const YamlField* f = top.find("axes")) read_axes(*f);
    if (const YamlField* f = top.find("points")) read_points(top, *f);
    if (!top.find("axes") && !top.find("points"))
      throw in_.error(in_.root(), "a sweep needs axes: (a Cartesian product) or points: (a list), or both");
    expand();
  }

 private:
  struct Explicit {
    std::vector<std::pair<std::string, std::string>> settings;
    SourceLoc loc;
  };

  // The canonical name of a setting key: an input, or a declared --cfg key (pstate: energy/pstate).
  std::string setting(const YAML::Node& key) {
    const std::string& name = key.Scalar();
    if (name == "pstate") return "energy/pstate";
    if (is_one_of(name, kInputs) || cfg_.keys().count(name)) return name;
    if (name[0] == '$') {
      if (!is_platform_var_name(std::string_view(name).substr(1)))
        throw in_.error(key, "'" + name + "' is not a platform variable: $NAME, NAME made of letters, digits and '_' "
                             "(not a digit first), stands for ${NAME} in the platform file");
      return name;
    }
    std::string msg = "unknown setting '" + name + "': expected an input (platform, hostfile, trace, goal, otf2, "
                      "speed, program, np) or a --cfg key (simfab config --list)";
    std::string near = name.find('/') == std::string::npos ? nearest_name(name, kInputs) : cfg_.nearest_key(name);
    if (!near.empty()) msg += "; did you mean '" + near + "'?";
    throw in_.error(key, msg);
  }

  // The value of a setting as text, checked as far as it can be without running.
  std::string value(const std::string& name, const YAML::Node& v, const YAML::Node& key) {
    if (!v.IsDefined() || v.IsNull()) throw in_.error(key, "'" + name + "' needs a value");
    if (!v.IsScalar() || v.Scalar().empty())
      throw in_.error(v, "expected one value for '" + name + "', got " + describe_node(v));
    const std::string& text = v.Scalar();
    if (name == "program" && words(text).empty()) throw in_.error(v, "expected a program (and its arguments)");
    if (is_one_of(name, kPathInputs) || (name == "program" && text.find('/') != std::string::npos)) {
      const std::string path = resolve(spec_, name == "program" ? words(text)[0] : text);
      if (::access(path.c_str(), name == "program" ? X_OK : R_OK) != 0)
        throw in_.error(v, "cannot " + std::string(name == "program" ? "execute" : "read") + " '" + path +
                               "' (relative paths start at the spec's directory)");
    } else if (name == "np") {
      char* end = nullptr;
      const long n = std::strtol(text.c_str(), &end, 10);
      if (*end != '\0' || n < 1 || n > 1'000'000)
        throw in_.error(v, "np expects a number of ranks between 1 and 1000000, got '" + text + "'");
    } else if (name[0] == '$') {
      if (text.find('\n') != std::string::npos) throw in_.error(v, "a platform variable's value is one line");
    } else if (!is_one_of(name, kInputs)) {
      cfg_.set(name, text, in_.loc(v));  // an unknown key or a value its type rejects
    }
    return text;
  }

  void add_column(const std::string& name) {
    if (std::find(spec_.columns.begin(), spec_.columns.end(), name) == spec_.columns.end())
      spec_.columns.push_back(name);
  }

  void read_axes(const YamlField& f) {
    axes_loc_ = in_.loc(f.key_node);
    const YamlMap axes(in_, f.value, "axes");
    if (axes.fields().empty()) throw in_.error(f.key_node, "axes: is empty: give at least one setting: [values]");
    for (const YamlField& a : axes.fields()) {
      const std::string name = setting(a.key_node);
      if (std::find(spec_.columns.begin(), spec_.columns.end(), name) != spec_.columns.end())
        throw in_.error(a.key_node, "axis '" + name + "' is given twice");
      std::vector<std::string> values;
      for (const YAML::Node& v : axes.list(a, "values")) values.push_back(value(name, v, a.key_node));
      if (values.empty()) throw in_.error(a.key_node, "axis '" + name + "' is empty: give at least one value");
      spec_.columns.push_back(name);
      axis_values_.push_back(std::move(values));
    }
  }

  void read_points(const YamlMap& top, const YamlField& f) {
    const std::vector<YAML::Node> items = top.list(f, "points (mappings of settings to values)");
    if (items.empty()) throw in_.error(f.key_node, "points: is empty: give at least one point, e.g. - {KEY: VALUE}");
    for (const YAML::Node& item : items) {
      const YamlMap p(in_, item, "a point");
      Explicit e{{}, in_.loc(item)};
      if (p.fields().empty()) throw in_.error(item, "a point needs at least one setting");
      for (const YamlField& s : p.fields()) {
        const std::string name = setting(s.key_node);
        e.settings.emplace_back(name, value(name, s.value, s.key_node));
        add_column(name);
      }
      explicit_.push_back(std::move(e));
    }
  }

  std::vector<std::string> blank_cells() const {
    std::vector<std::string> cells(spec_.columns.size());
    for (size_t c = 0; c < cells.size(); ++c)
      for (const auto& [k, v] : spec_.fixed)
        if (k == spec_.columns[c]) cells[c] = v;
    return cells;
  }

  void add_point(std::vector<std::string> cells, const SourceLoc& loc) {
    SweepPoint p{std::move(cells), 1, loc};
    check_application(p);
    auto [it, fresh] = seen_.emplace(p.cells, spec_.points.size() / spec_.repetitions + 1);
    if (!fresh)
      throw InputError(loc, "this point (" + point_name(spec_, p) + ") is point " + std::to_string(it->second) +
                                " again");
    if (spec_.points.size() + spec_.repetitions > kMaxPoints)
      throw InputError(loc, "more than 100000 points in one sweep");
    for (int r = 1; r <= spec_.repetitions; ++r) {
      p.rep = r;
      spec_.points.push_back(p);
    }
  }

  void check_application(const SweepPoint& p) const {
    std::vector<std::string> apps;
    for (std::string_view a : kApplications)
      if (!effective(spec_, p.cells, a).empty()) apps.emplace_back(a);
    const std::string name = point_name(spec_, p);
    if (apps.empty())
      throw InputError(p.loc, "point " + name + " has no application: give trace, goal, otf2 or program");
    if (apps.size() > 1)
      throw InputError(p.loc, "point " + name + " has two applications (" + apps[0] + " and " + apps[1] +
                                  "): give one of trace, goal, otf2, program");
    if ((apps[0] == "program") != !effective(spec_, p.cells, "np").empty())
      throw InputError(p.loc, "point " + name + ": program and np go together (simfab exec -np NP PROGRAM)");
    if (!effective(spec_, p.cells, "speed").empty() && apps[0] != "otf2")
      throw InputError(p.loc, "point " + name + ": speed applies to an otf2 application only");
  }

  void expand() {
    if (!axis_values_.empty()) {
      std::vector<size_t> at(axis_values_.size(), 0);  // an odometer, the last axis fastest
      for (;;) {
        std::vector<std::string> cells = blank_cells();
        for (size_t a = 0; a < at.size(); ++a) cells[a] = axis_values_[a][at[a]];
        add_point(std::move(cells), axes_loc_);
        size_t a = at.size();
        while (a > 0 && ++at[a - 1] == axis_values_[a - 1].size()) at[--a] = 0;
        if (a == 0) break;
      }
    }
    for (const Explicit& e : explicit_) {
      std::vector<std::string> cells = blank_cells();
      for (const auto& [k, v] : e.settings)
        cells[std::find(spec_.columns.begin(), spec_.columns.end(), k) - spec_.columns.begin()] = v;
      add_point(std::move(cells), e.loc);
    }
  }

  const YamlInput& in_;
  SweepSpec& spec_;
  Config cfg_;
  SourceLoc axes_loc_;
  std::vector<std::vector<std::string>> axis_values_;  // per axis column, in column order
  std::vector<Explicit> explicit_;
  std::map<std::vector<std::string>, size_t> seen_;  // cells -> 1-based point number
};

}  // namespace

SweepSpec load_sweep_spec(const std::string& path) {
  SweepSpec spec;
  spec.path = path;
  spec.base_dir = std::filesystem::path(path).parent_path().string();
  MappedFile file(path);
  const YamlInput in(file.text(), path);
  SpecReader(in, spec).read();
  return spec;
}

std::vector<std::string> point_arguments(const SweepSpec& spec, const SweepPoint& point, const std::string& json_path) {
  const std::string program = effective(spec, point.cells, "program");
  std::vector<std::string> args;
  if (program.empty()) {
    args.push_back("run");
  } else {
    args = {"exec", "-np", effective(spec, point.cells, "np")};
  }
  for (std::string_view input : kPathInputs)
    if (std::string v = effective(spec, point.cells, input); !v.empty())
      args.insert(args.end(), {"--" + std::string(input), resolve(spec, v)});
  if (std::string v = effective(spec, point.cells, "speed"); !v.empty()) args.insert(args.end(), {"--speed", v});
  // --cfg in the spec's order: the fixed settings (a column's value replacing one), then the columns'.
  // $NAME settings become --platform-var NAME=VALUE (platform/platform_vars.hpp).
  auto add_cfg = [&](const std::string& name) {
    if (is_one_of(name, kInputs)) return;
    const std::string v = effective(spec, point.cells, name);
    if (v.empty()) return;
    if (name[0] == '$') args.insert(args.end(), {"--platform-var", name.substr(1) + "=" + v});
    else args.insert(args.end(), {"--cfg", name + "=" + v});
  };
  for (const auto& fixed : spec.fixed) add_cfg(fixed.first);
  for (const std::string& column : spec.columns)
    if (std::none_of(spec.fixed.begin(), spec.fixed.end(), [&](const auto& f) { return f.first == column; }))
      add_cfg(column);
  args.insert(args.end(), {"--json", json_path, "--reproducible", "--quiet"});
  if (!program.empty()) {
    std::vector<std::string> argv = words(program);
    if (argv[0].find('/') != std::string::npos) argv[0] = resolve(spec, argv[0]);
    args.insert(args.end(), argv.begin(), argv.end());
  }
  return args;
}

std::string point_name(const SweepSpec& spec, const SweepPoint& point) {
  std::string name;
  for (size_t c = 0; c < spec.columns.size(); ++c)
    if (!point.cells[c].empty()) name += (name.empty() ? "" : " ") + spec.columns[c] + "=" + point.cells[c];
  if (spec.repetitions > 1) name += " rep=" + std::to_string(point.rep);
  return name;
}

}  // namespace simfab
