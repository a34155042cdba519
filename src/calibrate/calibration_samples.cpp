#include "calibrate/calibration_samples.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/error.hpp"
#include "core/spelling.hpp"
#include "core/trim.hpp"

namespace simfab::calibrate {

namespace {

constexpr std::array<const char*, kExperimentCount> kNames = {
    "pingpong", "send",       "isend",  "recv",       "late_recv", "gap",      "oneway",
    "bidir",    "compute",    "contention", "reduce", "first_call", "next_call"};
constexpr std::string_view kMagic = "# simfab-calibrate";

std::optional<double> positive_number(std::string_view s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v) || v <= 0) return std::nullopt;
  return v;
}

}  // namespace

const char* experiment_name(Experiment e) { return kNames[static_cast<size_t>(e)]; }

std::string CalibrationSamples::header_value(std::string_view key) const {
  for (const auto& [k, v] : header)
    if (k == key) return v;
  return {};
}

size_t CalibrationSamples::total() const {
  size_t n = 0;
  for (const auto& v : by_experiment) n += v.size();
  return n;
}

CalibrationSamples parse_calibration_samples(std::string_view text, const std::string& source) {
  CalibrationSamples out;
  out.source = source;
  int line_no = 0;
  bool any_row = false;
  while (!text.empty() || line_no == 0) {
    const size_t nl = text.find('\n');
    const std::string_view raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    const std::string_view line = trim_blanks(raw);
    const auto fail = [&](const std::string& what) {
      return InputError(SourceLoc{source, line_no, 0}, what, std::string(line));
    };
    if (line_no == 1) {
      if (line.substr(0, kMagic.size()) != kMagic)
        throw fail("expected the first line '# simfab-calibrate 1': a CSV written by simfab_calibrate (`simfab "
                   "calibrate program` prints its source)");
      if (trim_blanks(line.substr(kMagic.size())) != "1")
        throw fail("unsupported calibration format version; this simfab reads version 1");
      continue;
    }
    if (line.empty()) continue;
    if (line.front() == '#') {
      const std::string_view body = trim_blanks(line.substr(1));
      const size_t colon = body.find(':');
      if (colon == std::string_view::npos) continue;  // a free comment
      std::string key(trim_blanks(body.substr(0, colon))), value(trim_blanks(body.substr(colon + 1)));
      if (key == "late-recv-delay") {
        const auto v = positive_number(value);
        if (!v) throw fail("expected '# late-recv-delay: SECONDS' with a number > 0");
        out.late_delay_s = *v;
      }
      out.header.emplace_back(std::move(key), std::move(value));
      continue;
    }
    if (line == "experiment,bytes,seconds") continue;
    std::string_view fields[3];
    std::string_view rest = line;
    size_t count = 0;
    for (; count < 3 && !rest.empty(); ++count) {
      const size_t comma = rest.find(',');
      fields[count] = trim_blanks(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      if (comma == std::string_view::npos) {
        ++count;
        break;
      }
    }
    if (count != 3 || !rest.empty() || line.back() == ',')
      throw fail("expected a row 'experiment,bytes,seconds' (three comma-separated fields)");
    size_t e = 0;
    while (e < kExperimentCount && fields[0] != kNames[e]) ++e;
    if (e == kExperimentCount) {
      std::vector<std::string_view> names(kNames.begin(), kNames.end());
      const std::string near = nearest_name(fields[0], names);
      std::string valid;
      for (const char* n : kNames) valid += std::string(valid.empty() ? "" : ", ") + n;
      throw fail("unknown experiment '" + std::string(fields[0]) + "'" +
                 (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; valid: " + valid);
    }
    Sample s;
    s.line = line_no;
    const std::string_view b = fields[1];
    auto [p, ec] = std::from_chars(b.data(), b.data() + b.size(), s.bytes);
    if (b.empty() || ec != std::errc() || p != b.data() + b.size())
      throw fail("expected the size in bytes as a whole number >= 0, got '" + std::string(b) + "'");
    const auto sec = positive_number(fields[2]);
    if (!sec) throw fail("expected the time in seconds as a finite number > 0, got '" + std::string(fields[2]) + "'");
    s.seconds = *sec;
    const auto ex = static_cast<Experiment>(e);
    if ((ex == Experiment::kFirstCall || ex == Experiment::kNextCall) && s.bytes >= kFirstCallCollectives)
      throw fail("expected the collective's number 0 (barrier) .. 14 (exscan) in the bytes column of " +
                 std::string(fields[0]) + ", got " + std::to_string(s.bytes));
    out.by_experiment[e].push_back(s);
    any_row = true;
  }
  if (!any_row)
    throw InputError(SourceLoc{source, 0, 0}, "no measurements: expected 'experiment,bytes,seconds' rows");
  return out;
}

CalibrationSamples read_calibration_samples(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path, 0, 0}, "cannot read the calibration samples file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_calibration_samples(text.str(), path);
}

CalibrationSamples merge_calibration_samples(std::vector<CalibrationSamples> runs) {
  SIMFAB_CHECK(!runs.empty(), "merging no calibration runs");
  CalibrationSamples out = std::move(runs.front());
  const std::string first = out.source;
  for (size_t i = 1; i < runs.size(); ++i) {
    CalibrationSamples& run = runs[i];
    for (const char* key : {"library", "np", "hostname"}) {
      const std::string mine = out.header_value(key), theirs = run.header_value(key);
      if (mine != theirs)
        throw InputError(SourceLoc{run.source, 0, 0},
                         std::string("header '") + key + "' is '" + theirs + "' here but '" + mine + "' in " + first + ": runs fitted together must measure the same library, rank "
                             "count and host");
    }
    std::erase_if(out.header, [&](const auto& kv) { return kv.second != run.header_value(kv.first); });
    for (size_t e = 0; e < kExperimentCount; ++e)
      out.by_experiment[e].insert(out.by_experiment[e].end(), run.by_experiment[e].begin(), run.by_experiment[e].end());
    out.source += " + " + run.source;
  }
  return out;
}

}  // namespace simfab::calibrate
