// The sweep's pieces that need no process: CSV quoting and reading (core/csv), the spec's grid
// order, fixed values and checks (sweep/sweep_spec), the results table and its statuses
// (sweep/sweep_results), the progress line (report/sweep_progress). tests/sweep/run_sweep.py runs
// whole sweeps.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/csv.hpp"
#include "report/sweep_progress.hpp"
#include "sweep/sweep_results.hpp"
#include "sweep/sweep_spec.hpp"

namespace simfab {
namespace {

std::string write_spec(const std::string& name, const std::string& text) {
  const std::string dir = testing::TempDir() + "sweep_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/app.ti") << "0 init\n0 finalize\n";
  std::ofstream(dir + "/" + name) << text;
  return dir + "/" + name;
}

TEST(SweepCsv, QuotesOnlyWhatMustBeAndReadsItBack) {
  EXPECT_EQ(csv_field("flow"), "flow");
  EXPECT_EQ(csv_field("a, b"), "\"a, b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  const auto records = parse_csv("x,y\r\n\"a, b\",\"say \"\"hi\"\"\"\n\nlast,\n", "t.csv");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[1], (std::vector<std::string>{"a, b", "say \"hi\""}));
  EXPECT_EQ(records[2], (std::vector<std::string>{"last", ""}));
  EXPECT_THROW(parse_csv("a,\"open\n", "t.csv"), InputError);
}

TEST(SweepSpec, ProductFirstAxisSlowestThenPointsWithFixedValuesShown) {
  const SweepSpec s = load_sweep_spec(write_spec("grid.yaml",
                                                 "trace: app.ti\ncfg:\n  loggops/L: 1us\nrepetitions: 2\n"
                                                 "axes:\n  network/model: [loggops, flow]\n  loggops/G: [1ns, 2ns]\n"
                                                 "points:\n  - {loggops/L: 2us}\n"));
  ASSERT_EQ(s.columns, (std::vector<std::string>{"network/model", "loggops/G", "loggops/L"}));
  ASSERT_EQ(s.points.size(), 10u);  // (4 + 1) x 2 repetitions
  EXPECT_EQ(s.points[0].cells, (std::vector<std::string>{"loggops", "1ns", "1us"}));
  EXPECT_EQ(s.points[1].rep, 2);
  EXPECT_EQ(s.points[2].cells, (std::vector<std::string>{"loggops", "2ns", "1us"}));
  EXPECT_EQ(s.points[4].cells[0], "flow");
  EXPECT_EQ(s.points[8].cells, (std::vector<std::string>{"", "", "2us"}));
  const auto args = point_arguments(s, s.points[8], "/tmp/p.json");
  EXPECT_EQ(args[0], "run");
  EXPECT_NE(std::find(args.begin(), args.end(), "loggops/L=2us"), args.end());
  EXPECT_EQ(std::find(args.begin(), args.end(), "loggops/L=1us"), args.end());
  EXPECT_EQ(args[2], s.base_dir + "/app.ti");  // relative to the spec's directory
}

TEST(SweepSpec, BadSpecsNameTheLine) {
  auto error_line = [](const std::string& text) {
    try {
      load_sweep_spec(write_spec("bad.yaml", text));
    } catch (const InputError& e) {
      return e.loc().line;
    }
    return -1;
  };
  EXPECT_EQ(error_line("trace: app.ti\naxes:\n  network/model: []\n"), 3);              // empty axis
  EXPECT_EQ(error_line("trace: app.ti\naxes:\n  network/modle: [flow]\n"), 3);          // unknown key
  EXPECT_EQ(error_line("trace: app.ti\naxes:\n  loggops/L: [1us, soon]\n"), 3);         // bad value
  EXPECT_EQ(error_line("trace: app.ti\nax:\n  network/model: [flow]\n"), 2);            // unknown top key
  EXPECT_EQ(error_line("axes:\n  network/model: [flow]\n"), 1);                         // no application
}

TEST(SweepResults, StatusesAndRowsInGridOrder) {
  const SweepSpec s = load_sweep_spec(write_spec("r.yaml", "trace: app.ti\naxes:\n  network/model: [loggops, flow]\n"));
  SweepResults r(s);
  PointOutcome bad;
  bad.exit_code = 2;
  bad.stderr_text = "\nsimfab: error: x.ti:3: no\n  echoed\n";
  EXPECT_EQ(r.record(1, bad), "bad_input");
  PointOutcome ok;
  ok.exit_code = 0;
  ok.json = R"({"makespan_ps": 1500000, "messages": 4})";
  EXPECT_EQ(r.record(0, ok), "ok");
  PointOutcome interrupted;
  interrupted.signal = SIGINT;
  EXPECT_EQ(point_status(interrupted), "");
  std::ostringstream out;
  r.write(out);
  EXPECT_EQ(out.str(),
            "network/model,makespan_ps,makespan_s,energy_j,messages,wall_s,status,error\n"
            "loggops,1500000,0.0000015,,4,0.000,ok,\n"
            "flow,,,,,0.000,bad_input,simfab: error: x.ti:3: no\n");
  EXPECT_EQ(r.failed(), 1u);
}

TEST(SweepProgress, StatusLineWithRateAndEstimate) {
  EXPECT_EQ(SweepProgress::status(0, 12, 0, 2, 0, 0.5), "simfab sweep: 0/12 points, 2 running");
  EXPECT_EQ(SweepProgress::status(6, 12, 1, 2, 3, 3.0),
            "simfab sweep: 6/12 points (1 failed), 2 running, 60.0 points/min, ~6 s left");
}

}  // namespace
}  // namespace simfab
