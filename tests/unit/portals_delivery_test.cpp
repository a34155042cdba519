// What a target does with a request and what its initiator is told (seed 000 tests 1-2, §5.1-5.2;
// Portals 4.1 §3.13-3.15): flow control disables a PT with no match, target-invalid and
// disabled PTs, permission checks, the event set per operation, CTs by events and by bytes,
// FetchAtomic's old and new values.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "online/portals/initiator.hpp"
#include "portals_test_support.hpp"

namespace simfab::online::portals {
namespace {

using testing::Target;

TEST(PortalsDelivery, NoMatchWithFlowControlDisablesThePt) {
  Target t(true, PTL_PT_FLOWCTRL);
  char buf[8] = {};
  t.append(buf, sizeof buf, 1, 0, PTL_ME_OP_PUT | PTL_ME_USE_ONCE);
  EXPECT_EQ(t.send(OpKind::kPut, 1, "a", 2).fail, PTL_NI_OK);
  EXPECT_EQ(t.send(OpKind::kPut, 1, "b", 2).fail, PTL_NI_PT_DISABLED);  // no resource left: flow control
  EXPECT_EQ(t.send(OpKind::kPut, 1, "c", 2).fail, PTL_NI_PT_DISABLED);  // disabled until re-enabled
  std::vector<ptl_event_t> ev = t.events();
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].type, PTL_EVENT_PUT);
  EXPECT_EQ(ev[1].type, PTL_EVENT_AUTO_UNLINK);
  EXPECT_EQ(ev[2].type, PTL_EVENT_PT_DISABLED);
  EXPECT_EQ(ev[2].ni_fail_type, PTL_NI_PT_DISABLED);
  EXPECT_EQ(ev[2].pt_index, t.pt);
  // The application re-posts resources and re-enables the PT.
  t.append(buf, sizeof buf, 1, 0, PTL_ME_OP_PUT);
  EXPECT_EQ(t.proc.pt_enable(t.ni, t.pt, true), PTL_OK);
  EXPECT_EQ(t.send(OpKind::kPut, 1, "d", 2).fail, PTL_NI_OK);
  EXPECT_STREQ(buf, "d");
}

TEST(PortalsDelivery, NoMatchWithoutFlowControlIsDropped) {
  Target t;
  EXPECT_EQ(t.send(OpKind::kPut, 1, "a", 2).fail, PTL_NI_DROPPED);
  EXPECT_TRUE(t.events().empty());
}

TEST(PortalsDelivery, TargetInvalidDisabledAndPermissions) {
  Target t;
  char buf[8] = {};
  t.append(buf, sizeof buf, 0, 0, PTL_ME_OP_GET);  // no PTL_ME_OP_PUT
  EXPECT_EQ(t.send(OpKind::kPut, 0, "a", 2).fail, PTL_NI_OP_VIOLATION);
  Delivery d;
  d.msg.rlength = 1;
  d.ni = ni_index(true, false);
  d.pt_index = 77;  // not allocated
  EXPECT_EQ(deliver(t.proc, d, SimTime::zero()).fail, PTL_NI_TARGET_INVALID);
  d.pt_index = t.pt;
  d.ni = ni_index(false, false);  // the target has no non-matching NI
  EXPECT_EQ(deliver(t.proc, d, SimTime::zero()).fail, PTL_NI_TARGET_INVALID);
  EXPECT_EQ(t.proc.pt_enable(t.ni, t.pt, false), PTL_OK);
  EXPECT_EQ(t.send(OpKind::kGet, 0, nullptr, 1, buf).fail, PTL_NI_PT_DISABLED);
  EXPECT_EQ(t.proc.pt_enable(t.ni, t.pt, true), PTL_OK);
  Entry e;
  e.start = buf;
  e.length = 8;
  e.uid = 4242;  // another user
  e.options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE;
  e.match_id = testing::phys(PTL_NID_ANY, PTL_PID_ANY);
  e.match_bits = 5;
  ptl_handle_me_t h;
  ASSERT_EQ(t.proc.append(t.ni, t.pt, e, PTL_PRIORITY_LIST, &h, SimTime::zero()), PTL_OK);
  EXPECT_EQ(t.send(OpKind::kPut, 5, "a", 2).fail, PTL_NI_PERM_VIOLATION);
}

