// GOAL export of a TI trace (`simfab goal`): the inputs of a run (sim/simulation.hpp: platform and
// its config: settings, hostfile or round-robin mapping, --cfg) fix what replay would do; the trace
// is then written as GOAL (replay/ti_to_goal.hpp) instead of simulated. Host speeds turn compute
// flops into calc picoseconds, so the export is tied to the platform and mapping it was made for;
// without --platform every host is ideal (infinitely fast: compute is free), as for GOAL runs.
// The collective algorithms follow mpi/<collective> and mpi/coll-selector as in replay.
#pragma once

#include <ostream>

#include "core/config.hpp"
#include "replay/ti_to_goal.hpp"
#include "sim/simulation.hpp"

namespace simfab {

struct GoalExportResult {
  int num_ranks = 0;
  GoalExportStats stats;
};

// REQUIRES: in.trace_path set, in.goal_path empty. Throws InputError; `out` may then hold part of
// the text (write it to a temporary file).
GoalExportResult export_trace_as_goal(const SimulationInput& in, Config& cfg, std::ostream& out);

}  // namespace simfab
