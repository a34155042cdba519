/* The calls whose TI records differ from simfab's own format, as SMPI 3.32's `smpirun -trace-ti`
 * writes them (recorded in dialect2.txt; README.md has the command):
 *   MPI_Sendrecv     -> sendRecv <scount> <dst> <rcount> <src> <sdt> <rdt>   (no tags)
 *   MPI_Ssend        -> Ssend ...;   MPI_Issend -> ISsend ...
 *   MPI_Waitany      -> waitAny <n>; MPI_Testany / MPI_Testall -> testany / testall
 *   MPI_Iallreduce   -> iallreduce ..., and its MPI_Wait -> wait <x> <y> <SMPI's collective tag>
 *   MPI_PROC_NULL    -> -333 (as MPI_ANY_SOURCE)
 *   location lines   -> `location  <line>` (empty file name) with smpi/trace-call-location
 * Two ranks. */
#include <mpi.h>
#include <smpi/smpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int peer = 1 - rank, flag, idx;
  double a[64] = {0}, b[64];
  MPI_Request r[2];
  MPI_Sendrecv(a, 8, MPI_DOUBLE, peer, 1, b, 8, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  smpi_execute_flops(1e6);
  if (rank == 0) {
    MPI_Ssend(a, 4, MPI_INT, 1, 2, MPI_COMM_WORLD);
    MPI_Issend(a, 4, MPI_INT, 1, 3, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(b, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(b, 4, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Irecv(b, 5, MPI_FLOAT, peer, 4, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(a, 5, MPI_FLOAT, peer, 4, MPI_COMM_WORLD, &r[1]);
  MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
  MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Iallreduce(a, b, 16, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[0]);
  smpi_execute_flops(2e6);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Send(a, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Scan(a, b, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
