/* ring: a token goes around the ranks LAPS times (default 3); each rank adds its rank number.
 * Checks the final token (LAPS * sum of ranks) and prints the (simulated) time of one lap.
 *   ring [LAPS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int laps = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 3;
  long token = 0;
  double t0 = MPI_Wtime();
  for (int lap = 0; lap < laps; ++lap) {
    if (rank == 0) {
      token += rank;
      MPI_Send(&token, 1, MPI_LONG, (rank + 1) % size, 0, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_LONG, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_LONG, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token += rank;
      MPI_Send(&token, 1, MPI_LONG, (rank + 1) % size, 0, MPI_COMM_WORLD);
    }
  }
  double t1 = MPI_Wtime();
  if (rank == 0) {
    long expect = (long)laps * size * (size - 1) / 2;
    printf("ring: token %ld (expected %ld) %s; %.9f s per lap\n", token, expect, token == expect ? "OK" : "WRONG",
           (t1 - t0) / laps);
  }
  MPI_Finalize();
  return token == (long)laps * size * (size - 1) / 2 || rank != 0 ? 0 : 1;
}
