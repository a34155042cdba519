/* hybrid_overhead: the wall time and the MPI_Wtime time per message of a ping-pong, for
 * bench/hybrid_bench.sh (issue 25). Built with the system's mpicc (Open MPI), run plainly under
 * mpirun and under `simfab hybrid`, where MPI_Wtime returns virtual (simulated) time while
 * clock_gettime(CLOCK_MONOTONIC) still returns real time.
 *
 *   hybrid_overhead [-s SIZE] [-n ITERATIONS] [-w WARMUP]
 *     -s SIZE        message size in bytes (default 8)
 *     -n ITERATIONS  timed round trips (default 10000)
 *     -w WARMUP      untimed round trips before them (default 100)
 *
 * Ranks pair up as (0,1), (2,3), ...: the even rank sends, then receives; the odd one receives,
 * then sends back; all pairs run concurrently (an odd last rank idles). A message is one one-way
 * send, so a round trip is two. Rank 0 prints its pair's figures, one line:
 *   size 8 iterations 10000 wall_us_per_msg X virtual_us_per_msg Y cpu_us_per_msg Z
 * (wall: CLOCK_MONOTONIC; virtual: MPI_Wtime, which is real time without simfab; cpu: rank 0's
 * own user + system time over the loop, getrusage, waiting in MPI included). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double monotonic_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_s(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static void usage(const char* argv0) {
  fprintf(stderr, "usage: %s [-s SIZE] [-n ITERATIONS] [-w WARMUP]\n", argv0);
}

int main(int argc, char** argv) {
  long size = 8, iterations = 10000, warmup = 100;
  int opt;
  while ((opt = getopt(argc, argv, "s:n:w:h")) != -1) {
    switch (opt) {
      case 's': size = atol(optarg); break;
      case 'n': iterations = atol(optarg); break;
      case 'w': warmup = atol(optarg); break;
      default: usage(argv[0]); return 2;
    }
  }
  if (size < 0 || iterations <= 0 || warmup < 0) {
    usage(argv[0]);
    return 2;
  }

  MPI_Init(&argc, &argv);
  int rank, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks < 2) {
    if (rank == 0) fprintf(stderr, "hybrid_overhead: needs at least 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char* buf = malloc(size > 0 ? (size_t)size : 1);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(buf, rank, size > 0 ? (size_t)size : 1);
  const int peer = rank ^ 1;
  const int active = peer < nranks;
  const int first = (rank & 1) == 0;

  double wall0 = 0, virt0 = 0, cpu0 = 0;
  for (long i = -warmup; i < iterations; ++i) {
    if (i == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      wall0 = monotonic_s();
      cpu0 = cpu_s();
      virt0 = MPI_Wtime();
    }
    if (!active) continue;
    if (first) {
      MPI_Send(buf, (int)size, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, (int)size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)size, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
    }
  }
  const double wall = monotonic_s() - wall0;
  const double cpu = cpu_s() - cpu0;
  const double virt = MPI_Wtime() - virt0;
  const double msgs = 2.0 * (double)iterations;
  if (rank == 0)
    printf("size %ld iterations %ld wall_us_per_msg %.3f virtual_us_per_msg %.3f cpu_us_per_msg %.3f\n",
           size, iterations, 1e6 * wall / msgs, 1e6 * virt / msgs, 1e6 * cpu / msgs);
  free(buf);
  MPI_Finalize();
  return 0;
}
