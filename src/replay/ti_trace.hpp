// TiTrace / TiProgram: replay of SimGrid time-independent (TI) traces, the format `smpirun
// -trace-ti` writes and `smpirun -replay` reads (SimGrid 3.27-3.32).
//
// INTERFACE CONTRACT (used by sim/simulation.cpp; the implementation documents the format here).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mpi/program.hpp"
#include "platform/platform.hpp"

namespace simfab {

class TiTrace;

// Opens a TI trace: either one trace file holding every rank's actions, or a list file naming one
// trace file per rank. Throws InputError on unreadable files or an unrecognisable layout.
std::unique_ptr<TiTrace> open_ti_trace(const std::string& path);
int ti_num_ranks(const TiTrace& trace);

// The Program that replays `trace`; compute amounts are flops divided by the speed of the rank's
// host. Parse errors found during the replay are thrown as InputError (file, line, column, echo).
std::unique_ptr<Program> make_ti_program(TiTrace& trace, OpPool& ops, const Platform& platform,
                                         const std::vector<HostId>& rank_host);

}  // namespace simfab
