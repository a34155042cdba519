// The segmented least-squares fitter (src/calibrate/segmented_fit.hpp): seed 004's calibration
// tables (digest §3.6, test 9) and seed 003's breakpoint recovery (digest B.6 S5).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "calibrate/segmented_fit.hpp"
#include "core/error.hpp"

namespace simfab::calibrate {
namespace {

// Seed 004 Table 5.3.2 (rendezvous): real - simulated one-way time (us) against bytes.
const std::vector<Point> kTable532 = {{80000, 37}, {160000, 42}, {240000, 49}, {320000, 52}, {400000, 58}};
// Table 5.3.1 (eager).
const std::vector<Point> kTable531 = {{4, 22.8885}, {16000, 31.2}, {32000, 32.5}, {48000, 34}, {64000, 34}};

TEST(CalibrateSegmented, Seed004LargeMessageTableGivesExactlyOandO) {
  const LineFit f = fit_line(kTable532, Weighting::kOrdinary);
  EXPECT_NEAR(f.line.intercept, 32.0, 1e-9);      // o = 32 us
  EXPECT_NEAR(f.line.slope, 0.000065, 1e-9);      // O = 0.000065 us/B = 65 ps/B
  EXPECT_EQ(f.count, 5u);
  EXPECT_GT(f.r2, 0.98);
}

TEST(CalibrateSegmented, Seed004SmallMessageTableGivesTheOlsValues) {
  // The digest: OLS gives 25.913 + 0.0001564 x (the thesis prints 25.9798 + 0.000155003 x).
  const LineFit f = fit_line(kTable531, Weighting::kOrdinary);
  EXPECT_NEAR(f.line.intercept, 25.913, 5e-4);
  EXPECT_NEAR(f.line.slope, 0.0001564, 5e-8);
}

TEST(CalibrateSegmented, BothTablesAsOneFitWithTheProtocolBoundaryForced) {
  // Seed 004 §5.3's two parameter sets: eager up to S = 65535, rendezvous beyond.
  std::vector<Point> all = kTable531;
  all.insert(all.end(), kTable532.begin(), kTable532.end());
  SegmentedFitOptions o;
  o.automatic = false;
  o.forced = {65535};
  o.min_samples = 2;
  o.search = o.final = Weighting::kOrdinary;
  const Series s{"diff", all};
  const SegmentedFit f = fit_segmented(std::span<const Series>(&s, 1), o);
  ASSERT_EQ(f.segments.size(), 2u);
  EXPECT_EQ(f.boundaries, std::vector<Bytes>{65535});
  EXPECT_EQ(f.segments[0].last, 65535u);
  EXPECT_EQ(f.segments[1].first, 65536u);
  EXPECT_NEAR(f.segments[0].fits[0].line.intercept, 25.913, 5e-4);
  EXPECT_NEAR(f.segments[1].fits[0].line.intercept, 32.0, 1e-9);
  EXPECT_NEAR(f.segments[1].fits[0].line.slope, 0.000065, 1e-9);
}

TEST(CalibrateSegmented, RelativeWeightingOfAnExactLineIsExact) {
  std::vector<Point> pts;
  for (double x : {1.0, 10.0, 1e3, 1e5, 1e7}) pts.push_back({x, 3e-6 + 2e-10 * x});
  const LineFit f = fit_line(pts, Weighting::kRelative);
  EXPECT_NEAR(f.line.intercept, 3e-6, 1e-15);
  EXPECT_NEAR(f.line.slope, 2e-10, 1e-19);
  EXPECT_NEAR(f.rss, 0, 1e-20);
}

TEST(CalibrateSegmented, RoundBoundaryPrefersPowersOfTwoThenRoundDecimals) {
  EXPECT_EQ(round_boundary(30000, 35000), 32768u);
  EXPECT_EQ(round_boundary(1300, 1500), 1400u);   // no power of two; 2 digits, nearest the middle
  EXPECT_EQ(round_boundary(1419, 1421), 1420u);
  EXPECT_EQ(round_boundary(5, 6), 5u);
  EXPECT_EQ(round_boundary(1000, 5000), 2048u);   // the power of two nearest the geometric middle
}

TEST(CalibrateSegmented, NonNegativeKeepsValuesAtTheEnds) {
  // 1e-6 at 1000, 1.9e-5 at 10000, negative at 0: through 0 and the value at 10000.
  const Line through_zero = non_negative(Line{-1e-6, 2e-9}, 1000, 10000);
  EXPECT_DOUBLE_EQ(through_zero.intercept, 0);
  EXPECT_NEAR(through_zero.at(10000), 1.9e-5, 1e-15);
  // Negative at the low end only: the ends clamped at 0 and joined.
  const Line clamped = non_negative(Line{-3e-6, 1e-9}, 0, 10000);  // -3e-6 .. 7e-6
  EXPECT_DOUBLE_EQ(clamped.intercept, 0);
  EXPECT_NEAR(clamped.at(10000), 7e-6, 1e-15);
  const Line raised = non_negative(Line{1e-6, -1e-9}, 0, 10000);  // 1e-6 .. -9e-6: falling, the mean
  EXPECT_DOUBLE_EQ(raised.slope, 0);
  EXPECT_NEAR(raised.intercept, 0.5e-6, 1e-15);
  const Line falling = non_negative(Line{4e-6, -1e-10}, 0, 10000);  // 4e-6 .. 3e-6
  EXPECT_DOUBLE_EQ(falling.slope, 0);
  EXPECT_NEAR(falling.intercept, 3.5e-6, 1e-15);
  const Line fine{1e-6, 1e-9};
  EXPECT_EQ(non_negative(fine, 0, 10).slope, fine.slope);
}

// Synthetic measurements from known segments (digest B.6 S5): sizes log-uniform in 1 B .. 64 MiB,
// each measured `reps` times with +-5 % multiplicative noise. The uniform numbers are built from
// std::mt19937_64's raw 64-bit output, which the standard fixes (its distributions it does not).
struct Truth {
  Bytes last;  // the segment covers sizes up to here (the next boundary)
  Line line;
};

double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

std::vector<Point> synthesize(const std::vector<Truth>& truth, uint64_t seed, int sizes, int reps, double noise) {
  std::mt19937_64 rng(seed);
  std::vector<Point> out;
  const double top = std::log(64.0 * 1024 * 1024);
  for (int i = 0; i < sizes; ++i) {
    const double k = std::round(std::exp(uniform(rng) * top));
    size_t seg = 0;
    while (static_cast<double>(truth[seg].last) < k) ++seg;
    for (int r = 0; r < reps; ++r)
      out.push_back({k, truth[seg].line.at(k) * (1 + noise * (2 * uniform(rng) - 1))});
  }
  return out;
}

// Taurus-like (seed 001 Fig. 4.8) sender overheads, with seed 003's breakpoints.
const std::vector<Truth> kOsTruth = {{1420, {3.8e-6, 1.1e-10}},
                                     {32768, {4.4e-6, 9.0e-11}},
                                     {65536, {6.0e-6, 7.1e-11}},
                                     {327680, {7.3e-5, 1.97e-10}},
                                     {UINT64_MAX, {2.0e-5, 1.5e-10}}};
// Receiver overheads: other jumps at the same breakpoints.
const std::vector<Truth> kOrTruth = {{1420, {3.5e-6, 3.0e-10}},
                                     {32768, {8.2e-6, 2.7e-10}},
                                     {65536, {1.5e-5, 2.0e-10}},
                                     {327680, {3.0e-5, 3.0e-10}},
                                     {UINT64_MAX, {1.0e-5, 2.2e-10}}};

// No sample size lies between the found boundary and the true one: they split the samples alike.
void expect_same_split(const std::vector<Point>& pts, Bytes found, Bytes truth) {
  const double lo = static_cast<double>(std::min(found, truth)), hi = static_cast<double>(std::max(found, truth));
  for (const Point& p : pts) {
    EXPECT_FALSE(p.x > lo && p.x <= hi) << "size " << p.x << " lies between " << found << " and the true boundary "
                                        << truth;
  }
}

void expect_recovered(const SegmentedFit& f, size_t series, const std::vector<Truth>& truth) {
  ASSERT_EQ(f.segments.size(), truth.size());
  for (size_t j = 0; j < truth.size(); ++j) {
    const FitSegment& s = f.segments[j];
    const Line fit = s.fits[series].line, want = truth[j].line;
    // The fitted function within 3 % at both ends of the segment's samples, and each coefficient
    // within 8 % where it carries at least half of the value. With +-5 % uniform noise (2.9 %
    // standard deviation) a segment spanning a factor 2 of sizes (32769..65536, about 30
    // samples) has a 3.5 % standard error on its intercept: intercept and slope trade off, the
    // function much less.
    for (double x : {s.lo, s.hi})
      EXPECT_NEAR(fit.at(x) / want.at(x), 1.0, 0.03) << "segment " << j << " at " << x;
    if (want.intercept >= 0.5 * want.at(s.lo)) {
      EXPECT_NEAR(fit.intercept / want.intercept, 1.0, 0.08) << "intercept of segment " << j;
    }
    if (want.slope * s.hi >= 0.5 * want.at(s.hi)) {
      EXPECT_NEAR(fit.slope / want.slope, 1.0, 0.08) << "slope of segment " << j;
    }
  }
}

TEST(CalibrateSegmented, RecoversSeed003BreakpointsAndCoefficients) {
  const std::vector<Point> pts = synthesize(kOsTruth, 42, 200, 4, 0.05);
  const Series s{"send", pts};
  const SegmentedFit f = fit_segmented(std::span<const Series>(&s, 1), SegmentedFitOptions{});
  ASSERT_EQ(f.boundaries.size(), 4u);
  const Bytes truth[] = {1420, 32768, 65536, 327680};
  for (size_t i = 0; i < 4; ++i) expect_same_split(pts, f.boundaries[i], truth[i]);
  expect_recovered(f, 0, kOsTruth);
}

TEST(CalibrateSegmented, JointFitOfTwoSeriesSharesTheBreakpoints) {
  for (uint64_t seed : {7u, 2024u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::vector<Series> series = {{"send", synthesize(kOsTruth, seed, 150, 4, 0.05)},
                                        {"recv", synthesize(kOrTruth, seed + 1, 150, 4, 0.05)}};
    const SegmentedFit f = fit_segmented(series, SegmentedFitOptions{});
    ASSERT_EQ(f.boundaries.size(), 4u);
    const Bytes truth[] = {1420, 32768, 65536, 327680};
    for (const Series& s : series)
      for (size_t i = 0; i < 4; ++i) expect_same_split(s.points, f.boundaries[i], truth[i]);
    expect_recovered(f, 0, kOsTruth);
    expect_recovered(f, 1, kOrTruth);
  }
}

TEST(CalibrateSegmented, ForcedBoundariesAreKeptAndTheSearchFillsIn) {
  const std::vector<Point> pts = synthesize(kOsTruth, 5, 200, 4, 0.05);
  SegmentedFitOptions o;
  o.forced = {65536};
  const Series s{"send", pts};
  const SegmentedFit f = fit_segmented(std::span<const Series>(&s, 1), o);
  ASSERT_EQ(f.boundaries.size(), 4u);
  EXPECT_EQ(f.boundaries[2], 65536u);
}

TEST(CalibrateSegmented, StraightDataGetsOneSegment) {
  const std::vector<Truth> one = {{UINT64_MAX, {5e-6, 1e-10}}};
  const std::vector<Point> pts = synthesize(one, 9, 200, 3, 0.05);
  const Series s{"send", pts};
  const SegmentedFit f = fit_segmented(std::span<const Series>(&s, 1), SegmentedFitOptions{});
  EXPECT_EQ(f.segments.size(), 1u);
  expect_recovered(f, 0, one);
}

TEST(CalibrateSegmented, TooFewSamplesInAForcedSegmentNamesItAndTheCounts) {
  SegmentedFitOptions o;
  o.automatic = false;
  o.forced = {100, 200};
  o.min_samples = 4;
  o.source = "samples.csv";
  std::vector<Point> pts;
  for (double x : {10.0, 20.0, 30.0, 40.0, 150.0, 160.0, 300.0, 400.0, 500.0, 600.0}) pts.push_back({x, 1e-6 + x * 1e-9});
  const Series s{"send", pts};
  try {
    fit_segmented(std::span<const Series>(&s, 1), o);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "samples.csv");
    const std::string m = e.message();
    EXPECT_NE(m.find("segment 2 (101..200 B) has 2 'send' samples at 2 distinct sizes; at least 4"), std::string::npos)
        << m;
  }
}

}  // namespace
}  // namespace simfab::calibrate
