// PointRunner: runs the points of a sweep as child processes of the simfab binary itself,
// `jobs` at a time, so that a point that crashes, deadlocks, runs out of memory or has bad input
// ends that point only. Both `simfab sweep` and the short form `simfab run --sweep` run here.
//
// Each point is `/proc/self/exe ARGS...` (the same binary, even if the file is replaced meanwhile;
// simfab-sweep-mpi names its sibling simfab instead):
// standard input and output are /dev/null, standard error goes to a file, and the point writes its
// JSON result (--json) into a private temporary directory ($TMPDIR or /tmp, simfab-sweep.XXXXXX).
// When a point ends, on_done hears, in the order the points finish: its exit status (or signal),
// wall time, JSON text and standard error. The caller orders the results; the runner only starts
// the points in the order given.
//
// Robustness: a child dies with the sweep (PR_SET_PDEATHSIG: SIGTERM, which simfab handles by
// removing its partial outputs); a point past `timeout_s` is killed (SIGKILL) and reported as
// timed out; Ctrl-C reaches the children (same process group) and the sweep (core/interrupt.hpp),
// and the temporary files are pending outputs, removed on that exit.
//
// Waiting: one pidfd per child (Linux >= 5.3) polled together, so a finished point is reaped at
// once with no busy loop; on_tick is called at least every 0.5 s for a progress line.
//
// Cost per point: one fork + exec of simfab and its start-up (a few ms; bench/sweep_bench.sh
// measures the overhead), plus reading its JSON. Memory: O(jobs). Thread-safety: none; one
// runner per sweep, used from one thread.
//
// Under mpirun/srun (sweep/distributed_sweep.hpp) every worker process runs its points here, taking
// them one at a time from rank 0 through run_from's `next`: dynamic load balancing.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace simfab {

struct PointOutcome {
  int exit_code = -1;  // the exit status, or -1 when a signal ended the point
  int signal = 0;      // that signal (0: it exited)
  bool timed_out = false;
  double wall_s = 0;        // from start to exit
  std::string json;         // the --json file's text; empty when the point wrote none
  std::string stderr_text;  // everything it wrote to standard error
};

class PointRunner {
 public:
  // Arguments of point `index` (after the executable name), its JSON result to go to `json_path`.
  using Arguments = std::function<std::vector<std::string>(size_t index, const std::string& json_path)>;
  // A point ended; return false to stop the sweep (the points still running are killed).
  using OnDone = std::function<bool(size_t index, PointOutcome& outcome)>;
  using OnTick = std::function<void()>;
  // The next point to start, or nullopt when there is none: asked each time a slot is free.
  using Next = std::function<std::optional<size_t>()>;

  // REQUIRES: jobs >= 1. Creates the temporary directory (InputError when it cannot). `executable`:
  // the simfab binary the points run.
  PointRunner(int jobs, double timeout_s, std::string executable = "/proc/self/exe");
  ~PointRunner();  // kills and reaps the points still running, removes the temporary directory
  PointRunner(const PointRunner&) = delete;
  PointRunner& operator=(const PointRunner&) = delete;

  // Runs the points `todo`, starting them in that order. Returns false when on_done stopped it.
  bool run(std::span<const size_t> todo, const Arguments& arguments, const OnDone& on_done, const OnTick& on_tick);
  // The same, with the points supplied one at a time by `next` (not called again once it said none).
  bool run_from(const Next& next, const Arguments& arguments, const OnDone& on_done, const OnTick& on_tick);

 private:
  struct Child {
    size_t index;
    pid_t pid;
    int pidfd;  // -1: not available, polled instead
    std::chrono::steady_clock::time_point start;
    std::string json_path, err_path;
    bool timed_out = false;
  };
  void start(size_t index, const Arguments& arguments);
  PointOutcome finish(Child& child, int status);
  void kill_all();

  int jobs_;
  double timeout_s_;
  std::string executable_;
  std::string dir_;
  std::vector<Child> running_;
};

// The number of cores this process may use (sched_getaffinity), at least 1: the default -j.
int available_cores();

}  // namespace simfab
