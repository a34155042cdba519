// Wrappers of MPI_Init, MPI_Init_thread and MPI_Finalize: where a rank's trace file is opened
// and closed.
//
// After PMPI_Init succeeds, CaptureState::begin() sets up the trace (directory, run id broadcast
// from rank 0, header) and writes `MPI_Init:-:-:-:<t>`, t taken after that set-up so the library's
// own start-up cost is inside MPI_Init, not charged to the application's first computation.
// MPI_Finalize writes `MPI_Finalize:<t>:-` and `# end`, renames the file to rank-<r>.txt and only
// then calls PMPI_Finalize (liballprof's convention: Init has no call time, Finalize no return);
// with SIMFAB_CAPTURE_FORMAT=otf2 the ranks' files then become an OTF2 archive (write_otf2).
// So these three do not go through traced() (traced.hpp), which times a call and records it after.
#include <mpi.h>

#include "capture_state.hpp"

namespace {

using simfab::capture::capture_state;
using simfab::capture::CaptureState;

// Runs `call` (PMPI_Init or PMPI_Init_thread) and, if it is the first init and succeeded, sets up
// the trace. `provided`: the thread level PMPI_Init_thread returned, null for MPI_Init.
template <class Call>
int init(const char* func, const int* provided, Call&& call) {
  CaptureState& state = capture_state();
  const bool first = !state.active();   // an erroneous second init: MPI reports it, nothing is recorded
  const int rc = call();
  if (first && rc == MPI_SUCCESS) state.begin(func, provided != nullptr ? *provided : -1);
  return rc;
}

}  // namespace

extern "C" int MPI_Init(int* argc, char*** argv) {
  return init("MPI_Init", nullptr, [&] { return PMPI_Init(argc, argv); });
}

extern "C" int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  return init("MPI_Init_thread", provided, [&] { return PMPI_Init_thread(argc, argv, required, provided); });
}

extern "C" int MPI_Finalize() {
  CaptureState& state = capture_state();
  const bool recorded = state.recording();
  if (recorded) state.finish(simfab::capture::now_ns());
  if (recorded && state.wants_otf2()) state.write_otf2();
  return PMPI_Finalize();
}
