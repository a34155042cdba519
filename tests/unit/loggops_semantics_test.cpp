// LogGOPS semantics against the seed 004 acceptance tests (§6 tests 1-5) and closed forms.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace simfab {
namespace {

using testing::dissemination_goal;
using testing::params;
using testing::run_goal;

// Figure 3.1.1 of seed 004: two ranks compute 100, then exchange 10 bytes.
constexpr const char* kWorkedExample = R"(num_ranks 2

rank 0 {
l1: calc 100 cpu 0
l2: send 10b to 1 tag 0 cpu 0 nic 0
l3: recv 10b from 1 tag 0 cpu 0 nic 0
l2 requires l1
}

rank 1 {
l1: calc 100 cpu 0
l2: send 10b to 0 tag 0 cpu 0 nic 0
l3: recv 10b from 0 tag 0 cpu 0 nic 0
l2 requires l1
}
)";

TEST(LogGOPS, WorkedExampleBothRanksFinishAt5654) {
  // §3.1: MSG at 100 + o + L = 4100; receiver charges o + (10-1)G = 1554; total 5654.
  ExecutionResult r = run_goal(kWorkedExample, params(2500, 1500, 1000, 6, 0));
  ASSERT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.finish[0].ps(), 5654);
  EXPECT_EQ(r.finish[1].ps(), 5654);
  EXPECT_EQ(r.makespan.ps(), 5654);
  EXPECT_EQ(r.messages, 2u);
  EXPECT_EQ(r.bytes, 20u);
}

TEST(LogGOPS, DefaultParametersAreLogGOPSims) {
  LogGOPSParams d;
  EXPECT_EQ(d.L.ps(), 2500);
  EXPECT_EQ(d.o.ps(), 1500);
  EXPECT_EQ(d.g.ps(), 1000);
  EXPECT_EQ(d.G, 6);
  EXPECT_EQ(d.O, 0);
  EXPECT_EQ(d.S, 65535u);
}

TEST(LogGOPS, ZeroParametersGiveZeroForEveryRank) {
  ExecutionResult r = run_goal(dissemination_goal(8, 180), params(0, 0, 0, 0, 0));
  ASSERT_TRUE(r.blocked.empty());
  for (SimTime t : r.finish) EXPECT_EQ(t.ps(), 0);
}

TEST(LogGOPS, EightRankDisseminationFinishesAt3522000) {
  // §3.2 set 1 without topology: 3 rounds x (o + L + o + 179 G) = 3 x 1,174,000.
  ExecutionResult r = run_goal(dissemination_goal(8, 180), params(0, 50000, 100000, 6000, 0));
  ASSERT_TRUE(r.blocked.empty());
  ASSERT_EQ(r.finish.size(), 8u);
  for (SimTime t : r.finish) EXPECT_EQ(t.ps(), 3522000);
  EXPECT_EQ(r.messages, 24u);
}

TEST(LogGOPS, OneWayEagerClosedForm) {
  // Receiver completes at t + o + L + o + max((s-1)O, (s-1)G).
  const char* goal = "num_ranks 2 rank 0 { a: send 1000b to 1 tag 7 } rank 1 { b: recv 1000b from 0 tag 7 }";
  ExecutionResult r = run_goal(goal, params(3000, 700, 100, 2, 5));
  EXPECT_EQ(r.finish[0].ps(), 700 + 999 * 5);
  EXPECT_EQ(r.finish[1].ps(), 700 + 3000 + 700 + 999 * 5);
  r = run_goal(goal, params(3000, 700, 100, 9, 5));
  EXPECT_EQ(r.finish[1].ps(), 700 + 3000 + 700 + 999 * 9);
}

// Rank 0 sends `size` bytes then computes 1000; rank 1 computes 1,000,000 then posts the recv.
std::string late_receiver(Bytes size) {
  return "num_ranks 2\nrank 0 {\ns: send " + std::to_string(size) +
         "b to 1 tag 0\nc: calc 1000\nc requires s\n}\nrank 1 {\nw: calc 1000000\nr: recv " +
         std::to_string(size) + "b from 0 tag 0\nr requires w\n}\n";
}

TEST(LogGOPS, EagerAtSCompletesAtIssue) {
  ExecutionResult r = run_goal(late_receiver(65535), params(2500, 1500, 1000, 6, 0));
  EXPECT_EQ(r.finish[0].ps(), 1500 + 1000);                      // send overhead, then the calc
  EXPECT_EQ(r.finish[1].ps(), 1000000 + 1500 + 65534 * 6);        // processed once the CPU is free
}

