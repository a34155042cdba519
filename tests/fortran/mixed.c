/* mixed.c: a C routine of the Fortran program features.f90. INTEGER FUNCTION C_SIDE(COMM, RANK)
 * converts the Fortran communicator with MPI_Comm_f2c and returns the sum of the ranks
 * (MPI_Allreduce from C). Built with simfab-cc -c (or mpicc -c for the real run). */
#include <mpi.h>

int c_side_(MPI_Fint* comm, int* rank) {
  int sum = 0;
  MPI_Allreduce(rank, &sum, 1, MPI_INT, MPI_SUM, MPI_Comm_f2c(*comm));
  return sum;
}
