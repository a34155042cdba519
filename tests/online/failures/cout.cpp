// C++ streams out of sync with stdio (ctest `online_failures`): rank 1 writes to std::cout, whose
// own buffer holds the text, and returns 3 while rank 0 waits in MPI_Recv.
#include <mpi.h>

#include <iostream>

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    std::cout << "rank 1 via std::cout";
    return 3;
  }
  int x = 0;
  MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
