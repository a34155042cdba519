/* send_overhead: the per-call cost of libsimfab-capture.so (apps/capture/README.md, "Overhead").
 *
 *   mpicc -O2 -o send_overhead tests/capture/send_overhead.c
 *   mpirun -np 2 ./send_overhead [N]                                  # without capture
 *   mpirun -np 2 -x LD_PRELOAD=$PWD/build/libsimfab-capture.so ./send_overhead [N]
 *
 * Rank 0 sends N (default 100000) messages of 8 B to rank 1, which receives them; five rounds,
 * separated by barriers. Prints the best round's time per MPI_Send (rank 0) and per MPI_Recv
 * (rank 1) in ns; the difference between the two runs is the capture's cost per call.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  int rank, size, round, i;
  const int n = argc > 1 ? atoi(argv[1]) : 100000;
  double best = 1e30, buf[1] = {0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "send_overhead: run on 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (round = 0; round < 5; ++round) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (i = 0; i < n; ++i) {
      if (rank == 0) {
        MPI_Send(buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
      } else {
        MPI_Recv(buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    }
    const double t = MPI_Wtime() - t0;
    if (t < best) best = t;
  }
  printf("send_overhead: rank %d: %d x %s of 8 B: %.0f ns per call (best of 5 rounds)\n", rank, n,
         rank == 0 ? "MPI_Send" : "MPI_Recv", best / n * 1e9);
  MPI_Finalize();
  return 0;
}
