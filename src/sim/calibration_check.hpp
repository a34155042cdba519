// CalibrationCheck: a trace replayed on a calibrated platform must come from the setup that was
// calibrated (issue 28's bad input). `simfab calibrate fit` writes into the platform
//     calibration/library  MPI_Get_library_version's first line of the calibration run
//     calibration/nodes    how many nodes its ranks used (1: shared memory; more: a network)
// and `simfab convert` writes the capture's `# mpi-library:` and `# mpi-nodes:` into the TI trace.
// A replay whose two sides both say, and disagree, stops with exit 2:
//   - the library's name and version (the text before the first ',': "Open MPI v4.1.4") differ:
//     another library's protocols, thresholds and collectives were measured;
//   - one side ran on a single node and the other on several: shared-memory measurements cannot
//     stand for a network, nor the reverse. (Different node counts above 1 are the point of a
//     calibration: two nodes measured, a cluster predicted.)
// Either side silent (a hand-written platform, a SimGrid trace): nothing to check. O(1).
#pragma once

#include <string>
#include <string_view>

#include "core/config.hpp"
#include "replay/ti_trace.hpp"

namespace simfab {

void register_calibration_keys(Config& cfg);

// "Open MPI v4.1.4" from "Open MPI v4.1.4, package: Debian OpenMPI, ...": up to the first ','.
std::string_view library_name(std::string_view library_version);

// Throws InputError at the trace's comment line naming both sides when they disagree.
void check_trace_matches_calibration(const Config& cfg, const TiOrigin& trace);

}  // namespace simfab
