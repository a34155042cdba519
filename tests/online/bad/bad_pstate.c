/* simfab_set_pstate with an index the host lacks: exit 2 naming the call and the host. */
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  simfab_set_pstate(simfab_pstate_count());
  MPI_Finalize();
  return 0;
}
