/* Calls a function simfab does not declare (MPI_Comm_spawn, prototyped here). simfab-cc refuses to
 * link it (undefined reference); linked with -Wl,--unresolved-symbols=ignore-all, simfab exec
 * refuses to load it: exit 2 naming MPI_Comm_spawn. */
#include <mpi.h>
extern int MPI_Comm_spawn(const char* command, char* argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                          MPI_Comm* intercomm, int errcodes[]);
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm inter;
  MPI_Comm_spawn("worker", NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, NULL);
  MPI_Finalize();
  return 0;
}
