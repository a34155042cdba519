#include "sweep_cmd.hpp"

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli_options.hpp"
#include "run_outputs.hpp"
#include "core/atomic_file.hpp"
#include "core/interrupt.hpp"
#include "report/plural.hpp"
#include "report/sweep_progress.hpp"
#include "sweep/point_runner.hpp"
#include "sweep/sweep_results.hpp"
#include "sweep/sweep_spec.hpp"

namespace simfab {
namespace {

int parse_jobs(const std::string& value) {
  char* end = nullptr;
  const long n = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || n < 1 || n > 4096)
    throw usage_error("-j expects a number of points to run at once between 1 and 4096, got '" + value + "'");
  return static_cast<int>(n);
}

// Writes the table atomically, unless the last write was too recent for its cost (see sweep_cmd.hpp).
class Checkpoint {
 public:
  Checkpoint(const SweepResults& results, std::string path) : results_(results), path_(std::move(path)) {}
  void write(bool always) {
    const auto now = Clock::now();
    if (!always && now - last_end_ < 20 * last_cost_) return;
    write_file_atomically(path_, "the sweep results", [&](std::ostream& out) { results_.write(out); });
    last_end_ = Clock::now();
    last_cost_ = last_end_ - now;
  }

 private:
  using Clock = std::chrono::steady_clock;
  const SweepResults& results_;
  std::string path_;
  Clock::time_point last_end_{};
  Clock::duration last_cost_{};
};

}  // namespace

int cmd_sweep(const std::vector<std::string>& args) {
  static constexpr CliOption kOptions[] = {{"-o"},          {"--output"},         {"-j"},
                                           {"--jobs"},      {"--progress"},       {"--retry-failed", false},
                                           {"--dry-run", false}, {"--quiet", false}};
  std::vector<std::string> expanded;  // make's -jN spelling too
  for (const std::string& a : args) {
    if (a.size() > 2 && a.rfind("-j", 0) == 0 && std::isdigit(static_cast<unsigned char>(a[2]))) {
      expanded.insert(expanded.end(), {"-j", a.substr(2)});
    } else {
      expanded.push_back(a);
    }
  }
  std::vector<std::string> positionals, option_args;
  split_positionals(expanded, kOptions, positionals, option_args);
  std::string out_path;
  int jobs = available_cores();
  bool retry_failed = false, dry_run = false, quiet = false;
  OutputOptions progress;
  parse_options(option_args, kOptions, [&](std::string_view name, const std::string& value) {
    if (name == "-o" || name == "--output") out_path = value;
    else if (name == "-j" || name == "--jobs") jobs = parse_jobs(value);
    else if (name == "--progress") apply_output_option(name, value, progress);
    else if (name == "--retry-failed") retry_failed = true;
    else if (name == "--dry-run") dry_run = true;
    else quiet = true;
  });
  if (positionals.size() != 1) throw usage_error("give one sweep spec: simfab sweep SPEC.yaml -o RESULTS.csv");
  if (out_path.empty()) throw usage_error("give the results file to write: -o RESULTS.csv");

  const SweepSpec spec = load_sweep_spec(positionals[0]);
  SweepResults results(spec);
  if (std::filesystem::exists(out_path)) results.resume_from(out_path, retry_failed);
  std::vector<size_t> todo;
  for (size_t p = 0; p < spec.points.size(); ++p)
    if (!results.has(p)) todo.push_back(p);

  if (dry_run) {
    for (size_t p = 0; p < spec.points.size(); ++p)
      std::cout << (p + 1) << "\t" << (results.has(p) ? "done" : "to run") << "\t"
                << point_name(spec, spec.points[p]) << "\n";
    std::cout << "simfab sweep: " << spec.points.size() << " points, " << results.recorded() << " in " << out_path
              << ", " << todo.size() << " to run\n";
    return 0;
  }

  Checkpoint checkpoint(results, out_path);
  checkpoint.write(true);  // an unwritable output fails now, not after the first point
  static std::string ending;
  ending = "; " + out_path + " keeps the points finished: run the same command to complete it\n";
  set_interrupt_ending(ending.c_str());
  const bool draw = progress.progress == OutputOptions::Progress::kAlways ||
                    (progress.progress == OutputOptions::Progress::kAuto && !quiet && ::isatty(STDERR_FILENO));
  SweepProgress meter(spec.points.size(), results.recorded(), draw ? stderr : nullptr);
  PointRunner runner(jobs, spec.timeout_s);
  size_t running = 0;
  size_t interrupted = 0;
  runner.run(
      todo,
      [&](size_t p, const std::string& json_path) {
        ++running;
        return point_arguments(spec, spec.points[p], json_path);
      },
      [&](size_t p, PointOutcome& o) {
        --running;
        const std::string status = results.record(p, o);
        if (status.empty()) {
          ++interrupted;
          return true;
        }
        checkpoint.write(false);
        meter.point_done(status == "ok");
        meter.draw(running, true);
        return true;
      },
      [&] { meter.draw(running); });
  checkpoint.write(true);
  meter.done();
  if (!quiet) {
    std::cerr << "simfab sweep: " << counted(spec.points.size(), "point") << " in " << out_path << ": "
              << results.recorded() - results.failed() << " ok, " << results.failed() << " failed";
    if (interrupted > 0) std::cerr << ", " << interrupted << " interrupted (run again to complete)";
    std::cerr << "\n";
  }
  return 0;
}

}  // namespace simfab
