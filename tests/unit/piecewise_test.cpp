// Piecewise-linear size tables of the SMPI point-to-point model (seed 003 §IV-A).
#include <gtest/gtest.h>

#include "net/flow/piecewise.hpp"

namespace simfab::flow {
namespace {

PiecewiseLinear parse_ok(const char* text, bool slope) {
  std::string err;
  auto t = PiecewiseLinear::parse(text, slope, err);
  EXPECT_TRUE(t) << err;
  return t ? *t : PiecewiseLinear::constant(0);
}

TEST(Piecewise, Seed003SegmentBoundaries) {
  // The five segments of seed 003, closed on the right: <=1420, <=32768, <=65536 (S_a),
  // <=327680 (S_d), beyond (digest test S1).
  PiecewiseLinear t = parse_ok("0:1:0;1421:2:0;32769:3:0;65537:4:0;327681:5:0", true);
  const std::pair<Bytes, size_t> cases[] = {{0, 0},      {1420, 0},   {1421, 1},   {32768, 1},
                                            {32769, 2},  {65536, 2},  {65537, 3},  {327680, 3},
                                            {327681, 4}, {1u << 30, 4}};
  for (auto [k, seg] : cases) EXPECT_EQ(t.segment(k), seg) << "k=" << k;
}

TEST(Piecewise, OverheadIsAffinePerSection) {
  PiecewiseLinear t = parse_ok("0:1e-6:1e-9;1421:3e-6:5e-10", true);
  EXPECT_DOUBLE_EQ(t.value(1000), 1e-6 + 1000 * 1e-9);
  EXPECT_DOUBLE_EQ(t.value(2000), 3e-6 + 2000 * 5e-10);
}

TEST(Piecewise, FactorTable) {
  PiecewiseLinear t = parse_ok("0:1;65472:0.940694", false);
  EXPECT_DOUBLE_EQ(t.value(65471), 1.0);
  EXPECT_DOUBLE_EQ(t.value(65472), 0.940694);
  EXPECT_DOUBLE_EQ(PiecewiseLinear::constant(0.5).value(123), 0.5);
}

void expect_error(const char* text, bool slope, const std::string& what) {
  std::string err;
  EXPECT_FALSE(PiecewiseLinear::parse(text, slope, err)) << text;
  EXPECT_NE(err.find(what), std::string::npos) << "error for '" << text << "': " << err;
}

TEST(Piecewise, BadTablesSayWhatIsWrong) {
  expect_error("", false, "empty table");
  expect_error("10:1", false, "must start at size 0");
  expect_error("0:1;100:2;50:3", false, "section 3 starts at 50, not after the previous one (100)");
  expect_error("0:1;0:2", false, "section 2 starts at 0, not after the previous one (0)");
  expect_error("0:1:2", false, "has 3 fields; expected min_size:factor");
  expect_error("0:1", true, "has 2 fields; expected min_size:seconds:seconds_per_byte");
  expect_error("0:-1", false, "finite non-negative");
  expect_error("0:nan", false, "finite non-negative");
  expect_error("x:1", false, "whole min_size");
  expect_error("0:1;;5:2", false, "section 2 has 1 fields");
}

TEST(Piecewise, SimGridDialectIsUnsortedWithExclusiveThresholds) {
  // SimGrid 3.32's default smpi/bw-factor, as written (largest threshold first). Measured with
  // smpirun: a 241-byte message (payload 257 with the 16-byte envelope) still gets the 0 section,
  // 242 (payload 258) gets the 257 one.
  std::string err;
  auto t = PiecewiseLinear::parse("65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;"
                                  "1426:0.608902;732:0.341987;257:0.338112;0:0.812084",
                                  false, err, PiecewiseLinear::Dialect::kSimGrid);
  ASSERT_TRUE(t) << err;
  EXPECT_DOUBLE_EQ(t->value(0), 0.812084);
  EXPECT_DOUBLE_EQ(t->value(257), 0.812084);
  EXPECT_DOUBLE_EQ(t->value(258), 0.338112);
  EXPECT_DOUBLE_EQ(t->value(65472), 0.697866);
  EXPECT_DOUBLE_EQ(t->value(65473), 0.940694);
  // smpi/os's default has five fields per section; the first two are used.
  auto os = PiecewiseLinear::parse("0:0:0:0:0", true, err, PiecewiseLinear::Dialect::kSimGrid);
  ASSERT_TRUE(os) << err;
  EXPECT_EQ(os->value(1000), 0);
  auto late = PiecewiseLinear::parse("100:1e-6:0;200:2e-6:0", true, err, PiecewiseLinear::Dialect::kSimGrid);
  ASSERT_TRUE(late) << err;
  EXPECT_DOUBLE_EQ(late->value(5), 1e-6);  // at or below the first threshold: the first section
  EXPECT_DOUBLE_EQ(late->value(201), 2e-6);
  EXPECT_FALSE(PiecewiseLinear::parse("0:1;0:2", false, err, PiecewiseLinear::Dialect::kSimGrid));
  EXPECT_NE(err.find("two sections start at 0"), std::string::npos) << err;
  EXPECT_FALSE(PiecewiseLinear::parse("0", false, err, PiecewiseLinear::Dialect::kSimGrid));
}

}  // namespace
}  // namespace simfab::flow
