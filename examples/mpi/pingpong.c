/* pingpong: 2 ranks bounce a message back and forth ROUNDS times for each size (1, 8, 1024,
 * 65535 bytes, and 1 MiB), check every byte arrives intact at both ends, and print the
 * half round-trip time of each size (simulated time under simfab):
 *   pingpong: SIZE B: HALF_RTT s
 * Build and run:
 *   simfab-cc -O2 -o pingpong pingpong.c
 *   simfab exec -np 2 --cfg online/compute=declared ./pingpong [ROUNDS]
 * Exit status 0 when all data round-tripped intact, 1 otherwise. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned char pattern(int size, int round, int i, int from) {
  return (unsigned char)((i * 31 + size * 7 + round * 13 + from * 101) & 0xff);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks != 2) {
    if (rank == 0) fprintf(stderr, "pingpong: needs exactly 2 ranks, got %d\n", nranks);
    MPI_Finalize();
    return 1;
  }
  const int rounds = argc > 1 ? atoi(argv[1]) : 10;
  const int sizes[] = {1, 8, 1024, 65535, 1 << 20};
  const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
  unsigned char* buf = malloc((size_t)(1 << 20));
  int errors = 0;
  for (int k = 0; k < nsizes; ++k) {
    const int size = sizes[k];
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int r = 0; r < rounds; ++r) {
      if (rank == 0) {
        for (int i = 0; i < size; ++i) buf[i] = pattern(size, r, i, 0);
        MPI_Send(buf, size, MPI_BYTE, 1, r, MPI_COMM_WORLD);
        MPI_Recv(buf, size, MPI_BYTE, 1, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        /* rank 1 returns what it received, plus its own mark (+1 per byte) */
        for (int i = 0; i < size; ++i)
          if (buf[i] != (unsigned char)(pattern(size, r, i, 0) + 1)) ++errors;
      } else {
        MPI_Status st;
        MPI_Recv(buf, size, MPI_BYTE, 0, r, MPI_COMM_WORLD, &st);
        int got = -1;
        MPI_Get_count(&st, MPI_BYTE, &got);
        if (got != size || st.MPI_SOURCE != 0 || st.MPI_TAG != r) ++errors;
        for (int i = 0; i < size; ++i) {
          if (buf[i] != pattern(size, r, i, 0)) ++errors;
          buf[i] = (unsigned char)(buf[i] + 1);
        }
        MPI_Send(buf, size, MPI_BYTE, 0, r, MPI_COMM_WORLD);
      }
    }
    const double t1 = MPI_Wtime();
    if (rank == 0) printf("pingpong: %d B: %.12f s\n", size, (t1 - t0) / (2.0 * rounds));
  }
  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("pingpong: %d sizes, %d round trips each: %s\n", nsizes, rounds, all ? "WRONG" : "OK");
  free(buf);
  MPI_Finalize();
  return all ? 1 : 0;
}
