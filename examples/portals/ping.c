/* ping.c: the smallest Portals 4 program for `simfab exec` (the README's example).
 *
 *   build/simfab-cc -o ping examples/portals/ping.c
 *   build/simfab exec -np 2 --cfg nic/model=portals ./ping
 *
 * Rank 1 (the target) exposes a buffer through a matching list entry (ME) on portal table entry
 * 0; rank 0 (the initiator) puts a message into it with PtlPut and waits for its ACK. Both ranks
 * learn what happened from their event queue (EQ), as in any Portals program: the initiator gets
 * PTL_EVENT_SEND then PTL_EVENT_ACK, the target PTL_EVENT_LINK (its ME is in the list) then
 * PTL_EVENT_PUT. Times are simulated (simfab_ptl_wtime): the NIC model of seed 000 (S4BXI)
 * decides them. There is no MPI here: ranks find each other by physical id (nid = host, pid 0
 * with one rank per host).
 */
#include <portals4.h>
#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    int rc_ = (call);                                                          \
    if (rc_ != PTL_OK) {                                                       \
      fprintf(stderr, "%s failed: %d (line %d)\n", #call, rc_, __LINE__);     \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(void) {
  ptl_handle_ni_t ni;
  ptl_handle_eq_t eq;
  ptl_process_t me;
  ptl_pt_index_t pt;
  ptl_event_t ev;
  char buffer[64];

  CHECK(PtlInit());
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY, NULL, NULL, &ni));
  CHECK(PtlGetPhysId(ni, &me));
  CHECK(PtlEQAlloc(ni, 64, &eq));
  CHECK(PtlPTAlloc(ni, 0, eq, 0, &pt)); /* PT 0 on both ranks, its events to eq */

  if (me.phys.nid == 1) { /* the target: one ME that accepts match bits 42 from anyone */
    ptl_me_t mentry;
    ptl_handle_me_t meh;
    memset(&mentry, 0, sizeof mentry);
    mentry.start = buffer;
    mentry.length = sizeof buffer;
    mentry.ct_handle = PTL_CT_NONE;
    mentry.uid = PTL_UID_ANY;
    mentry.options = PTL_ME_OP_PUT | PTL_ME_USE_ONCE | PTL_ME_EVENT_UNLINK_DISABLE;
    mentry.match_id.phys.nid = PTL_NID_ANY;
    mentry.match_id.phys.pid = PTL_PID_ANY;
    mentry.match_bits = 42;
    mentry.ignore_bits = 0;
    CHECK(PtlMEAppend(ni, pt, &mentry, PTL_PRIORITY_LIST, NULL, &meh));
    CHECK(PtlEQWait(eq, &ev)); /* PTL_EVENT_LINK: the ME is in the priority list */
    CHECK(PtlEQWait(eq, &ev)); /* PTL_EVENT_PUT: the message is in buffer */
    printf("target: event %d, %llu bytes \"%s\" at %.3f us\n", (int)ev.type, (unsigned long long)ev.mlength,
           buffer, simfab_ptl_wtime() * 1e6);
  } else { /* the initiator */
    ptl_md_t md;
    ptl_handle_md_t mdh;
    ptl_process_t target;
    double t0;
    strcpy(buffer, "hello, Portals");
    memset(&md, 0, sizeof md);
    md.start = buffer;
    md.length = strlen(buffer) + 1;
    md.eq_handle = eq;
    md.ct_handle = PTL_CT_NONE;
    CHECK(PtlMDBind(ni, &md, &mdh));
    target.phys.nid = 1;
    target.phys.pid = 0;
    /* the target links its ME at time 0, before this Put arrives: no synchronisation needed */
    t0 = simfab_ptl_wtime();
    CHECK(PtlPut(mdh, 0, md.length, PTL_ACK_REQ, target, pt, 42, 0, NULL, 0));
    CHECK(PtlEQWait(eq, &ev)); /* PTL_EVENT_SEND: buffer may be reused */
    printf("initiator: SEND after %.3f us\n", (simfab_ptl_wtime() - t0) * 1e6);
    CHECK(PtlEQWait(eq, &ev)); /* PTL_EVENT_ACK: the target has the data */
    printf("initiator: ACK after %.3f us (fail type %d)\n", (simfab_ptl_wtime() - t0) * 1e6, (int)ev.ni_fail_type);
    CHECK(PtlMDRelease(mdh));
  }
  CHECK(PtlPTFree(ni, pt));
  CHECK(PtlEQFree(eq));
  CHECK(PtlNIFini(ni));
  PtlFini();
  return 0;
}
