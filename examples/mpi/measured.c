/* measured: what online/compute=measured charges. Each rank spins for about 20 ms of its own CPU
 * time (thread CPU clock) and compares that with the simulated time MPI_Wtime saw pass. Run with
 * --cfg cpu/reference-speed=SPEED: the simulated time must be the CPU time x SPEED / host speed,
 * i.e. EXPECTED_RATIO (argument 1, default 1) times it, within 10 % (the measurement's noise).
 *   simfab-cc -O2 -o measured measured.c
 *   simfab exec -np 2 --cfg cpu/reference-speed=2Gf ./measured 2     (1 Gf/s default cluster) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double ratio = argc > 1 ? atof(argv[1]) : 1.0;
  const double w0 = MPI_Wtime(), c0 = cpu_now();
  volatile double x = 0;
  while (cpu_now() - c0 < 0.02) x += 1e-9;
  const double c1 = cpu_now();
  const double w1 = MPI_Wtime();
  const double got = (w1 - w0) / (c1 - c0);
  const int ok = got > 0.9 * ratio && got < 1.1 * ratio;
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf("measured: simulated / CPU time = %.3f (expected %.3f): %s\n", got, ratio, all_ok ? "OK" : "WRONG");
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
