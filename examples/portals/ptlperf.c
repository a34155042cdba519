/* ptlperf: a PtlPerf-like Portals 4 benchmark (seed 000 §3.3, §4.6) for `simfab exec`.
 *
 *   build/simfab-cc -O2 -o ptlperf examples/portals/ptlperf.c
 *   build/simfab exec -np 2 --cfg nic/model=portals ./ptlperf -m put-ack -s 1 -S 65536 -n 1000
 *
 * Rank 0 (nid 0) is the initiator, rank 1 (nid 1) the target. For each size from -s to -S
 * (doubling) it runs -n operations in the chosen mode and prints one line: size, latency (us per
 * operation), bandwidth (MB/s) and message rate (Mmsg/s), timed in simulated time with
 * simfab_ptl_wtime() (clock_gettime is the host's clock under simfab exec, not simulated time).
 * With -r N, the sizes are seed 000's sweep (§3.2) instead of the doubling: the "interesting"
 * sizes of the NIC's thresholds (8/9, 16/17, 64/65, 408/409, 416/417, 512/513 B) that lie in
 * [-s, -S], then sizes drawn log2-uniformly in [-s, -S] (a fixed seed) up to N in all, ascending.
 * Modes:
 *   put-ack     Put with PTL_ACK_REQ, wait for the ACK (EQ polled with PtlEQGet) before the next
 *   put-send    Put, wait for its SEND only (the early SEND of <= 64 B payloads pipelines)
 *   put-nowait  -w Puts in flight (SEND events drained as they come), no ACK
 *   get         Get, wait for the REPLY
 *   ct          Put with a counting ACK, PtlCTWait on the MD's counter (no EQ polling)
 *   eqpoll      Put with ACK, busy-poll PtlEQPoll(timeout 0)
 *   match       -w Puts in flight to a target whose priority list holds -w MEs with distinct
 *               match bits (each Put matches the last one: a full list walk)
 * The target takes no part after set-up (Portals is one-sided); it only waits, so that its MEs
 * stay, for a last "done" Put on PT 1.
 */
