// The packet model's VL arbiter (net/packet/vl_arbiter.hpp, IBA vol. 1 §7.6.9) and its congestion
// control (net/packet/congestion_control.hpp, IBA Annex A10). Every expected sequence is derived by
// hand from the rules the headers state, not recorded from a run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "net/packet/congestion_control.hpp"
#include "net/packet/vl_arbiter.hpp"

namespace simfab::packet {
namespace {

constexpr uint32_t kFull = 2176;  // one MTU packet: 34 blocks of 64 B
constexpr uint32_t kVl0 = 1u << 0;
constexpr uint32_t kVl1 = 1u << 1;
constexpr uint32_t kVl2 = 1u << 2;

// Runs `n` arbitration rounds with the same eligible mask and packet size, charging each choice;
// returns the VLs chosen (and, through `high`, whether each was a high-priority choice).
std::vector<int> run(const VlArbiter& a, ArbState& s, uint32_t eligible, uint32_t bytes, int n,
                     std::vector<bool>* high = nullptr) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) {
    const ArbChoice c = a.choose(s, eligible);
    out.push_back(c.vl);
    if (high) high->push_back(c.high);
    if (c.vl >= 0) a.charge(s, c, bytes);
  }
  return out;
}

// Repeats `pattern` until the sequence has n entries.
std::vector<int> cycle(const std::vector<int>& pattern, int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back(pattern[static_cast<size_t>(i) % pattern.size()]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Priority and LimitOfHighPriority.

TEST(PacketArbiter, LimitZeroAlternatesOneHighAndOneLow) {
  // Limit 0: one high packet (always at least one), then the limit is reached and a low packet
  // goes because one is eligible; that low packet restores the limit, and so on: 0,1,0,1,...
  VlArbiter a({{0, 1}}, {{1, 1}}, 0);
  ArbState s;
  std::vector<bool> high;
  EXPECT_EQ(run(a, s, kVl0 | kVl1, kFull, 8, &high), cycle({0, 1}, 8));
  for (size_t i = 0; i < high.size(); ++i) EXPECT_EQ(high[i], i % 2 == 0) << "choice " << i;
}

TEST(PacketArbiter, LimitCountsHighBytesIn4KiBUnits) {
  // Limit N: high packets go while fewer than N x 4096 B of them went since the last low packet.
  // Single-entry tables, so the weights never change the VL chosen.
  // N = 1 (4096 B) with 2176-B packets: high bytes before each high packet 0, 2176 (< 4096), then
  // 4352 >= 4096: a low packet. Pattern 0,0,1.
  {
    VlArbiter a({{0, 255}}, {{1, 255}}, 1);
    ArbState s;
    EXPECT_EQ(run(a, s, kVl0 | kVl1, kFull, 9), cycle({0, 0, 1}, 9));
  }
  // N = 2 (8192 B): 0, 2176, 4352, 6528 are all < 8192; 8704 is not. Pattern 0,0,0,0,1.
  {
    VlArbiter a({{0, 255}}, {{1, 255}}, 2);
    ArbState s;
    EXPECT_EQ(run(a, s, kVl0 | kVl1, kFull, 10), cycle({0, 0, 0, 0, 1}, 10));
  }
  // N = 1 with 64-B packets: exactly 4096 / 64 = 64 high packets, then one low.
  {
    VlArbiter a({{0, 255}}, {{1, 255}}, 1);
    ArbState s;
    std::vector<int> want(64, 0);
    want.push_back(1);
    want = cycle(want, 130);
    EXPECT_EQ(run(a, s, kVl0 | kVl1, 64, 130), want);
  }
  // N = 1 with 4096-B "packets" (the arbiter takes any size): 0 < 4096, then 4096 is not < 4096.
  {
    VlArbiter a({{0, 255}}, {{1, 255}}, 1);
    ArbState s;
    EXPECT_EQ(run(a, s, kVl0 | kVl1, 4096, 6), cycle({0, 1}, 6));
  }
}

TEST(PacketArbiter, Limit255IsUnlimited) {
  VlArbiter a({{0, 1}}, {{1, 1}}, 255);
  ArbState s;
  // 1000 x 2176 B = 2.2 MB of high traffic, far beyond 254 x 4096 B: low never goes while high is
  // eligible.
  EXPECT_EQ(run(a, s, kVl0 | kVl1, kFull, 1000), std::vector<int>(1000, 0));
  // Once high has nothing eligible, low goes.
  EXPECT_EQ(run(a, s, kVl1, kFull, 3), std::vector<int>(3, 1));
}

TEST(PacketArbiter, HighContinuesWhenNoLowIsEligible) {
  // Limit 0 is reached after one high packet, but with only VL0 eligible the arbiter never idles:
  // high keeps going, still as high-priority choices.
  VlArbiter a({{0, 1}}, {{1, 1}}, 0);
  ArbState s;
  std::vector<bool> high;
  EXPECT_EQ(run(a, s, kVl0, kFull, 5, &high), std::vector<int>(5, 0));
  EXPECT_EQ(high, std::vector<bool>(5, true));
  // When VL1 becomes eligible the limit is still exceeded (no low packet went since): VL1 goes
  // first, then the alternation resumes.
  high.clear();
  EXPECT_EQ(run(a, s, kVl0 | kVl1, kFull, 4, &high), cycle({1, 0}, 4));
  EXPECT_EQ(high, (std::vector<bool>{false, true, false, true}));
}

TEST(PacketArbiter, LowOnlyWhenNoHighIsEligible) {
  // Unlimited high: with VL0 ineligible, VL1 (low) goes; as soon as VL0 is eligible again, high
  // wins.
  VlArbiter a({{0, 4}}, {{1, 4}}, 255);
  ArbState s;
  EXPECT_EQ(run(a, s, kVl1, 64, 2), (std::vector<int>{1, 1}));
  EXPECT_EQ(run(a, s, kVl0 | kVl1, 64, 3), (std::vector<int>{0, 0, 0}));
}

TEST(PacketArbiter, EmptyOrUnservedMaskChoosesNothing) {
  VlArbiter a({{0, 1}}, {{1, 1}}, 0);
  ArbState s;
  const ArbChoice none = a.choose(s, 0);
  EXPECT_EQ(none.vl, -1);
  EXPECT_FALSE(none.high);
  // VL2 is eligible but no table serves it.
  EXPECT_EQ(a.choose(s, kVl2).vl, -1);
  // No tables at all.
  VlArbiter empty({}, {}, 0);
  ArbState e;
  EXPECT_EQ(empty.choose(e, kVl0 | kVl1).vl, -1);
}

// ---------------------------------------------------------------------------------------------
// Weights: 64-B units consumed per packet, the turn passed to the next entry.

TEST(PacketArbiter, WeightCountsBlocksOf64Bytes) {
  // Low table {0:4, 1:4}, 64-B packets (1 block): each entry sends 4 packets, then passes the turn.
  VlArbiter a({}, {{0, 4}, {1, 4}}, 0);
  ArbState s;
  std::vector<bool> high;
  EXPECT_EQ(run(a, s, kVl0 | kVl1, 64, 16, &high), cycle({0, 0, 0, 0, 1, 1, 1, 1}, 16));
  EXPECT_EQ(high, std::vector<bool>(16, false));
  // 128-B packets (2 blocks): 2 packets per turn.
  VlArbiter b({}, {{0, 4}, {1, 4}}, 0);
  ArbState t;
  EXPECT_EQ(run(b, t, kVl0 | kVl1, 128, 8), cycle({0, 0, 1, 1}, 8));
  // 65-B packets take 2 blocks (partial blocks count whole): weight 2 is one packet per turn,
  // where 64-B packets would be two.
  VlArbiter c({}, {{0, 2}, {1, 2}}, 0);
  ArbState u;
  EXPECT_EQ(run(c, u, kVl0 | kVl1, 65, 6), cycle({0, 1}, 6));
  ArbState v;
  EXPECT_EQ(run(c, v, kVl0 | kVl1, 64, 8), cycle({0, 0, 1, 1}, 8));
}

TEST(PacketArbiter, UnequalWeightsShareInProportion) {
  // {0:2, 1:6} with 64-B packets: 2 of VL0, then 6 of VL1, per turn of the table.
  VlArbiter a({}, {{0, 2}, {1, 6}}, 0);
  ArbState s;
  EXPECT_EQ(run(a, s, kVl0 | kVl1, 64, 16), cycle({0, 0, 1, 1, 1, 1, 1, 1}, 16));
}

TEST(PacketArbiter, AnOverdrawingPacketEndsItsEntrysTurn) {
  // A packet may start while any weight is left and overdraw it; the entry then has no weight
  // left and passes the turn. {0:4, 1:4} with 2176-B packets (34 blocks > 4): every packet
  // exhausts its entry, so the VLs alternate 0,1,0,1 (the default low table with two VLs).
  VlArbiter a({}, {{0, 4}, {1, 4}}, 0);
  ArbState s;
  EXPECT_EQ(run(a, s, kVl0 | kVl1, kFull, 8), cycle({0, 1}, 8));
  // 192-B packets (3 blocks) on weight 4: the first leaves 1, the second starts on that 1 and
  // overdraws to -2; then the turn passes: 0,0,1,1,...
  VlArbiter b({}, {{0, 4}, {1, 4}}, 0);
  ArbState t;
  EXPECT_EQ(run(b, t, kVl0 | kVl1, 192, 8), cycle({0, 0, 1, 1}, 8));
  // The same in the high table.
  VlArbiter c({{0, 4}, {1, 4}}, {}, 255);
  ArbState u;
  EXPECT_EQ(run(c, u, kVl0 | kVl1, kFull, 6), cycle({0, 1}, 6));
}

TEST(PacketArbiter, IneligibleVlIsSkipped) {
  // {0:4, 1:4, 2:4}, VL1 never eligible: its entry passes the turn at once; 64-B packets.
  VlArbiter a({}, {{0, 4}, {1, 4}, {2, 4}}, 0);
  ArbState s;
  EXPECT_EQ(run(a, s, kVl0 | kVl2, 64, 16), cycle({0, 0, 0, 0, 2, 2, 2, 2}, 16));
}

TEST(PacketArbiter, AVlThatTurnsIneligiblePassesTheTurnAndTheNextEntryKeepsIt) {
  // {0:4, 1:4}, 64-B packets. VL0 sends 2 (2 blocks left); then only VL1 is eligible: entry 0
  // passes the turn to entry 1 (weight restored to 4) which sends 1. Both eligible again: entry 1
  // keeps the turn for its 3 remaining blocks, then entry 0 gets a full 4.
  VlArbiter a({}, {{0, 4}, {1, 4}}, 0);
  ArbState s;
  EXPECT_EQ(run(a, s, kVl0 | kVl1, 64, 2), (std::vector<int>{0, 0}));
  EXPECT_EQ(run(a, s, kVl1, 64, 1), (std::vector<int>{1}));
  EXPECT_EQ(run(a, s, kVl0 | kVl1, 64, 8), (std::vector<int>{1, 1, 1, 0, 0, 0, 0, 1}));
}

TEST(PacketArbiter, ZeroWeightEntryNeverSends) {
  VlArbiter a({}, {{0, 0}, {1, 4}}, 0);
  ArbState s;
  EXPECT_EQ(run(a, s, kVl0 | kVl1, 64, 10), std::vector<int>(10, 1));
  EXPECT_EQ(a.choose(s, kVl0).vl, -1);
}

TEST(PacketArbiter, VlListedTwiceGetsBothTurns) {
  // {0:2, 1:2, 0:2}: a table may list a VL more than once (IBA §7.6.9); 64-B packets.
  VlArbiter a({}, {{0, 2}, {1, 2}, {0, 2}}, 0);
  ArbState s;
  EXPECT_EQ(run(a, s, kVl0 | kVl1, 64, 12), cycle({0, 0, 1, 1, 0, 0}, 12));
}

// ---------------------------------------------------------------------------------------------
// Congestion control.

constexpr int64_t kUs = 1'000'000;  // ps

PacketParams cc_params() {
  PacketParams p;
  p.cc = true;
  p.cc_increase = 3;
  p.cc_cct_size = 8;  // CCTI 0..7
  p.cc_cct_step = SimTime::ps(2 * kUs);
  p.cc_timer = SimTime::ps(150 * kUs);
  p.cc_marking_rate = 2;
  return p;
}

TEST(PacketCc, BecnRaisesTheIndexByIncreaseUpToTheTableEnd) {
  const PacketParams p = cc_params();
  CongestionControl cc(p);
  CcFlow& f = cc.flow(0, 1);
  EXPECT_EQ(f.ccti, 0);
  EXPECT_EQ(cc.delay(f, SimTime::zero()).ps(), 0);
  cc.becn(f, SimTime::zero());
  EXPECT_EQ(f.ccti, 3);
  EXPECT_EQ(cc.delay(f, SimTime::zero()).ps(), 3 * 2 * kUs);  // CCT[3] = 3 x step
  cc.becn(f, SimTime::zero());
  EXPECT_EQ(f.ccti, 6);
  cc.becn(f, SimTime::zero());
  EXPECT_EQ(f.ccti, 7);  // min(6 + 3, cct_size - 1)
  cc.becn(f, SimTime::zero());
  EXPECT_EQ(f.ccti, 7);
  EXPECT_EQ(cc.delay(f, SimTime::zero()).ps(), 7 * 2 * kUs);
  EXPECT_EQ(cc.becns(), 4u);
  EXPECT_EQ(cc.fecns(), 0u);
}

TEST(PacketCc, TimerLowersTheIndexOncePerPeriodBoundary) {
  const PacketParams p = cc_params();
  CongestionControl cc(p);
  CcFlow& f = cc.flow(2, 5);
  cc.becn(f, SimTime::zero());
  cc.becn(f, SimTime::zero());  // CCTI 6, updated at 0
  // floor(149/150) - floor(0/150) = 0 steps.
  EXPECT_EQ(cc.delay(f, SimTime::ps(149 * kUs)).ps(), 6 * 2 * kUs);
  // floor(150/150) - floor(149/150) = 1.
  EXPECT_EQ(cc.delay(f, SimTime::ps(150 * kUs)).ps(), 5 * 2 * kUs);
  // floor(299/150) - floor(150/150) = 0.
  EXPECT_EQ(cc.delay(f, SimTime::ps(299 * kUs)).ps(), 5 * 2 * kUs);
  // floor(610/150) - floor(299/150) = 4 - 1 = 3: CCTI 2.
  EXPECT_EQ(cc.delay(f, SimTime::ps(610 * kUs)).ps(), 2 * 2 * kUs);
  EXPECT_EQ(f.ccti, 2);
  // Never below 0: floor(100000/150) - 4 steps.
  EXPECT_EQ(cc.delay(f, SimTime::ps(100'000 * kUs)).ps(), 0);
  EXPECT_EQ(f.ccti, 0);
}

TEST(PacketCc, TimerIsFreeRunningNotRestartedByABecn) {
  // A BECN at 140 us (CCTI 3); read at 160 us: a free-running timer of period 150 us ticked at
  // 150 us, so floor(160/150) - floor(140/150) = 1 step although only 20 us passed.
  const PacketParams p = cc_params();
  CongestionControl cc(p);
  CcFlow& f = cc.flow(0, 1);
  cc.becn(f, SimTime::ps(140 * kUs));
  EXPECT_EQ(f.ccti, 3);
  EXPECT_EQ(cc.delay(f, SimTime::ps(160 * kUs)).ps(), 2 * 2 * kUs);
  // A BECN decays first, then adds: at 310 us floor(310/150) - floor(160/150) = 1: 2 - 1 + 3 = 4.
  cc.becn(f, SimTime::ps(310 * kUs));
  EXPECT_EQ(f.ccti, 4);
}

TEST(PacketCc, FlowsAreDirectedPairs) {
  const PacketParams p = cc_params();
  CongestionControl cc(p);
  cc.becn(cc.flow(0, 1), SimTime::zero());
  EXPECT_EQ(cc.flow(0, 1).ccti, 3);
  EXPECT_EQ(cc.flow(1, 0).ccti, 0);
  EXPECT_EQ(cc.flow(0, 2).ccti, 0);
  EXPECT_EQ(cc.flows(), 3u);
  EXPECT_EQ(&cc.flow(0, 1), &cc.flow(0, 1));
}

TEST(PacketCc, MarkingRateMarksEveryRatePlusOnethPacket) {
  PacketParams p = cc_params();
  for (int rate : {0, 1, 2, 5}) {
    p.cc_marking_rate = rate;
    CongestionControl cc(p);
    uint32_t counter = 0;
    int marks = 0;
    for (int i = 1; i <= 60; ++i) {
      const bool m = cc.mark(counter);
      // rate packets left unmarked between two marks: calls rate+1, 2(rate+1), ... are marked.
      EXPECT_EQ(m, i % (rate + 1) == 0) << "rate " << rate << " call " << i;
      marks += m ? 1 : 0;
    }
    EXPECT_EQ(marks, 60 / (rate + 1));
    EXPECT_EQ(cc.fecns(), static_cast<uint64_t>(marks));
    EXPECT_EQ(cc.becns(), 0u);
  }
}

TEST(PacketCc, MarkingCountersArePerOutput) {
  const PacketParams p = cc_params();  // rate 2
  CongestionControl cc(p);
  uint32_t a = 0;
  uint32_t b = 0;
  EXPECT_FALSE(cc.mark(a));
  EXPECT_FALSE(cc.mark(a));
  EXPECT_FALSE(cc.mark(b));
  EXPECT_TRUE(cc.mark(a));
  EXPECT_FALSE(cc.mark(b));
  EXPECT_TRUE(cc.mark(b));
  EXPECT_EQ(cc.fecns(), 2u);
}

}  // namespace
}  // namespace simfab::packet
