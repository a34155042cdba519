/* simfab_calibrate: measures the point-to-point behaviour of an MPI installation, for
 * `simfab calibrate fit` (seed 003 §IV-A/§IV-B, seed 004 §5.3).
 *
 *   mpicc -O2 -o simfab_calibrate simfab_calibrate.c
 *   mpirun -np 2 ./simfab_calibrate -o samples.csv      (ranks 0 and 1 on the two hosts to model)
 *
 * Plain C99 and MPI only. Message sizes are drawn log-uniformly between --min and --max, and the
 * (size, repetition) pairs are visited in a random order fixed by --seed, so neither size nor
 * sequence biases the fit; every raw measurement is written, none is averaged. Experiments run
 * between ranks 0 and 1 (other ranks wait at barriers); each starts with a zero-byte handshake:
 *   pingpong   rank 0: MPI_Send k bytes, MPI_Recv k bytes back (both receives pre-posted): the
 *              round-trip time
 *   send       rank 0: MPI_Send of k bytes while rank 1's receive is already posted
 *   isend      rank 0: MPI_Isend alone (the MPI_Wait after it is not timed)
 *   recv       rank 1: MPI_Recv of k bytes sent earlier: rank 1 busy-waits twice its last round
 *              trip + 20 us before receiving, so an eager message has arrived; for larger
 *              messages the time includes the transfer, as in SMPI's calibration
 *   late_recv  rank 0: MPI_Send while rank 1 posts its receive --late-us (500 us) late: a send
 *              that lasts that long waited for the receiver (a synchronous size)
 *   gap        rank 0: a burst of 1000 one-byte MPI_Isend + MPI_Waitall, per message (LogGOPS g)
 *   oneway     rank 0: 4 MiB to rank 1, then rank 1's zero-byte acknowledgement
 *   bidir      ranks 0 and 1: MPI_Sendrecv of 4 MiB both ways at once, then the acknowledgement
 *              ((B_send + B_recv) / B: the limiter factor)
 *   compute    rank 0: a daxpy loop; the bytes column holds its flop count
 *   reduce     rank 0: MPI_Reduce_local (MPI_SUM) of 65536 doubles; the bytes column holds the
 *              element count (the cost of a reduction per element)
 *   contention (4 ranks or more) p = 1 .. np/2 pairs (0,1), (2,3), ... each send 4 MiB one way at
 *              once; the bytes column holds p * 4 MiB, the time is the slowest pair's
 *   first_call, next_call  every rank, first thing after MPI_Init: each collective's first call
 *              in the process and its second call (one double, root 0, all ranks in step before
 *              each), rank 0's time; the bytes column holds the collective's number in simfab's
 *              order: 0 barrier, 1 bcast, 2 reduce, 3 allreduce, 4 allgather, 5 alltoall,
 *              6 gather, 7 scatter, 8 allgatherv, 9 alltoallv, 10 gatherv, 11 scatterv,
 *              12 reduce_scatter, 13 scan, 14 exscan. Open MPI sets up a collective's module on
 *              its first use in a process (issue 28: first-call costs)
 * Output (rank 0; CSV): comment lines "# key: value" (hostname, np, nodes: the distinct processor
 * names of the ranks, library, date, ...), then "experiment,bytes,seconds" rows.
 * Exit status: 0, or 2 for a bad option (before MPI_Init). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { kTagHandshake = 1, kTagData = 2, kTagRows = 3 };
enum { kPingpong, kSend, kIsend, kRecv, kLateRecv, kGap, kOneway, kBidir, kCompute, kContention, kReduce,
       kFirstCall, kNextCall };
static const char *const kNames[] = {"pingpong", "send",  "isend",   "recv",       "late_recv", "gap",
                                     "oneway",   "bidir", "compute", "contention", "reduce",    "first_call",
                                     "next_call"};
enum { kBurst = 1000, kKernelLength = 2048, kReduceLength = 65536 };
static const unsigned long long kBulk = 4ull << 20; /* oneway, bidir, contention */

typedef struct {
  unsigned long long min_size, max_size;
  int samples, reps;
  unsigned long long seed;
  double late;
  int kernel_reps;
  const char *output;
} Options;

