/* A 2-D five-point stencil: halo exchange with the four neighbours, compute, and a residual
 * allreduce every 5 iterations.
 *
 *   stencil [N] [ITERS] [FLOPS_PER_POINT]     (default 1024 x 1024 points, 10 iterations, 5)
 *
 * Written for validation/simgrid (run.py records it with `smpirun -trace-ti`). The N x N grid of
 * doubles is split over a px x py process grid (MPI_Dims_create); each iteration posts irecvs
 * and isends of the halo edges (a block row or column of doubles) to the existing neighbours
 * (no periodic wrap and no MPI_PROC_NULL: SMPI 3.32 records MPI_PROC_NULL as -333, which its own
 * replay rejects), waits for all of them, then computes its block with smpi_execute_flops (points x
 * FLOPS_PER_POINT), so the trace is deterministic under --cfg=smpi/simulate-computation:no. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  int iters = argc > 2 ? atoi(argv[2]) : 10;
  double flops_per_point = argc > 3 ? atof(argv[3]) : 5.0;
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  int px = dims[0], py = dims[1];
  int cx = rank % px, cy = rank / px;
  int nx = n / px, ny = n / py; /* block size (the remainder is ignored) */
  double* edge_out = calloc((size_t)(nx > ny ? nx : ny) * 4, sizeof(double));
  double* edge_in = calloc((size_t)(nx > ny ? nx : ny) * 4, sizeof(double));
  MPI_Request reqs[8];
  double residual = 1.0, global = 0.0;
  for (int it = 0; it < iters; it++) {
    int k = 0;
    /* neighbours: west, east (exchange columns of ny), north, south (rows of nx) */
    int nb[4] = {cx > 0 ? rank - 1 : -1, cx < px - 1 ? rank + 1 : -1, cy > 0 ? rank - px : -1,
                 cy < py - 1 ? rank + px : -1};
    int len[4] = {ny, ny, nx, nx};
    for (int d = 0; d < 4; d++)
      if (nb[d] >= 0) MPI_Irecv(edge_in + (size_t)d * (nx > ny ? nx : ny), len[d], MPI_DOUBLE, nb[d], it, MPI_COMM_WORLD, &reqs[k++]);
    for (int d = 0; d < 4; d++)
      if (nb[d] >= 0) MPI_Isend(edge_out + (size_t)d * (nx > ny ? nx : ny), len[d], MPI_DOUBLE, nb[d], it, MPI_COMM_WORLD, &reqs[k++]);
    MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE);
    smpi_execute_flops((double)nx * ny * flops_per_point);
    if (it % 5 == 4) MPI_Allreduce(&residual, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  free(edge_out);
  free(edge_in);
  MPI_Finalize();
  return 0;
}
