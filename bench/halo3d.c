/* halo3d: a hydrodynamics-style proxy application, written the way third-party proxy apps are
 * (getopt options, a Cartesian communicator, derived datatypes for the faces, self-timing with
 * MPI_Wtime, a verification line), for benchmarking `simfab exec` against smpirun
 * (bench/online_bench.sh).
 *
 * Each rank owns an n x n x n block of a periodic 3-D field (plus one ghost layer) on a px x py x pz
 * grid (MPI_Dims_create). A step exchanges the six faces with MPI_Irecv / MPI_Isend (faces are
 * MPI_Type_create_subarray types), applies a 7-point averaging stencil
 *   u'(i,j,k) = (u(i,j,k) + sum of its six neighbours) / 7,
 * and reduces the step's largest change with MPI_Allreduce (MPI_MAX), as a CFL time-step
 * reduction would. The stencil conserves the field's sum on a periodic domain, so the run verifies
 * that sum(u) after the last step equals sum(u) at the start (relative error below 1e-9).
 *
 *   halo3d [-n CELLS] [-s STEPS] [-v]
 *     -n  cells per side of each rank's block (default 16)
 *     -s  steps (default 20)
 *     -v  print every step's largest change on rank 0
 * Prints "halo3d: P ranks (PXxPYxPZ), n=N, S steps: VERIFIED|FAILED; T s per step". */
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define IDX(i, j, k) ((size_t)(i) * (size_t)(m * m) + (size_t)(j) * (size_t)m + (size_t)(k))

static MPI_Datatype face_type(int m, int dim, int index) {
  int sizes[3] = {m, m, m}, sub[3] = {m - 2, m - 2, m - 2}, start[3] = {1, 1, 1};
  sub[dim] = 1;
  start[dim] = index;
  MPI_Datatype t;
  MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int n = 16, steps = 20, verbose = 0, opt;
  while ((opt = getopt(argc, argv, "n:s:v")) != -1) {
    switch (opt) {
      case 'n': n = atoi(optarg); break;
      case 's': steps = atoi(optarg); break;
      case 'v': verbose = 1; break;
      default:
        fprintf(stderr, "usage: halo3d [-n CELLS] [-s STEPS] [-v]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  int size, rank, dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1}, coords[3];
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (n < 1 || steps < 0) {
    fprintf(stderr, "halo3d: -n must be at least 1 and -s at least 0\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Dims_create(size, 3, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 3, coords);
  const int m = n + 2;
  double* u = calloc((size_t)m * m * m, sizeof(double));
  double* w = calloc((size_t)m * m * m, sizeof(double));
  if (u == NULL || w == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      for (int k = 1; k <= n; ++k)
        u[IDX(i, j, k)] = sin(0.1 * (coords[0] * n + i)) + cos(0.2 * (coords[1] * n + j)) + 0.01 * (coords[2] * n + k);
  double local = 0, total0 = 0, total1 = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      for (int k = 1; k <= n; ++k) local += u[IDX(i, j, k)];
  MPI_Allreduce(&local, &total0, 1, MPI_DOUBLE, MPI_SUM, cart);

  MPI_Datatype send[6], recv[6];
  int peer[6];
  for (int d = 0; d < 3; ++d) {
    MPI_Cart_shift(cart, d, 1, &peer[2 * d], &peer[2 * d + 1]);  /* lower, upper neighbour */
    send[2 * d] = face_type(m, d, 1);
    send[2 * d + 1] = face_type(m, d, n);
    recv[2 * d] = face_type(m, d, 0);
    recv[2 * d + 1] = face_type(m, d, n + 1);
  }
  MPI_Barrier(cart);
  const double t0 = MPI_Wtime();
  for (int s = 0; s < steps; ++s) {
    MPI_Request req[12];
    for (int f = 0; f < 6; ++f) MPI_Irecv(u, 1, recv[f], peer[f], f ^ 1, cart, &req[f]);
    for (int f = 0; f < 6; ++f) MPI_Isend(u, 1, send[f], peer[f], f, cart, &req[6 + f]);
    MPI_Waitall(12, req, MPI_STATUSES_IGNORE);
    /* Edges and corners are not exchanged: the stencil reads faces only. */
    double change = 0;
    for (int i = 1; i <= n; ++i)
      for (int j = 1; j <= n; ++j)
        for (int k = 1; k <= n; ++k) {
          const double v = (u[IDX(i, j, k)] + u[IDX(i - 1, j, k)] + u[IDX(i + 1, j, k)] + u[IDX(i, j - 1, k)] +
                            u[IDX(i, j + 1, k)] + u[IDX(i, j, k - 1)] + u[IDX(i, j, k + 1)]) / 7.0;
          change = fmax(change, fabs(v - u[IDX(i, j, k)]));
          w[IDX(i, j, k)] = v;
        }
    double* t = u;
    u = w;
    w = t;
    double largest = 0;
    MPI_Allreduce(&change, &largest, 1, MPI_DOUBLE, MPI_MAX, cart);
    if (verbose && rank == 0) printf("step %d: largest change %.6e\n", s, largest);
  }
  const double t1 = MPI_Wtime();
  local = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      for (int k = 1; k <= n; ++k) local += u[IDX(i, j, k)];
  MPI_Allreduce(&local, &total1, 1, MPI_DOUBLE, MPI_SUM, cart);
  const int ok = fabs(total1 - total0) <= 1e-9 * fmax(1.0, fabs(total0));
  if (rank == 0)
    printf("halo3d: %d ranks (%dx%dx%d), n=%d, %d steps: %s; %.9f s per step\n", size, dims[0], dims[1], dims[2], n,
           steps, ok ? "VERIFIED" : "FAILED", steps > 0 ? (t1 - t0) / steps : 0.0);
  for (int f = 0; f < 6; ++f) {
    MPI_Type_free(&send[f]);
    MPI_Type_free(&recv[f]);
  }
  free(u);
  free(w);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return ok ? 0 : 1;
}
