/* Every collective SMPI's TI tracer records, at a few sizes, on MPI_COMM_WORLD.
 *
 *   collectives [-only NAME[,NAME...]] [COUNT...]       (default: all of them; 1 100 10000 doubles)
 *
 * Written for validation/simgrid (run.py records it with `smpirun -trace-ti`, then replays the
 * trace with SimGrid and simfab). Each size runs: barrier, bcast, reduce, allreduce, alltoall,
 * alltoallv, gather, gatherv, allgather, allgatherv, scatter, scatterv, reduce_scatter, scan,
 * exscan; roots and v-counts vary with the rank so that the trace exercises every argument of each
 * action (MPI_Reduce_scatter_block is left out: SMPI 3.32 records it without its counts). Between
 * two collectives a fixed compute (smpi_execute_flops) separates the phases; with
 * --cfg=smpi/simulate-computation:no the trace is deterministic. -only runs the named collectives
 * only (MPI names without MPI_, lower case: bcast, reduce_scatter, ...), each followed by its
 * compute phase. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdlib.h>
#include <string.h>

static const char* only = NULL; /* comma-separated names, or NULL for all */

static int wanted(const char* name) {
  if (!only) return 1;
  size_t n = strlen(name);
  for (const char* p = only; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0')) return 1;
  return 0;
}

static void phase(void) { smpi_execute_flops(1e5); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "-only") == 0) {
    only = argv[2];
    first = 3;
  }
  int counts_default[] = {1, 100, 10000};
  int ncounts = argc > first ? argc - first : 3;
  int* scounts = malloc(sizeof(int) * size);
  int* rcounts = malloc(sizeof(int) * size);
  int* sdispls = malloc(sizeof(int) * size);
  int* rdispls = malloc(sizeof(int) * size);
  for (int c = 0; c < ncounts; c++) {
    int n = argc > first ? atoi(argv[c + first]) : counts_default[c];
    int root = c % size;
    /* v-collectives: rank r contributes n + r elements */
    int vtotal = 0;
    for (int r = 0; r < size; r++) {
      rcounts[r] = n + r;
      rdispls[r] = vtotal;
      vtotal += n + r;
    }
    double* a = calloc((size_t)(n + 2 * size) * size, sizeof(double));
    double* b = calloc((size_t)(n + 2 * size) * size, sizeof(double));
    int mine = n + rank;

    if (wanted("barrier")) {
      MPI_Barrier(MPI_COMM_WORLD);
      phase();
    }
    if (wanted("bcast")) {
      MPI_Bcast(a, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("reduce")) {
      MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("allreduce")) {
      MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("alltoall")) {
      MPI_Alltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, MPI_COMM_WORLD);
      phase();
    }
    for (int r = 0; r < size; r++) {  /* rank i sends n + i + r elements to rank r */
      scounts[r] = n + rank + r;
      sdispls[r] = r == 0 ? 0 : sdispls[r - 1] + scounts[r - 1];
    }
    for (int r = 0; r < size; r++) {
      int k = n + r + rank;
      rcounts[r] = k;
      rdispls[r] = r == 0 ? 0 : rdispls[r - 1] + rcounts[r - 1];
    }
    if (wanted("alltoallv")) {
      MPI_Alltoallv(a, scounts, sdispls, MPI_DOUBLE, b, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("gather")) {
      MPI_Gather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
      phase();
    }
    vtotal = 0;
    for (int r = 0; r < size; r++) {
      rcounts[r] = n + r;
      rdispls[r] = vtotal;
      vtotal += n + r;
    }
    if (wanted("gatherv")) {
      MPI_Gatherv(a, mine, MPI_DOUBLE, b, rcounts, rdispls, MPI_DOUBLE, root, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("allgather")) {
      MPI_Allgather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("allgatherv")) {
      MPI_Allgatherv(a, mine, MPI_DOUBLE, b, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("scatter")) {
      MPI_Scatter(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, root, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("scatterv")) {
      MPI_Scatterv(a, rcounts, rdispls, MPI_DOUBLE, b, mine, MPI_DOUBLE, root, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("reduce_scatter")) {
      MPI_Reduce_scatter(a, b, rcounts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("scan")) {
      MPI_Scan(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      phase();
    }
    if (wanted("exscan")) {
      MPI_Exscan(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      phase();
    }
    free(a);
    free(b);
  }
  free(scounts);
  free(rcounts);
  free(sdispls);
  free(rdispls);
  MPI_Finalize();
  return 0;
}
