// `simfab sweep SPEC.yaml -o results.csv [-j N] [--progress MODE] [--retry-failed] [--dry-run] [--quiet]`
// (issue 31, the local half): every point of the spec (sweep/sweep_spec.hpp) runs as its own
// simfab process (sweep/point_runner.hpp), N at a time (default: the cores this process may use);
// the results table (sweep/sweep_results.hpp) is rewritten atomically after each point (at most
// once per 20 times the last write took, so a 100,000-point table does not cost quadratic time;
// and always at the end), so killing the sweep loses nothing finished and rerunning the command
// runs only the missing points. A failed point is a row with its status and error; the sweep goes
// on and exits 0 when every point has a row (2: a bad spec, or an output of another sweep).
// --dry-run lists the points, each "done" or "to run", and runs nothing.
#pragma once

#include <string>
#include <vector>

namespace simfab {

int cmd_sweep(const std::vector<std::string>& args);

}  // namespace simfab
