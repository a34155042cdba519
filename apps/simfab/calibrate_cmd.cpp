#include "calibrate_cmd.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "calibrate/calibration_fit.hpp"
#include "calibrate/calibration_output.hpp"
#include "calibrate/calibration_samples.hpp"
#include "calibrate/svg_plot.hpp"
#include "cli_options.hpp"
#include "core/atomic_file.hpp"
#include "core/units.hpp"
#include "mpi/region_times.hpp"

namespace simfab {
namespace {

// apps/calibrate/simfab_calibrate.c, as a raw string literal generated at configure time.
constexpr std::string_view kProgram =
#include "simfab_calibrate_c.inc"
    ;

int program(const std::vector<std::string>& rest) {
  std::string out_path;
  static constexpr CliOption kOptions[] = {{"-o"}, {"--output"}};
  parse_options(rest, kOptions, [&](std::string_view, const std::string& value) { out_path = value; });
  if (out_path.empty()) {
    std::cout << kProgram;
    return 0;
  }
  write_file_atomically(out_path, "the calibration program", [&](std::ostream& out) { out << kProgram; });
  std::cout << "simfab: wrote " << out_path << " (build: mpicc -O2 -o simfab_calibrate " << out_path
            << " -lm; run: mpirun -np 2 ./simfab_calibrate -o samples.csv)\n";
  return 0;
}

long whole_number(const std::string& option, const std::string& value, long lo, long hi) {
  long v = 0;
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc() || p != value.data() + value.size() || v < lo || v > hi)
    throw usage_error(option + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                      ", got '" + value + "'");
  return v;
}

void parse_breakpoints(const std::string& value, calibrate::CalibrationOptions& o) {
  if (value == "auto") {
    o.automatic = true;
    o.breakpoints.clear();
    return;
  }
  o.automatic = false;
  std::string_view rest = value;
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto b = units::parse_bytes(item);
    if (!b)
      throw usage_error("--breakpoints takes 'auto' or sizes separated by commas (each the last size of a segment, "
                        "e.g. 1420,65536), got '" + std::string(item) + "'", value);
    o.breakpoints.push_back(*b);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
}

// "0.5" or "50%": a fraction >= 0.
double fraction_or_percent(const std::string& option, const std::string& value) {
  const bool percent = !value.empty() && value.back() == '%';
  const std::string number = percent ? value.substr(0, value.size() - 1) : value;
  char* end = nullptr;
  const double v = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
    throw usage_error(option + " takes a fraction or a percentage of at least 0 (0.5 or 50%), got '" + value + "'");
  return percent ? v / 100 : v;
}

int fit(const std::vector<std::string>& samples_paths, const std::vector<std::string>& rest) {
  std::string out_path, plot_path, json_path;
  int hosts = 2;
  bool quiet = false;
  calibrate::CalibrationOptions o;
  static constexpr CliOption kOptions[] = {{"-o"},           {"--output"},       {"--plot"},     {"--json"},
                                           {"--hosts"},      {"--breakpoints"},  {"--max-segments"},
                                           {"--min-samples"}, {"--weights"},     {"--outlier-factor"},
                                           {"--keep"},        {"--max-spread"},  {"--quiet", false}};
  parse_options(rest, kOptions, [&](std::string_view name, const std::string& value) {
    if (name == "-o" || name == "--output") out_path = value;
    else if (name == "--plot") plot_path = value;
    else if (name == "--json") json_path = value;
    else if (name == "--hosts") hosts = static_cast<int>(whole_number("--hosts", value, 1, 16777216));
    else if (name == "--breakpoints") parse_breakpoints(value, o);
    else if (name == "--max-segments") o.max_segments = static_cast<size_t>(whole_number("--max-segments", value, 1, 64));
    else if (name == "--min-samples") o.min_samples = static_cast<size_t>(whole_number("--min-samples", value, 2, 1000000));
    else if (name == "--quiet") quiet = true;
    else if (name == "--keep") {
      if (value != "best" && value != "all")
        throw usage_error("--keep takes best (fit the fastest repetition of each experiment at each size, as seed 003 "
                          "keeps the best of 5) or all (fit every repetition), got '" + value + "'");
      o.keep_best = value == "best";
    } else if (name == "--max-spread") {
      o.max_spread = fraction_or_percent("--max-spread", value);
    } else if (name == "--weights") {
      if (value == "relative") o.weighting = calibrate::Weighting::kRelative;
      else if (value == "ordinary") o.weighting = calibrate::Weighting::kOrdinary;
      else throw usage_error("--weights takes relative (least squares on relative residuals) or ordinary (plain OLS), "
                             "got '" + value + "'");
    } else {  // --outlier-factor
      char* end = nullptr;
      o.outlier_factor = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !std::isfinite(o.outlier_factor) ||
          (o.outlier_factor != 0 && o.outlier_factor <= 1))
        throw usage_error("--outlier-factor takes a number > 1 (drop measurements above that many times the median "
                          "at their size) or 0 (keep all), got '" + value + "'");
    }
  });
  std::vector<calibrate::CalibrationSamples> runs;
  for (const std::string& path : samples_paths) runs.push_back(calibrate::read_calibration_samples(path));
  const calibrate::CalibrationSamples samples = calibrate::merge_calibration_samples(std::move(runs));
  const calibrate::CalibrationFit f = calibrate::fit_calibration(samples, o);
  if (!out_path.empty())
    write_file_atomically(out_path, "the platform file",
                          [&](std::ostream& out) { calibrate::write_platform_yaml(out, f, samples, hosts); });
  if (!plot_path.empty())
    write_file_atomically(plot_path, "the plot", [&](std::ostream& out) {
      const auto panels = calibrate::fit_panels(f, samples, o.outlier_factor);
      calibrate::write_svg(out, panels, "simfab calibrate fit " + samples.source);
    });
  if (!json_path.empty())
    write_file_atomically(json_path, "the JSON output file",
                          [&](std::ostream& out) { out << calibrate::fit_json(f, samples); });
  if (quiet) return 0;
  calibrate::print_fit_summary(std::cout, f, samples);
  for (const std::string* p : {&out_path, &plot_path, &json_path})
    if (!p->empty()) std::cout << "wrote " << *p << "\n";
  return 0;
}

