// mpi_fatal: how online mode reports an MPI usage error (a call before MPI_Init, an invalid
// handle, a request freed twice, a truncated message, ...) or a call simfab does not implement.
// MPI's default error handler is MPI_ERRORS_ARE_FATAL, and simfab applies it to every
// communicator: the run stops at the first error, with one line on stderr naming the rank, the
// call and what was wrong, e.g.
//   simfab: rank 3: MPI_Send: invalid communicator 77 (not created, or freed)
// and exit status 2 (bad input), after flushing the program's stdout and stderr so that what it
// printed before stays. Nothing else is written (no summary, no JSON): a run that went wrong
// leaves no half-result.
#pragma once

#include <string>

namespace simfab::online {

inline constexpr int kExitMpiError = 2;

// Never returns. `call` is the MPI function's name ("MPI_Send"); `what` says what was wrong and,
// where it helps, what was expected.
[[noreturn]] void mpi_fatal(const char* call, const std::string& what);

// The runtime names the rank that is running ("rank 3"); empty outside a rank (the default).
using DescribeCurrent = std::string (*)();
void set_fatal_context(DescribeCurrent describe);

}  // namespace simfab::online
