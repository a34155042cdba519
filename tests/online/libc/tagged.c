/* tagged: output for simfab exec --tag-output: each rank writes one line to stdout with printf, one
 * to stderr with fprintf, one with write(2), and one line in two pieces with a barrier between
 * them (the other ranks run meanwhile): every line must come out whole, with its rank's tag. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("hello from %d\n", rank);
  fprintf(stderr, "warning from %d\n", rank);
  char raw[64];
  snprintf(raw, sizeof raw, "raw write from %d\n", rank);
  if (write(1, raw, strlen(raw)) < 0) return 1;
  printf("first half %d, ", rank);
  fflush(stdout);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("second half %d\n", rank);
  MPI_Finalize();
  return 0;
}
