// `simfab sweep SPEC.yaml -o results.csv [-j N] [--progress MODE] [--retry-failed] [--dry-run] [--quiet]`
// (issue 31): every point of the spec (sweep/sweep_spec.hpp) runs as its own
// simfab process (sweep/point_runner.hpp), N at a time (default: the cores this process may use);
// the results table (sweep/sweep_results.hpp) is rewritten atomically after each point (at most
// once per 20 times the last write took, so a 100,000-point table does not cost quadratic time;
// and always at the end), so killing the sweep loses nothing finished and rerunning the command
// runs only the missing points. A failed point is a row with its status and error; the sweep goes
// on and exits 0 when every point has a row (2: a bad spec, or an output of another sweep).
// --dry-run lists the points, each "done" or "to run", and runs nothing.
//
// Under an MPI launcher (`mpirun -np K simfab sweep ...`, srun; sweep/mpi_launch.hpp) simfab
// replaces itself with simfab-sweep-mpi, which calls this with `mpi` set: process 0 does all of
// the above but hands the points to processes 1..K-1 on demand (sweep/distributed_sweep.hpp), each
// running -j of them at a time (default 1: start one process per core); the CSV is the same.
#pragma once

#include <string>
#include <vector>

#include "sweep/sweep_transport.hpp"

namespace simfab {

int cmd_sweep(const std::vector<std::string>& args, SweepTransport* mpi = nullptr);

}  // namespace simfab
