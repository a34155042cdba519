/* What SMPI 3.32's `smpirun -trace-ti` writes for MPI_PROC_NULL, MPI_ANY_SOURCE, MPI_ANY_TAG and
 * collective roots (recorded in procnull3.txt, 3 ranks; README.md has the command):
 *   MPI_Send/Isend to MPI_PROC_NULL      -> send/isend -333 ...; its wait: wait <rank> -333 <tag>
 *   MPI_Irecv from MPI_PROC_NULL         -> irecv -333 ...;      its wait: wait -333 <rank> <tag>
 *   MPI_Recv from MPI_PROC_NULL          -> nothing
 *   MPI_Sendrecv with MPI_PROC_NULL      -> nothing (either side; the other half is lost too)
 *   MPI_Recv/Irecv from MPI_ANY_SOURCE   -> recv/irecv -333 ... (not the matched source), wait -333 ...
 *   MPI_ANY_TAG                          -> -444 (in the wait's key too)
 *   a collective's root                  -> the root as given (bcast 10 2, reduce 10 0 1)
 * -333 is MPI_UNDEFINED: SMPI writes MPI_COMM_WORLD's rank of the peer's actor, and neither
 * MPI_PROC_NULL nor MPI_ANY_SOURCE has one. */
#include <mpi.h>
#include <smpi/smpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double a[16] = {0}, b[16];
  MPI_Request r[2];
  MPI_Status st;
  MPI_Send(a, 1, MPI_DOUBLE, MPI_PROC_NULL, 11, MPI_COMM_WORLD);
  MPI_Recv(b, 2, MPI_DOUBLE, MPI_PROC_NULL, 12, MPI_COMM_WORLD, &st);
  MPI_Isend(a, 3, MPI_DOUBLE, MPI_PROC_NULL, 13, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(b, 4, MPI_DOUBLE, MPI_PROC_NULL, 14, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Isend(a, 3, MPI_DOUBLE, MPI_PROC_NULL, 15, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Irecv(b, 4, MPI_DOUBLE, MPI_PROC_NULL, 16, MPI_COMM_WORLD, &r[1]);
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  MPI_Sendrecv(a, 5, MPI_DOUBLE, MPI_PROC_NULL, 17, b, 6, MPI_DOUBLE, MPI_PROC_NULL, 18, MPI_COMM_WORLD, &st);
  smpi_execute_flops(1e6);
  if (rank == 0) {  /* any source and any tag: 2 x (size - 1) messages, then one of rank 1's by tag */
    for (int i = 1; i < size; ++i) MPI_Recv(b, 9, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    for (int i = 1; i < size; ++i) {
      MPI_Irecv(b, 9, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r[0]);
      MPI_Wait(&r[0], &st);
    }
    MPI_Recv(b, 9, MPI_DOUBLE, MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, &st);
    MPI_Recv(b, 9, MPI_DOUBLE, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
  } else {
    MPI_Send(a, 7, MPI_DOUBLE, 0, 100 + rank, MPI_COMM_WORLD);
    MPI_Send(a, 8, MPI_DOUBLE, 0, 200 + rank, MPI_COMM_WORLD);
    if (rank == 1) {
      MPI_Send(a, 9, MPI_DOUBLE, 0, 21, MPI_COMM_WORLD);
      MPI_Send(a, 9, MPI_DOUBLE, 0, 22, MPI_COMM_WORLD);
    }
  }
  MPI_Bcast(a, 10, MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
  MPI_Reduce(a, b, 10, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
