/* MPI_Send with an uncommitted derived datatype. Expected: exit 2. */
#include <mpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, buf[8] = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Datatype t;
  MPI_Type_vector(2, 1, 2, MPI_INT, &t); /* no MPI_Type_commit */
  if (rank == 0) MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(buf, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
