/* two_kernels: an MPI program whose two kernels run at different speeds (seed 001 §2.11's code
 * regions). Each step runs kernel A (a memory stream: triad over an array), exchanges halos
 * with its neighbours, runs kernel B (dependent floating-point arithmetic in registers) and
 * joins an allreduce, so A and B are two regions (the code between two MPI call sites).
 *
 *   two_kernels [-n STEPS] [-a REPEATS_A] [-b REPEATS_B] [-s SLOWDOWN_A] [-m ELEMENTS]
 *
 * -s K repeats kernel A K times more, standing in for a host on which the memory-bound kernel is
 * K times slower while kernel B runs at the same speed (what a per-region calibration captures
 * and one host-wide speed cannot). Prints the time between MPI_Init and MPI_Finalize (rank 0).
 * Build: mpicc -O2 -o two_kernels two_kernels.c   (or build/simfab-cc for simfab exec)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double *x, *y, *z;

static void kernel_a(long m, int repeats) {
  for (int r = 0; r < repeats; ++r)
    for (long i = 0; i < m; ++i) x[i] = y[i] + 1.0001 * z[i];
}

static double kernel_b(int repeats) {
  double a = 1.0, b = 1.0000001;
  for (int r = 0; r < repeats; ++r)
    for (int i = 0; i < 200000; ++i) a = a * b + 1e-9;
  return a;
}

static int number(const char* opt, const char* text, long lo) {
  char* end = NULL;
  const long v = strtol(text, &end, 10);
  if (!*text || *end || v < lo || v > 1000000) {
    fprintf(stderr, "two_kernels: %s takes a whole number from %ld to 1000000, got '%s'\n", opt, lo, text);
    exit(2);
  }
  return (int)v;
}

int main(int argc, char** argv) {
  int steps = 20, ra = 1, rb = 1, slow = 1;
  long m = 1L << 18;
  int c;
  while ((c = getopt(argc, argv, "n:a:b:s:m:")) != -1) {
    switch (c) {
      case 'n': steps = number("-n", optarg, 1); break;
      case 'a': ra = number("-a", optarg, 0); break;
      case 'b': rb = number("-b", optarg, 0); break;
      case 's': slow = number("-s", optarg, 1); break;
      case 'm': m = number("-m", optarg, 1); break;
      default:
        fprintf(stderr, "usage: two_kernels [-n STEPS] [-a REPEATS_A] [-b REPEATS_B] [-s SLOWDOWN_A] [-m ELEMENTS]\n");
        return 2;
    }
  }
  MPI_Init(&argc, &argv);
  const double t0 = MPI_Wtime();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  x = calloc((size_t)m, sizeof *x);
  y = calloc((size_t)m, sizeof *y);
  z = calloc((size_t)m, sizeof *z);
  if (!x || !y || !z) {
    fprintf(stderr, "two_kernels: cannot allocate 3 x %ld doubles\n", m);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double halo_out[64] = {0}, halo_in[64], sum = 0, total = 0;
  for (int s = 0; s < steps; ++s) {
    kernel_a(m, ra * slow);
    halo_out[0] = x[0];
    MPI_Sendrecv(halo_out, 64, MPI_DOUBLE, right, 1, halo_in, 64, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    sum += kernel_b(rb) + halo_in[0];
    MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  const double t1 = MPI_Wtime();
  if (rank == 0) printf("two_kernels: %d steps, %d ranks, %.6f s (checksum %.3f)\n", steps, size, t1 - t0, total);
  free(x);
  free(y);
  free(z);
  MPI_Finalize();
  return 0;
}
