#include "sweep/sweep_results.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <map>

#include <nlohmann/json.hpp>

#include "core/csv.hpp"
#include "core/mapped_file.hpp"
#include "report/time_format.hpp"

namespace simfab {
namespace {

std::string join_csv(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
  return line;
}

}  // namespace

std::string point_status(const PointOutcome& o) {
  if (o.timed_out) return "timeout";
  if (o.signal == SIGINT || o.signal == SIGTERM || o.exit_code == 130 || o.exit_code == 143) return "";
  if (o.signal != 0 || o.exit_code == 4) return "crashed";
  switch (o.exit_code) {
    case 0: return o.json.empty() ? "error" : "ok";
    case 2: return "bad_input";
    case 3: return "deadlock";
    case 5: return "failure";
    default: return "error";
  }
}

std::string point_error(const PointOutcome& o) {
  if (o.timed_out) return "killed after the spec's timeout";
  size_t pos = 0;
  while (pos < o.stderr_text.size()) {
    size_t end = o.stderr_text.find('\n', pos);
    if (end == std::string::npos) end = o.stderr_text.size();
    std::string line = o.stderr_text.substr(pos, end - pos);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) return line;
    pos = end + 1;
  }
  if (o.signal != 0) return std::string("killed by signal ") + std::to_string(o.signal) + " (" + strsignal(o.signal) + ")";
  if (o.exit_code == 0 && o.json.empty()) return "the point wrote no JSON result";
  return o.exit_code == 0 ? "" : "exit status " + std::to_string(o.exit_code);
}

SweepResults::SweepResults(const SweepSpec& spec) : spec_(spec), header_(spec.columns), rows_(spec.points.size()) {
  if (spec.repetitions > 1) header_.push_back("rep");
  keys_ = header_.size();
  header_.insert(header_.end(), kSweepResultColumns.begin(), kSweepResultColumns.end());
}

std::vector<std::string> SweepResults::key_cells(size_t point) const {
  std::vector<std::string> key = spec_.points[point].cells;
  if (spec_.repetitions > 1) key.push_back(std::to_string(spec_.points[point].rep));
  return key;
}

void SweepResults::resume_from(const std::string& path, bool retry_failed) {
  MappedFile file(path);
  const auto records = parse_csv(file.text(), path);
  if (records.empty()) return;
  if (records[0] != header_)
    throw InputError(SourceLoc{path, 1, 0},
                     "this file has other columns than " + spec_.path + "'s results (" + join_csv(header_) +
                         "): it belongs to another sweep; remove it or choose another -o",
                     join_csv(records[0]));
  std::map<std::vector<std::string>, size_t> index;
  for (size_t p = 0; p < rows_.size(); ++p) index.emplace(key_cells(p), p);
  const size_t status_col = header_.size() - 2;
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& rec = records[r];
    const SourceLoc at{path, static_cast<int>(r) + 1, 0};
    if (rec.size() != header_.size())
      throw InputError(at, "expected " + std::to_string(header_.size()) + " fields, got " +
                               std::to_string(rec.size()), join_csv(rec));
    auto it = index.find(std::vector<std::string>(rec.begin(), rec.begin() + static_cast<std::ptrdiff_t>(keys_)));
    if (it == index.end())
      throw InputError(at, "this row is no point of " + spec_.path +
                               ": the file belongs to another sweep; remove the row or choose another -o",
                       join_csv(rec));
    if (retry_failed && rec[status_col] != "ok") continue;
    rows_[it->second] = rec;
  }
}

size_t SweepResults::recorded() const {
  return static_cast<size_t>(std::count_if(rows_.begin(), rows_.end(), [](const auto& r) { return !r.empty(); }));
}

size_t SweepResults::failed() const {
  const size_t status_col = header_.size() - 2;
  return static_cast<size_t>(
      std::count_if(rows_.begin(), rows_.end(), [&](const auto& r) { return !r.empty() && r[status_col] != "ok"; }));
}

std::string SweepResults::record(size_t point, const PointOutcome& o) {
  std::string status = point_status(o);
  if (status.empty()) return status;
  std::vector<std::string> row = key_cells(point);
  std::string makespan_ps, makespan_s, energy, messages, error = point_error(o);
  if (status == "ok") {
    try {
      const auto j = nlohmann::json::parse(o.json);
      const int64_t ps = j.at("makespan_ps").get<int64_t>();
      makespan_ps = std::to_string(ps);
      makespan_s = decimal_text(ps, 12);
      if (j.contains("energy_j") && !j["energy_j"].is_null()) energy = j["energy_j"].dump();
      messages = j.at("messages").dump();
    } catch (const nlohmann::json::exception& e) {
      status = "error";
      error = std::string("the point's JSON result is unreadable: ") + e.what();
    }
  }
  char wall[32];
  std::snprintf(wall, sizeof wall, "%.3f", o.wall_s);
  row.insert(row.end(), {makespan_ps, makespan_s, energy, messages, wall, status, status == "ok" ? "" : error});
  rows_[point] = std::move(row);
  return status;
}

void SweepResults::write(std::ostream& out) const {
  out << join_csv(header_) << "\n";
  for (const auto& row : rows_)
    if (!row.empty()) out << join_csv(row) << "\n";
}

}  // namespace simfab
