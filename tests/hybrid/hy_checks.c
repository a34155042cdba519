/* hy_checks: what a hybrid run must show a program, checked from inside (seed 002 R4, R6).
 *   hy_checks hide       MPI_COMM_WORLD has the N application ranks only: its size, ranks,
 *                        group, a split and a dup; prints `hide OK size N` or the failures
 *   hy_checks rule MS    the receive rule t3 = max(t1, tx + delta) both ways: rank 1 computes
 *                        MS ms before it posts its receive (late receiver: t3 = t1), then rank 0
 *                        computes MS ms before it sends (early receiver: t3 = tx + delta); prints
 *                        `rule late T1 T3 early TX T3` in microseconds of virtual time
 *   hy_checks compute MS K   K rounds of MS ms of computation (CPU time) each, timed by MPI_Wtime: prints
 *                        `compute_us T`  (a compute-only program) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Work of a fixed CPU time (the thread's CPU clock: a rank descheduled on a shared core does the
   same work). */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static void spin_ms(double ms) {
  const double end = now_s() + ms * 1e-3;
  while (now_s() < end) {
  }
}

static int hide(int rank, int size) {
  int errors = 0, n = 0, r = 0, world_group_size = 0;
  MPI_Group g;
  MPI_Comm_group(MPI_COMM_WORLD, &g);
  MPI_Group_size(g, &world_group_size);
  MPI_Group_free(&g);
  if (world_group_size != size) ++errors;
  MPI_Comm half, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_size(half, &n);
  if (n != (size + 1 - rank % 2) / 2) ++errors;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_size(dup, &n);
  MPI_Comm_rank(dup, &r);
  if (n != size || r != rank) ++errors;
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
  if (sum != size * (size - 1) / 2) ++errors;
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
  int total = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf(total == 0 ? "hide OK size %d\n" : "hide FAILED size %d\n", size);
  return total;
}

static void rule(int rank, double ms) {
  int x = 0;
  double t1 = 0, t3 = 0, tx = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
  } else if (rank == 1) {
    spin_ms(ms);
    t1 = MPI_Wtime();
    MPI_Recv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    t3 = MPI_Wtime();
    printf("rule late %.3f %.3f", t1 * 1e6, t3 * 1e6);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    spin_ms(ms);
    tx = MPI_Wtime();
    MPI_Send(&tx, 1, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&tx, 1, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    t3 = MPI_Wtime();
    printf(" early %.3f %.3f\n", tx * 1e6, t3 * 1e6);
    fflush(stdout);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, rc = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* what = argc > 1 ? argv[1] : "hide";
  if (!strcmp(what, "hide")) {
    rc = hide(rank, size);
  } else if (!strcmp(what, "rule")) {
    rule(rank, argc > 2 ? atof(argv[2]) : 20);
  } else if (!strcmp(what, "compute")) {
    const double ms = argc > 2 ? atof(argv[2]) : 10;
    const int k = argc > 3 ? atoi(argv[3]) : 5;
    const double t0 = MPI_Wtime();
    for (int i = 0; i < k; ++i) spin_ms(ms);
    const double t = MPI_Wtime() - t0;
    if (rank == 0) printf("compute_us %.3f\n", t * 1e6);
  } else {
    if (rank == 0) fprintf(stderr, "usage: hy_checks hide | rule MS | compute MS K\n");
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
