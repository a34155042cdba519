/* Shared helpers of the Portals test programs (run by tests/nic/run_portals_programs.py with
 * `simfab exec -np 2 --cfg nic/model=portals`): rank 0 initiates, rank 1 is the target; both
 * open a matching physical NI with one EQ and PT 0. A wrong value prints what and exits 1. */
#include <portals4.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                    \
  do {                                                                                 \
    int rc_ = (call);                                                                  \
    if (rc_ != PTL_OK) {                                                               \
      fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, rc_);      \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)
#define EXPECT(cond, ...)                                                              \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond);              \
      fprintf(stderr, __VA_ARGS__);                                                    \
      fprintf(stderr, "\n");                                                           \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq;
static ptl_pt_index_t pt;
static ptl_process_t self;

static inline void setup(unsigned int ni_options, unsigned int pt_options) {
  CHECK(PtlInit());
  CHECK(PtlNIInit(PTL_IFACE_DEFAULT, ni_options, PTL_PID_ANY, NULL, NULL, &ni));
  CHECK(PtlGetPhysId(ni, &self));
  CHECK(PtlEQAlloc(ni, 256, &eq));
  CHECK(PtlPTAlloc(ni, pt_options, eq, 0, &pt));
}

static inline ptl_process_t peer(unsigned int nid) {
  ptl_process_t p;
  p.phys.nid = nid;
  p.phys.pid = 0;
  return p;
}

static inline ptl_handle_me_t append_me(void* buf, ptl_size_t len, ptl_match_bits_t bits, ptl_match_bits_t ignore,
                                 unsigned int options, ptl_handle_ct_t ct, void* user) {
  ptl_me_t me;
  ptl_handle_me_t h;
  memset(&me, 0, sizeof me);
  me.start = buf;
  me.length = len;
  me.ct_handle = ct;
  me.uid = PTL_UID_ANY;
  me.options = options | PTL_ME_EVENT_LINK_DISABLE;
  me.match_id.phys.nid = PTL_NID_ANY;
  me.match_id.phys.pid = PTL_PID_ANY;
  me.match_bits = bits;
  me.ignore_bits = ignore;
  CHECK(PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, user, &h));
  return h;
}

static inline ptl_handle_md_t bind(void* buf, ptl_size_t len, unsigned int options, ptl_handle_ct_t ct) {
  ptl_md_t md;
  ptl_handle_md_t h;
  md.start = buf;
  md.length = len;
  md.options = options;
  md.eq_handle = eq;
  md.ct_handle = ct;
  CHECK(PtlMDBind(ni, &md, &h));
  return h;
}

static inline ptl_event_t wait_event(ptl_event_kind_t type) {
  ptl_event_t ev;
  CHECK(PtlEQWait(eq, &ev));
  EXPECT(ev.type == type, "event %d, got %d", (int)type, (int)ev.type);
  return ev;
}

static inline void teardown(void) {
  PtlFini();
}