// Seed 000 test 2: Put (PUT at the target), Get (GET), CT counting events or bytes, events at
// their visible time.
TEST(PortalsDelivery, PutAndGetEventsAndCounts) {
  Target t;
  ptl_handle_ct_t by_events, by_bytes;
  ASSERT_EQ(t.proc.ct_alloc(t.ni, &by_events), PTL_OK);
  ASSERT_EQ(t.proc.ct_alloc(t.ni, &by_bytes), PTL_OK);
  char put_buf[32] = {};
  char get_buf[32] = "0123456789abcdefghijklmnopqrstu";
  t.append(put_buf, sizeof put_buf, 1, 0, PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM, PTL_PRIORITY_LIST, by_events);
  t.append(get_buf, sizeof get_buf, 2, 0, PTL_ME_OP_GET | PTL_ME_EVENT_CT_COMM | PTL_ME_EVENT_CT_BYTES,
           PTL_PRIORITY_LIST, by_bytes);
  t.send(OpKind::kPut, 1, "hello", 6, nullptr, SimTime::ps(5000));
  t.send(OpKind::kPut, 1, "hi", 3, nullptr, SimTime::ps(6000), 10);
  char reply[8] = {};
  const DeliveryResult g = t.send(OpKind::kGet, 2, nullptr, 5, reply, SimTime::ps(7000), 3);
  EXPECT_EQ(g.mlength, 5u);
  EXPECT_EQ(std::memcmp(reply, "34567", 5), 0);
  EXPECT_STREQ(put_buf, "hello");
  EXPECT_STREQ(put_buf + 10, "hi");
  // Visibility: nothing before 5000 ps, the first PUT at 5000.
  EXPECT_TRUE(t.events(SimTime::ps(4999)).empty());
  EXPECT_EQ(t.n().ct(by_events)->value(SimTime::ps(5999)).success, 1u);
  EXPECT_EQ(t.n().ct(by_events)->value(SimTime::ps(6000)).success, 2u);
  EXPECT_EQ(t.n().ct(by_bytes)->value(SimTime::ps(6999)).success, 0u);
  EXPECT_EQ(t.n().ct(by_bytes)->value(SimTime::ps(7000)).success, 5u);
  const std::vector<ptl_event_t> ev = t.events();
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].type, PTL_EVENT_PUT);
  EXPECT_EQ(ev[1].type, PTL_EVENT_PUT);
  EXPECT_EQ(ev[1].remote_offset, 10u);
  EXPECT_EQ(ev[1].start, static_cast<void*>(put_buf + 10));
  EXPECT_EQ(ev[2].type, PTL_EVENT_GET);
  EXPECT_EQ(ev[2].mlength, 5u);
}

TEST(PortalsDelivery, AckDisableAndEventDisable) {
  Target t;
  char buf[8] = {};
  t.append(buf, sizeof buf, 0, 0, PTL_ME_OP_PUT | PTL_ME_ACK_DISABLE | PTL_ME_EVENT_COMM_DISABLE);
  const DeliveryResult r = t.send(OpKind::kPut, 0, "x", 2);
  EXPECT_TRUE(r.ack_disabled);
  EXPECT_TRUE(t.events().empty());
}

