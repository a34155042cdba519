/* A finite-element-style proxy: a setup phase that distributes a mesh, then a CG solve.
 *
 *   fem [NODES_PER_RANK] [CG_ITERS]        (default 20000 nodes per rank, 20 iterations)
 *
 * Written for validation/simgrid (issue 26: a finite-element proxy app's setup phase was 12.9 %
 * apart from SMPI while its solve agreed). Setup, as such codes do it: rank 0 broadcasts the run's
 * parameters (a few ints) and a table of material coefficients (2000 doubles); every rank
 * allgathers its node count, allgathervs its global node ids, allreduces the totals (sum, max),
 * then agrees with its two ring neighbours on the halo: it sends the count of nodes it shares with
 * each (MPI_Send) and receives theirs (MPI_Irecv + MPI_Waitall), then the shared node ids. The solve:
 * CG_ITERS iterations of a halo exchange (MPI_Irecv, MPI_Send, MPI_Waitall of 1000 doubles each way)
 * and two MPI_Allreduce of one double. Rank 0 prints the setup and solve times (MPI_Wtime).
 * Computation is not simulated (--cfg=smpi/simulate-computation:no, online/compute=declared). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int params[4] = {argc > 1 ? atoi(argv[1]) : 20000, argc > 2 ? atoi(argv[2]) : 20, 2000, 1000};
  const double t0 = MPI_Wtime();
  MPI_Bcast(params, 4, MPI_INT, 0, MPI_COMM_WORLD);
  const int nodes = params[0] + rank % 3, iters = params[1], ncoef = params[2], nhalo = params[3];
  double* coef = malloc(sizeof(double) * (size_t)ncoef);
  for (int i = 0; i < ncoef; ++i) coef[i] = rank == 0 ? 1.0 + i : 0.0;
  MPI_Bcast(coef, ncoef, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  MPI_Allgather(&nodes, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    displs[r] = total;
    total += counts[r];
  }
  int* mine = malloc(sizeof(int) * (size_t)nodes);
  int* all = malloc(sizeof(int) * (size_t)total);
  for (int i = 0; i < nodes; ++i) mine[i] = displs[rank] + i;
  MPI_Allgatherv(mine, nodes, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
  long local[2] = {nodes, nodes}, global[2];
  MPI_Allreduce(&local[0], &global[0], 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&local[1], &global[1], 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int shared_out = nhalo, shared_in[2] = {0, 0};
  MPI_Request req[4];
  MPI_Irecv(&shared_in[0], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(&shared_in[1], 1, MPI_INT, right, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Send(&shared_out, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
  MPI_Send(&shared_out, 1, MPI_INT, left, 1, MPI_COMM_WORLD);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  int* ids_in = malloc(sizeof(int) * (size_t)(shared_in[0] + shared_in[1]));
  MPI_Irecv(ids_in, shared_in[0], MPI_INT, left, 2, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(ids_in + shared_in[0], shared_in[1], MPI_INT, right, 2, MPI_COMM_WORLD, &req[1]);
  MPI_Send(mine, nhalo, MPI_INT, right, 2, MPI_COMM_WORLD);
  MPI_Send(mine, nhalo, MPI_INT, left, 2, MPI_COMM_WORLD);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  const double t1 = MPI_Wtime();

  double* out = calloc((size_t)nhalo, sizeof(double));
  double* in = calloc(2 * (size_t)nhalo, sizeof(double));
  double rho = 1.0, dot = 0.0;
  for (int it = 0; it < iters; ++it) {
    MPI_Irecv(in, nhalo, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(in + nhalo, nhalo, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[1]);
    MPI_Send(out, nhalo, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
    MPI_Send(out, nhalo, MPI_DOUBLE, left, 3, MPI_COMM_WORLD);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MPI_Allreduce(&rho, &dot, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&dot, &rho, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    rho = rho / size / size;
  }
  const double t2 = MPI_Wtime();
  if (rank == 0)
    printf("fem: %d ranks, %ld nodes (max %ld per rank): setup %.9f s, solve %.9f s\n", size, global[0], global[1],
           t1 - t0, t2 - t1);
  free(coef), free(counts), free(displs), free(mine), free(all), free(ids_in), free(out), free(in);
  MPI_Finalize();
  return 0;
}
