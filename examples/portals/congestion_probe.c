/* congestion_probe: seed 000's flow-control study (§7.1, Fig. 7.2; §6 test 21) as a Portals 4
 * program for `simfab exec`. Two switches joined by one cable; node 0 floods node 1 with 1 MB
 * Puts from 8 processes (one flooding pair of nodes, 8 processes per node), while node 2 sends a
 * probe of sequential Puts to node 3 whose route shares the inter-switch cable. The probe's mean
 * latency (Put to its ACK) says how much the flood hurts it; the NIC's in-flight limits
 * (--cfg nic/max-inflight-to-target=L or nic/max-inflight-to-process=L) bound the flood's
 * messages in flight and so give the probe back its share of the cable.
 *
 *   build/simfab-cc -O2 -o probe examples/portals/congestion_probe.c
 *   build/simfab exec -np 18 --platform examples/portals/two_switches.yaml \
 *        --hostfile examples/portals/probe.hostfile --cfg nic/model=portals \
 *        --cfg nic/max-inflight-to-target=8 ./probe [-f FLOOD_MSGS] [-s FLOOD_SIZE] [-w WINDOW]
 *        [-p PROBES] [-z PROBE_SIZE] [-q]
 *
 * Roles by node (the hostfile puts ranks 0-7 on node 0, 8-15 on node 1, 16 on node 2, 17 on
 * node 3): node 0's process k floods process k of node 1 with -f Puts of -s bytes (default 40 x
 * 1 MiB), -w of them in flight (default 16); node 2 sends -p probes (default 20) of -z bytes
 * (default 65536) to node 3, one at a time, each waited for its ACK; -q sends no flood (the
 * baseline). The probe prints "probe: N probes of B bytes, mean latency X us". Every target waits
 * for a final 0-byte Put from its initiator before it leaves (PtlFini would free its MEs).
 */
#include <getopt.h>
#include <portals4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    int rc_ = (call);                                                                 \
    if (rc_ != PTL_OK) {                                                              \
      fprintf(stderr, "congestion_probe: %s failed: %d (line %d)\n", #call, rc_, __LINE__); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq;

static void usage(int status) {
  fprintf(status ? stderr : stdout,
          "usage: congestion_probe [-f flood_msgs] [-s flood_size] [-w window] [-p probes] [-z probe_size] [-q]\n");
  exit(status);
}

static long number(const char* s) {
  char* end = NULL;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 0) usage(2);
  return v;
}

/* The next event of `type` (others, e.g. SEND, are skipped). */
static ptl_event_t next(ptl_event_kind_t type) {
  ptl_event_t ev;
  do {
    CHECK(PtlEQWait(eq, &ev));
    if (ev.ni_fail_type != PTL_NI_OK) {
      fprintf(stderr, "congestion_probe: event %d failed: %d\n", (int)ev.type, (int)ev.ni_fail_type);
      exit(1);
    }
  } while (ev.type != type);
  return ev;
}

static void target(char* buf, long size) {
  ptl_pt_index_t pt;
  CHECK(PtlPTAlloc(ni, 0, eq, 0, &pt));
  ptl_me_t me;
  ptl_handle_me_t h;
  memset(&me, 0, sizeof me);
  me.start = buf;
  me.length = (ptl_size_t)size;
  me.ct_handle = PTL_CT_NONE;
  me.uid = PTL_UID_ANY;
  me.options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
  me.match_id.phys.nid = PTL_NID_ANY;
  me.match_id.phys.pid = PTL_PID_ANY;
  me.ignore_bits = ~(ptl_match_bits_t)0;
  CHECK(PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &h));
  /* Every Put lands in the same buffer; a 0-byte one says the initiator is done. */
  for (;;) {
    ptl_event_t ev = next(PTL_EVENT_PUT);
    if (ev.rlength == 0) break;
  }
}

int main(int argc, char** argv) {
  long flood_msgs = 40, flood_size = 1 << 20, window = 16, probes = 20, probe_size = 65536;
  int quiet = 0, c;
  while ((c = getopt(argc, argv, "f:s:w:p:z:qh")) != -1) {
    switch (c) {
      case 'f': flood_msgs = number(optarg); break;
      case 's': flood_size = number(optarg); break;
      case 'w': window = number(optarg); break;
      case 'p': probes = number(optarg); break;
      case 'z': probe_size = number(optarg); break;
      case 'q': quiet = 1; break;
      case 'h': usage(0); break;
      default: usage(2);
    }
  }
  if (window < 1 || probes < 1) usage(2);
  ptl_process_t self;
  CHECK(PtlInit());
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY, NULL, NULL, &ni));
  CHECK(PtlGetPhysId(ni, &self));
  CHECK(PtlEQAlloc(ni, 1024, &eq));
  const long size = flood_size > probe_size ? flood_size : probe_size;
  char* buf = calloc(1, (size_t)size + 1);
  if (!buf) return 1;
  const ptl_nid_t nid = self.phys.nid;
  if (nid == 1 || nid == 3) {
    target(buf, size);
  } else {
    ptl_md_t md = {buf, (ptl_size_t)size, 0, eq, PTL_CT_NONE};
    ptl_handle_md_t mdh;
    CHECK(PtlMDBind(ni, &md, &mdh));
    ptl_process_t peer;
    peer.phys.nid = nid + 1;
    peer.phys.pid = self.phys.pid;
    if (nid == 0) { /* a flooder: -w Puts in flight, no ACK, SEND events pace it */
      const long msgs = quiet ? 0 : flood_msgs;
      long in_flight = 0;
      for (long i = 0; i < msgs; ++i) {
        if (in_flight == window) {
          next(PTL_EVENT_SEND);
          --in_flight;
        }
        CHECK(PtlPut(mdh, 0, (ptl_size_t)flood_size, PTL_NO_ACK_REQ, peer, 0, 0, 0, NULL, 0));
        ++in_flight;
      }
      for (; in_flight > 0; --in_flight) next(PTL_EVENT_SEND);
    } else { /* the probe: one Put at a time, each waited for its ACK */
      double total = 0;
      for (long i = 0; i < probes; ++i) {
        const double t0 = simfab_ptl_wtime();
        CHECK(PtlPut(mdh, 0, (ptl_size_t)probe_size, PTL_ACK_REQ, peer, 0, 0, 0, NULL, 0));
        next(PTL_EVENT_ACK);
        total += simfab_ptl_wtime() - t0;
      }
      printf("probe: %ld probes of %ld bytes, mean latency %.3f us\n", probes, probe_size, total / (double)probes * 1e6);
    }
    CHECK(PtlPut(mdh, 0, 0, PTL_ACK_REQ, peer, 0, 0, 0, NULL, 0)); /* done */
    next(PTL_EVENT_ACK);
  }
  free(buf);
  PtlFini();
  return 0;
}
