/* Seed 000 test 1 through the API: first ME wins (ignore bits), use-once unlink, no resource ->
 * the PT is disabled (flow control) and the initiator's ACK says PTL_NI_PT_DISABLED. */
#include "common.h"

int main(void) {
  setup(PTL_NI_MATCHING | PTL_NI_PHYSICAL, PTL_PT_FLOWCTRL);
  if (self.phys.nid == 1) {
    static char a[16], b[16];
    append_me(a, sizeof a, 0x10, 0x0F, PTL_ME_OP_PUT | PTL_ME_USE_ONCE, PTL_CT_NONE, (void*)1);
    append_me(b, sizeof b, 0x12, 0, PTL_ME_OP_PUT | PTL_ME_USE_ONCE, PTL_CT_NONE, (void*)2);
    ptl_event_t ev = wait_event(PTL_EVENT_PUT);
    EXPECT(ev.user_ptr == (void*)1 && strcmp(a, "first") == 0, "first message in ME 1, got %p '%s'", ev.user_ptr, a);
    wait_event(PTL_EVENT_AUTO_UNLINK);
    ev = wait_event(PTL_EVENT_PUT);
    EXPECT(ev.user_ptr == (void*)2 && strcmp(b, "second") == 0, "second message in ME 2, got %p", ev.user_ptr);
    wait_event(PTL_EVENT_AUTO_UNLINK);
    ev = wait_event(PTL_EVENT_PT_DISABLED);
    EXPECT(ev.ni_fail_type == PTL_NI_PT_DISABLED, "fail type PT_DISABLED");
    printf("matching target: first ME wins, use-once unlinks, PT disabled OK\n");
  } else {
    static char msg[3][16] = {"first", "second", "third"};
    ptl_handle_md_t md = bind(msg, sizeof msg, 0, PTL_CT_NONE);
    for (int i = 0; i < 3; ++i) {
      CHECK(PtlPut(md, (ptl_size_t)i * 16, 16, PTL_ACK_REQ, peer(1), 0, 0x12, 0, NULL, 0));
      wait_event(PTL_EVENT_SEND);
      ptl_event_t ack = wait_event(PTL_EVENT_ACK);
      const int want = i < 2 ? PTL_NI_OK : PTL_NI_PT_DISABLED;
      EXPECT(ack.ni_fail_type == want, "put %d: ACK fail type %d, got %d", i, want, (int)ack.ni_fail_type);
    }
    printf("matching initiator: ACKs OK, OK, PT_DISABLED OK\n");
  }
  teardown();
  return 0;
}
