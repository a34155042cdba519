// Portals matching (seed 000 §5.1, test 1; Portals 4.1 §3.12): the match formula with ignore
// bits, the source check, first match wins over the priority then the overflow list, use-once
// unlink, LE order, truncation and locally managed offsets.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "online/portals/match_list.hpp"
#include "portals_test_support.hpp"

namespace simfab::online::portals {
namespace {

using testing::phys;
using testing::Target;

TEST(PortalsMatch, FormulaWithIgnoreBits) {
  // ((msg XOR me) AND NOT ignore) == 0
  EXPECT_TRUE(bits_match(0x10, 0x0F, 0x1A));
  EXPECT_TRUE(bits_match(0x10, 0x0F, 0x10));
  EXPECT_FALSE(bits_match(0x10, 0x0F, 0x20));
  EXPECT_TRUE(bits_match(0xABCD, 0, 0xABCD));
  EXPECT_FALSE(bits_match(0xABCD, 0, 0xABCC));
  EXPECT_TRUE(bits_match(0, ~uint64_t{0}, 0xDEADBEEF));
  EXPECT_TRUE(bits_match(0xFF00, 0x00FF, 0xFF42));
  EXPECT_FALSE(bits_match(0xFF00, 0x00FF, 0xFE42));
}

TEST(PortalsMatch, SourceWildcards) {
  EXPECT_TRUE(source_matches(phys(PTL_NID_ANY, PTL_PID_ANY), phys(3, 1), false));
  EXPECT_TRUE(source_matches(phys(3, PTL_PID_ANY), phys(3, 1), false));
  EXPECT_FALSE(source_matches(phys(4, PTL_PID_ANY), phys(3, 1), false));
  EXPECT_TRUE(source_matches(phys(PTL_NID_ANY, 1), phys(3, 1), false));
  EXPECT_FALSE(source_matches(phys(PTL_NID_ANY, 0), phys(3, 1), false));
  ptl_process_t any{}, five{}, six{};
  any.rank = PTL_RANK_ANY;
  five.rank = 5;
  six.rank = 6;
  EXPECT_TRUE(source_matches(any, five, true));
  EXPECT_TRUE(source_matches(five, five, true));
  EXPECT_FALSE(source_matches(six, five, true));
}

// Seed 000 test 1 on an ME list shaped like the thesis's Fig. 2.4: the first ME that matches
// wins, even when a later one matches exactly; a use-once ME unlinks after its message.
TEST(PortalsMatch, FirstMatchWinsAndUseOnceUnlinks) {
  Target t;
  char a[16] = {}, b[16] = {}, c[16] = {};
  t.append(a, sizeof a, 0x10, 0x0F, PTL_ME_OP_PUT | PTL_ME_USE_ONCE, PTL_PRIORITY_LIST, PTL_CT_NONE, 1);  // 0x10-0x1F
  t.append(b, sizeof b, 0x12, 0x00, PTL_ME_OP_PUT, PTL_PRIORITY_LIST, PTL_CT_NONE, 2);                   // 0x12 only
  t.append(c, sizeof c, 0x00, ~uint64_t{0}, PTL_ME_OP_PUT, PTL_PRIORITY_LIST, PTL_CT_NONE, 3);           // anything
  const char m1[] = "one", m2[] = "two", m3[] = "six";
  EXPECT_EQ(t.send(OpKind::kPut, 0x12, m1, 4).fail, PTL_NI_OK);  // ME a (first), not b
  EXPECT_EQ(t.send(OpKind::kPut, 0x12, m2, 4).fail, PTL_NI_OK);  // a is gone: b
  EXPECT_EQ(t.send(OpKind::kPut, 0x66, m3, 4).fail, PTL_NI_OK);  // only c accepts it
  EXPECT_STREQ(a, "one");
  EXPECT_STREQ(b, "two");
  EXPECT_STREQ(c, "six");
  const std::vector<ptl_event_t> ev = t.events();
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev[0].type, PTL_EVENT_PUT);
  EXPECT_EQ(reinterpret_cast<intptr_t>(ev[0].user_ptr), 1);
  EXPECT_EQ(ev[1].type, PTL_EVENT_AUTO_UNLINK);
  EXPECT_EQ(reinterpret_cast<intptr_t>(ev[1].user_ptr), 1);
  EXPECT_EQ(ev[2].type, PTL_EVENT_PUT);
  EXPECT_EQ(reinterpret_cast<intptr_t>(ev[2].user_ptr), 2);
  EXPECT_EQ(ev[3].type, PTL_EVENT_PUT);
  EXPECT_EQ(reinterpret_cast<intptr_t>(ev[3].user_ptr), 3);
  EXPECT_EQ(ev[3].match_bits, 0x66u);
  EXPECT_EQ(ev[3].mlength, 4u);
  EXPECT_EQ(ev[3].initiator.phys.nid, 0u);
}

TEST(PortalsMatch, LesMatchInPostedOrder) {
  Target t(false);
  char a[8] = {}, b[8] = {};
  t.append(a, sizeof a, 0, 0, PTL_LE_OP_PUT | PTL_LE_USE_ONCE, PTL_PRIORITY_LIST, PTL_CT_NONE, 1);
  t.append(b, sizeof b, 0, 0, PTL_LE_OP_PUT, PTL_PRIORITY_LIST, PTL_CT_NONE, 2);
  const char x[] = "x", y[] = "y", z[] = "z";
  t.send(OpKind::kPut, 0x1234, x, 2);  // match bits mean nothing on a non-matching NI
  t.send(OpKind::kPut, 0, y, 2);
  t.send(OpKind::kPut, 0, z, 2);
  EXPECT_STREQ(a, "x");
  EXPECT_STREQ(b, "z");
}

TEST(PortalsMatch, PriorityBeforeOverflowAndUnexpectedHeaders) {
  Target t;
  char over[64] = {}, late[64] = {};
  t.append(over, sizeof over, 0, ~uint64_t{0}, PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, PTL_OVERFLOW_LIST, PTL_CT_NONE, 9);
  const char m[] = "early";
  EXPECT_EQ(t.send(OpKind::kPut, 7, m, 6).fail, PTL_NI_OK);  // only the overflow list accepts it
  EXPECT_STREQ(over, "early");
  std::vector<ptl_event_t> ev = t.events();
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].type, PTL_EVENT_PUT);
  EXPECT_EQ(ev[0].ptl_list, PTL_OVERFLOW_LIST);
  // A priority ME appended later claims the unexpected header: PUT_OVERFLOW pointing at the data.
  t.append(late, sizeof late, 7, 0, PTL_ME_OP_PUT | PTL_ME_USE_ONCE, PTL_PRIORITY_LIST, PTL_CT_NONE, 5);
  ev = t.events();
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].type, PTL_EVENT_PUT_OVERFLOW);
  EXPECT_EQ(ev[0].start, static_cast<void*>(over));
  EXPECT_EQ(ev[0].mlength, 6u);
  EXPECT_EQ(reinterpret_cast<intptr_t>(ev[0].user_ptr), 5);
  EXPECT_TRUE(t.n().pts[t.pt].lists[PTL_PRIORITY_LIST].empty());  // use-once: consumed, not linked
  // The next message with a priority ME goes there, not to the overflow list.
  t.append(late, sizeof late, 8, 0, PTL_ME_OP_PUT);
  const char m2[] = "on time";
  t.send(OpKind::kPut, 8, m2, 8);
  EXPECT_STREQ(late, "on time");
}

