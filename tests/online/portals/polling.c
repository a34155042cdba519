/* Seed 000 test 18: a program that busy-polls PtlEQGet still ends, simulated time advancing by
 * the growing polling delay; the event is found soon after it becomes visible. After 8 empty
 * polls in a row the rest of the loop is played inside the call (runtime.hpp, skip_spin): the
 * program sees at most 8 empty returns, and finds the event at the poll instant it would have. */
#include "common.h"

int main(void) {
  setup(PTL_NI_MATCHING | PTL_NI_PHYSICAL, 0);
  if (self.phys.nid == 1) {
    static char box[8];
    append_me(box, sizeof box, 0, ~(ptl_match_bits_t)0, PTL_ME_OP_PUT, PTL_CT_NONE, NULL);
    ptl_event_t ev;
    long polls = 0;
    int rc;
    while ((rc = PtlEQGet(eq, &ev)) == PTL_EQ_EMPTY) ++polls;
    CHECK(rc);
    const double t = simfab_ptl_wtime();
    EXPECT(ev.type == PTL_EVENT_PUT && polls == 7 && t > 1e-6 && t < 1e-4, "a PUT after polling: %ld polls, %g s", polls, t);
    printf("polling target: PUT after %ld polls at %.6f us OK\n", polls, t * 1e6);
  } else {
    static char msg[8] = "poll";
    ptl_handle_md_t md = bind(msg, sizeof msg, 0, PTL_CT_NONE);
    CHECK(PtlPut(md, 0, 5, PTL_NO_ACK_REQ, peer(1), 0, 0, 0, NULL, 0));
    ptl_event_t ev;
    unsigned int which;
    int rc;
    while ((rc = PtlEQPoll(&eq, 1, 0, &ev, &which)) == PTL_EQ_EMPTY) {}
    CHECK(rc);
    EXPECT(ev.type == PTL_EVENT_SEND, "SEND");
    printf("polling initiator: SEND OK\n");
  }
  teardown();
  return 0;
}
