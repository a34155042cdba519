/* p2p_latency: point-to-point latency and bandwidth between ranks 0 and 1, in the style of the
 * OSU micro-benchmarks (osu_latency's ping-pong, osu_bw's window of non-blocking sends).
 *
 *   p2p_latency [-m MIN] [-M MAX] [-s SIZES] [-i ITERS] [-x WARMUP] [-w WINDOW] [-b] [-h]
 *     -m MIN      smallest message size in bytes (default 1)
 *     -M MAX      largest message size in bytes (default 4194304); sizes double from MIN
 *     -s SIZES    an explicit comma-separated list of sizes instead of -m/-M
 *     -i ITERS    timed iterations per size (default 100)
 *     -x WARMUP   untimed iterations before them (default 10)
 *     -w WINDOW   sends in flight per iteration with -b (default 64)
 *     -b          measure bandwidth (MB/s) instead of latency (us)
 *     -h          this help
 *
 * Prints one line per size: "size value". Latency is half the round trip of a ping-pong, averaged
 * over the timed iterations (MPI_Wtime: under `simfab exec` the simulated time). Bandwidth is
 * WINDOW messages of the size sent with MPI_Isend, waited, and acknowledged by a 4-byte reply.
 * Needs at least 2 ranks; other ranks only take part in the barriers. Exits 1 on bad options.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SIZES 64
#define MAX_WINDOW 1024

static void usage(FILE *out, const char *prog) {
  fprintf(out, "usage: %s [-m MIN] [-M MAX] [-s SIZES] [-i ITERS] [-x WARMUP] [-w WINDOW] [-b] [-h]\n", prog);
}

static long parse_long(const char *s, const char *what, long lo, long hi) {
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "p2p_latency: %s expects a number in [%ld, %ld], got '%s'\n", what, lo, hi, s);
    exit(1);
  }
  return v;
}

static double latency_us(char *buf, long size, int iters, int warmup, int rank) {
  double t0 = 0;
  for (int i = 0; i < warmup + iters; ++i) {
    if (i == warmup) t0 = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(buf, (int)size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, (int)size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - t0) * 1e6 / (2.0 * iters);
}

static double bandwidth_mbs(char *buf, long size, int iters, int warmup, int window, int rank) {
  MPI_Request req[MAX_WINDOW];
  int ack = 0;
  double t0 = 0;
  for (int i = 0; i < warmup + iters; ++i) {
    if (i == warmup) t0 = MPI_Wtime();
    if (rank == 0) {
      for (int w = 0; w < window; ++w) MPI_Isend(buf, (int)size, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &req[w]);
      MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
      MPI_Recv(&ack, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      for (int w = 0; w < window; ++w) MPI_Irecv(buf, (int)size, MPI_CHAR, 0, 2, MPI_COMM_WORLD, &req[w]);
      MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
      MPI_Send(&ack, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    }
  }
  const double seconds = MPI_Wtime() - t0;
  return (double)size * window * iters / seconds / 1e6;
}

int main(int argc, char **argv) {
  long min = 1, max = 4194304, sizes[MAX_SIZES];
  int nsizes = 0, iters = 100, warmup = 10, window = 64, bw = 0, opt;
  while ((opt = getopt(argc, argv, "m:M:s:i:x:w:bh")) != -1) {
    switch (opt) {
      case 'm': min = parse_long(optarg, "-m", 0, 1L << 30); break;
      case 'M': max = parse_long(optarg, "-M", 0, 1L << 30); break;
      case 's': {
        char *list = strdup(optarg);
        for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
          if (nsizes == MAX_SIZES) {
            fprintf(stderr, "p2p_latency: at most %d sizes\n", MAX_SIZES);
            return 1;
          }
          sizes[nsizes++] = parse_long(tok, "-s", 0, 1L << 30);
        }
        free(list);
        break;
      }
      case 'i': iters = (int)parse_long(optarg, "-i", 1, 1000000); break;
      case 'x': warmup = (int)parse_long(optarg, "-x", 0, 1000000); break;
      case 'w': window = (int)parse_long(optarg, "-w", 1, MAX_WINDOW); break;
      case 'b': bw = 1; break;
      case 'h': usage(stdout, argv[0]); return 0;
      default: usage(stderr, argv[0]); return 1;
    }
  }
  if (nsizes == 0)
    for (long s = min; s <= max && nsizes < MAX_SIZES; s = s ? 2 * s : 1) sizes[nsizes++] = s;

  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "p2p_latency: needs at least 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  long largest = 0;
  for (int k = 0; k < nsizes; ++k) largest = sizes[k] > largest ? sizes[k] : largest;
  char *buf = calloc((size_t)largest + 1, 1);
  if (rank == 0) printf("# %s: size %s\n", bw ? "p2p bandwidth" : "p2p latency", bw ? "MB/s" : "us");
  for (int k = 0; k < nsizes; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double v = bw ? bandwidth_mbs(buf, sizes[k], iters, warmup, window, rank)
                        : latency_us(buf, sizes[k], iters, warmup, rank);
    if (rank == 0) printf("%ld %.4f\n", sizes[k], v);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
