// Availability profiles (platform/availability.hpp): SimGrid 3.32's repetition rules, measured
// with smpirun -replay (a 10 Gflop computation on a 1 Gf host under "0 0.5 / 2 1.0" ends at 15 s
// with PERIODICITY 3, at 13 s with LOOPAFTER 3: tests/profiles/run_profiles.py runs those), the
// step function's queries, and the errors.
#include <gtest/gtest.h>

#include "platform/availability.hpp"

namespace simfab {
namespace {

SimTime s(double x) { return SimTime::from_seconds(x); }

TEST(Availability, PeriodicityRepeatsWithThePeriod) {
  const Availability a = parse_availability("0 0.5\n2 1.0\nPERIODICITY 3\n", "p", "p");
  EXPECT_EQ(a.period, s(3));
  EXPECT_EQ(*a.value_at(s(0)), 0.5);
  EXPECT_EQ(*a.value_at(s(2.5)), 1.0);
  EXPECT_EQ(*a.value_at(s(3)), 0.5);   // the second iteration starts
  EXPECT_EQ(*a.value_at(s(5.2)), 1.0);
  EXPECT_EQ(a.next_change(s(0)), s(2));
  EXPECT_EQ(a.next_change(s(2)), s(3));
  EXPECT_EQ(a.next_change(s(4)), s(5));
}

TEST(Availability, LoopAfterRepeatsAfterTheLastStep) {
  const Availability a = parse_availability("# comment\n0 0.5\n\n2 1.0\nLOOPAFTER 3\n", "l", "l");
  EXPECT_EQ(a.period, s(5));  // last date 2 + 3
  EXPECT_EQ(a.next_change(s(2)), s(5));
  EXPECT_EQ(*a.value_at(s(4.9)), 1.0);
  EXPECT_EQ(*a.value_at(s(5)), 0.5);
  const auto ev = a.events_until(s(12));
  ASSERT_EQ(ev.size(), 6u);  // 0, 2, 5, 7, 10, 12
  EXPECT_EQ(ev[5].first, s(12));
}

TEST(Availability, OneShotAndBeforeTheFirstStep) {
  const Availability a = parse_availability("0.5 5000000\n1.5 20000000\n", "bw", "bw");
  EXPECT_FALSE(a.value_at(s(0.2)).has_value());  // the nominal value applies
  EXPECT_EQ(*a.value_at(s(1)), 5e6);
  EXPECT_EQ(a.next_change(s(0)), s(0.5));
  EXPECT_EQ(a.next_change(s(1.5)), SimTime::never());
}

TEST(Availability, FirstOff) {
  const Availability a = parse_availability("1 0\n2 1\nLOOPAFTER 8\n", "f", "f");
  EXPECT_EQ(a.first_off(SimTime::zero()), s(1));
  EXPECT_EQ(a.first_off(s(1.5)), s(1.5));  // still off
  EXPECT_EQ(a.first_off(s(2)), s(11));     // the next iteration (period 10)
  const Availability on = parse_availability("0 1\n5 0.5\nPERIODICITY 10\n", "on", "on");
  EXPECT_EQ(on.first_off(SimTime::zero()), SimTime::never());
}

TEST(Availability, Errors) {
  auto message = [](const char* text, double periodicity = 0) {
    try {
      parse_availability(text, "'x'", "x.profile", 1, periodicity);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("0 1\n2 0.5\n1 0.7\n").find("x.profile:3"), std::string::npos);
  EXPECT_NE(message("STOCHASTIC\n").find("stochastic profiles are not supported"), std::string::npos);
  EXPECT_NE(message("0 1\nPERIODICITY 0\n").find("seconds > 0"), std::string::npos);
  EXPECT_NE(message("0 1\nPERIODICITY 5\nLOOPAFTER 2\n").find("both PERIODICITY and LOOPAFTER"), std::string::npos);
  EXPECT_NE(message("0 0\nLOOPAFTER 0\n").find("repeats forever"), std::string::npos);
  EXPECT_NE(message("1 2 3\n").find("expected '<date> <value>'"), std::string::npos);
  EXPECT_NE(message("-1 2\n").find("between 0 and 9e6"), std::string::npos);
}

// SimGrid 3.32 aborts on a period shorter than the last date; SimGrid up to 3.29 restarted the
// events `periodicity` seconds after the last one (its trace_mgr: the last event's delay is
// periodicity + the first date), which simfab applies, with a note for the warning.
TEST(Availability, ShortPeriodIsReadAsSimGrid329Did) {
  const Availability a = parse_availability("0 1\n20 0.5\n", "'x'", "x.profile", 1, 1.0);
  EXPECT_EQ(a.period, s(21));
  EXPECT_EQ(*a.value_at(s(20.5)), 0.5);
  EXPECT_EQ(*a.value_at(s(21)), 1.0);  // the second iteration
  EXPECT_EQ(a.next_change(s(21)), s(41));
  EXPECT_NE(a.note.find("its period 1 s is shorter than its last date 20 s"), std::string::npos) << a.note;
  EXPECT_NE(a.note.find("(period 21 s)"), std::string::npos) << a.note;
  EXPECT_TRUE(parse_availability("0 1\n2 0.5\nPERIODICITY 3\n", "p", "p").note.empty());
}

}  // namespace
}  // namespace simfab
