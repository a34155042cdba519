/* Misuse: MPI_Request_free twice on the same handle value. Expected: exit 2 naming MPI_Request_free. */
#include <mpi.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int x = 0;
  MPI_Request r;
  MPI_Recv_init(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
  MPI_Request copy = r;
  MPI_Request_free(&r);
  MPI_Request_free(&copy);
  MPI_Finalize();
  return 0;
}