TEST(LogGOPS, RendezvousAboveSCompletesAtMatch) {
  // 65536 > S: the send completes when rank 1 matches it at 1,000,000; the sender's timers are
  // raised to that time and its calc runs after it.
  ExecutionResult r = run_goal(late_receiver(65536), params(2500, 1500, 1000, 6, 0));
  EXPECT_EQ(r.finish[0].ps(), 1000000 + 1000);
  EXPECT_EQ(r.finish[1].ps(), 1000000 + 1500 + 65535 * 6);
}

TEST(LogGOPS, ThresholdIsConfigurable) {
  ExecutionResult r = run_goal(late_receiver(65536), params(2500, 1500, 1000, 6, 0, 65536));
  EXPECT_EQ(r.finish[0].ps(), 1500 + 1000);
}

TEST(LogGOPS, IrequiresStartsWhenPredecessorStarts) {
  // Rank 0's calc 20000 may start as soon as the recv is posted (t=0), not when it completes.
  const char* tmpl = R"(num_ranks 2
rank 0 { r: recv 10b from 1 tag 0  c: calc 20000  c %s r }
rank 1 { w: calc 10000  s: send 10b to 0 tag 0  s requires w })";
  char buf[512];
  std::snprintf(buf, sizeof buf, tmpl, "irequires");
  ExecutionResult imm = run_goal(buf, params(2500, 1500, 1000, 6, 0));
  // The message arrives at 10000+1500+2500 = 14000 while the calc runs until 20000; it is
  // processed at 20000: 20000 + 1500 + 9*6.
  EXPECT_EQ(imm.finish[0].ps(), 21554);
  std::snprintf(buf, sizeof buf, tmpl, "requires");
  ExecutionResult seq = run_goal(buf, params(2500, 1500, 1000, 6, 0));
  // The calc waits for the recv to complete at 14000 + 1554 = 15554.
  EXPECT_EQ(seq.finish[0].ps(), 15554 + 20000);
}

TEST(LogGOPS, NicGapSpacesConsecutiveSends) {
  // Three sends back to back: each waits for the NIC gap g + (s-1)G = 1000 + 99*10 = 1990.
  const char* goal = R"(num_ranks 2
rank 0 { a: send 100b to 1 tag 0  b: send 100b to 1 tag 0  c: send 100b to 1 tag 0 }
rank 1 { x: recv 100b from 0 tag 0  y: recv 100b from 0 tag 0  z: recv 100b from 0 tag 0 })";
  ExecutionResult r = run_goal(goal, params(0, 10, 1000, 10, 0));
  // Third send starts at 2*1990 = 3980, sender CPU busy until 3990.
  EXPECT_EQ(r.finish[0].ps(), 3990);
  // Third message arrives at 3980 + 10 = 3990; receiver NIC free at 1990*2+10=3990... processes
  // at 3990 and is busy for o + 99*10 = 1000: 4990.
  EXPECT_EQ(r.finish[1].ps(), 4990);
}

TEST(LogGOPS, WildcardsMatchInFifoOrder) {
  const char* goal = R"(num_ranks 3
rank 0 { a: send 10b to 2 tag 5 }
rank 1 { w: calc 100000  b: send 20b to 2 tag 6  b requires w }
rank 2 { x: recv 10b from any tag any  y: recv 20b from 1 tag any  y requires x })";
  ExecutionResult r = run_goal(goal, params(100, 10, 10, 0, 0));
  ASSERT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.unmatched_messages, 0u);
  EXPECT_EQ(r.finish[2].ps(), 100000 + 10 + 100 + 10);
}

TEST(LogGOPS, NonOvertakingPerPair) {
  // Two messages on the same (source, tag): the first receive must get the first message (1 B,
  // done at 0), so the calc on CPU 1 that depends on it ends at 5000. Had it taken the second
  // message (1001 B, processed until 1000) the calc would end at 6000.
  const char* goal = R"(num_ranks 2
rank 0 { a: send 1b to 1 tag 0  b: send 1001b to 1 tag 0 }
rank 1 { x: recv 1b from 0 tag 0  y: recv 1001b from 0 tag 0  c: calc 5000 cpu 1  c requires x })";
  ExecutionResult r = run_goal(goal, params(0, 0, 0, 1, 0));
  ASSERT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.finish[1].ps(), 5000);
}

TEST(LogGOPS, UnmatchedReceiveIsReportedAsBlocked) {
  const char* goal = "num_ranks 2 rank 0 { a: calc 5 } rank 1 { b: recv 8b from 0 tag 3 }";
  ExecutionResult r = run_goal(goal, params(0, 0, 0, 0, 0));
  ASSERT_EQ(r.blocked.size(), 1u);
  EXPECT_EQ(r.blocked[0].rank, 1);
  EXPECT_NE(r.blocked[0].waits_for.find("recv of 8 B from rank 0 tag 3"), std::string::npos)
      << r.blocked[0].waits_for;
}

