/* Ranks that end a run badly (ctest `online_failures`): failures MODE, where MODE is
 *   partial  rank 1 prints to stdout without a newline or a flush, then exits 3; rank 0 waits in
 *            MPI_Recv for a message rank 1 never sends, the others in MPI_Barrier;
 *   mixed    (4 ranks) each rank ends its own way, after rank 0's explanation on stderr: rank 0
 *            returns 2, rank 1 calls exit(3), rank 2 MPI_Abort(7), rank 3 returns 0 without
 *            MPI_Finalize;
 *   talkers  the last rank exits 1 at once; the others exchange messages forever;
 *   pollers  rank 1 exits 5; rank 0 polls (MPI_Iprobe, usleep) for a message that never comes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "partial";
  if (strcmp(mode, "partial") == 0) {
    if (rank == 1) {
      printf("rank 1 was here");
      exit(3);
    }
    int x = 0;
    if (rank == 0) MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (strcmp(mode, "mixed") == 0) {
    if (rank == 0) fprintf(stderr, "failures: rank 0 explains what went wrong\n");
    if (rank == 1) exit(3);
    if (rank == 2) MPI_Abort(MPI_COMM_WORLD, 7);
    if (rank == 3) return 0;
    MPI_Finalize();
    return 2;
  } else if (strcmp(mode, "talkers") == 0) {
    if (rank == size - 1) return 1;
    const int peer = rank ^ 1;
    for (long i = 0; peer < size - 1; ++i) {
      long got = 0;
      MPI_Sendrecv(&i, 1, MPI_LONG, peer, 0, &got, 1, MPI_LONG, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else if (strcmp(mode, "pollers") == 0) {
    if (rank == 1) exit(5);
    int flag = 0;
    while (rank == 0 && !flag) {
      MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      usleep(10);
    }
  }
  MPI_Finalize();
  return 0;
}
