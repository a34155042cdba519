/* Misuse gets the spec's return codes, never a crash: bad handles, a Put to a PT index that is
 * not allocated (PTL_NI_TARGET_INVALID in the ACK), an exhausted ME limit (PTL_NO_SPACE), a
 * target that does not exist (PTL_ARG_INVALID). */
#include "common.h"

int main(void) {
  ptl_handle_ni_t none;
  EXPECT(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY, NULL, NULL, &none) == PTL_NO_INIT,
         "PTL_NO_INIT before PtlInit");
  setup(PTL_NI_MATCHING | PTL_NI_PHYSICAL, 0);
  char buf[8] = "abc";
  ptl_event_t ev;
  ptl_ct_event_t c;
  EXPECT(PtlEQGet((ptl_handle_eq_t)12345, &ev) == PTL_ARG_INVALID, "bad EQ handle");
  EXPECT(PtlCTGet(PTL_CT_NONE, &c) == PTL_ARG_INVALID, "PTL_CT_NONE is no CT");
  EXPECT(PtlMDRelease(PTL_INVALID_HANDLE) == PTL_ARG_INVALID, "bad MD handle");
  EXPECT(PtlMEUnlink(eq) == PTL_ARG_INVALID, "an EQ handle is no ME");
  EXPECT(PtlPut(PTL_INVALID_HANDLE, 0, 1, PTL_NO_ACK_REQ, peer(1), 0, 0, 0, NULL, 0) == PTL_ARG_INVALID, "bad MD");
  ptl_handle_md_t md = bind(buf, sizeof buf, 0, PTL_CT_NONE);
  EXPECT(PtlPut(md, 4, 8, PTL_NO_ACK_REQ, peer(1), 0, 0, 0, NULL, 0) == PTL_ARG_INVALID, "beyond the MD");
  EXPECT(PtlPut(md, 0, 1, PTL_NO_ACK_REQ, peer(77), 0, 0, 0, NULL, 0) == PTL_ARG_INVALID, "no such process");
  EXPECT(PtlEQGet(eq, &ev) == PTL_EQ_EMPTY, "an empty EQ");
  ptl_pt_index_t other;
  EXPECT(PtlPTAlloc(ni, 0, eq, 0, &other) == PTL_PT_IN_USE, "PT 0 is taken");
  if (self.phys.nid == 0) {  /* a Put to PT 5, which rank 1 never allocated */
    CHECK(PtlPut(md, 0, 4, PTL_ACK_REQ, peer(1), 5, 0, 0, NULL, 0));
    wait_event(PTL_EVENT_SEND);
    ev = wait_event(PTL_EVENT_ACK);
    EXPECT(ev.ni_fail_type == PTL_NI_TARGET_INVALID, "TARGET_INVALID, got %d", (int)ev.ni_fail_type);
  } else {  /* ME limit */
    ptl_ni_limits_t want, got;
    ptl_handle_ni_t ni2;
    ptl_pt_index_t pt2;
    memset(&want, 0, sizeof want);
    want.max_entries = 1;
    CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_NO_MATCHING | PTL_NI_LOGICAL, PTL_PID_ANY, &want, &got, &ni2));
    EXPECT(got.max_entries == 1, "granted max_entries 1");
    CHECK(PtlPTAlloc(ni2, 0, PTL_EQ_NONE, PTL_PT_ANY, &pt2));
    ptl_le_t le;
    ptl_handle_le_t h;
    memset(&le, 0, sizeof le);
    le.start = buf;
    le.length = 8;
    le.ct_handle = PTL_CT_NONE;
    le.uid = PTL_UID_ANY;
    le.options = PTL_LE_OP_PUT;
    CHECK(PtlLEAppend(ni2, pt2, &le, PTL_PRIORITY_LIST, NULL, &h));
    EXPECT(PtlLEAppend(ni2, pt2, &le, PTL_PRIORITY_LIST, NULL, &h) == PTL_NO_SPACE, "the NI's entries are exhausted");
    EXPECT(PtlPTFree(ni2, pt2) == PTL_IN_USE, "a PT with an LE is in use");
    CHECK(PtlLEUnlink(h));
    EXPECT(PtlLEUnlink(h) == PTL_ARG_INVALID, "unlinked twice");
    CHECK(PtlNIFini(ni2));
  }
  printf("errors rank %u: return codes OK\n", self.phys.nid);
  teardown();
  return 0;
}
