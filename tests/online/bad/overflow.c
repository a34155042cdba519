/* Rank 0 recurses deeply with a big local array; run with --cfg online/stack-size=64KiB.
 * Expected: exit 4, "overflowed its stack". */
#include <mpi.h>
#include <string.h>
static int deep(int n) {
  volatile char big[4096];
  memset((char*)big, n & 0xff, sizeof big);
  if (n == 0) return big[0];
  return deep(n - 1) + big[n % 4096];
}
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int r = 0;
  if (rank == 0) r = deep(1000);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return r == 12345;
}
