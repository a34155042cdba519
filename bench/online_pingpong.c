/* online_pingpong: the MPI call overhead of simfab exec per simulated message. Two ranks bounce
 * an 8-byte message ROUNDS times (default 200000); bench/online_bench.sh divides simfab's wall
 * time by the 2 x ROUNDS messages. Prints the simulated half round trip. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int rounds = argc > 1 ? atoi(argv[1]) : 200000;
  long v = 0;
  const double t0 = MPI_Wtime();
  for (int i = 0; i < rounds; ++i) {
    if (rank == 0) {
      MPI_Send(&v, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&v, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(&v, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      ++v;
      MPI_Send(&v, 1, MPI_LONG, 0, 0, MPI_COMM_WORLD);
    }
  }
  if (rank == 0)
    printf("online_pingpong: %d round trips, value %ld (%s), %.9f s per half round trip\n", rounds, v,
           v == rounds ? "OK" : "WRONG", (MPI_Wtime() - t0) / (2.0 * rounds));
  MPI_Finalize();
  return 0;
}
