/* ringtime: passes a token round the ranks -n times (option parsing with getopt_long, self-timing
 * with gettimeofday, as many benchmarks do) and prints the time per hop in microseconds. */
#include "config.h"

#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, laps = 10, bytes = 8, c;
  static const struct option longs[] = {{"laps", required_argument, NULL, 'n'},
                                        {"bytes", required_argument, NULL, 's'},
                                        {NULL, 0, NULL, 0}};
  while ((c = getopt_long(argc, argv, "n:s:", longs, NULL)) != -1) {
    if (c == 'n') laps = atoi(optarg);
    else if (c == 's') bytes = atoi(optarg);
    else {
      fprintf(stderr, "usage: ringtime [-n LAPS] [-s BYTES]\n");
      return 2;
    }
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* buf = calloc((size_t)bytes, 1);
  struct timeval t0, t1;
  MPI_Barrier(MPI_COMM_WORLD);
  gettimeofday(&t0, NULL);
  for (int lap = 0; lap < laps && size > 1; ++lap) {
    if (rank == 0) {
      MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_BYTE, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, bytes, MPI_BYTE, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_BYTE, (rank + 1) % size, 0, MPI_COMM_WORLD);
    }
  }
  gettimeofday(&t1, NULL);
  const double us = ((double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_usec - t0.tv_usec));
  if (rank == 0)
    printf("ringtime: %d ranks, %d laps of %d bytes: %.3f us per hop (sizeof(long) %d, HAVE_MPI_COMM_SPAWN %s)\n",
           size, laps, bytes, size > 1 ? us / laps / size : 0.0, SIZEOF_LONG,
#ifdef HAVE_MPI_COMM_SPAWN
           "yes"
#else
           "no"
#endif
    );
  free(buf);
  MPI_Finalize();
  return 0;
}