#include <getopt.h>
#include <portals4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    int rc_ = (call);                                                            \
    if (rc_ != PTL_OK) {                                                         \
      fprintf(stderr, "ptlperf: %s failed: %d (line %d)\n", #call, rc_, __LINE__); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

enum mode { PUT_ACK, PUT_SEND, PUT_NOWAIT, GET, CT, EQPOLL, MATCH };
static const char* mode_names[] = {"put-ack", "put-send", "put-nowait", "get", "ct", "eqpoll", "match"};

static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq;

static void usage(int status) {
  fprintf(status ? stderr : stdout,
          "usage: ptlperf [-s min] [-S max] [-r count] [-n iterations] [-m mode] [-w window] [-h]\n"
          "  -r count sizes: the NIC thresholds, then log2-uniform random sizes (default: doubling)\n"
          "  -s min size in bytes (default 1)     -S max size (default 65536)\n"
          "  -n operations per size (default 1000) -w operations in flight (default 256)\n"
          "  -m put-ack | put-send | put-nowait | get | ct | eqpoll | match (default put-ack)\n");
  exit(status);
}

/* Waits for an event of `type` by polling PtlEQGet (what PtlPerf's ACK mode does). */
static void poll_for(ptl_event_kind_t type, int use_poll) {
  ptl_event_t ev;
  unsigned int which;
  for (;;) {
    int rc = use_poll ? PtlEQPoll(&eq, 1, 0, &ev, &which) : PtlEQGet(eq, &ev);
    if (rc == PTL_EQ_EMPTY) continue;
    CHECK(rc);
    if (ev.ni_fail_type != PTL_NI_OK) {
      fprintf(stderr, "ptlperf: event %d failed with %d\n", (int)ev.type, (int)ev.ni_fail_type);
      exit(1);
    }
    if (ev.type == type) return;
  }
}

#define MAX_SIZES 4096

static int by_value(const void* a, const void* b) {
  const long x = *(const long*)a, y = *(const long*)b;
  return (x > y) - (x < y);
}

/* Seed 000's sweep: the thresholds' sizes in [min, max], then log2-uniform ones (xorshift, fixed
 * seed: the same list on every run), `count` in all, ascending. Returns how many. */
static int sweep_sizes(long min, long max, int count, long* sizes) {
  static const long interesting[] = {8, 9, 16, 17, 64, 65, 408, 409, 416, 417, 512, 513};
  int n = 0;
  for (size_t i = 0; i < sizeof interesting / sizeof *interesting && n < count; ++i)
    if (interesting[i] >= min && interesting[i] <= max) sizes[n++] = interesting[i];
  unsigned long long x = 88172645463325252ULL;
  double lo = 0, hi = 0;
  for (long v = min; v > 1; v /= 2) lo += 1;
  for (long v = max; v > 1; v /= 2) hi += 1;
  while (n < count) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const double u = (double)(x >> 11) / 9007199254740992.0;
    long s = 1;
    for (double e = lo + u * (hi - lo + 1); e >= 1; e -= 1) s *= 2;
    s += (long)((double)s * u);
    if (s < min) s = min;
    if (s > max) s = max;
    sizes[n++] = s;
  }
  qsort(sizes, (size_t)n, sizeof *sizes, by_value);
  return n;
}

int main(int argc, char** argv) {
  long min = 1, max = 65536, iters = 1000, window = 256, random_sizes = 0;
  enum mode mode = PUT_ACK;
  int c;
  while ((c = getopt(argc, argv, "s:S:r:n:m:w:h")) != -1) {
    switch (c) {
      case 'r': random_sizes = atol(optarg); break;
      case 's': min = atol(optarg); break;
      case 'S': max = atol(optarg); break;
      case 'n': iters = atol(optarg); break;
      case 'w': window = atol(optarg); break;
      case 'm': {
        int found = 0;
        for (int i = 0; i < 7; ++i)
          if (strcmp(optarg, mode_names[i]) == 0) mode = (enum mode)i, found = 1;
        if (!found) usage(2);
        break;
      }
      case 'h': usage(0); break;
      default: usage(2);
    }
  }
  if (min < 1 || max < min || iters < 1 || window < 1 || random_sizes < 0 || random_sizes > MAX_SIZES) usage(2);
  static long sizes[MAX_SIZES];
  int nsizes = 0;
  if (random_sizes > 0)
    nsizes = sweep_sizes(min, max, (int)random_sizes, sizes);
  else
    for (long s = min; s <= max && nsizes < MAX_SIZES; s *= 2) sizes[nsizes++] = s;

  ptl_process_t self, target;
  ptl_pt_index_t pt;
  CHECK(PtlInit());
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY, NULL, NULL, &ni));
  CHECK(PtlGetPhysId(ni, &self));
  CHECK(PtlEQAlloc(ni, 4096, &eq));
  CHECK(PtlPTAlloc(ni, 0, eq, 0, &pt));
  char* buffer = calloc(1, (size_t)max);
  if (!buffer) return 1;

  if (self.phys.nid == 1) { /* the target: MEs that stay, no events of its own */
    const long entries = mode == MATCH ? window : 1;
    for (long i = 0; i < entries; ++i) {
      ptl_me_t me;
      ptl_handle_me_t h;
      memset(&me, 0, sizeof me);
      me.start = buffer;
      me.length = (ptl_size_t)max;
      me.ct_handle = PTL_CT_NONE;
      me.uid = PTL_UID_ANY;
      me.options = PTL_ME_OP_PUT | PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_COMM_DISABLE;
      me.match_id.phys.nid = PTL_NID_ANY;
      me.match_id.phys.pid = PTL_PID_ANY;
      me.match_bits = mode == MATCH ? (ptl_match_bits_t)(i + 1) : 0;
      me.ignore_bits = mode == MATCH ? 0 : ~(ptl_match_bits_t)0;
      CHECK(PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &h));
    }
    /* Stay alive (PtlFini would free the MEs) until the initiator's "done" Put on PT 1. */
    ptl_pt_index_t done_pt;
    ptl_me_t done;
    ptl_handle_me_t done_h;
    ptl_event_t ev;
    CHECK(PtlPTAlloc(ni, 0, eq, 1, &done_pt));
    memset(&done, 0, sizeof done);
    done.ct_handle = PTL_CT_NONE;
    done.uid = PTL_UID_ANY;
    done.options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
    done.match_id.phys.nid = PTL_NID_ANY;
    done.match_id.phys.pid = PTL_PID_ANY;
    CHECK(PtlMEAppend(ni, done_pt, &done, PTL_PRIORITY_LIST, NULL, &done_h));
    do CHECK(PtlEQWait(eq, &ev));
    while (ev.type != PTL_EVENT_PUT || ev.pt_index != done_pt);
  } else {
    ptl_handle_ct_t ct;
    ptl_md_t md;
    ptl_handle_md_t mdh;
    CHECK(PtlCTAlloc(ni, &ct));
    md.start = buffer;
    md.length = (ptl_size_t)max;
    md.options = mode == CT ? PTL_MD_EVENT_CT_ACK : 0;
    md.eq_handle = mode == CT ? PTL_EQ_NONE : eq;
    md.ct_handle = ct;
    CHECK(PtlMDBind(ni, &md, &mdh));
    target.phys.nid = 1;
    target.phys.pid = 0;
    const ptl_match_bits_t bits = mode == MATCH ? (ptl_match_bits_t)window : 0;
    printf("# ptlperf mode %s, %ld operations per size%s\n", mode_names[mode], iters,
           mode == PUT_NOWAIT || mode == MATCH ? "" : ", one in flight");
    printf("# %10s %14s %14s %14s\n", "size(B)", "latency(us)", "bw(MB/s)", "rate(Mmsg/s)");
    ptl_size_t ct_done = 0;
    for (int k = 0; k < nsizes; ++k) {
      const long size = sizes[k];
      const ptl_size_t len = (ptl_size_t)size;
      const double t0 = simfab_ptl_wtime();
      long in_flight = 0;
      for (long i = 0; i < iters; ++i) {
        switch (mode) {
          case PUT_ACK:
          case EQPOLL:
            CHECK(PtlPut(mdh, 0, len, PTL_ACK_REQ, target, pt, bits, 0, NULL, 0));
            poll_for(PTL_EVENT_ACK, mode == EQPOLL);
            break;
          case PUT_SEND:
            CHECK(PtlPut(mdh, 0, len, PTL_NO_ACK_REQ, target, pt, bits, 0, NULL, 0));
            poll_for(PTL_EVENT_SEND, 0);
            break;
          case GET:
            CHECK(PtlGet(mdh, 0, len, target, pt, bits, 0, NULL));
            poll_for(PTL_EVENT_REPLY, 0);
            break;
          case CT: {
            ptl_ct_event_t v;
            CHECK(PtlPut(mdh, 0, len, PTL_CT_ACK_REQ, target, pt, bits, 0, NULL, 0));
            CHECK(PtlCTWait(ct, ++ct_done, &v));
            break;
          }
          case PUT_NOWAIT:
          case MATCH:
            if (in_flight == window) {
              poll_for(PTL_EVENT_SEND, 0);
              --in_flight;
            }
            CHECK(PtlPut(mdh, 0, len, PTL_NO_ACK_REQ, target, pt, bits, 0, NULL, 0));
            ++in_flight;
            break;
        }
      }
      for (; in_flight > 0; --in_flight) poll_for(PTL_EVENT_SEND, 0);
      const double elapsed = simfab_ptl_wtime() - t0;
      printf("  %10ld %14.3f %14.2f %14.4f\n", size, elapsed / (double)iters * 1e6,
             (double)size * (double)iters / elapsed / 1e6, (double)iters / elapsed / 1e6);
    }
    /* Tell the target it may leave: a 0-byte Put on PT 1, acknowledged. */
    ptl_md_t done_md = {NULL, 0, 0, eq, PTL_CT_NONE};
    ptl_handle_md_t done_h;
    CHECK(PtlMDBind(ni, &done_md, &done_h));
    CHECK(PtlPut(done_h, 0, 0, PTL_ACK_REQ, target, 1, 0, 0, NULL, 0));
    poll_for(PTL_EVENT_ACK, 0);
    CHECK(PtlMDRelease(done_h));
    CHECK(PtlMDRelease(mdh));
  }
  free(buffer);
  PtlFini();
  return 0;
}
