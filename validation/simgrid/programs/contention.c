/* Contention patterns: many-to-one, all pairs, and a bisection shift.
 *
 *   contention [BYTES] [REPS]     (default 262144 bytes, 1 repetition)
 *
 * Written for validation/simgrid (run.py records it with `smpirun -trace-ti`). Three phases,
 * separated by barriers:
 *   incast     every rank but 0 sends BYTES to rank 0 at once (rank 0 posts one irecv per
 *              sender, then waits for all): the flows share rank 0's link;
 *   all pairs  every rank exchanges BYTES / P with every other rank (isend/irecv, waitall), so
 *              P (P - 1) flows share the backbone or the tree's upper links;
 *   shift      rank r sends BYTES to r + P/2 and receives from r - P/2 (isend, recv, wait): on a
 *              tree every flow crosses the bisection.
 * Sources are always explicit (no MPI_ANY_SOURCE: SMPI 3.32 records it as -333, which its own
 * replay cannot match). No computation: the trace does not depend on the host. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bytes = argc > 1 ? atoi(argv[1]) : 262144;
  int reps = argc > 2 ? atoi(argv[2]) : 1;
  int share = bytes / size > 0 ? bytes / size : 1;
  char* sbuf = calloc((size_t)bytes + (size_t)share * size, 1);
  char* rbuf = calloc((size_t)bytes * size + (size_t)share * size, 1);
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * 2 * size);
  for (int it = 0; it < reps; it++) {
    /* incast */
    if (rank == 0) {
      for (int r = 1; r < size; r++) MPI_Irecv(rbuf + (size_t)r * bytes, bytes, MPI_BYTE, r, 1, MPI_COMM_WORLD, &reqs[r - 1]);
      MPI_Waitall(size - 1, reqs, MPI_STATUSES_IGNORE);
    } else {
      MPI_Send(sbuf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* all pairs */
    int n = 0;
    for (int d = 1; d < size; d++) {
      int from = (rank - d + size) % size;
      MPI_Irecv(rbuf + (size_t)from * share, share, MPI_BYTE, from, 2, MPI_COMM_WORLD, &reqs[n++]);
    }
    for (int d = 1; d < size; d++) {
      int to = (rank + d) % size;
      MPI_Isend(sbuf + (size_t)to * share, share, MPI_BYTE, to, 2, MPI_COMM_WORLD, &reqs[n++]);
    }
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    /* shift across the bisection */
    if (size > 1) {
      int to = (rank + size / 2) % size;
      int from = (rank - size / 2 + size) % size;
      MPI_Isend(sbuf, bytes, MPI_BYTE, to, 3, MPI_COMM_WORLD, &reqs[0]);
      MPI_Recv(rbuf, bytes, MPI_BYTE, from, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  free(reqs);
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
