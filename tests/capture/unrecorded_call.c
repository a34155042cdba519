/* A program that calls an MPI function libsimfab-capture.so does not record (MPI_Win_fence, a
   one-sided synchronisation): the library must refuse it at MPI_Init with exit 2, naming the
   function, unless SIMFAB_CAPTURE_ALLOW_UNRECORDED=1 (then a warning, and the run goes on).
   Used by tests/capture/run_coverage.py. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int value = rank;
  MPI_Win win;
  MPI_Win_create(&value, sizeof value, sizeof value, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  if (rank == 0) printf("unrecorded_call: done\n");
  MPI_Finalize();
  return 0;
}
