// hello_cxx: C++ iostreams in a CMake-built program (issue 35: with POSITION_INDEPENDENT_CODE, CMake
// adds -fPIE, and programs using std::cout or stderr once failed to link).
#include <mpi.h>

#include <cstdio>
#include <iostream>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::cout << "hello_cxx: " << size << " ranks, sum of ranks " << sum << std::endl;
  if (argc > 1) std::fprintf(stderr, "hello_cxx: rank %d says %s\n", rank, argv[1]);
  MPI_Finalize();
  return 0;
}
