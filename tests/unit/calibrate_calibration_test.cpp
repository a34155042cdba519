// From a calibration CSV to model parameters (src/calibrate/calibration_fit.hpp) and a platform
// (calibration_output.hpp): an end-to-end fit of synthetic measurements made by simfab's own flow
// model from known parameters, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

#include "calibrate/calibration_fit.hpp"
#include "calibrate/calibration_output.hpp"
#include "calibrate/calibration_samples.hpp"
#include "core/config.hpp"
#include "core/error.hpp"
#include "net/flow/flow_params.hpp"
#include "platform/load_platform.hpp"
#include "sim/simulation.hpp"
#include "test_support.hpp"

namespace simfab::calibrate {
namespace {

// The model's parameters per segment (seed 003's five segments, taurus-like values), as
// calibration_fit.hpp describes them: os, or, ois lines; T = L + k / B.
struct TrueSegment {
  Bytes last;
  Line os, orr, ois;
  double latency, bandwidth;
};
constexpr Bytes kAsync = 65536, kDetached = 327680;
constexpr double kLinkBandwidth = 1.25e9, kLinkLatency = 1e-5;
const std::vector<TrueSegment> kTruth = {
    {1420, {3.8e-6, 1.1e-10}, {3.5e-6, 3.0e-10}, {3.6e-6, 1.3e-10}, 1e-5, 0.05 * kLinkBandwidth},
    {32768, {4.4e-6, 9.0e-11}, {8.2e-6, 2.7e-10}, {3.8e-6, 7.8e-11}, 2.16e-5, 0.82 * kLinkBandwidth},
    {65536, {6.0e-6, 7.1e-11}, {1.5e-5, 2.0e-10}, {5.6e-6, 5.0e-11}, 1.77e-5, 0.6 * kLinkBandwidth},
    // Detached: the receiver's overhead continues the last asynchronous line (the fit's convention).
    {327680, {7.3e-5, 1.97e-10}, {1.5e-5, 2.0e-10}, {7.0e-6, 5.0e-11}, 2.91e-5, 0.8 * kLinkBandwidth},
    {UINT64_MAX, {2.0e-5, 1.5e-10}, {1.0e-5, 2.2e-10}, {8.0e-6, 1.0e-11}, 2.6e-5, kLinkBandwidth}};
constexpr double kLimiter = 1.5, kGap = 4e-7, kSpeed = 2.5e9, kDelay = 5e-4, kFixed = 3e-5;
constexpr double kReduceSecondsPerElement = 6e-10;  // 0.6 ns per double summed: 1.5 flops at kSpeed

const TrueSegment& truth_of(Bytes k) {
  size_t i = 0;
  while (kTruth[i].last < k) ++i;
  return kTruth[i];
}
double transfer(Bytes k) {
  const TrueSegment& s = truth_of(k);
  return s.latency + static_cast<double>(k) / s.bandwidth;
}

double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// What simfab_calibrate would measure on a machine that behaves like the flow model, each
// measurement up to `noise` (a fraction) slower: a busy machine only ever adds time.
std::string synthetic_csv(uint64_t seed, int sizes, int reps, double noise) {
  std::mt19937_64 rng(seed);
  std::ostringstream out;
  out.precision(10);
  out << "# simfab-calibrate 1\n# hostname: synthetic\n# np: 2\n# library: the flow model\n"
      << "# date: 2024-01-01T00:00:00Z\n# late-recv-delay: " << kDelay << "\nexperiment,bytes,seconds\n";
  const auto row = [&](const char* e, Bytes k, double t) {
    out << e << "," << k << "," << t * (1 + noise * uniform(rng)) << "\n";
  };
  const double top = std::log(64.0 * 1024 * 1024);
  for (int i = 0; i < sizes; ++i) {
    const Bytes k = static_cast<Bytes>(std::llround(std::exp(uniform(rng) * top)));
    const TrueSegment& s = truth_of(k);
    const double x = static_cast<double>(k), os = s.os.at(x), orr = s.orr.at(x), t = transfer(k);
    const bool sync = k > kDetached, waits = k > kAsync;
    for (int r = 0; r < reps; ++r) {
      row("pingpong", k, 2 * (os + t + orr));
      row("send", k, sync ? os + t : os);
      row("isend", k, s.ois.at(x));
      row("recv", k, waits ? t + orr : orr);
      row("late_recv", k, sync ? std::max(os, kDelay) + t : os);
    }
  }
  const Bytes bulk = 4u << 20;
  for (int r = 0; r < 5; ++r) {
    row("gap", 1, kGap);
    row("oneway", bulk, kFixed + static_cast<double>(bulk) / kLinkBandwidth);
    row("bidir", bulk, kFixed + static_cast<double>(bulk) / (kLimiter * kLinkBandwidth / 2));
    row("compute", 40960000, 40960000 / kSpeed);
    row("reduce", 65536, 65536 * kReduceSecondsPerElement);
  }
  return out.str();
}

// No measured size lies between the found threshold and the true one.
void expect_same_split(const CalibrationSamples& s, Bytes found, Bytes truth) {
  const Bytes lo = std::min(found, truth), hi = std::max(found, truth);
  for (const Sample& m : s.of(Experiment::kSend))
    EXPECT_FALSE(m.bytes > lo && m.bytes <= hi) << "size " << m.bytes << " between " << found << " and " << truth;
}

// A line within `tol` of the truth at both ends of the segment's sizes; and, in segments spanning
// a factor 4 of sizes or more, each coefficient within 2.5 tol where it carries at least half of
// the value (over a narrower segment, such as 32769..65536, intercept and slope trade off: the
// function is certain, each coefficient alone much less).
void expect_line(Line fit, Line want, const SegmentParams& s, const std::string& what, double tol) {
  for (double x : {s.lo, s.hi})
    EXPECT_NEAR(fit.at(x) / want.at(x), 1.0, tol) << what << " at " << x;
  if (s.hi < 4 * s.lo) return;
  if (want.intercept >= 0.5 * want.at(s.lo)) {
    EXPECT_NEAR(fit.intercept / want.intercept, 1.0, 2.5 * tol) << what;
  }
  if (want.slope * s.hi >= 0.5 * want.at(s.hi)) {
    EXPECT_NEAR(fit.slope / want.slope, 1.0, 2.5 * tol) << what;
  }
}

TEST(CalibrateFit, RecoversTheFlowModelFromSyntheticMeasurements) {
  const CalibrationSamples samples = parse_calibration_samples(synthetic_csv(11, 200, 5, 0.05), "synthetic.csv");
  const CalibrationFit f = fit_calibration(samples, CalibrationOptions{});
  expect_same_split(samples, f.async_threshold, kAsync);
  expect_same_split(samples, f.detached_threshold, kDetached);
  ASSERT_EQ(f.segments.size(), kTruth.size()) << "boundaries found: " << ::testing::PrintToString(f.boundaries);
  const Bytes truth_bounds[] = {1420, 32768, kAsync, kDetached};
  for (size_t i = 0; i < 4; ++i) expect_same_split(samples, f.boundaries[i], truth_bounds[i]);
  const Protocol modes[] = {Protocol::kAsynchronous, Protocol::kAsynchronous, Protocol::kAsynchronous,
                            Protocol::kDetached, Protocol::kSynchronous};
  for (size_t j = 0; j < kTruth.size(); ++j) {
    SCOPED_TRACE("segment " + std::to_string(j + 1));
    const SegmentParams& s = f.segments[j];
    const TrueSegment& t = kTruth[j];
    EXPECT_EQ(s.protocol, modes[j]);
    // Measured directly: os (send) and ois (isend) below S_d, or (recv) when asynchronous.
    // Derived from differences of the fitted lines: T (pingpong/2 - os - or, recv - or), and os, or
    // when synchronous (pingpong/2 - recv, pingpong/2 - send: small against the round trip, so
    // they carry its noise). Detached: recv = T + or cannot separate the two; or continues the last
    // asynchronous line (the convention, which this truth follows), so their sum is what counts.
    const Line truth_t{t.latency, 1 / t.bandwidth};
    expect_line(s.ois, t.ois, s, "ois", 0.03);
    expect_line(s.transfer, truth_t, s, "T", 0.04);
    if (s.protocol == Protocol::kSynchronous) {
      expect_line(s.os, t.os, s, "os", 0.1);
      expect_line(s.orr, t.orr, s, "or", 0.1);
    } else if (s.protocol == Protocol::kDetached) {
      expect_line(s.os, t.os, s, "os", 0.03);
      expect_line(s.transfer + s.orr, truth_t + t.orr, s, "T + or", 0.03);
    } else {
      expect_line(s.os, t.os, s, "os", 0.03);
      expect_line(s.orr, t.orr, s, "or", 0.03);
    }
  }
  EXPECT_NEAR(f.link_latency_s / kLinkLatency, 1.0, 0.05);
  EXPECT_NEAR(f.link_bandwidth_Bps / kLinkBandwidth, 1.0, 0.05);
  EXPECT_NEAR(f.segments[0].bw_factor / 0.05, 1.0, 0.05);
  EXPECT_NEAR(f.segments[1].lat_factor / 2.16, 1.0, 0.05);
  ASSERT_TRUE(f.limiter_factor && f.bidir_ratio);
  EXPECT_NEAR(*f.bidir_ratio, kLimiter, 0.05 * kLimiter);
  EXPECT_NEAR(*f.limiter_factor, kLimiter, 0.05 * kLimiter);
  ASSERT_TRUE(f.host_speed_flops);
  EXPECT_NEAR(*f.host_speed_flops / kSpeed, 1.0, 0.05);
  // A reduction of one element costs kReduceSecondsPerElement, i.e. speed x that many flops.
  ASSERT_TRUE(f.reduce_flops_per_element);
  EXPECT_NEAR(*f.reduce_flops_per_element / (kSpeed * kReduceSecondsPerElement), 1.0, 0.1);
  EXPECT_NEAR(f.loggops_g_ps / (kGap * 1e12), 1.0, 0.05);
  EXPECT_NEAR(f.loggops_o_ps / (3.8e-6 * 1e12), 1.0, 0.05);
  EXPECT_NEAR(f.loggops_L_ps / (kLinkLatency * 1e12), 1.0, 0.05);
  EXPECT_NEAR(f.loggops_G_ps_per_byte / (1e12 / kLinkBandwidth), 1.0, 0.05);
  EXPECT_EQ(f.loggops_S, f.detached_threshold);
  EXPECT_EQ(f.outliers_dropped, 0u);
}

TEST(CalibrateFit, WrittenPlatformLoadsAndItsConfigParses) {
  const CalibrationSamples samples = parse_calibration_samples(synthetic_csv(3, 120, 3, 0.05), "synthetic.csv");
  const CalibrationFit f = fit_calibration(samples, CalibrationOptions{});
  std::ostringstream yaml;
  write_platform_yaml(yaml, f, samples, 4);
  const Platform p = load_platform(testing::write_test_file("calibrated.yaml", yaml.str()));
  EXPECT_EQ(p.host_count(), 4);
  Config cfg;
  register_builtin_keys(cfg);
  for (const PlatformSetting& s : p.settings()) cfg.set(s.key, s.value, s.loc);
  EXPECT_EQ(cfg.choice("network/model"), "flow");
  const flow::FlowParams fp = flow::flow_params(cfg);
  EXPECT_EQ(fp.os.sections().size(), f.segments.size());
  EXPECT_EQ(cfg.bytes("flow/detached-threshold"), f.detached_threshold);
  EXPECT_EQ(cfg.bytes("loggops/S"), f.detached_threshold);
  // The tables reproduce the fitted lines (9 significant digits).
  for (const SegmentParams& s : f.segments) {
    const Bytes k = static_cast<Bytes>(s.hi);
    EXPECT_NEAR(fp.os.value(k), s.os.at(s.hi), 1e-8 * s.os.at(s.hi) + 1e-18);
    EXPECT_NEAR(fp.bw_factor.value(k), s.bw_factor, 1e-8);
  }
  const std::string svg_json = fit_json(f, samples);
  EXPECT_NE(svg_json.find("\"limiter_factor\""), std::string::npos);
}

void expect_csv_error(const std::string& text, int line, const std::string& what) {
  try {
    parse_calibration_samples(text, "bad.csv");
    FAIL() << "expected an InputError for:\n" << text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "bad.csv");
    EXPECT_EQ(e.loc().line, line) << e.what();
    EXPECT_NE(e.message().find(what), std::string::npos) << e.message();
  }
}

TEST(CalibrateSamples, BadInputIsReportedAtFileAndLine) {
  const std::string head = "# simfab-calibrate 1\n# np: 2\nexperiment,bytes,seconds\n";
  expect_csv_error("experiment,bytes,seconds\nsend,1,1e-6\n", 1, "expected the first line '# simfab-calibrate 1'");
  expect_csv_error("# simfab-calibrate 2\n", 1, "unsupported calibration format version");
  expect_csv_error(head + "send,1,1e-6\nsend,2\n", 5, "expected a row 'experiment,bytes,seconds'");
  expect_csv_error(head + "send,1,1e-6,7\n", 4, "three comma-separated fields");
  expect_csv_error(head + "pingpog,1,1e-6\n", 4, "unknown experiment 'pingpog' (did you mean 'pingpong'?)");
  expect_csv_error(head + "send,12x,1e-6\n", 4, "size in bytes as a whole number");
  expect_csv_error(head + "send,-3,1e-6\n", 4, "size in bytes as a whole number");
  expect_csv_error(head + "send,12,-1e-6\n", 4, "time in seconds as a finite number > 0");
  expect_csv_error(head + "send,12,nan\n", 4, "time in seconds as a finite number > 0");
  expect_csv_error(head + "send,12,0\n", 4, "time in seconds as a finite number > 0");
  expect_csv_error("# simfab-calibrate 1\n# late-recv-delay: soon\n", 2, "late-recv-delay");
  try {
    parse_calibration_samples(head, "empty.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("no measurements"), std::string::npos);
  }
}

TEST(CalibrateSamples, ParsesHeaderAndRows) {
  const CalibrationSamples s = parse_calibration_samples(
      "# simfab-calibrate 1\r\n# hostname: h1\n# library: Open MPI v4.1.4, package: Debian\n"
      "# late-recv-delay: 0.001\n\nexperiment,bytes,seconds\nsend,1420,2.5e-06\nrecv,0,1e-7\n",
      "ok.csv");
  EXPECT_EQ(s.header_value("hostname"), "h1");
  EXPECT_EQ(s.header_value("library"), "Open MPI v4.1.4, package: Debian");
  EXPECT_DOUBLE_EQ(s.late_delay_s, 0.001);
  ASSERT_EQ(s.of(Experiment::kSend).size(), 1u);
  EXPECT_EQ(s.of(Experiment::kSend)[0].bytes, 1420u);
  EXPECT_EQ(s.of(Experiment::kSend)[0].line, 7);
  EXPECT_EQ(s.total(), 2u);
}

TEST(CalibrateFit, MissingExperimentsAndThinForcedSegmentsAreInputErrors) {
  const CalibrationSamples no_recv = parse_calibration_samples(
      "# simfab-calibrate 1\nsend,1,1e-6\nsend,2,1e-6\npingpong,1,1e-6\n", "partial.csv");
  try {
    fit_calibration(no_recv, CalibrationOptions{});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "partial.csv");
    EXPECT_NE(e.message().find("no 'recv' measurements"), std::string::npos) << e.message();
  }
  // A user breakpoint leaving a segment with too few measurements names it and the counts.
  const CalibrationSamples samples = parse_calibration_samples(synthetic_csv(5, 100, 2, 0.05), "synthetic.csv");
  CalibrationOptions o;
  o.automatic = false;
  o.breakpoints = {1000, 1001};  // segment 2 holds the size 1001 alone, if measured at all
  try {
    fit_calibration(samples, o);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "synthetic.csv");
    EXPECT_NE(e.message().find("segment 2 (1001..1001 B) has "), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("at least 6 samples"), std::string::npos) << e.message();
  }
}

