// SweepSpec: the points of a parameter sweep (`simfab sweep SPEC.yaml`, issue 31), read from a
// YAML file and checked whole before any point runs.
//
// The format (every key optional except that a sweep needs `axes:` or `points:`):
//
//   platform: ../platforms/cluster16.yaml   # inputs every point gets unless it sets its own:
//   trace: stencil16.ti                     #   platform, hostfile, and one application: trace,
//   # goal: app.goal | otf2: traces.otf2    #   goal, otf2 (with speed), or program (with np:
//   # program: ./a.out ARG | np: 16         #   `simfab exec -np NP PROGRAM ARGS`)
//   cfg:                                    # --cfg settings every point gets
//     mpi/allreduce: rabenseifner
//   axes:                                   # the Cartesian product; the first axis varies slowest
//     network/model: [loggops, flow, smpi]
//     loggops/G: [0.01ns, 0.02ns, 0.04ns, 0.08ns]
//   points:                                 # explicit points, after the product, in this order
//     - {network/model: packet, platform: ../platforms/ft32_packet.yaml}
//   repetitions: 1                          # runs of each point (column `rep` when above 1)
//   timeout: 600                            # seconds a point may run before it is killed (0: none)
//
// A setting (a key of `axes:`, of a point, or of `cfg:`) is an input name (platform, hostfile,
// trace, goal, otf2, speed, program, np), a --cfg key (`pstate` is energy/pstate, as for run
// --sweep), or a platform variable `$NAME`: the value of ${NAME} in the platform file (passed as
// --platform-var NAME=VALUE; platform/platform_vars.hpp), e.g. `$bw: [10GBps, 25GBps]`. Input paths are relative to the spec file's directory. The CSV has one column per
// setting that an axis or a point sets (axes first, then new keys in the order points name them);
// a point that does not set a column shows the value it runs with: the fixed one, or nothing (the
// default).
//
// Checked at load, each error an InputError at the spec's file:line:column: unknown keys (with the
// nearest valid one), an empty axis, a value that is not a scalar, an unknown --cfg key or a value
// its type rejects (the Config registry, as `simfab config --list` shows it), an input file that
// cannot be read, a point with no application or two, two points alike, more than 100,000 points.
// What only a run can find (a pstate a host lacks, a malformed trace) is that point's error.
//
// Cost: O(points x columns) strings. Thread-safety: a SweepSpec is a value.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace simfab {

struct SweepPoint {
  std::vector<std::string> cells;  // the value of each SweepSpec::columns entry ("" = default)
  int rep = 1;                     // 1..repetitions
  SourceLoc loc;                   // where it is declared (an explicit point, or `axes:`)
};

struct SweepSpec {
  std::string path;                                        // the spec file, as given
  std::string base_dir;                                    // relative input paths start here
  std::vector<std::pair<std::string, std::string>> fixed;  // setting -> value, for every point
  std::vector<std::string> columns;                        // the settings axes and points vary
  int repetitions = 1;
  double timeout_s = 0;                                    // 0: no limit
  std::vector<SweepPoint> points;                          // in grid order
};

// Reads and checks the spec. Throws InputError.
SweepSpec load_sweep_spec(const std::string& path);

// The `simfab` arguments (after the executable name) that run `point` with its JSON result written
// to `json_path` (--reproducible --quiet): `run ...`, or `exec -np N ... PROGRAM ARGS`.
std::vector<std::string> point_arguments(const SweepSpec& spec, const SweepPoint& point, const std::string& json_path);

// The point's settings as text, "network/model=flow loggops/G=0.02ns" (rep=K appended when
// repeated), for messages.
std::string point_name(const SweepSpec& spec, const SweepPoint& point);

}  // namespace simfab
