/* Two kernels per iteration, each ended by an MPI call at its own line (tests/energy/run_energy.py,
 * group h): rank 0's first kernel has 0.15 s of slack (rank 1 computes 0.25 s), its second none. */
#include <mpi.h>

void simfab_compute(double flops);

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int peer = 1 - rank;
  int x = rank, y = 0;
  for (int it = 0; it < 10; ++it) {
    simfab_compute(rank == 0 ? 1e7 : 2.5e7);
    MPI_Sendrecv(&x, 1, MPI_INT, peer, 0, &y, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    simfab_compute(1e7);
    MPI_Sendrecv(&x, 1, MPI_INT, peer, 1, &y, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