typedef struct {
  double seq, experiment, bytes, seconds; /* doubles: sent from rank 1 to rank 0 as they are */
} Row;

static Row *rows;
static size_t row_count, row_capacity;

static void add_row(double seq, int experiment, unsigned long long bytes, double seconds) {
  if (row_count == row_capacity) {
    row_capacity = row_capacity ? 2 * row_capacity : 1024;
    rows = realloc(rows, row_capacity * sizeof *rows);
    if (!rows) {
      fprintf(stderr, "simfab_calibrate: out of memory\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  rows[row_count].seq = seq;
  rows[row_count].experiment = experiment;
  rows[row_count].bytes = (double)bytes;
  rows[row_count].seconds = seconds;
  ++row_count;
}

/* splitmix64: the same sizes and order on every rank and every MPI, whatever the C library. */
static uint64_t rng_state;
static uint64_t next_random(void) {
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static double uniform01(void) { return (double)(next_random() >> 11) * (1.0 / 9007199254740992.0); }

static void usage(FILE *out) {
  fprintf(out,
          "usage: simfab_calibrate [-o FILE] [--min SIZE] [--max SIZE] [--samples N] [--reps R]\n"
          "                        [--seed S] [--late-us D] [--quick]\n"
          "  -o FILE       the CSV to write (default: standard output)\n"
          "  --min, --max  message sizes, drawn log-uniformly (default 1 and 64Mi; suffixes k M G,\n"
          "                Ki Mi Gi)\n"
          "  --samples N   number of sizes (default 200); --reps R: measurements per size (5)\n"
          "  --seed S      the sizes and their order (default 1)\n"
          "  --late-us D   how late the receiver posts in late_recv (default 500)\n"
          "  --quick       a short run for tests: --max 1Mi --samples 40 --reps 3\n"
          "Run on 2 ranks (4 or more add the contention experiment): mpirun -np 2 simfab_calibrate\n");
}

static int parse_size(const char *text, unsigned long long *out) {
  char *end = NULL;
  const double v = strtod(text, &end);
  double unit = 1;
  if (end == text || !(v >= 0)) return 0;
  if (*end == 'k' || *end == 'K') unit = 1e3;
  if (*end == 'M') unit = 1e6;
  if (*end == 'G') unit = 1e9;
  if (unit != 1) {
    ++end;
    if (*end == 'i') {
      unit = unit == 1e3 ? 1024.0 : unit == 1e6 ? 1048576.0 : 1073741824.0;
      ++end;
    }
  }
  if (*end == 'B') ++end;
  if (*end != '\0' || v * unit > 1e15) return 0;
  *out = (unsigned long long)llround(v * unit);
  return 1;
}

static int parse_int(const char *text, long lo, long hi, long *out) {
  char *end = NULL;
  const long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

/* Returns 0 on success, 1 for --help, 2 for a bad option (message printed). */
static int parse_options(int argc, char **argv, Options *o) {
  o->min_size = 1;
  o->max_size = 64ull << 20;
  o->samples = 200;
  o->reps = 5;
  o->seed = 1;
  o->late = 500e-6;
  o->kernel_reps = 10000;
  o->output = NULL;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    long v = 0;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 1;
    }
    if (!strcmp(a, "--quick")) {
      o->max_size = 1ull << 20;
      o->samples = 40;
      o->reps = 3;
      o->kernel_reps = 2000;
      continue;
    }
    if (i + 1 == argc) {
      fprintf(stderr, "simfab_calibrate: %s: unknown option or missing value\n", a);
      usage(stderr);
      return 2;
    }
    const char *value = argv[++i];
    int ok = 1;
    if (!strcmp(a, "-o")) o->output = value;
    else if (!strcmp(a, "--min")) ok = parse_size(value, &o->min_size);
    else if (!strcmp(a, "--max")) ok = parse_size(value, &o->max_size);
    else if (!strcmp(a, "--samples")) {
      if ((ok = parse_int(value, 1, 1000000, &v))) o->samples = (int)v;
    } else if (!strcmp(a, "--reps")) {
      if ((ok = parse_int(value, 1, 100000, &v))) o->reps = (int)v;
    } else if (!strcmp(a, "--late-us")) {
      if ((ok = parse_int(value, 1, 10000000, &v))) o->late = (double)v * 1e-6;
    } else if (!strcmp(a, "--seed")) {
      char *end = NULL;
      o->seed = strtoull(value, &end, 10);
      ok = end != value && *end == '\0';
    } else {
      fprintf(stderr, "simfab_calibrate: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    }
    if (!ok) {
      fprintf(stderr, "simfab_calibrate: bad value '%s' for %s\n", value, a);
      return 2;
    }
  }
  if (o->min_size < 1 || o->max_size < o->min_size || o->max_size > (1ull << 30)) {
    fprintf(stderr, "simfab_calibrate: expected 1 <= --min <= --max <= 1Gi, got %llu and %llu\n", o->min_size,
            o->max_size);
    return 2;
  }
  return 0;
}

static void busy_wait(double seconds) {
  const double start = MPI_Wtime();
  while (MPI_Wtime() - start < seconds) {
  }
}

static void handshake_to(int peer) { MPI_Send(NULL, 0, MPI_BYTE, peer, kTagHandshake, MPI_COMM_WORLD); }
static void handshake_from(int peer) {
  MPI_Recv(NULL, 0, MPI_BYTE, peer, kTagHandshake, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static char *send_buffer, *recv_buffer;

/* Every rank in step without a collective: rank 0 hears from all, then answers all. */
static void p2p_sync(int rank, int np) {
  if (rank == 0) {
    for (int r = 1; r < np; ++r) handshake_from(r);
    for (int r = 1; r < np; ++r) handshake_to(r);
  } else {
    handshake_to(0);
    handshake_from(0);
  }
}

/* Collective number k (the first_call table above) on one double per rank. */
enum { kCollectives = 15 };
static void collective(int k, int np) {
  double in[64] = {1}, out[64];
  int counts[64], displs[64];
  for (int i = 0; i < 64; ++i) counts[i] = 1, displs[i] = i;
  (void)np;
  switch (k) {
    case 0: MPI_Barrier(MPI_COMM_WORLD); break;
    case 1: MPI_Bcast(in, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); break;
    case 2: MPI_Reduce(in, out, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); break;
    case 3: MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    case 4: MPI_Allgather(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, MPI_COMM_WORLD); break;
    case 5: MPI_Alltoall(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, MPI_COMM_WORLD); break;
    case 6: MPI_Gather(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); break;
    case 7: MPI_Scatter(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); break;
    case 8: MPI_Allgatherv(in, 1, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD); break;
    case 9: MPI_Alltoallv(in, counts, displs, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD); break;
    case 10: MPI_Gatherv(in, 1, MPI_DOUBLE, out, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD); break;
    case 11: MPI_Scatterv(in, counts, displs, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); break;
    case 12: MPI_Reduce_scatter(in, out, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    case 13: MPI_Scan(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    default: MPI_Exscan(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
  }
}

/* first_call and next_call of every collective (before anything else uses one). The ranks are
 * put in step before each timed call, by p2p_sync until the barrier has been timed twice. */
static void first_call_task(int rank, int np) {
  for (int k = 0; k < kCollectives; ++k) {
    double t[2];
    for (int call = 0; call < 2; ++call) {
      if (k == 0) p2p_sync(rank, np);
      else MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      collective(k, np);
      t[call] = MPI_Wtime() - start;
    }
    if (rank == 0) {
      add_row(-2.0 * (kCollectives - k), kFirstCall, (unsigned long long)k, t[0]);
      add_row(-2.0 * (kCollectives - k) + 1, kNextCall, (unsigned long long)k, t[1]);
    }
  }
}

/* One (size, repetition) task: the per-size experiments in a fixed order (recv's wait uses the
 * round trip just measured). Rank 0 and rank 1 run matching halves. */
static void size_task(int rank, double seq, int k, const Options *o, double *rtt1) {
  MPI_Request req;
  double t;
  if (rank == 0) {
    MPI_Irecv(recv_buffer, k, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD, &req); /* pingpong */
    handshake_from(1);
    t = MPI_Wtime();
    MPI_Send(send_buffer, k, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    add_row(seq, kPingpong, (unsigned long long)k, MPI_Wtime() - t);

    handshake_from(1); /* send */
    t = MPI_Wtime();
    MPI_Send(send_buffer, k, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD);
    add_row(seq, kSend, (unsigned long long)k, MPI_Wtime() - t);

    handshake_from(1); /* isend */
    t = MPI_Wtime();
    MPI_Isend(send_buffer, k, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD, &req);
    add_row(seq, kIsend, (unsigned long long)k, MPI_Wtime() - t);
    MPI_Wait(&req, MPI_STATUS_IGNORE);

    handshake_from(1); /* recv: the sender is ready first */
    MPI_Send(send_buffer, k, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD);

    handshake_from(1); /* late_recv */
    t = MPI_Wtime();
    MPI_Send(send_buffer, k, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD);
    add_row(seq, kLateRecv, (unsigned long long)k, MPI_Wtime() - t);
  } else {
    MPI_Irecv(recv_buffer, k, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, &req); /* pingpong */
    handshake_to(0);
    t = MPI_Wtime();
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Send(send_buffer, k, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD);
    *rtt1 = MPI_Wtime() - t;

    for (int pass = 0; pass < 2; ++pass) { /* send, isend: the receive is posted first */
      MPI_Irecv(recv_buffer, k, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, &req);
      handshake_to(0);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }

    handshake_to(0); /* recv */
    busy_wait(2 * *rtt1 + 20e-6);
    t = MPI_Wtime();
    MPI_Recv(recv_buffer, k, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    add_row(seq, kRecv, (unsigned long long)k, MPI_Wtime() - t);

    handshake_to(0); /* late_recv */
    busy_wait(o->late);
    MPI_Recv(recv_buffer, k, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static void gap_task(int rank, double seq) {
  MPI_Request reqs[kBurst];
  if (rank == 0) {
    handshake_from(1);
    const double t = MPI_Wtime();
    for (int i = 0; i < kBurst; ++i) MPI_Isend(send_buffer + i, 1, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD, &reqs[i]);
    MPI_Waitall(kBurst, reqs, MPI_STATUSES_IGNORE);
    add_row(seq, kGap, 1, (MPI_Wtime() - t) / kBurst);
  } else {
    for (int i = 0; i < kBurst; ++i) MPI_Irecv(recv_buffer + i, 1, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, &reqs[i]);
    handshake_to(0);
    MPI_Waitall(kBurst, reqs, MPI_STATUSES_IGNORE);
  }
}

/* oneway (both = 0) or bidir (both = 1), 4 MiB, ended by rank 1's zero-byte acknowledgement. */
static void bulk_task(int rank, double seq, int both) {
  const int n = (int)kBulk;
  if (rank == 0) {
    handshake_from(1);
    const double t = MPI_Wtime();
    if (both)
      MPI_Sendrecv(send_buffer, n, MPI_BYTE, 1, kTagData, recv_buffer, n, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    else
      MPI_Send(send_buffer, n, MPI_BYTE, 1, kTagData, MPI_COMM_WORLD);
    handshake_from(1);
    add_row(seq, both ? kBidir : kOneway, kBulk, MPI_Wtime() - t);
  } else {
    MPI_Request req;
    MPI_Irecv(recv_buffer, n, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD, &req);
    handshake_to(0);
    if (both) MPI_Send(send_buffer, n, MPI_BYTE, 0, kTagData, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    handshake_to(0);
  }
}

static volatile double kernel_sink;

/* y = a x + y over kKernelLength doubles, `reps` times: 2 flops per element. */
static void compute_task(double seq, int reps) {
  static double x[kKernelLength], y[kKernelLength];
  for (int i = 0; i < kKernelLength; ++i) {
    x[i] = 1.0 + i * 1e-3;
    y[i] = 0.5;
  }
  const double a = kernel_sink * 0 + 0.5;
  const double t = MPI_Wtime();
  for (int r = 0; r < reps; ++r)
    for (int i = 0; i < kKernelLength; ++i) y[i] = a * x[i] + y[i];
  const double dt = MPI_Wtime() - t;
  kernel_sink = y[kKernelLength / 2];
  add_row(seq, kCompute, 2ull * kKernelLength * (unsigned long long)reps, dt);
}

/* MPI_Reduce_local (MPI_SUM) over kReduceLength doubles (512 KiB per operand): the cost of a
 * reduction, memory-bound where the daxpy kernel is not; bytes = the element count. */
static void reduce_task(double seq) {
  static double in[kReduceLength], inout[kReduceLength];
  for (int i = 0; i < kReduceLength; ++i) {
    in[i] = 1.0 + i;
    inout[i] = 0.25;
  }
  const double t = MPI_Wtime();
  MPI_Reduce_local(in, inout, kReduceLength, MPI_DOUBLE, MPI_SUM);
  const double dt = MPI_Wtime() - t;
  kernel_sink = inout[kReduceLength / 2];
  add_row(seq, kReduce, (unsigned long long)kReduceLength, dt);
}

/* The first p pairs (2i, 2i+1) each move 4 MiB one way at once; rank 0 keeps the slowest time. */
static void contention_task(int rank, double seq, int pairs) {
  const int n = (int)kBulk;
  double mine = 0, slowest = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank < 2 * pairs) {
    const int peer = rank ^ 1;
    const double t = MPI_Wtime();
    if (rank % 2 == 0) {
      MPI_Send(send_buffer, n, MPI_BYTE, peer, kTagData, MPI_COMM_WORLD);
      handshake_from(peer);
    } else {
      MPI_Recv(recv_buffer, n, MPI_BYTE, peer, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      handshake_to(peer);
    }
    mine = MPI_Wtime() - t;
  }
  MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) add_row(seq, kContention, kBulk * (unsigned long long)pairs, slowest);
}

static int by_seq(const void *a, const void *b) {
  const Row *x = a, *y = b;
  if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
  return x->experiment < y->experiment ? -1 : x->experiment > y->experiment;
}

/* The number of distinct MPI_Get_processor_name among the ranks (every rank calls it; rank 0's
 * answer counts). 1: the ranks shared one node (shared memory), more: a network. */
static int count_nodes(int rank, int np) {
  char mine[MPI_MAX_PROCESSOR_NAME] = "";
  int len = 0;
  MPI_Get_processor_name(mine, &len);
  char *all = rank == 0 ? calloc((size_t)np, MPI_MAX_PROCESSOR_NAME) : NULL;
  if (rank == 0 && !all) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Gather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  int nodes = 0;
  for (int i = 0; rank == 0 && i < np; ++i) {
    int seen = 0;
    for (int j = 0; j < i && !seen; ++j)
      seen = !strcmp(all + (size_t)i * MPI_MAX_PROCESSOR_NAME, all + (size_t)j * MPI_MAX_PROCESSOR_NAME);
    nodes += !seen;
  }
  free(all);
  return nodes;
}

static void write_output(const Options *o, int np, int nodes) {
  FILE *out = o->output ? fopen(o->output, "w") : stdout;
  if (!out) {
    fprintf(stderr, "simfab_calibrate: cannot write %s\n", o->output);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char host[256] = "unknown", library[MPI_MAX_LIBRARY_VERSION_STRING] = "", date[64] = "";
  int len = 0;
  gethostname(host, sizeof host - 1);
  MPI_Get_library_version(library, &len);
  library[strcspn(library, "\r\n")] = '\0';
  const time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  fprintf(out, "# simfab-calibrate 1\n# hostname: %s\n# np: %d\n# nodes: %d\n# library: %s\n# date: %s\n", host, np,
          nodes, library, date);
  fprintf(out, "# sizes: %llu..%llu, %d sizes x %d repetitions, seed %llu\n", o->min_size, o->max_size, o->samples,
          o->reps, o->seed);
  fprintf(out, "# late-recv-delay: %.9g\n", o->late);
  fprintf(out, "experiment,bytes,seconds\n");
  qsort(rows, row_count, sizeof *rows, by_seq);
  for (size_t i = 0; i < row_count; ++i)
    fprintf(out, "%s,%.0f,%.9g\n", kNames[(int)rows[i].experiment], rows[i].bytes, rows[i].seconds);
  if (out != stdout) fclose(out);
}

int main(int argc, char **argv) {
  Options o;
  const int parsed = parse_options(argc, argv, &o);
  if (parsed) return parsed == 1 ? 0 : 2;
  MPI_Init(&argc, &argv);
  int rank = 0, np = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (np < 2) {
    if (rank == 0) fprintf(stderr, "simfab_calibrate: run it on 2 ranks or more (mpirun -np 2 ...)\n");
    MPI_Finalize();
    return 2;
  }
  const size_t buffer = (size_t)(o.max_size > kBulk ? o.max_size : kBulk);
  send_buffer = malloc(buffer);
  recv_buffer = malloc(buffer);
  if (!send_buffer || !recv_buffer) {
    fprintf(stderr, "simfab_calibrate: cannot allocate 2 x %zu bytes\n", buffer);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(send_buffer, 1, buffer); /* touch every page before timing anything */
  memset(recv_buffer, 0, buffer);

  /* Sizes log-uniform in [min, max]; tasks (size, repetition) shuffled (Fisher-Yates). */
  rng_state = o.seed;
  const size_t tasks = (size_t)o.samples * (size_t)o.reps;
  int *size_of = malloc(tasks * sizeof *size_of);
  if (!size_of) MPI_Abort(MPI_COMM_WORLD, 1);
  const double lo = log((double)o.min_size), hi = log((double)o.max_size);
  for (int s = 0; s < o.samples; ++s) {
    const int k = (int)llround(exp(lo + uniform01() * (hi - lo)));
    for (int r = 0; r < o.reps; ++r) size_of[(size_t)s * (size_t)o.reps + (size_t)r] = k;
  }
  for (size_t i = tasks; i > 1; --i) {
    const size_t j = (size_t)(next_random() % i);
    const int tmp = size_of[i - 1];
    size_of[i - 1] = size_of[j];
    size_of[j] = tmp;
  }

  if (np <= 64) first_call_task(rank, np); /* first: before any collective is used */
  double rtt1 = 0, seq = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank < 2) { /* warm-up, not recorded: connections, buffers, the first-message effect */
    const size_t keep = row_count;
    const int warm[] = {(int)o.min_size, 1024, 65536, (int)o.max_size};
    for (int w = 0; w < 4; ++w)
      for (int r = 0; r < 2; ++r)
        if ((unsigned long long)warm[w] <= o.max_size) size_task(rank, 0, warm[w], &o, &rtt1);
    row_count = keep;
    for (size_t i = 0; i < tasks; ++i) size_task(rank, seq++, size_of[i], &o, &rtt1);
    for (int r = 0; r < o.reps; ++r) {
      gap_task(rank, seq++);
      bulk_task(rank, seq++, 0);
      bulk_task(rank, seq++, 1);
      if (rank == 0) compute_task(seq++, o.kernel_reps);
      if (rank == 0) reduce_task(seq++);
    }
  }
  if (np >= 4)
    for (int r = 0; r < o.reps; ++r)
      for (int pairs = 1; pairs <= np / 2; ++pairs) contention_task(rank, seq++, pairs);

  const int nodes = count_nodes(rank, np);
  /* Rank 1's rows (recv) go to rank 0, which writes everything in task order. */
  if (rank == 1) {
    unsigned long long n = row_count;
    MPI_Send(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, kTagRows, MPI_COMM_WORLD);
    MPI_Send(rows, (int)(4 * row_count), MPI_DOUBLE, 0, kTagRows, MPI_COMM_WORLD);
  } else if (rank == 0) {
    unsigned long long n = 0;
    MPI_Recv(&n, 1, MPI_UNSIGNED_LONG_LONG, 1, kTagRows, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    Row *theirs = malloc((size_t)n * sizeof *theirs + 1);
    if (!theirs) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Recv(theirs, (int)(4 * n), MPI_DOUBLE, 1, kTagRows, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (unsigned long long i = 0; i < n; ++i)
      add_row(theirs[i].seq, (int)theirs[i].experiment, (unsigned long long)theirs[i].bytes, theirs[i].seconds);
    free(theirs);
    write_output(&o, np, nodes);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  free(size_of);
  free(send_buffer);
  free(recv_buffer);
  free(rows);
  MPI_Finalize();
  return 0;
}