// The file arguments before the first option, and the rest.
std::pair<std::vector<std::string>, std::vector<std::string>> leading_paths(const std::vector<std::string>& args) {
  size_t n = 0;
  while (n < args.size() && !args[n].empty() && args[n][0] != '-') ++n;
  const auto split = args.begin() + static_cast<std::ptrdiff_t>(n);
  return {std::vector<std::string>(args.begin(), split), std::vector<std::string>(split, args.end())};
}

// `simfab calibrate regions REFERENCE MEASURED [-o FACTORS.csv] [--quiet]`: seed 001 §2.11's
// per-region factors from two runs' regions.csv (mpi/region_times.hpp has the rule).
int regions(const std::vector<std::string>& paths, const std::vector<std::string>& rest) {
  std::string out_path;
  bool quiet = false;
  static constexpr CliOption kOptions[] = {{"-o"}, {"--output"}, {"--quiet", false}};
  parse_options(rest, kOptions, [&](std::string_view name, const std::string& value) {
    if (name == "--quiet") quiet = true;
    else out_path = value;
  });
  if (paths.size() != 2)
    throw usage_error("expected 'simfab calibrate regions REFERENCE.csv MEASURED.csv [-o FACTORS.csv]': two regions.csv "
                      "files (--stats DIR of two runs), got " + std::to_string(paths.size()));
  const auto reference = read_regions_csv(paths[0]);
  const auto measured = read_regions_csv(paths[1]);
  std::vector<std::string> only_reference, only_measured;
  const auto factors = region_factors(reference, measured, only_reference, only_measured);
  if (factors.empty())
    throw InputError(SourceLoc{paths[1], 0, 0}, "no region of " + paths[0] +
                                                     " computed in this run too: expected two runs of the same "
                                                     "program (the same call sites)");
  auto quoted = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  if (!out_path.empty())
    write_file_atomically(out_path, "the region factor file", [&](std::ostream& out) {
      out << "# simfab calibrate regions " << paths[0] << " " << paths[1]
          << "\n# factor = mean time per execution in the reference / in the measured run (seed 001 §2.11)\n"
          << "region,factor\n";
      char buf[32];
      for (const RegionFactor& f : factors) {
        std::snprintf(buf, sizeof buf, "%.9g", f.factor);
        out << quoted(f.name) << ',' << buf << '\n';
      }
    });
  if (quiet) return 0;
  std::printf("%-48s %10s %10s %10s\n", "region", "exec ref", "exec meas", "factor");
  for (const RegionFactor& f : factors)
    std::printf("%-48s %10llu %10llu %10.4f\n", f.name.c_str(), static_cast<unsigned long long>(f.executions_reference),
                static_cast<unsigned long long>(f.executions_measured), f.factor);
  auto one_side = [](const std::vector<std::string>& names, const std::string& where) {
    if (!names.empty())
      std::printf("note: %zu region(s) computed only in %s (no factor), e.g. '%s'\n", names.size(), where.c_str(),
                  names.front().c_str());
  };
  one_side(only_reference, paths[0]);
  one_side(only_measured, paths[1]);
  if (!out_path.empty()) std::printf("wrote %s\n", out_path.c_str());
  std::fflush(stdout);
  return 0;
}

}  // namespace

int cmd_calibrate(const std::vector<std::string>& args) {
  const std::string expected =
      "expected 'simfab calibrate fit SAMPLES.csv [MORE.csv...] [-o PLATFORM.yaml] [options]', 'simfab calibrate regions "
      "REFERENCE.csv MEASURED.csv [-o FACTORS.csv]' or 'simfab calibrate program [-o FILE]'";
  if (args.empty()) throw usage_error(expected);
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "program") return program(rest);
  if (args[0] == "fit") {
    // One or more measurement files (runs repeated to keep the best), then the options.
    const auto [paths, options] = leading_paths(rest);
    if (paths.empty()) throw usage_error("give the measurements first: simfab calibrate fit SAMPLES.csv [MORE.csv...] [options]");
    return fit(paths, options);
  }
  if (args[0] == "regions") {
    const auto [paths, options] = leading_paths(rest);
    return regions(paths, options);
  }
  throw usage_error("unknown calibrate command '" + args[0] + "'; " + expected);
}

}  // namespace simfab
