// Portals objects and their misuse (Portals 4.1 §3.3-3.14): handles, NI limits, PT allocation,
// MD/ME/EQ/CT life cycles with the spec's return codes; event queues and counting events in
// simulated time; the atomic operations' element rules.
#include <gtest/gtest.h>

#include <cstring>

#include "online/portals/atomics.hpp"
#include "online/portals/counting_event.hpp"
#include "online/portals/event_queue.hpp"
#include "portals_test_support.hpp"

namespace simfab::online::portals {
namespace {

using testing::Target;

TEST(PortalsObjects, HandlesRoundTripAndRejectOtherKinds) {
  const uint64_t h = encode_handle({HandleKind::kMd, 12345, 3, 7, 99});
  const auto p = decode_handle(h, HandleKind::kMd);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->rank, 12345);
  EXPECT_EQ(p->ni, 3u);
  EXPECT_EQ(p->generation, 7u);
  EXPECT_EQ(p->index, 99u);
  EXPECT_FALSE(decode_handle(h, HandleKind::kEq));
  EXPECT_FALSE(decode_handle(PTL_EQ_NONE, HandleKind::kEq));
  EXPECT_FALSE(decode_handle(PTL_CT_NONE, HandleKind::kCt));
  EXPECT_FALSE(decode_handle(PTL_INVALID_HANDLE, HandleKind::kMe));
}

TEST(PortalsObjects, BadHandlesAndCodes) {
  Target t;
  PortalsProcess other(2, testing::phys(2, 0), 1000);
  other.init();
  ptl_handle_ni_t other_ni;
  ASSERT_EQ(other.ni_init(PTL_NI_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY, nullptr, nullptr, &other_ni), PTL_OK);
  ptl_md_t md{};
  md.eq_handle = PTL_EQ_NONE;
  md.ct_handle = PTL_CT_NONE;
  ptl_handle_md_t mdh;
  EXPECT_EQ(t.proc.md_bind(other_ni, &md, &mdh), PTL_ARG_INVALID);  // another process's NI
  EXPECT_EQ(t.proc.md_bind(t.ni, nullptr, &mdh), PTL_ARG_INVALID);
  md.options = PTL_IOVEC;
  EXPECT_EQ(t.proc.md_bind(t.ni, &md, &mdh), PTL_ARG_INVALID);  // not implemented
  md.options = 0;
  md.eq_handle = 12345;
  EXPECT_EQ(t.proc.md_bind(t.ni, &md, &mdh), PTL_ARG_INVALID);
  md.eq_handle = t.eq;
  ASSERT_EQ(t.proc.md_bind(t.ni, &md, &mdh), PTL_OK);
  EXPECT_EQ(t.proc.md_release(mdh), PTL_OK);
  EXPECT_EQ(t.proc.md_release(mdh), PTL_ARG_INVALID);  // stale
  ptl_handle_md_t again;
  ASSERT_EQ(t.proc.md_bind(t.ni, &md, &again), PTL_OK);  // reuses the slot, new generation
  EXPECT_NE(again, mdh);
  EXPECT_EQ(t.proc.md_release(mdh), PTL_ARG_INVALID);
  t.n().md(again)->pending = 1;
  EXPECT_EQ(t.proc.md_release(again), PTL_IN_USE);
  EXPECT_EQ(t.proc.eq_free(t.eq + 1), PTL_ARG_INVALID);
  EXPECT_EQ(t.proc.ct_free(PTL_CT_NONE), PTL_ARG_INVALID);
  EXPECT_EQ(t.proc.unlink(t.eq, HandleKind::kMe), PTL_ARG_INVALID);
  ptl_handle_ni_t ni2;
  EXPECT_EQ(t.proc.ni_init(PTL_NI_MATCHING | PTL_NI_NO_MATCHING | PTL_NI_PHYSICAL, PTL_PID_ANY, nullptr, nullptr, &ni2),
            PTL_ARG_INVALID);
  EXPECT_EQ(t.proc.ni_init(PTL_NI_MATCHING | PTL_NI_PHYSICAL, 5, nullptr, nullptr, &ni2), PTL_PID_IN_USE);
  EXPECT_EQ(t.proc.ni_init(PTL_NI_MATCHING | PTL_NI_PHYSICAL, 0, nullptr, nullptr, &ni2), PTL_OK);
  EXPECT_EQ(ni2, t.ni);  // the same NI, reference counted
}

TEST(PortalsObjects, PortalTableAllocation) {
  Target t;  // owns PT 0
  ptl_pt_index_t got;
  EXPECT_EQ(t.proc.pt_alloc(t.ni, 0, t.eq, 0, &got), PTL_PT_IN_USE);
  EXPECT_EQ(t.proc.pt_alloc(t.ni, 0, PTL_EQ_NONE, PTL_PT_ANY, &got), PTL_OK);
  EXPECT_EQ(got, 1u);
  EXPECT_EQ(t.proc.pt_alloc(t.ni, PTL_PT_FLOWCTRL, PTL_EQ_NONE, PTL_PT_ANY, &got), PTL_PT_EQ_NEEDED);
  EXPECT_EQ(t.proc.pt_alloc(t.ni, 0, PTL_EQ_NONE, 256, &got), PTL_ARG_INVALID);  // max_pt_index 255
  for (ptl_pt_index_t i = 2; i <= 255; ++i) ASSERT_EQ(t.proc.pt_alloc(t.ni, 0, PTL_EQ_NONE, i, &got), PTL_OK);
  EXPECT_EQ(t.proc.pt_alloc(t.ni, 0, PTL_EQ_NONE, PTL_PT_ANY, &got), PTL_PT_FULL);
  char buf[4];
  t.append(buf, 4, 0, 0, PTL_ME_OP_PUT);
  EXPECT_EQ(t.proc.pt_free(t.ni, t.pt), PTL_IN_USE);
  EXPECT_EQ(t.proc.pt_free(t.ni, 1), PTL_OK);
  EXPECT_EQ(t.proc.pt_free(t.ni, 1), PTL_ARG_INVALID);
}

TEST(PortalsObjects, EntryLimitsAndKinds) {
  ptl_ni_limits_t desired{};
  desired.max_entries = 2;
  Target t(true, 0, &desired);
  EXPECT_EQ(t.n().limits.max_entries, 2);
  EXPECT_EQ(t.n().limits.max_mds, 1024);
  char buf[4];
  Entry e;
  e.start = buf;
  e.length = 4;
  e.options = PTL_ME_OP_PUT;
  ptl_handle_me_t h;
  EXPECT_EQ(t.proc.append(t.ni, t.pt, e, PTL_PRIORITY_LIST, &h, SimTime::zero()), PTL_OK);
  EXPECT_EQ(t.proc.append(t.ni, t.pt, e, PTL_OVERFLOW_LIST, &h, SimTime::zero()), PTL_OK);
  EXPECT_EQ(t.proc.append(t.ni, t.pt, e, PTL_PRIORITY_LIST, &h, SimTime::zero()), PTL_NO_SPACE);
  EXPECT_EQ(t.proc.append(t.ni, 9, e, PTL_PRIORITY_LIST, &h, SimTime::zero()), PTL_ARG_INVALID);  // PT 9 not allocated
  e.is_le = true;  // an LE on a matching NI
  EXPECT_EQ(t.proc.unlink(h, HandleKind::kMe), PTL_OK);
  EXPECT_EQ(t.proc.append(t.ni, t.pt, e, PTL_PRIORITY_LIST, &h, SimTime::zero()), PTL_ARG_INVALID);
  // Two LINK events (the third append failed, the fourth was an LE).
  int links = 0;
  ptl_event_t ev;
  while (t.n().eq(t.eq)->pop(SimTime::zero(), &ev) == PTL_OK) links += ev.type == PTL_EVENT_LINK;
  EXPECT_EQ(links, 2);
}

TEST(PortalsObjects, EventQueueVisibilityAndDrops) {
  EventQueue q(2);
  ptl_event_t a{}, b{}, c{}, out{};
  a.hdr_data = 1;
  b.hdr_data = 2;
  c.hdr_data = 3;
  q.push(SimTime::ps(20), a);
  q.push(SimTime::ps(10), b);  // visible first
  EXPECT_EQ(q.pop(SimTime::ps(9), &out), PTL_EQ_EMPTY);
  EXPECT_EQ(q.next_visible(), SimTime::ps(10));
  EXPECT_EQ(q.pop(SimTime::ps(10), &out), PTL_OK);
  EXPECT_EQ(out.hdr_data, 2u);
  q.push(SimTime::ps(30), b);
  q.push(SimTime::ps(40), c);  // full: the oldest (a) is overwritten
  EXPECT_EQ(q.pop(SimTime::ps(100), &out), PTL_EQ_DROPPED);
  EXPECT_EQ(out.hdr_data, 2u);
  EXPECT_EQ(q.pop(SimTime::ps(100), &out), PTL_OK);
  EXPECT_EQ(out.hdr_data, 3u);
}

TEST(PortalsObjects, CountingEventInTime) {
  CountingEvent c;
  c.add(SimTime::ps(100), 1, 0);
  c.add(SimTime::ps(50), 64, 0);
  c.set(SimTime::ps(70), {5, 0});  // a PtlCTSet at 70 replaces the 64 of 50
  c.add(SimTime::ps(80), 0, 1);
  EXPECT_EQ(c.value(SimTime::ps(49)).success, 0u);
  EXPECT_EQ(c.value(SimTime::ps(60)).success, 64u);
  EXPECT_EQ(c.value(SimTime::ps(70)).success, 5u);
  EXPECT_EQ(c.value(SimTime::ps(100)).success, 6u);
  EXPECT_EQ(c.value(SimTime::ps(100)).failure, 1u);
  EXPECT_EQ(c.next_change(SimTime::ps(70)), SimTime::ps(80));
  c.prune(SimTime::ps(75));
  EXPECT_EQ(c.value(SimTime::ps(75)).success, 5u);
  EXPECT_EQ(c.value(SimTime::ps(1000)).success, 6u);
}

TEST(PortalsObjects, AtomicOperations) {
  int32_t t[3] = {5, -2, 9};
  const int32_t o[3] = {3, 4, 9};
  int32_t old[3];
  ASSERT_TRUE(atomic_valid(PTL_MIN, PTL_INT32_T, 12));
  apply_atomic(PTL_MIN, PTL_INT32_T, t, o, nullptr, old, 12);
  EXPECT_EQ(t[0], 3);
  EXPECT_EQ(t[1], -2);
  EXPECT_EQ(old[0], 5);
  apply_atomic(PTL_BXOR, PTL_INT32_T, t, o, nullptr, nullptr, 12);
  EXPECT_EQ(t[2], 0);
  double d[2] = {1.5, 2.0};
  const double dd[2] = {2.0, 0.25};
  apply_atomic(PTL_PROD, PTL_DOUBLE, d, dd, nullptr, nullptr, 16);
  EXPECT_DOUBLE_EQ(d[0], 3.0);
  EXPECT_DOUBLE_EQ(d[1], 0.5);
  uint64_t cell = 0xFF00, value = 0x0F0F, mask = 0x00FF;
  apply_atomic(PTL_MSWAP, PTL_UINT64_T, &cell, &value, &mask, nullptr, 8);
  EXPECT_EQ(cell, 0xFF0Fu);
  int16_t s = 10;
  const int16_t nv = 77, cmp = 11;
  apply_atomic(PTL_CSWAP_GT, PTL_INT16_T, &s, &nv, &cmp, nullptr, 2);  // 11 > 10: swap
  EXPECT_EQ(s, 77);
  EXPECT_FALSE(atomic_valid(PTL_BOR, PTL_DOUBLE, 8));   // bitwise on floats
  EXPECT_FALSE(atomic_valid(PTL_SUM, PTL_INT32_T, 6));  // not whole elements
  EXPECT_FALSE(atomic_valid(PTL_CSWAP, PTL_INT32_T, 8));  // conditional swaps: one element
  EXPECT_TRUE(atomic_valid(PTL_SUM, PTL_DOUBLE_COMPLEX, 32));
  EXPECT_FALSE(atomic_valid(PTL_MIN, PTL_FLOAT_COMPLEX, 8));
}

}  // namespace
}  // namespace simfab::online::portals