TEST(LogGOPS, DeadlockReportShowsTheMessageThatDidNotMatch) {
  // A tag mismatch: the report names both the waiting receive and the message that arrived.
  const char* goal = "num_ranks 2 rank 0 { a: send 8b to 1 tag 4 } rank 1 { b: recv 8b from 0 tag 3 }";
  ExecutionResult r = run_goal(goal, params(0, 0, 0, 0, 0));
  ASSERT_EQ(r.blocked.size(), 1u);
  EXPECT_NE(r.blocked[0].waits_for.find("recv of 8 B from rank 0 tag 3"), std::string::npos) << r.blocked[0].waits_for;
  EXPECT_NE(r.blocked[0].waits_for.find("arrived but never received: 8 B from rank 0 tag 4"), std::string::npos)
      << r.blocked[0].waits_for;
}

TEST(LogGOPS, UnmatchedRendezvousSendIsReportedAsBlocked) {
  const char* goal = "num_ranks 2 rank 0 { a: send 100000b to 1 tag 1 } rank 1 { b: calc 5 }";
  ExecutionResult r = run_goal(goal, params(0, 0, 0, 0, 0));
  ASSERT_EQ(r.blocked.size(), 1u);
  EXPECT_EQ(r.blocked[0].rank, 0);
  EXPECT_NE(r.blocked[0].waits_for.find("rendezvous send of 100000 B to rank 1"), std::string::npos);
  EXPECT_EQ(r.unmatched_messages, 1u);
}

TEST(LogGOPS, UnreceivedEagerMessageIsCountedNotBlocking) {
  const char* goal = "num_ranks 2 rank 0 { a: send 10b to 1 tag 1 } rank 1 { b: calc 5 }";
  ExecutionResult r = run_goal(goal, params(0, 0, 0, 0, 0));
  EXPECT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.unmatched_messages, 1u);
}

TEST(LogGOPS, MultipleCpusRunInParallel) {
  const char* goal = "num_ranks 1 rank 0 { a: calc 100 cpu 0  b: calc 70 cpu 1  c: calc 10 cpu 0 }";
  ExecutionResult r = run_goal(goal, params(0, 0, 0, 0, 0));
  EXPECT_EQ(r.finish[0].ps(), 110);
}

TEST(LogGOPS, RouteDerivedLatencyAndGap) {
  // Two hosts joined by one 1 GBps (1000 ps/B) link of 2 us: L = 2,000,000 ps, G = 1000 ps/B.
  Platform p;
  LinkId l = p.add_link(Link{"l", 1e9, SimTime::ps(2000000)});
  HostId a = p.add_host(Host{"a", 1, 1e9, -1, -1});
  HostId b = p.add_host(Host{"b", 1, 1e9, -1, -1});
  p.add_route(a, b, {l}, false);
  Config cfg;
  register_loggops_keys(cfg);
  Engine engine;
  LogGOPSNetwork net(engine, p, cfg);
  EXPECT_TRUE(net.latency_from_routes());
  EXPECT_EQ(net.recv_overhead(a, b, 101).ps(), 1500 + 100 * 1000);
  EXPECT_EQ(net.send_gap(b, a, 101).ps(), 1000 + 100 * 1000);
  cfg.set("loggops/G", "6", SourceLoc{});
  LogGOPSNetwork fixed(engine, p, cfg);
  EXPECT_FALSE(fixed.gap_from_routes());
  EXPECT_EQ(fixed.send_gap(a, b, 101).ps(), 1000 + 600);
}

}  // namespace
}  // namespace simfab

namespace simfab {
namespace {

TEST(LogGOPS, TimeOverflowIsAnInputErrorNotAWrap) {
  // Five calcs of 2^61-1 ps (the largest a GOAL calc may be) exceed int64 picoseconds.
  const char* goal = "num_ranks 1 rank 0 { a: calc 2305843009213693951  b: calc 2305843009213693951 "
                     "c: calc 2305843009213693951  d: calc 2305843009213693951  e: calc 2305843009213693951 }";
  EXPECT_THROW(testing::run_goal(goal, testing::params(0, 0, 0, 0, 0)), InputError);
  // A message whose per-byte cost alone exceeds the range.
  const char* big = "num_ranks 2 rank 0 { a: send 18000000000000000000b to 1 tag 0 } rank 1 { b: recv 1b from 0 tag 0 }";
  EXPECT_THROW(testing::run_goal(big, testing::params(0, 0, 0, 6, 0)), InputError);
}

}  // namespace
}  // namespace simfab