// Seed 000 test 2: FetchAtomic uses two MDs; the target becomes op(old, operand), the old value
// comes back. Swap variants use PtlSwap's operand.
TEST(PortalsDelivery, FetchAtomicAndSwapValues) {
  Target t;
  int64_t cell[2] = {40, 7};
  t.append(cell, sizeof cell, 3, 0, PTL_ME_OP_PUT | PTL_ME_OP_GET);
  const int64_t add[2] = {2, 3};
  int64_t old[2] = {0, 0};
  Delivery d;
  d.msg.op = OpKind::kFetchAtomic;
  d.msg.initiator = testing::phys(0, 0);
  d.msg.uid = 1000;
  d.msg.match_bits = 3;
  d.msg.rlength = sizeof add;
  d.ni = ni_index(true, false);
  d.pt_index = t.pt;
  d.payload = add;
  d.reply_to = old;
  d.atomic_operation = PTL_SUM;
  d.atomic_type = PTL_INT64_T;
  EXPECT_EQ(deliver(t.proc, d, SimTime::zero()).mlength, 16u);
  EXPECT_EQ(old[0], 40);
  EXPECT_EQ(old[1], 7);
  EXPECT_EQ(cell[0], 42);
  EXPECT_EQ(cell[1], 10);
  // CSWAP: compare 42 == target 42 -> swap in 99; returns 42.
  const int64_t value = 99, compare = 42;
  d.msg.op = OpKind::kSwap;
  d.msg.rlength = 8;
  d.payload = &value;
  d.compare = &compare;
  d.atomic_operation = PTL_CSWAP;
  deliver(t.proc, d, SimTime::zero());
  EXPECT_EQ(old[0], 42);
  EXPECT_EQ(cell[0], 99);
  deliver(t.proc, d, SimTime::zero());  // 42 != 99: unchanged, returns 99
  EXPECT_EQ(old[0], 99);
  EXPECT_EQ(cell[0], 99);
  const std::vector<ptl_event_t> ev = t.events();
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].type, PTL_EVENT_FETCH_ATOMIC);
  EXPECT_EQ(ev[0].atomic_operation, PTL_SUM);
  EXPECT_EQ(ev[0].atomic_type, PTL_INT64_T);
}

// Seed 000 test 2 at the initiator: Put with ACK -> SEND and ACK; Get -> REPLY; the MD options
// decide full events and counts (by events or bytes).
TEST(PortalsDelivery, InitiatorEventSets) {
  Target t;
  ptl_handle_ct_t ct;
  ASSERT_EQ(t.proc.ct_alloc(t.ni, &ct), PTL_OK);
  MemoryDescriptor md;
  md.eq = t.eq;
  md.ct = ct;
  md.options = PTL_MD_EVENT_CT_SEND | PTL_MD_EVENT_CT_ACK | PTL_MD_EVENT_CT_REPLY | PTL_MD_EVENT_CT_BYTES;
  InitiatorNotice n;
  n.length = 100;
  n.mlength = 60;
  n.ack_req = PTL_ACK_REQ;
  n.type = PTL_EVENT_SEND;
  raise_initiator(t.n(), md, n, SimTime::ps(10));
  n.type = PTL_EVENT_ACK;
  raise_initiator(t.n(), md, n, SimTime::ps(20));
  n.type = PTL_EVENT_REPLY;
  n.fail = PTL_NI_PT_DISABLED;
  raise_initiator(t.n(), md, n, SimTime::ps(30));
  const std::vector<ptl_event_t> ev = t.events();
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].type, PTL_EVENT_SEND);
  EXPECT_EQ(ev[0].mlength, 100u);
  EXPECT_EQ(ev[1].type, PTL_EVENT_ACK);
  EXPECT_EQ(ev[1].mlength, 60u);
  EXPECT_EQ(ev[2].type, PTL_EVENT_REPLY);
  EXPECT_EQ(ev[2].ni_fail_type, PTL_NI_PT_DISABLED);
  const ptl_ct_event_t v = t.n().ct(ct)->value(SimTime::ps(30));
  EXPECT_EQ(v.success, 160u);  // SEND counts length, ACK mlength
  EXPECT_EQ(v.failure, 1u);    // a failure counts one
  // SEND disabled, success events disabled, counting by events, a counting-only ACK.
  md.options = PTL_MD_EVENT_SEND_DISABLE | PTL_MD_EVENT_CT_SEND | PTL_MD_EVENT_CT_ACK;
  n.fail = PTL_NI_OK;
  n.ack_req = PTL_CT_ACK_REQ;
  n.type = PTL_EVENT_SEND;
  raise_initiator(t.n(), md, n, SimTime::ps(40));
  n.type = PTL_EVENT_ACK;
  raise_initiator(t.n(), md, n, SimTime::ps(50));
  EXPECT_TRUE(t.events().empty());
  EXPECT_EQ(t.n().ct(ct)->value(SimTime::ps(50)).success, 162u);
}

}  // namespace
}  // namespace simfab::online::portals
