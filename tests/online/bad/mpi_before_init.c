/* Misuse: MPI_Send before MPI_Init. Expected: exit 2, "rank 0", "MPI_Send", "before MPI_Init". */
#include <mpi.h>
int main(int argc, char** argv) {
  int x = 1;
  MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  MPI_Init(&argc, &argv);
  MPI_Finalize();
  return 0;
}
