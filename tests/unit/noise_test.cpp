// OS noise (issue 33, src/noise/): the two rules' closed forms, wrap-around, offsets, the trace
// reader's checks, and the executor's CPU intervals stretched under LogGOPS (hand computations).
#include <gtest/gtest.h>

#include "noise/noise_model.hpp"
#include "noise/noise_offsets.hpp"
#include "noise/noise_trace_file.hpp"
#include "test_support.hpp"

namespace simfab {
namespace {

using noise::DetourTrace;
using noise::NoiseModel;
using noise::NoiseRule;
using testing::dissemination_goal;
using testing::params;

NoiseModel model(std::vector<noise::Detour> d, int64_t period, NoiseRule rule, std::vector<int64_t> offsets = {0}) {
  return NoiseModel(DetourTrace(std::move(d), period), rule, std::move(offsets));
}

constexpr const char* kOneCalc = "num_ranks 1\nrank 0 {\nl1: calc 1000\n}\n";

TEST(Noise, DetourInsideACalcAddsItsDuration) {
  // calc of C = 1000 from t = 0; detour [300, 350): finishes at C + d = 1050 under both rules.
  for (NoiseRule rule : {NoiseRule::kLoggopsim, NoiseRule::kPreempt}) {
    NoiseModel m = model({{300, 50}}, 10000, rule);
    ExecutionResult r = testing::run_goal(kOneCalc, params(0, 0, 0, 0, 0), &m);
    EXPECT_EQ(r.finish[0].ps(), 1050);
    EXPECT_EQ(m.result("fixed", "test").detours[0], 1u);
    EXPECT_EQ(m.result("fixed", "test").noise_ps[0], 50);
  }
}

TEST(Noise, DetourOutsideChangesNothing) {
  for (NoiseRule rule : {NoiseRule::kLoggopsim, NoiseRule::kPreempt}) {
    NoiseModel m = model({{2000, 50}}, 10000, rule);
    ExecutionResult r = testing::run_goal(kOneCalc, params(0, 0, 0, 0, 0), &m);
    EXPECT_EQ(r.finish[0].ps(), 1000);
    EXPECT_EQ(m.result("fixed", "test").detours[0], 0u);
  }
}

TEST(Noise, DetourInProgressAddsItsRemainder) {
  // Offset 20: the calc starts at trace time 20, inside [0, 50): 30 ps of it remain.
  for (NoiseRule rule : {NoiseRule::kLoggopsim, NoiseRule::kPreempt}) {
    NoiseModel m = model({{0, 50}}, 10000, rule, {20});
    ExecutionResult r = testing::run_goal(kOneCalc, params(0, 0, 0, 0, 0), &m);
    EXPECT_EQ(r.finish[0].ps(), 1030);
  }
}

TEST(Noise, RulesDifferWhenADetourStartsInTheExtension) {
  // Detours [100, 110) and [130, 140); an interval from u = 95 needing C = 30.
  // loggopsim: starts in (95, 125): only 100 -> noise 10, end 135 (the detour at 130 starts in the
  // extension [125, 135): not charged). preempt: free [95,100) 5 + [110,130) 20 + [140,145) 5 = 30,
  // so it ends at 145: noise 20, both detours.
  const NoiseModel lg = model({{100, 10}, {130, 10}}, 1000, NoiseRule::kLoggopsim);
  const NoiseModel pr = model({{100, 10}, {130, 10}}, 1000, NoiseRule::kPreempt);
  EXPECT_EQ(lg.at(95, 30).noise_ps, 10);
  EXPECT_EQ(lg.at(95, 30).detours, 1u);
  EXPECT_EQ(pr.at(95, 30).noise_ps, 20);
  EXPECT_EQ(pr.at(95, 30).detours, 2u);
  // Starting inside the first detour (u = 105, C = 10): both wait its 5 ps, then run [110, 120).
  EXPECT_EQ(lg.at(105, 10).noise_ps, 5);
  EXPECT_EQ(pr.at(105, 10).noise_ps, 5);
  // A detour starting exactly at u is in progress: its whole duration.
  EXPECT_EQ(lg.at(100, 1).noise_ps, 10);
  EXPECT_EQ(pr.at(100, 1).noise_ps, 10);
  // Ending exactly where a detour starts: not hit (preempt ends at the last free picosecond).
  EXPECT_EQ(lg.at(110, 20).noise_ps, 0);
  EXPECT_EQ(pr.at(110, 20).noise_ps, 0);
  EXPECT_EQ(pr.at(110, 20).detours, 0u);
}

TEST(Noise, TraceWrapsAroundWithItsPeriod) {
  // One detour [100, 110) per period of 1000.
  const NoiseModel lg = model({{100, 10}}, 1000, NoiseRule::kLoggopsim);
  const NoiseModel pr = model({{100, 10}}, 1000, NoiseRule::kPreempt);
  // From 990 for 200: the detour of the next period, at 1100.
  EXPECT_EQ(lg.at(990, 200).noise_ps, 10);
  EXPECT_EQ(pr.at(990, 200).noise_ps, 10);
  // From 0 for 2500: detours at 100, 1100, 2100 (both rules: 30, 3 detours).
  EXPECT_EQ(lg.at(0, 2500).noise_ps, 30);
  EXPECT_EQ(lg.at(0, 2500).detours, 3u);
  EXPECT_EQ(pr.at(0, 2500).noise_ps, 30);
  // From 0 for 2095: loggopsim counts starts in (0, 2095): 100, 1100 -> 20 (the one at 2100 is in
  // the extension); preempt needs 2095 free ps: 990 per period, so 2 periods + 115 -> ends at
  // 2000 + 125 = 2125: noise 30.
  EXPECT_EQ(lg.at(0, 2095).noise_ps, 20);
  EXPECT_EQ(pr.at(0, 2095).noise_ps, 30);
  EXPECT_EQ(pr.at(0, 2095).detours, 3u);
  // Simulated time beyond a period maps back: a calc at t = 5000 + 50 with offset 0 = u 50.
  NoiseModel m = model({{100, 10}}, 1000, NoiseRule::kLoggopsim);
  EXPECT_EQ(m.stretch(0, SimTime::ps(5050), SimTime::ps(100)).ps(), 110);
  EXPECT_EQ(m.stretch(0, SimTime::ps(5050), SimTime::ps(0)).ps(), 0);  // C = 0: no CPU, no noise
}

TEST(Noise, CoscheduledOffsetsAreEqualAndSeedsReproducible) {
  const auto a = noise::drawn_offsets(7, false, 64, 2'500'000'000);
  const auto b = noise::drawn_offsets(7, false, 64, 2'500'000'000);
  const auto c = noise::drawn_offsets(8, false, 64, 2'500'000'000);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (int64_t o : a) EXPECT_TRUE(o >= 0 && o < 2'500'000'000);
  EXPECT_NE(a[0], a[1]);
  const auto co = noise::drawn_offsets(7, true, 64, 2'500'000'000);
  for (int64_t o : co) EXPECT_EQ(o, a[0]);  // the same stream's first value
  std::string why;
  const auto one = noise::fixed_offsets("1us", 3, 600'000, &why);  // 1,000,000 mod 600,000
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(*one, (std::vector<int64_t>{400'000, 400'000, 400'000}));
  const auto each = noise::fixed_offsets("0,5,7", 3, 600'000, &why);
  ASSERT_TRUE(each.has_value());
  EXPECT_EQ(*each, (std::vector<int64_t>{0, 5, 7}));
  EXPECT_FALSE(noise::fixed_offsets("0,5", 3, 600'000, &why));
  EXPECT_NE(why.find("2 offsets for 3 ranks"), std::string::npos);
  EXPECT_FALSE(noise::fixed_offsets("x", 3, 600'000, &why));
}

TEST(Noise, CoscheduledRanksStretchAlike) {
  // Every rank at offset 0 of one detour [1,100,000, 1,120,000): each one's first receive
  // overhead [50,000, 1,174,000) contains it, so the dissemination shifts by 20,000 everywhere.
  NoiseModel m = model({{1'100'000, 20'000}, {10'000'000, 1'000}}, 10'001'000, NoiseRule::kLoggopsim,
                       std::vector<int64_t>(8, 0));
  ExecutionResult r = testing::run_goal(dissemination_goal(8, 180), params(0, 50000, 100000, 6000, 0), &m);
  ASSERT_TRUE(r.blocked.empty());
  for (SimTime t : r.finish) EXPECT_EQ(t.ps(), 3'542'000);
}

TEST(Noise, DisseminationAllreduceUnderLogGOPSMatchesHandComputation) {
  // seed 004 §3.2's 8-rank dissemination of 180 B, o = 50,000, g = 100,000, G = 6,000, L = 0:
  // 3,522,000 per rank without noise (a receive costs o + 179 G = 1,124,000; a send gap
  // g + 179 G = 1,174,000). Noise: detour [1,100,000, 1,120,000) on rank 0 only (the others read
  // the trace at 5,000,000, where nothing happens before 10,000,000).
  //   round 0: rank 0's receive overhead [50,000, 1,174,000) holds the detour: ends 1,194,000.
  //   round 1: rank 0 sends to 2 at 1,194,000 (arrives 1,244,000); rank 2 receives it then:
  //            rank 2 done 2,368,000; rank 0 (its CPU busy to 1,244,000) receives from 6 at
  //            1,244,000: done 2,368,000. The others: 2,348,000.
  //   round 2: ranks 0 and 2 send at 2,368,000 (to 4 and 6); ranks 0, 2, 4, 6 receive at
  //            2,418,000 and finish at 3,542,000; ranks 1, 3, 5, 7 finish at 3,522,000.
  std::vector<int64_t> offsets(8, 5'000'000);
  offsets[0] = 0;
  for (NoiseRule rule : {NoiseRule::kLoggopsim, NoiseRule::kPreempt}) {
    NoiseModel m = model({{1'100'000, 20'000}, {10'000'000, 1'000}}, 10'001'000, rule, offsets);
    ExecutionResult r = testing::run_goal(dissemination_goal(8, 180), params(0, 50000, 100000, 6000, 0), &m);
    ASSERT_TRUE(r.blocked.empty());
    for (int i = 0; i < 8; ++i) EXPECT_EQ(r.finish[static_cast<size_t>(i)].ps(), i % 2 == 0 ? 3'542'000 : 3'522'000) << i;
    const noise::NoiseResult n = m.result("fixed", "test");
    EXPECT_EQ(n.noise_ps[0], 20'000);
    EXPECT_EQ(n.detours[0], 1u);
    EXPECT_EQ(n.total_ps(), 20'000);
  }
}

TEST(Noise, TraceFileFormats) {
  const DetourTrace t = noise::parse_noise_trace("n.txt", "# netgauge\n100\t20\n\n300   5.5\n1000 0\n");
  ASSERT_EQ(t.size(), 2u);  // the zero-duration line only sets the length
  EXPECT_EQ(t.detours()[0].start_ps, 100'000);
  EXPECT_EQ(t.detours()[0].duration_ps, 20'000);
  EXPECT_EQ(t.detours()[1].duration_ps, 5'500);
  EXPECT_EQ(t.period_ps(), 1'000'000);
  const DetourTrace c = noise::parse_noise_trace("n.csv", "start_ns,duration_ns\r\n0,25000\r\n2475000,25000\r\n");
  EXPECT_EQ(c.size(), 2u);
  EXPECT_EQ(c.period_ps(), 2'500'000'000);
}

void expect_error(const std::string& text, int line, const std::string& words) {
  testing::expect_input_error_at([&] { noise::parse_noise_trace("n.txt", text); }, line, words, text);
}

TEST(Noise, TraceFileErrorsNameTheLine) {
  expect_error("100 20\n200\n", 2, "expected `<start_ns> <duration_ns>`");
  expect_error("100 20\n200 -3\n", 2, "negative duration");
  expect_error("100 abc\n", 1, "not a number");
  expect_error("100 20\n50 10\n", 2, "sorted by start");
  expect_error("100 20\n110 10\n", 2, "starts inside the one at line 1");
  expect_error("# nothing\n", 0, "empty");
  expect_error("start_ns,duration_ns\n1;2\n", 2, "expected `<start_ns>,<duration_ns>`");
  expect_error("0 10\n", 0, "no time is left");
}

}  // namespace
}  // namespace simfab