TEST(PortalsMatch, TruncationAndNoTruncate) {
  Target t;
  char small[4] = {}, big[16] = {};
  t.append(small, sizeof small, 1, 0, PTL_ME_OP_PUT | PTL_ME_NO_TRUNCATE);
  t.append(small, sizeof small, 1, 0, PTL_ME_OP_PUT);
  t.append(big, sizeof big, 1, 0, PTL_ME_OP_PUT);
  const char m[] = "0123456789";
  const DeliveryResult r = t.send(OpKind::kPut, 1, m, 10);  // skips the no-truncate ME, truncated to 4 by the next
  EXPECT_EQ(r.fail, PTL_NI_OK);
  EXPECT_EQ(r.mlength, 4u);
  EXPECT_EQ(std::memcmp(small, "0123", 4), 0);
  const std::vector<ptl_event_t> ev = t.events();
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].rlength, 10u);
  EXPECT_EQ(ev[0].mlength, 4u);
}

TEST(PortalsMatch, ManageLocalOffsetAndMinFree) {
  Target t;
  char buf[10] = {};
  Entry e;
  e.start = buf;
  e.length = sizeof buf;
  e.options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL | PTL_ME_EVENT_LINK_DISABLE;
  e.match_id = phys(PTL_NID_ANY, PTL_PID_ANY);
  e.ignore_bits = ~uint64_t{0};
  e.min_free = 4;
  ptl_handle_me_t h;
  ASSERT_EQ(t.proc.append(t.ni, t.pt, e, PTL_PRIORITY_LIST, &h, SimTime::zero()), PTL_OK);
  EXPECT_EQ(t.send(OpKind::kPut, 0, "abc", 3, nullptr, SimTime::ps(10), 99).offset, 0u);  // remote offset ignored
  EXPECT_EQ(t.send(OpKind::kPut, 0, "def", 3).offset, 3u);  // 4 bytes left: not below min_free
  EXPECT_EQ(std::memcmp(buf, "abcdef", 6), 0);
  const DeliveryResult r = t.send(OpKind::kPut, 0, "ghi", 3);  // 1 byte left now: unlinked
  EXPECT_EQ(r.offset, 6u);
  const std::vector<ptl_event_t> ev = t.events();
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev[3].type, PTL_EVENT_AUTO_UNLINK);
  EXPECT_EQ(t.proc.unlink(h, HandleKind::kMe), PTL_ARG_INVALID);  // already gone
}

}  // namespace
}  // namespace simfab::online::portals
