/* Seed 000 test 2 through the API: the event set per operation (Put+ACK: SEND, ACK / PUT; Get:
 * REPLY / GET), CTs by events and by bytes, FetchAtomic's old and new values, Swap. */
#include "common.h"

int main(void) {
  setup(PTL_NI_MATCHING | PTL_NI_PHYSICAL, 0);
  ptl_handle_ct_t ct;
  CHECK(PtlCTAlloc(ni, &ct));
  if (self.phys.nid == 1) {
    static char box[100];
    static char source[64] = "target data";
    static int64_t counter = 40;
    append_me(box, sizeof box, 1, 0, PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM | PTL_ME_EVENT_CT_BYTES, ct, NULL);
    append_me(source, sizeof source, 2, 0, PTL_ME_OP_GET, PTL_CT_NONE, NULL);
    append_me(&counter, sizeof counter, 3, 0, PTL_ME_OP_PUT | PTL_ME_OP_GET, PTL_CT_NONE, NULL);
    ptl_event_t ev = wait_event(PTL_EVENT_PUT);
    EXPECT(ev.mlength == 100 && box[99] == 'z', "100 bytes, got %llu", (unsigned long long)ev.mlength);
    ptl_ct_event_t c;
    CHECK(PtlCTWait(ct, 100, &c));
    EXPECT(c.success == 100 && c.failure == 0, "CT by bytes = 100, got %llu", (unsigned long long)c.success);
    wait_event(PTL_EVENT_GET);
    ev = wait_event(PTL_EVENT_FETCH_ATOMIC);
    EXPECT(ev.atomic_operation == PTL_SUM && ev.atomic_type == PTL_INT64_T, "SUM on int64");
    ev = wait_event(PTL_EVENT_FETCH_ATOMIC);
    EXPECT(counter == 1000, "after FetchAtomic(+2) and CSWAP(42 -> 1000): %lld", (long long)counter);
    printf("events target: PUT, CT 100 bytes, GET, FETCH_ATOMIC x2 OK\n");
  } else {
    static char data[100];
    static char reply[64];
    static int64_t two = 2, old = 0, newval = 1000, compare = 42;
    memset(data, 'z', sizeof data);
    ptl_handle_md_t md = bind(data, sizeof data, PTL_MD_EVENT_CT_SEND | PTL_MD_EVENT_CT_ACK, ct);
    CHECK(PtlPut(md, 0, 100, PTL_ACK_REQ, peer(1), 0, 1, 0, NULL, 0));
    wait_event(PTL_EVENT_SEND);
    ptl_event_t ev = wait_event(PTL_EVENT_ACK);
    EXPECT(ev.mlength == 100, "ACK mlength 100");
    ptl_ct_event_t c;
    CHECK(PtlCTWait(ct, 2, &c));
    EXPECT(c.success == 2, "CT by events: SEND + ACK = 2, got %llu", (unsigned long long)c.success);
    ptl_handle_md_t gmd = bind(reply, sizeof reply, 0, PTL_CT_NONE);
    CHECK(PtlGet(gmd, 0, 12, peer(1), 0, 2, 0, NULL));
    ev = wait_event(PTL_EVENT_REPLY);
    EXPECT(ev.mlength == 12 && strcmp(reply, "target data") == 0, "REPLY with 'target data', got '%s'", reply);
    ptl_handle_md_t put = bind(&two, sizeof two, 0, PTL_CT_NONE), get = bind(&old, sizeof old, 0, PTL_CT_NONE);
    CHECK(PtlFetchAtomic(get, 0, put, 0, 8, peer(1), 0, 3, 0, NULL, 0, PTL_SUM, PTL_INT64_T));
    wait_event(PTL_EVENT_SEND);
    wait_event(PTL_EVENT_REPLY);
    EXPECT(old == 40, "FetchAtomic returns the old value 40, got %lld", (long long)old);
    ptl_handle_md_t put2 = bind(&newval, sizeof newval, 0, PTL_CT_NONE);
    CHECK(PtlSwap(get, 0, put2, 0, 8, peer(1), 0, 3, 0, NULL, 0, &compare, PTL_CSWAP, PTL_INT64_T));
    wait_event(PTL_EVENT_SEND);
    wait_event(PTL_EVENT_REPLY);
    EXPECT(old == 42, "CSWAP returns 42, got %lld", (long long)old);
    printf("events initiator: SEND, ACK, CT 2 events, REPLY, FetchAtomic 40, Swap 42 OK\n");
  }
  teardown();
  return 0;
}
