/* stencil2d: Jacobi iterations of the 5-point Laplacian on a G x G grid split over a Px x Py
 * process grid (MPI_Dims_create, MPI_Cart_create), halo exchange with MPI_Isend/MPI_Irecv (a
 * column datatype for the east/west halos), MPI_Waitall, and a residual MPI_Allreduce. The grid
 * starts at 0 with a fixed boundary of 1; after ITER sweeps every rank checks its interior against
 * a serial computation of the same sweeps (done redundantly by rank 0 and broadcast).
 * G must be divisible by both dimensions of the process grid.
 *   stencil2d [G] [ITER] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT(a, i, j, w) (a)[(size_t)(i) * (size_t)(w) + (size_t)(j)]

static void serial(int g, int iters, double* u) {
  double* v = malloc(sizeof(double) * (size_t)(g + 2) * (size_t)(g + 2));
  for (int i = 0; i < g + 2; ++i)
    for (int j = 0; j < g + 2; ++j) AT(u, i, j, g + 2) = (i == 0 || j == 0 || i == g + 1 || j == g + 1) ? 1.0 : 0.0;
  memcpy(v, u, sizeof(double) * (size_t)(g + 2) * (size_t)(g + 2));
  for (int it = 0; it < iters; ++it) {
    for (int i = 1; i <= g; ++i)
      for (int j = 1; j <= g; ++j)
        AT(v, i, j, g + 2) = 0.25 * (AT(u, i - 1, j, g + 2) + AT(u, i + 1, j, g + 2) + AT(u, i, j - 1, g + 2) + AT(u, i, j + 1, g + 2));
    double* t = u; u = v; v = t;
    if (it % 2 == 0) memcpy(v, u, sizeof(double) * (size_t)(g + 2) * (size_t)(g + 2));
  }
  if (iters % 2 == 1) memcpy(v, u, sizeof(double) * (size_t)(g + 2) * (size_t)(g + 2));
  free(iters % 2 == 1 ? u : v);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int g = argc > 1 ? atoi(argv[1]) : 64;
  const int iters = argc > 2 ? atoi(argv[2]) : 20;
  int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);
  int north, south, west, east;
  MPI_Cart_shift(cart, 0, 1, &north, &south);
  MPI_Cart_shift(cart, 1, 1, &west, &east);
  if (g % dims[0] != 0 || g % dims[1] != 0) {
    if (rank == 0)
      fprintf(stderr, "stencil2d: the grid size %d must be divisible by the %dx%d process grid\n", g, dims[0], dims[1]);
    MPI_Finalize();
    return 2;
  }
  const int rows = g / dims[0], cols = g / dims[1];
  const int r0 = coords[0] * rows, c0 = coords[1] * cols, w = cols + 2;
  double* u = calloc((size_t)(rows + 2) * (size_t)w, sizeof(double));
  double* v = calloc((size_t)(rows + 2) * (size_t)w, sizeof(double));
  for (int i = 0; i < rows + 2; ++i)
    for (int j = 0; j < w; ++j) {
      const int gi = r0 + i, gj = c0 + j;
      AT(u, i, j, w) = (gi == 0 || gj == 0 || gi == g + 1 || gj == g + 1) ? 1.0 : 0.0;
    }
  memcpy(v, u, sizeof(double) * (size_t)(rows + 2) * (size_t)w);
  MPI_Datatype column;
  MPI_Type_vector(rows, 1, w, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  double t0 = MPI_Wtime(), residual = 0;
  for (int it = 0; it < iters; ++it) {
    MPI_Request req[8];
    int n = 0;
    MPI_Irecv(&AT(u, 0, 1, w), cols, MPI_DOUBLE, north, 0, cart, &req[n++]);
    MPI_Irecv(&AT(u, rows + 1, 1, w), cols, MPI_DOUBLE, south, 1, cart, &req[n++]);
    MPI_Irecv(&AT(u, 1, 0, w), 1, column, west, 2, cart, &req[n++]);
    MPI_Irecv(&AT(u, 1, cols + 1, w), 1, column, east, 3, cart, &req[n++]);
    MPI_Isend(&AT(u, 1, 1, w), cols, MPI_DOUBLE, north, 1, cart, &req[n++]);
    MPI_Isend(&AT(u, rows, 1, w), cols, MPI_DOUBLE, south, 0, cart, &req[n++]);
    MPI_Isend(&AT(u, 1, 1, w), 1, column, west, 3, cart, &req[n++]);
    MPI_Isend(&AT(u, 1, cols, w), 1, column, east, 2, cart, &req[n++]);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    double local = 0;
    for (int i = 1; i <= rows; ++i)
      for (int j = 1; j <= cols; ++j) {
        AT(v, i, j, w) = 0.25 * (AT(u, i - 1, j, w) + AT(u, i + 1, j, w) + AT(u, i, j - 1, w) + AT(u, i, j + 1, w));
        const double d = AT(v, i, j, w) - AT(u, i, j, w);
        local += d * d;
      }
#ifdef SIMFAB_MPI
    simfab_compute(5.0 * rows * cols);
#endif
    MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, cart);
    double* t = u; u = v; v = t;
  }
  double t1 = MPI_Wtime();
  double* ref = malloc(sizeof(double) * (size_t)(g + 2) * (size_t)(g + 2));
  if (rank == 0) serial(g, iters, ref);
  MPI_Bcast(ref, (g + 2) * (g + 2), MPI_DOUBLE, 0, cart);
  int bad = 0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 1; j <= cols; ++j)
      if (AT(u, i, j, w) != AT(ref, r0 + i, c0 + j, g + 2)) ++bad;
  int all_bad = 0;
  MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, cart);
  if (rank == 0)
    printf("stencil2d: %dx%d grid on %dx%d ranks, %d sweeps: %s (residual %.6e); %.9f s per sweep\n", g, g, dims[0],
           dims[1], iters, all_bad ? "WRONG" : "OK", residual, (t1 - t0) / iters);
  MPI_Type_free(&column);
  MPI_Comm_free(&cart);
  free(u); free(v); free(ref);
  MPI_Finalize();
  return all_bad ? 1 : 0;
}
