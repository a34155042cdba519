/* polls: a rank that polls for a message, as a panel factorisation or a progress loop does. Rank 1
 * computes for ARRIVAL seconds (declared: simfab_compute / smpi_execute_flops) and sends 8 bytes;
 * rank 0 polls with MODE until the message is there: "test" (MPI_Irecv + MPI_Test), "testany",
 * "testsome",
 * "iprobe" (MPI_Iprobe, then MPI_Recv), or "probe" (MPI_Probe). Prints the polls it made and
 * the time it saw the message at. Under SMPI every poll costs smpi/test or smpi/iprobe, growing
 * with each failed poll (smpi/grow-injected-times); simfab's smpi model charges the same.
 * Usage: polls MODE ARRIVAL_SECONDS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "test";
  const double arrival = argc > 2 ? atof(argv[2]) : 1e-3;
  double value = 0;
  if (rank == 1) {
#ifdef SIMFAB_MPI
    simfab_compute(arrival * 1e9);
#else
    smpi_execute_flops(arrival * 1e9);
#endif
    value = 42;
    MPI_Send(&value, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
  } else if (rank == 0) {
    long polls = 0;
    int flag = 0, index = -1;
    MPI_Request req;
    if (strncmp(mode, "test", 4) == 0) {
      MPI_Irecv(&value, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, &req);
      while (!flag) {
        ++polls;
        if (strcmp(mode, "testany") == 0) {
          MPI_Testany(1, &req, &index, &flag, MPI_STATUS_IGNORE);
        } else if (strcmp(mode, "testsome") == 0) {
          int outcount = 0;
          MPI_Testsome(1, &req, &outcount, &index, MPI_STATUSES_IGNORE);
          flag = outcount > 0;
        } else {
          MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        }
      }
    } else if (strcmp(mode, "iprobe") == 0) {
      while (!flag) {
        ++polls;
        MPI_Iprobe(1, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      }
      MPI_Recv(&value, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Probe(1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(&value, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("polls: %s: %ld polls, message seen at %.9f s, value %g\n", mode, polls, MPI_Wtime(), value);
  }
  MPI_Finalize();
  return 0;
}
