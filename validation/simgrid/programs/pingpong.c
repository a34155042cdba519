/* Ping-pong between ranks 0 and 1 over message sizes that straddle SMPI's size boundaries.
 *
 *   pingpong [REPS]          (default 2 round trips per size)
 *
 * Written for validation/simgrid (run.py records it with `smpirun -trace-ti`, then replays the
 * trace with SimGrid and simfab). For each boundary b of SMPI 3.32's default factor tables
 * (257, 732, 1426, 3484, 5776, 9376, 15424, 65472 bytes) and of its detached-send threshold
 * (65536, smpi/send-is-detached-thresh), the sizes b - 1, b and b + 1 are sent, then a few sizes
 * far from any boundary. Ranks other than 0 and 1 only call MPI_Init and MPI_Finalize. Every
 * size uses its own tag; there is no computation, so the trace does not depend on the host. */
#include <mpi.h>
#include <stdlib.h>

static const int kBoundaries[] = {257, 732, 1426, 3484, 5776, 9376, 15424, 65472, 65536};
static const int kOthers[] = {1, 8, 100000, 1048576, 4194304};

static void round_trips(int rank, char* buf, int size, int tag, int reps) {
  for (int i = 0; i < reps; i++) {
    if (rank == 0) {
      MPI_Send(buf, size, MPI_BYTE, 1, tag, MPI_COMM_WORLD);
      MPI_Recv(buf, size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, size, MPI_BYTE, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, size, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int reps = argc > 1 ? atoi(argv[1]) : 2;
  char* buf = calloc(4194304, 1);
  int tag = 0;
  for (size_t b = 0; b < sizeof kBoundaries / sizeof *kBoundaries; b++)
    for (int d = -1; d <= 1; d++) round_trips(rank, buf, kBoundaries[b] + d, tag++, reps);
  for (size_t o = 0; o < sizeof kOthers / sizeof *kOthers; o++) round_trips(rank, buf, kOthers[o], tag++, reps);
  free(buf);
  MPI_Finalize();
  return 0;
}
