// `simfab convert`: the per-rank traces of a real MPI run (docs/capture-format.md: simfab's capture
// library or liballprof) -> a SimGrid time-independent trace and/or a GOAL schedule (issue 9).
//
//   simfab convert DIR|FILE... [--ti OUT.ti] [--goal OUT.goal] [--speed 2Gf]
//                  [--pinning A_us,B_us_per_byte] [--reduce-flops F] [--comm-creation measured|simulated]
//                  [--salvage] [--quiet]
// Inputs: files, or directories whose `*-<R>.txt` files are taken (capture_run.hpp). At least one
// of --ti / --goal. --speed turns gaps into `compute` flops (default: the traces' `# speed:`;
// without either, gaps are `sleep`s). --pinning adds memory-pinning charges (capture_convert.hpp).
// --reduce-flops (default 1) is the TI reductions' flops per element; --comm-creation measured
// (default) charges each communicator creation the shortest member's measured time in the call.
// --salvage keeps a consistent prefix of damaged traces and warns once per cut rank on stderr.
// Exit status 0, or 2 for bad input (nothing written: every check runs before the first write,
// and each output file is written atomically).
#pragma once

#include <string>
#include <vector>

namespace simfab {

int cmd_convert(const std::vector<std::string>& args);

}  // namespace simfab
