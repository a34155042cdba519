/* Seed 000 test 19 (Fig. 6.9), the switching protocol, for `simfab exec`: rank 0 sends 42 under
 * model A, every rank switches, rank 0 sends 43 under model B; both arrive with their data. An
 * MPI_Isend posted under A and waited for under B completes. Then a 1 MiB ping-pong under B,
 * whose half round trip rank 0 prints ("pingpong-us X") so the test can compare the triggers.
 *   switch_protocol [-p]   -p: switch with MPI_Pcontrol(1) (simfab exec --pcontrol 1:...)
 *                          instead of simfab_switch("network/model=flow")
 * Exits 1 on a wrong value. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void model_switch(int use_pcontrol) {
  if (use_pcontrol)
    MPI_Pcontrol(1);
  else
    simfab_switch("network/model=flow");
}

int main(int argc, char** argv) {
  int use_pcontrol = 0, c;
  while ((c = getopt(argc, argv, "p")) != -1) {
    if (c == 'p') use_pcontrol = 1;
    else return 1;
  }
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int value = 0;
  static char big[1 << 20];
  MPI_Request pending = MPI_REQUEST_NULL;
  if (rank == 0) {
    value = 42;
    MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Isend(big, sizeof big, MPI_CHAR, 1, 9, MPI_COMM_WORLD, &pending); /* posted under A */
  } else if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (value != 42) { fprintf(stderr, "rank 1: got %d, expected 42\n", value); return 1; }
  }
  model_switch(use_pcontrol);
  if (rank == 0) {
    MPI_Wait(&pending, MPI_STATUS_IGNORE); /* completes under B's time, through A's transfer */
    value = 43;
    MPI_Send(&value, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(big, sizeof big, MPI_CHAR, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (value != 43) { fprintf(stderr, "rank 1: got %d, expected 43\n", value); return 1; }
    printf("switch_protocol: 42 and 43 arrived OK\n");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (rank == 0) {
    MPI_Send(big, sizeof big, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
    MPI_Recv(big, sizeof big, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("pingpong-us %.6f\n", (MPI_Wtime() - t0) * 1e6 / 2);
  } else if (rank == 1) {
    MPI_Recv(big, sizeof big, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(big, sizeof big, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
