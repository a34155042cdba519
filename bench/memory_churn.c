/* memory_churn: a memory-hungry program for the stability of measured computation (issue 26).
 * Each of ITERS iterations, every rank allocates a fresh MB-sized work array, fills and sums it
 * (real computation, about 2 ms), frees it, and joins an MPI_Allreduce, as codes with per-step
 * temporaries do. In one simfab process all ranks share the C library's heap: this is the case
 * where freeing and re-allocating could turn into page faults charged as computation.
 * Prints the predicted time per iteration (MPI_Wtime). Usage: memory_churn [MB] [ITERS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const size_t mb = argc > 1 ? (size_t)atol(argv[1]) : 8;
  const int iters = argc > 2 ? atoi(argv[2]) : 20;
  const size_t n = mb * 1024 * 1024 / sizeof(double);
  double total = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int it = 0; it < iters; ++it) {
    double* work = malloc(n * sizeof(double));
    for (size_t i = 0; i < n; ++i) work[i] = (double)(i + (size_t)it + (size_t)rank);
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += work[i] * 1e-9;
    free(work);
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    total += s;
  }
  const double t1 = MPI_Wtime();
  if (rank == 0) printf("memory_churn: %zu MB x %d iterations: %.6f s per iteration (check %.3f)\n", mb, iters,
                        (t1 - t0) / iters, total);
  MPI_Finalize();
  return 0;
}
