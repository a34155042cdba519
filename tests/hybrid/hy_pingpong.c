/* hy_pingpong: a self-timing MPI ping-pong in the style of NetPIPE/OSU, for the hybrid tests.
 *   hy_pingpong [-s BYTES] [-n ITERATIONS] [-w WARMUP] [-c SECONDS] [-q]
 * Ranks 0 and 1 exchange BYTES back and forth; the others wait at the final barrier. Rank 1 adds
 * 1 to every byte before it sends them back, unless -q (communication only: the buffer is not
 * filled, changed nor summed, the checksum is 0). -c adds a
 * busy computation of SECONDS (wall clock) before each send of rank 0, to make the program
 * compute-bound. Prints, from rank 0: `pingpong size S iterations N rtt_us T checksum C`, where
 * T is the mean round trip by MPI_Wtime and C a checksum of the data rank 0 got back. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void spin(double seconds) {
  const double end = now_s() + seconds;
  while (now_s() < end) {
  }
}

int main(int argc, char** argv) {
  long size = 8, iterations = 100, warmup = 10;
  double compute = 0;
  int opt, touch = 1;
  MPI_Init(&argc, &argv);
  while ((opt = getopt(argc, argv, "s:n:w:c:q")) != -1) {
    switch (opt) {
      case 's': size = atol(optarg); break;
      case 'n': iterations = atol(optarg); break;
      case 'w': warmup = atol(optarg); break;
      case 'c': compute = atof(optarg); break;
      case 'q': touch = 0; break;
      default:
        fprintf(stderr, "usage: hy_pingpong [-s BYTES] [-n ITERATIONS] [-w WARMUP] [-c SECONDS] [-q]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  int rank, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  unsigned char* buf = malloc(size > 0 ? size : 1);
  if (touch)
    for (long i = 0; i < size; ++i) buf[i] = (unsigned char)(i * 7 + rank);
  double t0 = 0;
  for (long i = 0; i < warmup + iterations; ++i) {
    if (i == warmup) {
      MPI_Barrier(MPI_COMM_WORLD);
      t0 = MPI_Wtime();
    }
    if (rank == 0) {
      if (compute > 0) spin(compute);
      MPI_Send(buf, (int)size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, (int)size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (touch)
        for (long k = 0; k < size; ++k) buf[k] = (unsigned char)(buf[k] + 1);
      MPI_Send(buf, (int)size, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
  }
  const double t1 = MPI_Wtime();
  unsigned long checksum = 0;
  if (touch)
    for (long i = 0; i < size; ++i) checksum = checksum * 31 + buf[i];
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("pingpong size %ld iterations %ld rtt_us %.6f checksum %lu\n", size, iterations,
           (t1 - t0) / (double)iterations * 1e6, checksum);
  free(buf);
  MPI_Finalize();
  return 0;
}
