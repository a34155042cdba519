/* probe: what CMake's try_run runs: prints the number of ranks to stderr and stdout. */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  int n = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  fprintf(stderr, "probe on stderr\n");
  printf("ranks=%d", n);
  MPI_Finalize();
  return 0;
}
