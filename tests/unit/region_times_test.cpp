// RegionTimes (mpi/region_times.hpp): code regions named from CallSites, factors applied per
// region, the calibration rule on per-execution means, and the CSV splitting both files use.
#include "mpi/region_times.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/error.hpp"

namespace simfab {
namespace {

std::string temp_file(const std::string& text) {
  static int n = 0;
  const std::string path = ::testing::TempDir() + "region_factors_" + std::to_string(n++) + ".csv";
  std::ofstream(path) << text;
  return path;
}

TEST(RegionTimes, SplitsQuotedCsvFields) {
  EXPECT_EQ(*split_csv_line("a,b"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*split_csv_line("\"x.f:1:y.f:2\",1.5"), (std::vector<std::string>{"x.f:1:y.f:2", "1.5"}));
  EXPECT_EQ(*split_csv_line("\"a,\"\"b\"\"\",2"), (std::vector<std::string>{"a,\"b\"", "2"}));
  EXPECT_EQ(*split_csv_line(""), (std::vector<std::string>{""}));
  EXPECT_FALSE(split_csv_line("\"open,2").has_value());
}

TEST(RegionTimes, NamesRegionsBySeedOnesPreviousAndNextSites) {
  CallSites sites;
  sites.at_site(0, sites.site("exchange_1.f", 130));
  sites.called(0);
  sites.at_site(0, sites.site("exchange_1.f", 30));
  const uint32_t t = sites.task_before(0);
  EXPECT_EQ(RegionTimes::region_name(sites, t), "exchange_1.f:130:exchange_1.f:30");
  EXPECT_EQ(RegionTimes::region_name(sites, 0), "?:?");
}

TEST(RegionTimes, ChargesEachRegionItsFactorAndCountsIt) {
  CallSites sites;
  sites.at_site(0, sites.site("k.c", 10));
  const uint32_t a = sites.task_before(0);  // ?:k.c:10
  sites.called(0);
  sites.at_site(0, sites.site("k.c", 20));
  const uint32_t b = sites.task_before(0);  // k.c:10:k.c:20
  RegionTimes rt;
  rt.load_factors(temp_file("region,factor\n# slow kernel\n\"?:k.c:10\",2.5\n\"never:ran\",3\n"));
  EXPECT_EQ(rt.charge(sites, a, 1000), 2500u);
  EXPECT_EQ(rt.charge(sites, b, 1000), 1000u);
  EXPECT_EQ(rt.charge(sites, a, 3), 8u);  // 7.5 rounds to the nearest picosecond
  const auto rows = rt.rows(sites);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "?:k.c:10");
  EXPECT_EQ(rows[0].executions, 2u);
  EXPECT_EQ(rows[0].given_ps, 1003u);
  EXPECT_EQ(rows[0].charged_ps, 2508u);
  EXPECT_EQ(rows[0].factor, 2.5);
  EXPECT_EQ(rows[1].factor, 1.0);
  EXPECT_EQ(rt.unused_factors(), std::vector<std::string>{"never:ran"});
}

TEST(RegionTimes, FactorIsTheRatioOfMeansPerExecution) {
  // The reference ran region "k" 4 times (8 s), the measured run twice (2 s): 2 s / 1 s = 2.
  const std::vector<RegionMeasurement> ref = {{"k", 4, 8.0}, {"only-ref", 1, 1.0}, {"idle", 1, 0.0}};
  const std::vector<RegionMeasurement> meas = {{"idle", 1, 0.0}, {"k", 2, 2.0}, {"only-meas", 3, 1.0}};
  std::vector<std::string> only_ref, only_meas;
  const auto f = region_factors(ref, meas, only_ref, only_meas);
  ASSERT_EQ(f.size(), 1u);  // "idle" has no time on either side: nothing to scale
  EXPECT_EQ(f[0].name, "k");
  EXPECT_DOUBLE_EQ(f[0].factor, 2.0);
  EXPECT_EQ(f[0].executions_reference, 4u);
  EXPECT_EQ(f[0].executions_measured, 2u);
  EXPECT_EQ(only_ref, std::vector<std::string>{"only-ref"});
  EXPECT_EQ(only_meas, std::vector<std::string>{"only-meas"});
}

TEST(RegionTimes, BadFactorFilesNameTheLine) {
  auto line_of = [](const std::string& text) {
    try {
      RegionTimes().load_factors(temp_file(text));
    } catch (const InputError& e) {
      return e.loc().line;
    }
    return -1;
  };
  EXPECT_EQ(line_of("region,factor\n\"a:b\",-1\n"), 2);
  EXPECT_EQ(line_of("\"a:b\",inf\n"), 1);
  EXPECT_EQ(line_of("\"a:b\",1\n\n\"a:b\",2\n"), 3);
  EXPECT_EQ(line_of(",2\n"), 1);
  EXPECT_EQ(line_of("# only a comment\n"), 0);
}

}  // namespace
}  // namespace simfab