TEST(CalibrateFit, UserBreakpointsAreTheSegments) {
  const CalibrationSamples samples = parse_calibration_samples(synthetic_csv(8, 150, 4, 0.05), "synthetic.csv");
  CalibrationOptions o;
  o.automatic = false;
  o.breakpoints = {1420, 32768};
  const CalibrationFit f = fit_calibration(samples, o);
  std::vector<Bytes> expected = {1420, 32768, f.async_threshold, f.detached_threshold};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(f.boundaries, expected);
}

// Best of the repetitions (seed 003): noise that only adds time biases a fit of every repetition
// by half the noise on average; the fastest of 5 repetitions is within noise / 6 of the truth.
// The spread is the median over sizes of (median - best) / best: with uniform noise u * 40 %, the
// median of 5 repetitions sits at 0.5 * 40 % and the best at 40 % / 6, so about 12.5 %.
TEST(CalibrateFit, BestOfTheRepetitionsAndTheSpread) {
  const CalibrationSamples noisy = parse_calibration_samples(synthetic_csv(21, 200, 5, 0.4), "noisy.csv");
  CalibrationOptions all;
  all.keep_best = false;
  const CalibrationFit f_all = fit_calibration(noisy, all);
  const CalibrationFit f_best = fit_calibration(noisy, CalibrationOptions{});
  EXPECT_TRUE(f_best.best_of);
  EXPECT_FALSE(f_all.best_of);
  // os of the first segment (3.8 us + 0.11 ps/B): every repetition +20 % on average, the best +7 %.
  const double x = 100, truth = kTruth[0].os.at(x);
  EXPECT_NEAR(f_all.segments[0].os.at(x) / truth, 1.2, 0.04);
  EXPECT_NEAR(f_best.segments[0].os.at(x) / truth, 1.0 + 0.4 / 6, 0.03);
  ASSERT_FALSE(f_best.spread.empty());
  for (const Spread& sp : f_best.spread) {
    if (sp.experiment != Experiment::kSend && sp.experiment != Experiment::kPingpong) continue;
    EXPECT_GT(sp.sizes, 150u);  // the distinct ones of 200 random sizes
    EXPECT_NEAR(sp.median, 0.125, 0.03) << experiment_name(sp.experiment);
    EXPECT_GE(sp.worst, sp.median);
  }
  // Above max_spread the fit is refused, naming the experiment and both figures.
  CalibrationOptions strict;
  strict.max_spread = 0.05;
  try {
    fit_calibration(noisy, strict);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "noisy.csv");
    EXPECT_NE(e.message().find("more than --max-spread 5 %"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("pingpong's repetitions spread 1"), std::string::npos) << e.message();
  }
  strict.max_spread = 0;  // never refuse
  EXPECT_NO_THROW(fit_calibration(noisy, strict));
}

