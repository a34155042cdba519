/* allreduce_loop: ITER iterations of compute (declared with simfab_compute when built for simfab)
 * then an MPI_Allreduce of N doubles; checks the sums and prints the time per iteration.
 *   allreduce_loop [N] [ITER] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 1024;
  const int iters = argc > 2 ? atoi(argv[2]) : 10;
  double* in = malloc(sizeof(double) * (size_t)n);
  double* out = malloc(sizeof(double) * (size_t)n);
  int errors = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int it = 0; it < iters; ++it) {
    for (int i = 0; i < n; ++i) in[i] = rank + i + it;
#if defined(SIMFAB_MPI)
    simfab_compute(1e6); /* 1 Mflop per iteration, whatever this machine's speed */
#elif defined(USE_SMPI)
    smpi_execute_flops(1e6); /* the same under SimGrid's smpicc (bench/online_bench.sh) */
#endif
    MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < n; ++i)
      if (out[i] != (double)size * (size - 1) / 2 + (double)size * (i + it)) ++errors;
  }
  const double t1 = MPI_Wtime();
  int all_errors = 0;
  MPI_Reduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("allreduce_loop: %d ranks, %d doubles, %d iterations: %s; %.9f s per iteration\n", size, n, iters,
           all_errors ? "WRONG" : "OK", (t1 - t0) / iters);
  free(in);
  free(out);
  MPI_Finalize();
  return all_errors ? 1 : 0;
}
