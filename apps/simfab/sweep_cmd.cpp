#include "sweep_cmd.hpp"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>

#include "cli_options.hpp"
#include "run_outputs.hpp"
#include "core/atomic_file.hpp"
#include "core/executable_dir.hpp"
#include "core/interrupt.hpp"
#include "report/plural.hpp"
#include "report/sweep_progress.hpp"
#include "sweep/distributed_sweep.hpp"
#include "sweep/mpi_launch.hpp"
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

// Replaces this process with simfab-sweep-mpi (same arguments), or says why it cannot.
[[noreturn]] void exec_sweep_mpi(const std::vector<std::string>& args, int world) {
  const std::string path = executable_dir() + "/simfab-sweep-mpi";
  std::vector<std::string> argv_text{path, "sweep"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  ::execv(path.c_str(), argv.data());
  throw usage_error("simfab sweep was started as one of " + std::to_string(world) +
                    " MPI processes, but cannot run " + path + " (" + std::strerror(errno) +
                    "): this simfab was built without an MPI library (Debian: libopenmpi-dev); run the sweep "
                    "without mpirun, or rebuild simfab with MPI");
}

// Runs `work` in an MPI sweep whose points have started: an error there ends the whole job, since
// the other processes would wait for this one forever.
void or_abort_job(SweepTransport& mpi, const std::function<void()>& work) {
  try {
    work();
  } catch (const InputError& e) {
    std::cerr << format_error(e);
    mpi.abort(2);
  } catch (const std::exception& e) {
    std::cerr << "simfab sweep: process " << mpi.rank() << ": " << e.what() << "\n";
    mpi.abort(1);
  }
}

// A worker process of an MPI sweep: runs the points process 0 hands out, -j at a time.
int serve_sweep(SweepTransport& mpi, const std::string& spec_path, int jobs) {
  if (const std::optional<int> code = await_start(mpi)) return *code;
  or_abort_job(mpi, [&] {
    const SweepSpec spec = load_sweep_spec(spec_path);
    PointRunner runner(jobs, spec.timeout_s, executable_dir() + "/simfab");
    serve_points(mpi, runner, [&](size_t p, const std::string& json_path) {
      return point_arguments(spec, spec.points[p], json_path);
    });
  });
  return 0;
}

}  // namespace

int cmd_sweep(const std::vector<std::string>& args, SweepTransport* mpi) {
  if (mpi == nullptr)
    if (const int world = launcher_world_size(); world > 1) exec_sweep_mpi(args, world);
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
  std::string out_path;
  int jobs = mpi ? 1 : available_cores();  // under MPI: points per process (start one per core)
  bool retry_failed = false, dry_run = false, quiet = false;
  OutputOptions progress;
  // Process 0 of an MPI sweep tells the workers to stop when it stops before the points start.
  struct StopWorkers {
    SweepTransport* mpi;
    int code = 2;
    ~StopWorkers() {
      if (mpi) stop_workers(*mpi, code);
    }
  } stop{mpi != nullptr && mpi->rank() == 0 ? mpi : nullptr};
  try {
    split_positionals(expanded, kOptions, positionals, option_args);
    parse_options(option_args, kOptions, [&](std::string_view name, const std::string& value) {
      if (name == "-o" || name == "--output") out_path = value;
      else if (name == "-j" || name == "--jobs") jobs = parse_jobs(value);
      else if (name == "--progress") apply_output_option(name, value, progress);
      else if (name == "--retry-failed") retry_failed = true;
      else if (name == "--dry-run") dry_run = true;
      else quiet = true;
    });
  } catch (const InputError&) {
    if (mpi != nullptr && mpi->rank() != 0) return await_start(*mpi).value_or(2);  // process 0 says it
    throw;
  }
  if (mpi != nullptr && mpi->rank() != 0) return serve_sweep(*mpi, positionals.empty() ? "" : positionals[0], jobs);
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
    stop.code = 0;
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
  size_t running = 0;
  size_t interrupted = 0;
  const auto on_done = [&](size_t p, PointOutcome& o) {
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
  };
  const auto on_tick = [&] { meter.draw(running); };
  if (mpi != nullptr) {
    stop.mpi = nullptr;  // from here on the workers hear kStart
    or_abort_job(*mpi, [&] { dispatch_points(*mpi, todo, [&](size_t) { ++running; }, on_done, on_tick); });
  } else {
    PointRunner runner(jobs, spec.timeout_s);
    runner.run(
        todo,
        [&](size_t p, const std::string& json_path) {
          ++running;
          return point_arguments(spec, spec.points[p], json_path);
        },
        on_done, on_tick);
  }
  checkpoint.write(true);
  meter.done();
  if (!quiet) {
    std::cerr << "simfab sweep: " << counted(spec.points.size(), "point") << " in " << out_path << ": "
              << results.recorded() - results.failed() << " ok, " << results.failed() << " failed";
    if (interrupted > 0) std::cerr << ", " << interrupted << " interrupted (run again to complete)";
    if (mpi != nullptr) std::cerr << " (" << counted(static_cast<size_t>(mpi->size() - 1), "worker") << ")";
    std::cerr << "\n";
  }
  return 0;
}

}  // namespace simfab
