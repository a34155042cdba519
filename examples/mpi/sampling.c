/* sampling: SIMFAB_SAMPLE and simfab_shared_malloc. A loop of 100 iterations whose body is
 *   SIMFAB_SAMPLE(3) { executed++; simfab_compute(1e6); }
 * runs the body only 3 times per rank, yet the simulated time of the loop is 100 x the body's
 * (1e6 flops at the default cluster's 1 Gf/s = 1 ms each): checked to 1e-9 relative. Then
 * simfab_shared_malloc returns one block shared by all ranks: rank 0 writes it, the others read
 * rank 0's data after a barrier, and all pointers are equal (MPI_Allgather of their addresses).
 * Build and run (declared compute: only simfab_compute charges time):
 *   simfab-cc -O2 -o sampling sampling.c
 *   simfab exec -np 4 --cfg online/compute=declared ./sampling
 * Prints "sampling: ... OK" and exits 0 when all checks pass. */
#include <mpi.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int errors = 0;

  int executed = 0;
  const double t0 = MPI_Wtime();
  for (int i = 0; i < 100; ++i) {
    SIMFAB_SAMPLE(3) {
      executed++;
      simfab_compute(1e6);
    }
  }
  const double elapsed = MPI_Wtime() - t0;
  if (executed != 3) {
    fprintf(stderr, "sampling: rank %d: the sampled body ran %d times, expected 3\n", rank, executed);
    ++errors;
  }
  if (fabs(elapsed - 0.1) > 1e-9 * 0.1) {
    fprintf(stderr, "sampling: rank %d: the loop took %.12f s of simulated time, expected 0.1\n", rank, elapsed);
    ++errors;
  }

  enum { N = 1000 };
  int* shared = simfab_shared_malloc(sizeof(int) * N);
  if (rank == 0)
    for (int i = 0; i < N; ++i) shared[i] = 3 * i + 1;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < N; ++i)
    if (shared[i] != 3 * i + 1) {
      fprintf(stderr, "sampling: rank %d: shared block does not hold rank 0's data\n", rank);
      ++errors;
      break;
    }
  unsigned long long me = (unsigned long long)(uintptr_t)shared;
  unsigned long long* all_ptrs = malloc(sizeof(unsigned long long) * (size_t)size);
  MPI_Allgather(&me, 1, MPI_UNSIGNED_LONG_LONG, all_ptrs, 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    if (all_ptrs[r] != me) {
      fprintf(stderr, "sampling: rank %d: simfab_shared_malloc gave rank %d another block\n", rank, r);
      ++errors;
      break;
    }
  MPI_Barrier(MPI_COMM_WORLD); /* nobody frees before everyone read */
  simfab_shared_free(shared);
  free(all_ptrs);

  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("sampling: %d ranks, body ran %d of 100 times, loop %.9f s simulated, shared block %s: %s\n", size, executed,
           elapsed, all ? "?" : "shared", all ? "WRONG" : "OK");
  MPI_Finalize();
  return all ? 1 : 0;
}
