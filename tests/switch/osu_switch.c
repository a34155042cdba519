/* Seed 000 §6.6.1 / test 20 for `simfab exec`: an OSU-style latency loop of 10 warm-up and 100
 * timed ping-pong iterations between ranks 0 and 1, which switches from the run's (detailed)
 * model to a coarse one after K iterations: simfab_switch(CHANGES) on both ranks before
 * iteration K (K = 110: never).
 *   osu_switch -k K [-s SIZE] [-c CHANGES]   (default SIZE 8, CHANGES
 *                                             "nic/model=none,network/model=loggops")
 * Prints "latency-us X": the timed iterations' mean half round trip (simulated time). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv) {
  long k = 110, size = 8;
  const char* changes = "nic/model=none,network/model=loggops";
  int c;
  while ((c = getopt(argc, argv, "k:s:c:")) != -1) {
    switch (c) {
      case 'k': k = atol(optarg); break;
      case 's': size = atol(optarg); break;
      case 'c': changes = optarg; break;
      default: fprintf(stderr, "usage: osu_switch -k K [-s SIZE] [-c CHANGES]\n"); return 1;
    }
  }
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* buf = calloc((size_t)size + 1, 1);
  const int warmup = 10, timed = 100;
  double t0 = 0;
  for (int i = 0; i < warmup + timed; ++i) {
    if (i == k) simfab_switch(changes);
    if (i == warmup) t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(buf, (int)size, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)size, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, (int)size, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)size, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    }
  }
  if (rank == 0) printf("latency-us %.6f\n", (MPI_Wtime() - t0) * 1e6 / (2.0 * timed));
  free(buf);
  MPI_Finalize();
  return 0;
}
