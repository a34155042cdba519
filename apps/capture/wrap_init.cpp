// Wrappers of MPI_Init, MPI_Init_thread and MPI_Finalize: where a rank's trace file is opened
// and closed.
//
// After PMPI_Init succeeds, CaptureState::begin() sets up the trace (directory, run id broadcast
// from rank 0, header) and writes `MPI_Init:-:-:-:<t>`, t taken after that set-up so the library's
// own start-up cost is inside MPI_Init, not charged to the application's first computation.
// MPI_Finalize writes `MPI_Finalize:<t>:-` and `# end`, renames the file to rank-<r>.txt and only
// then calls PMPI_Finalize (liballprof's convention: Init has no call time, Finalize no return).
#include <mpi.h>

#include "capture_state.hpp"

using simfab::capture::capture_state;
using simfab::capture::CaptureState;

extern "C" int MPI_Init(int* argc, char*** argv) {
  CaptureState& state = capture_state();
  if (state.active()) return PMPI_Init(argc, argv);   // erroneous second init: MPI reports it
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) state.begin("MPI_Init", -1);
  return rc;
}

extern "C" int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  CaptureState& state = capture_state();
  if (state.active()) return PMPI_Init_thread(argc, argv, required, provided);
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) state.begin("MPI_Init_thread", *provided);
  return rc;
}

extern "C" int MPI_Finalize() {
  CaptureState& state = capture_state();
  if (!state.recording()) return PMPI_Finalize();
  state.finish(simfab::capture::now_ns());
  return PMPI_Finalize();
}
