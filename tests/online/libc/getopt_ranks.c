/* getopt_ranks: each rank parses its own argument vector with getopt_long, one option per
 * MPI_Barrier, so the ranks' parses interleave; each must see its own options, as in separate
 * processes. Rank r parses {"-n", r, "--size", 10 r, "-v" (odd ranks)}; rank 0 prints what every
 * rank found (gathered). */
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char n[16], s[16], prog[] = "getopt_ranks", o1[] = "-n", o2[] = "--size", o3[] = "-v";
  snprintf(n, sizeof n, "%d", rank);
  snprintf(s, sizeof s, "%d", 10 * rank);
  char* args[] = {prog, o1, n, o2, s, rank % 2 ? o3 : NULL, NULL};
  const int nargs = rank % 2 ? 6 : 5;
  static const struct option longs[] = {{"size", required_argument, NULL, 's'}, {NULL, 0, NULL, 0}};
  int found[3] = {-1, -1, 0}, c;
  while ((c = getopt_long(nargs, args, "n:v", longs, NULL)) != -1) {
    if (c == 'n') found[0] = atoi(optarg);
    if (c == 's') found[1] = atoi(optarg);
    if (c == 'v') found[2] = 1;
    MPI_Barrier(MPI_COMM_WORLD);  /* every other rank parses one option meanwhile */
  }
  for (int extra = nargs == 5 ? 1 : 0; extra > 0; --extra) MPI_Barrier(MPI_COMM_WORLD);  /* same count */
  int* all = malloc(sizeof(int) * 3 * (size_t)size);
  MPI_Gather(found, 3, MPI_INT, all, 3, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int ok = 1;
    for (int r = 0; r < size; ++r) ok &= all[3 * r] == r && all[3 * r + 1] == 10 * r && all[3 * r + 2] == r % 2;
    printf("getopt_ranks: %d ranks parsed their own options: %s\n", size, ok ? "OK" : "WRONG");
  }
  free(all);
  MPI_Finalize();
  return 0;
}
