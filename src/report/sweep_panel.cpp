// The sweep results panel's data (see sweep_panel.hpp): CSV -> axes and results -> JSON.
#include "report/sweep_panel.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "core/csv.hpp"
#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "core/units.hpp"
#include "sweep/sweep_results.hpp"

namespace simfab {

namespace {

constexpr size_t kResults = kSweepResultColumns.size();
constexpr size_t kNumericResults = kResults - 2;  // all but status and error

// A finite number written in full ("1e-3", "480"), or nullopt.
std::optional<double> plain_number(std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// One quantity an axis may hold: its unit on the page and a reader into that unit.
struct Quantity {
  const char* unit;
  std::function<std::optional<double>(std::string_view)> read;
};

const std::vector<Quantity>& quantities() {
  static const std::vector<Quantity> kAll = {
      {"", plain_number},
      {"s",
       [](std::string_view t) -> std::optional<double> {
         const auto v = units::parse_time(t);
         return v ? std::optional<double>(v->seconds()) : std::nullopt;
       }},
      {"B/s", [](std::string_view t) { return units::parse_bandwidth(t); }},
      {"B",
       [](std::string_view t) -> std::optional<double> {
         const auto v = units::parse_bytes(t);
         return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
       }},
      {"flop/s", [](std::string_view t) { return units::parse_speed(t); }},
  };
  return kAll;
}

const char* result_unit(std::string_view column) {
  if (column == "makespan_ps") return "ps";
  if (column == "makespan_s" || column == "wall_s") return "s";
  if (column == "energy_j") return "J";
  return "";
}

std::string joined_result_columns() {
  std::string out;
  for (std::string_view c : kSweepResultColumns) out += (out.empty() ? "" : ",") + std::string(c);
  return out;
}

bool has_sweep_header(const std::vector<std::string>& header) {
  if (header.size() <= kResults) return false;
  return std::equal(kSweepResultColumns.begin(), kSweepResultColumns.end(), header.end() - kResults);
}

// Column `col` of every row as an axis: its distinct values, classified and ordered.
SweepAxis make_axis(std::string name, const std::vector<std::vector<std::string>>& rows, size_t col) {
  SweepAxis axis;
  axis.name = std::move(name);
  std::vector<std::string> seen;  // distinct values, first appearance first
  std::unordered_set<std::string_view> known;
  for (const auto& row : rows)
    if (known.insert(row[col]).second) seen.push_back(row[col]);
  const bool any_set = std::any_of(seen.begin(), seen.end(), [](const std::string& v) { return !v.empty(); });
  for (const Quantity& q : quantities()) {
    if (!any_set) break;
    std::vector<std::pair<double, std::string>> numbers;
    for (const std::string& v : seen) {
      if (v.empty()) continue;
      const auto n = q.read(v);
      if (!n) break;
      numbers.emplace_back(*n, v);
    }
    if (numbers.size() + std::count(seen.begin(), seen.end(), "") != seen.size()) continue;
    std::stable_sort(numbers.begin(), numbers.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    axis.numeric = true;
    axis.unit = q.unit;
    for (auto& [n, v] : numbers) {
      axis.values.push_back(std::move(v));
      axis.numbers.emplace_back(n);
    }
    if (numbers.size() < seen.size()) {  // the default goes last, off the numeric scale
      axis.values.emplace_back();
      axis.numbers.emplace_back(std::nullopt);
    }
    break;
  }
  if (!axis.numeric) axis.values = std::move(seen);
  std::unordered_map<std::string_view, uint32_t> index;
  for (size_t i = 0; i < axis.values.size(); ++i) index.emplace(axis.values[i], static_cast<uint32_t>(i));
  for (const auto& row : rows) axis.index.push_back(index.at(row[col]));
  return axis;
}

}  // namespace

size_t SweepTable::failed() const {
  return static_cast<size_t>(std::count_if(status.begin(), status.end(), [](const std::string& s) { return s != "ok"; }));
}

bool is_sweep_results(const std::string& path) {
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".csv") == 0) return true;
  std::ifstream in(path);
  std::string first;
  if (!in || !std::getline(in, first)) return false;
  try {
    const auto records = parse_csv(first, path);
    return !records.empty() && has_sweep_header(records[0]);
  } catch (const InputError&) {
    return false;
  }
}

SweepTable read_sweep_table(const std::string& path) {
  const MappedFile file(path);
  std::vector<int> lines;
  auto records = parse_csv(file.text(), path, &lines);
  const std::string expected = "the results of `simfab sweep SPEC.yaml -o FILE`: a header naming the swept "
                               "settings, then " + joined_result_columns();
  if (records.empty()) throw InputError(SourceLoc{path, 1, 0}, "empty file: expected " + expected);
  const std::vector<std::string> header = std::move(records[0]);
  if (!has_sweep_header(header)) {
    std::string text;
    for (const std::string& h : header) text += (text.empty() ? "" : ",") + csv_field(h);
    throw InputError(SourceLoc{path, lines[0], 0}, "not a sweep's header: expected " + expected, text);
  }
  if (records.size() == 1)
    throw InputError(SourceLoc{path, lines[0] + 1, 0},
                     "no points: expected a row per finished point after the header (run the sweep first)");
  records.erase(records.begin());
  lines.erase(lines.begin());
  const size_t axes = header.size() - kResults, status_col = header.size() - 2;

  SweepTable table;
  table.file = path;
  for (size_t c = 0; c < kNumericResults; ++c)
    table.results.push_back({header[axes + c], result_unit(header[axes + c]), {}, std::nullopt});
  for (size_t r = 0; r < records.size(); ++r) {
    const auto& row = records[r];
    const SourceLoc at{path, lines[r], 0};
    if (row.size() != header.size())
      throw InputError(at, "expected " + std::to_string(header.size()) + " fields as in the header, got " +
                               std::to_string(row.size()));
    if (row[status_col].empty())
      throw InputError(at, "column status: expected the point's status (ok, bad_input, deadlock, crashed, failure, "
                           "timeout or error), got nothing");
    const bool ok = row[status_col] == "ok";
    for (size_t c = 0; c < kNumericResults; ++c) {
      const std::string& cell = row[axes + c];
      std::optional<double> value;
      if (ok && !cell.empty()) {
        value = plain_number(cell);
        if (!value)
          throw InputError(at, "column " + header[axes + c] + ": expected a number in an ok point's row, got '" +
                                   cell + "'");
      }
      SweepResultColumn& column = table.results[c];
      if (value && (!column.best || *value < *column.values[*column.best])) column.best = r;
      column.values.push_back(value);
    }
    table.status.push_back(row[status_col]);
    table.error.push_back(ok ? "" : row[status_col + 1]);
  }
  for (size_t c = 0; c < axes; ++c) table.axes.push_back(make_axis(header[c], records, c));
  return table;
}

nlohmann::json sweep_panel_json(const SweepTable& table) {
  using Json = nlohmann::json;
  auto numbers = [](const std::vector<std::optional<double>>& v) {
    Json out = Json::array();
    for (const auto& n : v) out.push_back(n ? Json(*n) : Json(nullptr));
    return out;
  };
  Json j;
  j["file"] = table.file;
  j["points"] = table.points();
  j["failed"] = table.failed();
  j["ok"] = table.points() - table.failed();
  j["axes"] = Json::array();
  for (const SweepAxis& a : table.axes) {
    Json axis = {{"name", a.name}, {"numeric", a.numeric}, {"unit", a.unit}, {"values", a.values}, {"index", a.index}};
    if (a.numeric) axis["numbers"] = numbers(a.numbers);
    j["axes"].push_back(std::move(axis));
  }
  j["results"] = Json::array();
  for (const SweepResultColumn& c : table.results)
    j["results"].push_back({{"name", c.name},
                            {"unit", c.unit},
                            {"values", numbers(c.values)},
                            {"best", c.best ? Json(*c.best) : Json(nullptr)}});
  j["status"] = table.status;
  j["error"] = table.error;
  return j;
}

}  // namespace simfab
