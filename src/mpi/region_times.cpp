#include "mpi/region_times.hpp"

#include <charconv>
#include <cmath>
#include <functional>
#include <unordered_set>

#include "core/config.hpp"
#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "core/trim.hpp"

namespace simfab {

namespace {

std::optional<double> number(std::string_view s) {
  s = trim_blanks(s);
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<uint64_t> count(std::string_view s) {
  s = trim_blanks(s);
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// Calls row(fields, line number) for every line of `path` that is not blank or a # comment.
void for_each_row(const std::string& path, const std::function<void(const std::vector<std::string>&, int)>& row) {
  const MappedFile file(path);
  std::string_view text = file.text();
  int line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = trim_blanks(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    const auto fields = split_csv_line(line);
    if (!fields) throw InputError(SourceLoc{path, line_no, 0}, "a quoted field is not closed", std::string(line));
    row(*fields, line_no);
  }
}

}  // namespace

void register_region_keys(Config& cfg) {
  cfg.declare({"cpu/region-factors", CfgType::kText, "none",
               "a CSV of \"region\",factor lines (seed 001 §2.11; `simfab calibrate regions` writes it): each "
               "computation of a code region (the code between two MPI call sites) is charged its time x the "
               "region's factor; --stats writes regions.csv", {}});
}

std::optional<std::vector<std::string>> split_csv_line(std::string_view line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') out.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  if (quoted) return std::nullopt;
  return out;
}

void RegionTimes::load_factors(const std::string& path) {
  for_each_row(path, [&](const std::vector<std::string>& f, int line) {
    const SourceLoc at{path, line, 0};
    if (line_is_header(f)) return;
    if (f.size() != 2)
      throw InputError(at, "expected \"region\",factor (two fields, seed 001's form \"a.f:130:a.f:30\",1.97), got " +
                               std::to_string(f.size()) + " fields");
    const std::string name(trim_blanks(f[0]));
    const auto s = number(f[1]);
    if (name.empty()) throw InputError(at, "the region is empty: expected \"<previous call's site>:<next call's site>\"");
    if (!s || *s <= 0)
      throw InputError(at, "the factor of region '" + name + "' must be a finite number > 0, got '" + f[1] + "'");
    if (!factors_.emplace(name, *s).second)
      throw InputError(at, "region '" + name + "' is listed twice");
    factor_order_.push_back(name);
  });
  if (factors_.empty()) throw InputError(SourceLoc{path, 0, 0}, "the region factor file lists no region");
}

bool RegionTimes::line_is_header(const std::vector<std::string>& f) {
  return f.size() == 2 && trim_blanks(f[0]) == "region" && trim_blanks(f[1]) == "factor";
}

std::string RegionTimes::region_name(const CallSites& sites, uint32_t task) {
  const auto [previous, next] = sites.task_sites(task);
  return sites.site_name(previous) + ":" + sites.site_name(next);
}

uint64_t RegionTimes::charge(const CallSites& sites, uint32_t task, uint64_t given_ps) {
  if (task >= tasks_.size()) tasks_.resize(task + 1);
  PerTask& t = tasks_[task];
  if (!t.known) {
    t.known = true;
    if (!factors_.empty()) {
      const std::string name = region_name(sites, task);
      if (auto it = factors_.find(name); it != factors_.end()) {
        t.factor = it->second;
        factor_used_.insert(name);
      }
    }
  }
  const uint64_t charged =
      t.factor == 1 ? given_ps : static_cast<uint64_t>(std::llround(static_cast<double>(given_ps) * t.factor));
  ++t.executions;
  t.given_ps += given_ps;
  t.charged_ps += charged;
  return charged;
}

std::vector<RegionRow> RegionTimes::rows(const CallSites& sites) const {
  std::vector<RegionRow> out;
  for (uint32_t task = 0; task < tasks_.size(); ++task) {
    const PerTask& t = tasks_[task];
    if (t.executions == 0) continue;
    out.push_back({region_name(sites, task), t.executions, t.given_ps, t.charged_ps, t.factor});
  }
  return out;
}

std::vector<std::string> RegionTimes::unused_factors() const {
  std::vector<std::string> out;
  for (const std::string& name : factor_order_)
    if (!factor_used_.count(name)) out.push_back(name);
  return out;
}

std::vector<RegionMeasurement> read_regions_csv(const std::string& path) {
  std::vector<RegionMeasurement> out;
  std::unordered_set<std::string> seen;
  bool header = false;
  for_each_row(path, [&](const std::vector<std::string>& f, int line) {
    const SourceLoc at{path, line, 0};
    if (!header) {
      if (f.size() < 3 || f[0] != "region" || f[1] != "executions" || f[2] != "given_s")
        throw InputError(at, "expected the header of a regions.csv that `simfab run/exec --stats DIR` writes "
                             "(region,executions,given_s,...)");
      header = true;
      return;
    }
    if (f.size() < 3) throw InputError(at, "expected region,executions,given_s,...: got " + std::to_string(f.size()) + " fields");
    const auto n = count(f[1]);
    const auto s = number(f[2]);
    if (!n || *n == 0) throw InputError(at, "executions must be a whole number > 0, got '" + f[1] + "'");
    if (!s || *s < 0) throw InputError(at, "given_s must be a number of seconds >= 0, got '" + f[2] + "'");
    if (!seen.insert(f[0]).second) throw InputError(at, "region '" + f[0] + "' is listed twice");
    out.push_back({f[0], *n, *s});
  });
  if (!header) throw InputError(SourceLoc{path, 0, 0}, "the file is empty: expected a regions.csv from --stats");
  return out;
}

std::vector<RegionFactor> region_factors(const std::vector<RegionMeasurement>& reference,
                                         const std::vector<RegionMeasurement>& measured,
                                         std::vector<std::string>& only_reference,
                                         std::vector<std::string>& only_measured) {
  std::unordered_map<std::string, const RegionMeasurement*> by_name;
  for (const RegionMeasurement& m : measured) by_name.emplace(m.name, &m);
  std::unordered_set<std::string> matched;
  std::vector<RegionFactor> out;
  for (const RegionMeasurement& r : reference) {
    auto it = by_name.find(r.name);
    if (it == by_name.end()) {
      only_reference.push_back(r.name);
      continue;
    }
    const RegionMeasurement& m = *it->second;
    matched.insert(r.name);
    const double mean_ref = r.given_s / static_cast<double>(r.executions);
    const double mean_measured = m.given_s / static_cast<double>(m.executions);
    if (mean_ref <= 0 || mean_measured <= 0) continue;  // no time on one side: nothing to scale
    out.push_back({r.name, mean_ref / mean_measured, r.executions, m.executions});
  }
  for (const RegionMeasurement& m : measured)
    if (!matched.count(m.name)) only_measured.push_back(m.name);
  return out;
}

}  // namespace simfab