// first_call / next_call (issue 28): the extra time of a collective's first call, the fastest
// first minus the fastest second; written to the platform as mpi/first-call.
TEST(CalibrateFit, FirstCallsBecomeTheFirstCallTable) {
  std::string csv = synthetic_csv(4, 100, 3, 0.05);
  for (int run = 0; run < 3; ++run)
    csv += "first_call,3," + std::to_string(14e-6 + run * 1e-6) + "\nnext_call,3," + std::to_string(2e-6 + run * 1e-6) +
           "\nfirst_call,1,5e-07\nnext_call,1,8e-07\n";  // bcast: the first call faster: 0
  const CalibrationSamples samples = parse_calibration_samples(csv, "fc.csv");
  const CalibrationFit f = fit_calibration(samples, CalibrationOptions{});
  ASSERT_EQ(f.first_call_s.size(), 2u);
  EXPECT_EQ(f.first_call_s[0].first, 1u);
  EXPECT_DOUBLE_EQ(f.first_call_s[0].second, 0.0);
  EXPECT_EQ(f.first_call_s[1].first, 3u);
  EXPECT_NEAR(f.first_call_s[1].second, 12e-6, 1e-12);
  std::ostringstream yaml;
  write_platform_yaml(yaml, f, samples, 2);
  EXPECT_NE(yaml.str().find("  mpi/first-call: \"bcast=0;allreduce=1.2e-05\""), std::string::npos) << yaml.str();
  // A collective number out of 0..14 is an error at its line.
  try {
    parse_calibration_samples("# simfab-calibrate 1\nfirst_call,15,1e-6\n", "bad.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_NE(e.message().find("0 (barrier) .. 14 (exscan)"), std::string::npos) << e.message();
  }
}

TEST(CalibrateSamples, RunsOfTheSameSetupMergeAndOthersAreRefused) {
  const std::string a = synthetic_csv(1, 20, 2, 0.05), b = synthetic_csv(2, 30, 2, 0.05);
  std::vector<CalibrationSamples> runs;
  runs.push_back(parse_calibration_samples(a, "a.csv"));
  runs.push_back(parse_calibration_samples(b, "b.csv"));
  const size_t total = runs[0].total() + runs[1].total();
  const CalibrationSamples m = merge_calibration_samples(std::move(runs));
  EXPECT_EQ(m.total(), total);
  EXPECT_EQ(m.source, "a.csv + b.csv");
  EXPECT_EQ(m.header_value("library"), "the flow model");
  std::string other = b;
  other.replace(other.find("the flow model"), 14, "Open MPI v4.1.4");
  runs.clear();
  runs.push_back(parse_calibration_samples(a, "a.csv"));
  runs.push_back(parse_calibration_samples(other, "c.csv"));
  try {
    merge_calibration_samples(std::move(runs));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "c.csv");
    EXPECT_NE(e.message().find("header 'library' is 'Open MPI v4.1.4' here but 'the flow model' in a.csv"),
              std::string::npos)
        << e.message();
  }
}

}  // namespace
}  // namespace simfab::calibrate
