// The sweep results panel's data (report/sweep_panel): a hand-written `simfab sweep` CSV read back
// as axes (numeric or categorical) and results (failed points null, the best ok point), its JSON,
// how a sweep's CSV is told from a run file, and every bad input with its file:line and message.
// tests/report/run_report.py reports a real sweep and opens the page in Chromium.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/csv.hpp"
#include "core/error.hpp"
#include "report/sweep_panel.hpp"

namespace simfab {
namespace {

constexpr const char* kResultHeader = "makespan_ps,makespan_s,energy_j,messages,wall_s,status,error";

std::string write_csv(const std::string& name, const std::string& text) {
  const std::string dir = testing::TempDir() + "sweep_panel_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/" + name) << text;
  return dir + "/" + name;
}

// 2 models x 3 gaps, then an explicit packet point leaving loggops/G at its default; the flow point
// at 0.04ns failed (bad input), the smpi one has no energy. Gaps are listed out of order.
std::string grid_csv() {
  return write_csv("grid.csv", std::string("network/model,loggops/G,") + kResultHeader + "\n" +
                                   "loggops,0.04ns,3000,3e-09,1.5,10,0.011,ok,\n"
                                   "loggops,0.01ns,1000,1e-09,0.5,10,0.010,ok,\n"
                                   "loggops,0.02ns,2000,2e-09,1.0,10,0.012,ok,\n"
                                   "\n"  // blank lines are skipped, line numbers still count them
                                   "flow,0.04ns,,,,,0.005,bad_input,\"t.ti:2: error: unknown action, \"\"frob\"\"\"\n"
                                   "flow,0.01ns,900,9e-10,,10,0.013,ok,\n"
                                   "flow,0.02ns,2500,2.5e-09,0.25,10,0.014,ok,\n"
                                   "packet,,800,8e-10,2.0,10,0.02,ok,\n");
}

TEST(SweepPanel, AxesAreNumericOrCategoricalInTheirOrder) {
  const SweepTable t = read_sweep_table(grid_csv());
  ASSERT_EQ(t.points(), 7u);
  ASSERT_EQ(t.axes.size(), 2u);
  const SweepAxis& model = t.axes[0];
  EXPECT_EQ(model.name, "network/model");
  EXPECT_FALSE(model.numeric);
  EXPECT_EQ(model.values, (std::vector<std::string>{"loggops", "flow", "packet"}));  // first appearance
  EXPECT_EQ(model.index, (std::vector<uint32_t>{0, 0, 0, 1, 1, 1, 2}));
  const SweepAxis& gap = t.axes[1];
  EXPECT_TRUE(gap.numeric);  // times; the packet point's default ("") is off the scale, last
  EXPECT_EQ(gap.unit, "s");
  EXPECT_EQ(gap.values, (std::vector<std::string>{"0.01ns", "0.02ns", "0.04ns", ""}));
  ASSERT_EQ(gap.numbers.size(), 4u);
  EXPECT_DOUBLE_EQ(*gap.numbers[0], 1e-11);
  EXPECT_DOUBLE_EQ(*gap.numbers[1], 2e-11);
  EXPECT_DOUBLE_EQ(*gap.numbers[2], 4e-11);
  EXPECT_FALSE(gap.numbers[3].has_value());
  EXPECT_EQ(gap.index, (std::vector<uint32_t>{2, 0, 1, 2, 0, 1, 3}));
}

TEST(SweepPanel, FailedPointsHaveNoValuesAndTheBestIsTheLowestOkPoint) {
  const SweepTable t = read_sweep_table(grid_csv());
  EXPECT_EQ(t.failed(), 1u);
  EXPECT_EQ(t.status[3], "bad_input");
  EXPECT_EQ(t.error[3], "t.ti:2: error: unknown action, \"frob\"");
  EXPECT_EQ(t.error[0], "");
  ASSERT_EQ(t.results.size(), 5u);  // all but status and error
  const SweepResultColumn& makespan = t.results[1];
  EXPECT_EQ(makespan.name, "makespan_s");
  EXPECT_EQ(makespan.unit, "s");
  EXPECT_FALSE(makespan.values[3].has_value());  // failed: null, never 0
  EXPECT_DOUBLE_EQ(*makespan.values[0], 3e-9);
  EXPECT_EQ(makespan.best, std::optional<size_t>(6));  // packet, 800 ps
  const SweepResultColumn& energy = t.results[2];
  EXPECT_EQ(energy.unit, "J");
  EXPECT_FALSE(energy.values[4].has_value());  // an ok point without energy
  EXPECT_EQ(energy.best, std::optional<size_t>(5));  // flow 0.02ns, 0.25 J
  EXPECT_EQ(t.results[3].best, std::optional<size_t>(0));  // messages: all 10, the first wins
  EXPECT_EQ(t.results[4].name, "wall_s");
}

TEST(SweepPanel, JsonCarriesAxesResultsAndStatuses) {
  const nlohmann::json j = sweep_panel_json(read_sweep_table(grid_csv()));
  EXPECT_EQ(j["points"], 7);
  EXPECT_EQ(j["ok"], 6);
  EXPECT_EQ(j["failed"], 1);
  EXPECT_EQ(j["axes"][0]["numeric"], false);
  EXPECT_FALSE(j["axes"][0].contains("numbers"));
  EXPECT_EQ(j["axes"][1]["numbers"][3], nullptr);
  EXPECT_EQ(j["results"][0]["name"], "makespan_ps");
  EXPECT_EQ(j["results"][0]["values"][3], nullptr);
  EXPECT_EQ(j["results"][0]["values"][6], 800.0);
  EXPECT_EQ(j["results"][1]["best"], 6);
  EXPECT_EQ(j["status"][3], "bad_input");
}

TEST(SweepPanel, QuantitiesBareNumbersAndMixedAxes) {
  const std::string path = write_csv("kinds.csv", std::string("bw,np,size,mix,rep,") + kResultHeader + "\n" +
                                                      "10Gbps,16,1KiB,flow,1,5,5e-12,,1,0.1,ok,\n"
                                                      "1GBps,4,1MB,2,2,6,6e-12,,1,0.1,ok,\n");
  const SweepTable t = read_sweep_table(path);
  EXPECT_EQ(t.axes[0].unit, "B/s");
  EXPECT_EQ(t.axes[0].values, (std::vector<std::string>{"1GBps", "10Gbps"}));  // 1e9 < 1.25e9 B/s
  EXPECT_DOUBLE_EQ(*t.axes[0].numbers[0], 1e9);
  EXPECT_DOUBLE_EQ(*t.axes[0].numbers[1], 1.25e9);
  EXPECT_TRUE(t.axes[1].numeric);
  EXPECT_EQ(t.axes[1].unit, "");
  EXPECT_EQ(t.axes[1].values, (std::vector<std::string>{"4", "16"}));  // by number
  EXPECT_EQ(t.axes[2].unit, "B");
  EXPECT_DOUBLE_EQ(*t.axes[2].numbers[0], 1024);
  EXPECT_FALSE(t.axes[3].numeric);  // a name and a number: categories
  EXPECT_EQ(t.axes[4].name, "rep");
  EXPECT_TRUE(t.axes[4].numeric);
  EXPECT_FALSE(t.results[2].best.has_value());  // no energy anywhere
}

TEST(SweepPanel, ToldFromRunFilesByHeaderOrName) {
  EXPECT_TRUE(is_sweep_results(grid_csv()));
  EXPECT_TRUE(is_sweep_results(write_csv("named.txt", std::string("a,") + kResultHeader + "\n")));
  EXPECT_FALSE(is_sweep_results(write_csv("run.json", "{\"simfab\": {}}\n")));
  EXPECT_FALSE(is_sweep_results(write_csv("short.txt", "makespan_ps,makespan_s\n")));
  EXPECT_TRUE(is_sweep_results(write_csv("other.csv", "x,y\n")));  // a .csv is read as one, to say what it lacks
  EXPECT_FALSE(is_sweep_results(testing::TempDir() + "sweep_panel_test/missing.json"));
}

// The message of reading `text` as a sweep's results (file name first, as `simfab` prints it).
std::string error_of(const std::string& name, const std::string& text) {
  try {
    read_sweep_table(write_csv(name, text));
  } catch (const InputError& e) {
    const std::string what = e.what();
    return what.substr(what.find(name));
  }
  return "no error";
}

TEST(SweepPanel, BadInputNamesFileLineAndWhatWasExpected) {
  const std::string head = std::string("model,") + kResultHeader + "\n";
  EXPECT_EQ(error_of("empty.csv", ""),
            "empty.csv:1: empty file: expected the results of `simfab sweep SPEC.yaml -o FILE`: a header naming the "
            "swept settings, then makespan_ps,makespan_s,energy_j,messages,wall_s,status,error");
  EXPECT_NE(error_of("other.csv", "\nname,time\nx,1\n").find("other.csv:2: not a sweep's header: expected the results"),
            std::string::npos);
  EXPECT_NE(error_of("noaxis.csv", std::string(kResultHeader) + "\n").find("noaxis.csv:1: not a sweep's header"),
            std::string::npos);
  EXPECT_EQ(error_of("norows.csv", head),
            "norows.csv:2: no points: expected a row per finished point after the header (run the sweep first)");
  EXPECT_EQ(error_of("ragged.csv", head + "flow,1,1e-12,,1,0.1,ok,\n\nflow,1,1e-12,,1,0.1,ok\n"),
            "ragged.csv:4: expected 8 fields as in the header, got 7");
  EXPECT_EQ(error_of("nan.csv", head + "flow,1,1e-12,,1,0.1,ok,\nsmpi,1,fast,,1,0.1,ok,\n"),
            "nan.csv:3: column makespan_s: expected a number in an ok point's row, got 'fast'");
  EXPECT_EQ(error_of("inf.csv", head + "flow,1,inf,,1,0.1,ok,\n"),
            "inf.csv:2: column makespan_s: expected a number in an ok point's row, got 'inf'");
  EXPECT_EQ(error_of("nostatus.csv", head + "flow,1,1e-12,,1,0.1,,\n"),
            "nostatus.csv:2: column status: expected the point's status (ok, bad_input, deadlock, crashed, failure, "
            "timeout or error), got nothing");
  // A failed row's cells are not read: whatever they say, the point has no value.
  EXPECT_EQ(error_of("failed.csv", head + "flow,x,y,,1,0.1,crashed,boom\n"), "no error");
}

TEST(SweepPanel, CsvRecordLinesCountBlankAndQuotedLines) {
  std::vector<int> lines;
  parse_csv("a,b\n\n\"x\ny\",1\nlast,2", "t.csv", &lines);
  EXPECT_EQ(lines, (std::vector<int>{1, 3, 5}));
}

}  // namespace
}  // namespace simfab
