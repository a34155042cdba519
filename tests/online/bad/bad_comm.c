/* Misuse: MPI_Send on communicator 12345. Expected: exit 2, "invalid communicator". */
#include <mpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int x = 1;
  MPI_Send(&x, 1, MPI_INT, 0, 0, (MPI_Comm)12345);
  MPI_Finalize();
  return 0;
}
