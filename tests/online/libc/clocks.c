/* clocks: a program that times itself with libc's clocks instead of MPI_Wtime, as many benchmarks
 * do. Each rank charges 1e9 flops (1 s on a 1 Gf/s host) and sleeps SLEEP_US microseconds (sleep,
 * usleep and nanosleep in turn), and prints how long each clock says that took, next to MPI_Wtime.
 * Usage: clocks [SLEEP_US]. Under simfab exec with virtual clocks, every clock agrees with MPI_Wtime. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static double tv_s(struct timeval t) { return (double)t.tv_sec + t.tv_usec * 1e-6; }
static double ts_s(struct timespec t) { return (double)t.tv_sec + t.tv_nsec * 1e-9; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long sleep_us = argc > 1 ? atol(argv[1]) : 2750000;
  struct timeval tv0, tv1;
  struct timespec mono0, mono1, real0, real1;
  double w0 = MPI_Wtime();
  gettimeofday(&tv0, NULL);
  clock_gettime(CLOCK_MONOTONIC, &mono0);
  clock_gettime(CLOCK_REALTIME, &real0);
  clock_t c0 = clock();
  time_t s0 = time(NULL);
#ifdef SIMFAB_MPI
  simfab_compute(1e9);
#endif
  const long whole = sleep_us / 1000000, rest = sleep_us % 1000000;
  sleep((unsigned)whole);
  usleep((useconds_t)(rest / 2));
  struct timespec half = {0, (rest - rest / 2) * 1000};
  nanosleep(&half, NULL);
  double w1 = MPI_Wtime();
  gettimeofday(&tv1, NULL);
  clock_gettime(CLOCK_MONOTONIC, &mono1);
  clock_gettime(CLOCK_REALTIME, &real1);
  clock_t c1 = clock();
  time_t s1 = time(NULL);
  if (rank == 0) {
    printf("clocks: MPI_Wtime %.6f s\n", w1 - w0);
    printf("clocks: gettimeofday %.6f s\n", tv_s(tv1) - tv_s(tv0));
    printf("clocks: clock_gettime(CLOCK_MONOTONIC) %.6f s\n", ts_s(mono1) - ts_s(mono0));
    printf("clocks: clock_gettime(CLOCK_REALTIME) %.6f s\n", ts_s(real1) - ts_s(real0));
    printf("clocks: clock %.6f s\n", (double)(c1 - c0) / CLOCKS_PER_SEC);
    printf("clocks: time %ld s\n", (long)(s1 - s0));
  }
  MPI_Finalize();
  return 0;
}
