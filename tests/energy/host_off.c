/* Rank 0 switches host b (rank 1's, which has finished) off at 1 s and on again 1.25 s later
 * (tests/energy/run_energy.py, group i); with argument "early" it tries before rank 1 is done. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int early = argc > 1 && strcmp(argv[1], "early") == 0;
  if (rank == 0) {
    simfab_sleep(1.0);
    simfab_host_off("b");
    simfab_sleep(1.25);
    simfab_host_on("b");
    simfab_sleep(0.75);
  } else if (early) {
    simfab_sleep(5.0);
  }
  MPI_Finalize();
  return 0;
}
