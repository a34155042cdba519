// OS noise sources of issue 33's second half (src/noise/): detour lengths from a histogram, noise
// on collectives only, noise per host class; each against hand-computed closed forms.
#include <gtest/gtest.h>

#include "core/config.hpp"
#include "noise/detour_histogram.hpp"
#include "noise/noise_classes.hpp"
#include "noise/noise_keys.hpp"
#include "noise/noise_model.hpp"
#include "platform/xml_platform.hpp"
#include "platform/yaml_platform.hpp"
#include "test_support.hpp"

namespace simfab {
namespace {

using noise::DetourHistogram;

// A configuration with the noise keys and `sets` ("noise/period=1us", ...) given.
Config noise_config(const std::vector<std::string>& sets) {
  Config cfg;
  noise::register_noise_keys(cfg);
  for (const std::string& s : sets) cfg.set_assignment(s, SourceLoc{"test", 0, 0});
  return cfg;
}

constexpr uint64_t kQuarter = uint64_t{1} << 62;  // x / 2^64 = 1/4

TEST(NoiseHistogram, ParsesBinsAndDrawsByInverseCdf) {
  // Bins 10 ns (weight 1) and 30 ns (weight 3): W = 4000 thousandths, c = [1000, 4000].
  const DetourHistogram h = DetourHistogram::parse("h.txt", "# FTQ\n10 1\n\n30\t3\n");
  ASSERT_EQ(h.bins().size(), 2u);
  EXPECT_EQ(h.bins()[1].duration_ps, 30'000);
  EXPECT_EQ(h.bins()[1].line, 4);
  EXPECT_EQ(h.total_weight(), 4000);
  // y = floor(x W / 2^64): x = 0 -> 0 -> bin 0; x = 2^62 - 1 -> 999 -> bin 0; x = 2^62 -> 1000 ->
  // bin 1 (c_0 = 1000 is not > 1000); x = 2^64 - 1 -> 3999 -> bin 1.
  EXPECT_EQ(h.draw(0), 10'000);
  EXPECT_EQ(h.draw(kQuarter - 1), 10'000);
  EXPECT_EQ(h.draw(kQuarter), 30'000);
  EXPECT_EQ(h.draw(UINT64_MAX), 30'000);
  // mu = (1000 x 10,000 + 3000 x 30,000) / 4000 = 25,000 ps.
  EXPECT_EQ(h.mean_ps(), 25'000);
  // The CSV form, decimal weights; a zero-weight bin is never drawn.
  const DetourHistogram c = DetourHistogram::parse("h.csv", "duration_ns,weight\r\n0.5,0\r\n2.25,2.5\r\n");
  EXPECT_EQ(c.total_weight(), 2500);
  EXPECT_EQ(c.draw(0), 2'250);
  EXPECT_EQ(c.mean_ps(), 2'250);
}

TEST(NoiseHistogram, FitsThePeriod) {
  const DetourHistogram h = DetourHistogram::parse("h.txt", "10 1\n30 3\n");
  // mu = 25 ns <= P / 2 exactly at P = 50 ns (2 sum w d = P W = 2e8).
  EXPECT_NO_THROW(h.fit_period(50'000));
  try {
    h.fit_period(49'999);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 0);
    EXPECT_NE(e.message().find("mean length (25 ns) is more than half of noise/period (49.999 ns)"), std::string::npos)
        << e.message();
  }
  try {
    h.fit_period(30'000);  // the 30 ns bin (line 2) does not fit
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_NE(e.message().find("a detour of 30 ns does not fit noise/period (30 ns)"), std::string::npos) << e.message();
  }
}

void expect_histogram_error(const std::string& text, int line, const std::string& words) {
  testing::expect_input_error_at([&] { DetourHistogram::parse("h.txt", text); }, line, words, text);
}

TEST(NoiseHistogram, ErrorsNameTheLine) {
  expect_histogram_error("10 1\n-5 1\n", 2, "a negative duration");
  expect_histogram_error("10 -1\n", 1, "a negative weight");
  expect_histogram_error("10 1\n0 1\n", 2, "a detour of duration 0");
  expect_histogram_error("10 1\n20\n", 2, "expected `<duration_ns> <count>`");
  expect_histogram_error("10 lots\n", 1, "the weight 'lots' is not a number");
  expect_histogram_error("duration_ns,weight\n10;1\n", 2, "expected `<duration_ns>,<weight>`");
  expect_histogram_error("10 0\n20 0\n", 0, "weights add up to 0");
  expect_histogram_error("# nothing\n", 0, "the detour histogram is empty");
}

TEST(NoiseHistogram, DrawsThroughTheNoiseKeys) {
  // One bin of 20 ns, a detour every 1 us at offset 0: a calc of 10 us from t = 0 meets the detour
  // in progress at 0 and those starting at 1..9 us: 10 x 20 ns = 200 ns.
  const std::string one = testing::write_test_file("one.txt", "20 1\n");
  noise::NoiseSetup s = noise::make_noise(
      noise_config({"noise/period=1us", "noise/distribution=histogram", "noise/histogram=" + one, "noise/offsets=0"}), 1);
  ASSERT_TRUE(s.model);
  EXPECT_EQ(s.model->stretch(0, SimTime::zero(), SimTime::ps(10'000'000)).ps(), 10'200'000);
  EXPECT_EQ(s.result().detours[0], 10u);
  EXPECT_EQ(s.source, "synthetic, histogram durations from " + one);
  // Two bins (10 ns x 1, 30 ns x 3): over the 1024 drawn periods every detour hits a calc of
  // 1024 us, so the noise is 10 ns n10 + 30 ns n30 with n10 + n30 = 1024, mean 25 ns (the standard
  // error of 1024 draws is 0.27 ns: within 2 ns); the same seed repeats it, another differs.
  const std::string two = testing::write_test_file("two.txt", "10 1\n30 3\n");
  auto total = [&](const std::string& seed) {
    noise::NoiseSetup t = noise::make_noise(noise_config({"noise/period=1us", "noise/distribution=histogram",
                                                          "noise/histogram=" + two, "noise/seed=" + seed}), 1);
    // Read from the rank's own offset: the whole cycle of 1024 periods.
    const int64_t noise = t.model->stretch(0, SimTime::zero(), SimTime::ps(1'024'000'000)).ps() - 1'024'000'000;
    EXPECT_EQ(t.result().detours[0], 1024u);
    return noise;
  };
  const int64_t a = total("5");
  EXPECT_EQ((a - 1024 * 10'000) % 20'000, 0);
  EXPECT_GT(a, 1024 * 23'000);
  EXPECT_LT(a, 1024 * 27'000);
  EXPECT_EQ(total("5"), a);
  EXPECT_NE(total("6"), a);
}

void expect_setup_error(const std::vector<std::string>& sets, const std::string& where, const std::string& words) {
  try {
    noise::make_noise(noise_config(sets), 2);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(e.loc().file.find(where), std::string::npos) << e.loc().file;
    EXPECT_NE(e.message().find(words), std::string::npos) << e.message();
  }
}

TEST(NoiseHistogram, KeyCombinationsAreChecked) {
  const std::string h = testing::write_test_file("h.txt", "10 1\n30 3\n");
  expect_setup_error({"noise/period=1us", "noise/distribution=histogram"}, "noise/distribution", "add it");
  expect_setup_error({"noise/period=1us", "noise/histogram=" + h}, "noise/histogram", "noise/distribution=histogram");
  expect_setup_error({"noise/period=1us", "noise/duration=10ns", "noise/distribution=histogram", "noise/histogram=" + h},
                     "noise/duration", "leave noise/duration out");
  expect_setup_error({"noise/distribution=histogram", "noise/histogram=" + h}, "noise/histogram", "needs noise/period");
  expect_setup_error({"noise/period=40ns", "noise/distribution=histogram", "noise/histogram=" + h}, h,
                     "more than half of noise/period");
}

TEST(NoiseCollectives, OnlyCollectiveIntervalsAreStretched) {
  // Detour [0, 50) every 1000 at offset 0; an interval from t = 0 of 100 ps gains 50 when it is in
  // a collective and nothing otherwise; without the switch both gain 50.
  noise::NoiseModel m(noise::DetourTrace({{0, 50}}, 1000), noise::NoiseRule::kLoggopsim, {0});
  EXPECT_EQ(m.stretch(0, SimTime::zero(), SimTime::ps(100), false).ps(), 150);
  m.set_collectives_only(true);
  EXPECT_EQ(m.stretch(0, SimTime::zero(), SimTime::ps(100), false).ps(), 100);
  EXPECT_EQ(m.stretch(0, SimTime::zero(), SimTime::ps(100), true).ps(), 150);
  const noise::NoiseResult r = m.result("fixed", "test");
  EXPECT_EQ(r.noise_ps[0], 100);  // the first and the last interval
  EXPECT_EQ(r.detours[0], 2u);
  EXPECT_TRUE(r.collectives_only);
}

TEST(NoiseCollectives, GoalOpsAreNotCollectives) {
  // GOAL ops carry context 0 (point-to-point): with collectives only, a calc is not stretched.
  noise::NoiseModel m(noise::DetourTrace({{300, 50}}, 10000), noise::NoiseRule::kLoggopsim, {0});
  m.set_collectives_only(true);
  ExecutionResult r = testing::run_goal("num_ranks 1\nrank 0 {\nl1: calc 1000\n}\n", testing::params(0, 0, 0, 0, 0), &m);
  EXPECT_EQ(r.finish[0].ps(), 1000);
}

TEST(NoiseClasses, ParsesSpecs) {
  const auto c = noise::parse_noise_classes("io:period=1ms, duration=50us ; gpu:off");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].name, "io");
  ASSERT_EQ(c[0].keys.size(), 2u);
  EXPECT_EQ(c[0].keys[1], (std::pair<std::string, std::string>{"duration", "50us"}));
  EXPECT_TRUE(c[1].off);
  for (const char* bad : {"io", "io:period", "io:off;io:off", "io:rule=preempt", ":off", "io:off;"})
    EXPECT_THROW(noise::parse_noise_classes(bad), InputError) << bad;
}

TEST(NoiseClasses, EachClassReadsItsOwnSource) {
  // Classes io (period 1 us, detour 100 ns) and cpu (off); global: 50 ns every 2 us. Ranks 0..2 on
  // an io host, a cpu host and an unclassed host; offsets 0. A calc of 2.5 us from t = 0 gains:
  //   io: the detour in progress at 0 and those at 1 and 2 us: 300 ns; cpu: nothing;
  //   unclassed: the detour in progress at 0 and the one at 2 us: 100 ns.
  const Config cfg = noise_config({"noise/period=2us", "noise/duration=50ns", "noise/offsets=0",
                                   "noise/classes=io:period=1us,duration=100ns;cpu:off"});
  noise::NoiseSetup s = noise::make_noise(cfg, {"cpu", "io"}, {1, 0, -1});
  ASSERT_TRUE(s.model);
  const SimTime c = SimTime::ps(2'500'000);
  EXPECT_EQ(s.model->stretch(0, SimTime::zero(), c).ps(), 2'800'000);
  EXPECT_EQ(s.model->stretch(1, SimTime::zero(), c).ps(), 2'500'000);
  EXPECT_EQ(s.model->stretch(2, SimTime::zero(), c).ps(), 2'600'000);
  const noise::NoiseResult r = s.result();
  ASSERT_EQ(r.classes.size(), 2u);
  EXPECT_EQ(r.classes[0].name, "io");
  EXPECT_EQ(r.classes[0].period_ps, 1'000'000);
  EXPECT_EQ(r.classes[1].source, "off");
  EXPECT_EQ(r.rank_class, (std::vector<int32_t>{0, 1, -1}));
  EXPECT_EQ(r.period_ps, 2'000'000);
  // One fixed offset of 1.5 us, taken modulo each rank's period: 0.5 us, 0 (no noise), 1.5 us.
  noise::NoiseSetup o = noise::make_noise(
      noise_config({"noise/period=2us", "noise/duration=50ns", "noise/offsets=1.5us",
                    "noise/classes=io:period=1us,duration=100ns;cpu:off"}),
      {"cpu", "io"}, {1, 0, -1});
  EXPECT_EQ(o.result().offset_ps, (std::vector<int64_t>{500'000, 0, 1'500'000}));
}

TEST(NoiseClasses, OnlyClassesMayHaveNoise) {
  // No global noise: the unclassed rank gets none; the JSON's global period reads 0.
  noise::NoiseSetup s = noise::make_noise(noise_config({"noise/offsets=0", "noise/classes=io:period=1us,duration=100ns"}),
                                          {"io"}, {0, -1});
  ASSERT_TRUE(s.model);
  EXPECT_EQ(s.model->stretch(0, SimTime::zero(), SimTime::ps(500'000)).ps(), 600'000);
  EXPECT_EQ(s.model->stretch(1, SimTime::zero(), SimTime::ps(500'000)).ps(), 500'000);
  EXPECT_EQ(s.result().period_ps, 0);
  EXPECT_EQ(s.source, "none");
  // A class no host has, a class that gives no noise, all off without global noise.
  try {
    noise::make_noise(noise_config({"noise/classes=gpu:off"}), {"io"}, {0});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("no host of the platform has noise_class 'gpu' (its classes: io)"), std::string::npos)
        << e.message();
  }
  EXPECT_THROW(noise::make_noise(noise_config({"noise/classes=io:distribution=uniform"}), {"io"}, {0}), InputError);
  EXPECT_THROW(noise::make_noise(noise_config({"noise/classes=io:off"}), {"io"}, {0}), InputError);
}

TEST(NoiseClasses, PlatformsDeclareClasses) {
  const Platform y = parse_platform_yaml(
      "hosts:\n  - {name: a, speed: 1Gf, noise_class: io}\n  - {name: b, speed: 1Gf}\n"
      "clusters:\n  - {name: c, prefix: n, count: 2, speed: 1Gf, bandwidth: 1Gbps, latency: 1us, noise_class: cpu}\n",
      "p.yaml");
  EXPECT_EQ(y.noise_classes(), (std::vector<std::string>{"io", "cpu"}));
  EXPECT_EQ(y.host(0).noise_class, 0);
  EXPECT_EQ(y.host(1).noise_class, -1);
  EXPECT_EQ(y.host(2).noise_class, 1);
  EXPECT_EQ(y.host(3).noise_class, 1);
  EXPECT_THROW(parse_platform_yaml("hosts:\n  - {name: a, speed: 1Gf, noise_class: 'i o'}\n", "p.yaml"), InputError);
  const Platform x = parse_platform_xml(
      "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n"
      "<host id=\"a\" speed=\"1Gf\"><prop id=\"noise_class\" value=\"io\"/></host>\n"
      "<host id=\"b\" speed=\"1Gf\"/>\n</zone>\n</platform>\n",
      "p.xml");
  EXPECT_EQ(x.noise_classes(), (std::vector<std::string>{"io"}));
  EXPECT_EQ(x.host(0).noise_class, 0);
  EXPECT_EQ(x.host(1).noise_class, -1);
}

}  // namespace
}  // namespace simfab
