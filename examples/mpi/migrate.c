/* Load balancing from an MPI program (AMPI's MPI_Migrate, seed 001 §2.17): 4 ranks, 3 of them on
 * one single-core host and 1 on another (a hostfile), each computing 1 Gflop per iteration at
 * 1 Gf/s, then a barrier and simfab_migrate(). Without balancing every iteration takes 3 s (three
 * ranks share a core); with --cfg lb/balancer=greedy GreedyLB moves one rank over at the first
 * point, and the 9 remaining iterations take 2 s: 21 s instead of 30 s.
 *   build/simfab-cc -O2 -o migrate examples/mpi/migrate.c
 *   printf 'node-0:3\nnode-1\n' > hosts       # two hosts of 1 core at 1 Gf/s
 *   build/simfab exec -np 4 --platform tests/online/lb2.yaml --hostfile hosts --cfg online/compute=declared \
 *                     --cfg lb/balancer=greedy ./migrate 21
 * The argument is the expected total in seconds (within 0.1 %); prints "migrate: ... OK". */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double expected = argc > 1 ? atof(argv[1]) : 30.0;
  const double t0 = MPI_Wtime();
  for (int it = 0; it < 10; ++it) {
    simfab_compute(1e9);
    MPI_Barrier(MPI_COMM_WORLD);
    simfab_migrate();
  }
  const double total = MPI_Wtime() - t0;
  const int ok = fabs(total - expected) < 1e-3 * expected;
  if (rank == 0) printf("migrate: 10 iterations in %.6f s (expected %.0f s) %s\n", total, expected, ok ? "OK" : "FAILED");
  MPI_Finalize();
  return ok ? 0 : 1;
}
