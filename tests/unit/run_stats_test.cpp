// Run statistics (report/run_stats.hpp): synthetic event streams through RunRecorder with closed-
// form expectations: the per-rank breakdown with calls (TI) and without (GOAL: CPU intervals), the
// sparse matrix, seed 002's size buckets and their edges, per-collective rows, per-link bytes from
// routes, the link timeline's bin doubling (exact, order-independent), the JSON keys and the CSV
// text, and the --stats directory check.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "report/link_timeline.hpp"
#include "report/route_cache.hpp"
#include "report/run_recorder.hpp"
#include "report/run_stats.hpp"
#include "report/size_histogram.hpp"
#include "report/stats_csv.hpp"
#include "sim/simulation.hpp"
#include "report_test_support.hpp"

namespace simfab {
namespace {

using testing::call;
using testing::ps;

RunInfo info_for(int ranks, const Platform* platform = nullptr) {
  RunInfo info;
  info.format = "ti";
  for (int r = 0; r < ranks; ++r) {
    info.rank_host.push_back("h" + std::to_string(r));
    info.rank_host_id.push_back(r);
  }
  info.platform = platform;
  return info;
}

RunResult result_for(std::vector<int64_t> finish, int64_t makespan) {
  RunResult res;
  res.num_ranks = static_cast<int>(finish.size());
  for (size_t r = 0; r < finish.size(); ++r) {
    res.rank_host.push_back("h" + std::to_string(r));
    res.exec.finish.push_back(ps(finish[r]));
  }
  res.exec.makespan = ps(makespan);
  return res;
}

MessageRecord msg(RankId src, RankId dst, uint64_t bytes, int64_t sent = 0, int64_t arrived = 0,
                  bool collective = false) {
  MessageRecord m;
  m.src = src;
  m.dst = dst;
  m.bytes = bytes;
  m.context = collective ? 1u : 0u;
  m.sent = ps(sent);
  m.arrived = ps(arrived);
  return m;
}

// The run: RunRecorder closes the calls (a call ends where the next begins, the last at finish).
struct StatsRun {
  RunStats stats;
  RunRecorder rec;
  explicit StatsRun(const RunInfo& info) {
    rec.add(&stats);
    rec.start_run(info);
  }
};

TEST(RunStats, BreakdownFromCallsTilesFinishAndIdleFillsTheMakespan) {
  StatsRun run(info_for(2));
  // Rank 0: compute [0,100) p2p [100,150) allreduce [150,400) wait [400,450) set_pstate [450,500].
  run.rec.call(0, ps(0), call("compute", CallClass::kCompute));
  run.rec.call(0, ps(100), call("send", CallClass::kP2p));
  run.rec.call(0, ps(150), call("allreduce", CallClass::kCollective, "rdb"));
  run.rec.call(0, ps(400), call("wait", CallClass::kWait));
  run.rec.call(0, ps(450), call("set_pstate", CallClass::kOther));
  // Rank 1: one collective [0, 600]. CPU intervals are ignored for ranks with calls.
  run.rec.call(1, ps(0), call("barrier", CallClass::kCollective, "dissemination"));
  run.rec.cpu_busy(1, 0, CpuUse::kCompute, ps(0), ps(50));
  run.rec.finish(result_for({500, 600}, 600));
  const StatsReport& s = run.stats.report();
  ASSERT_EQ(s.ranks.size(), 2u);
  const RankTimes& r0 = s.ranks[0];
  EXPECT_EQ(r0.finish.ps(), 500);
  EXPECT_EQ(r0.compute.ps(), 100);
  EXPECT_EQ(r0.p2p.ps(), 50);
  EXPECT_EQ(r0.collective.ps(), 250);
  EXPECT_EQ(r0.wait.ps(), 50);
  EXPECT_EQ(r0.other.ps(), 50);
  EXPECT_EQ(r0.idle.ps(), 100);
  EXPECT_EQ(r0.host, "h0");
  const RankTimes& r1 = s.ranks[1];
  EXPECT_EQ(r1.collective.ps(), 600);
  EXPECT_EQ(r1.compute.ps(), 0);
  EXPECT_EQ(r1.idle.ps(), 0);
  EXPECT_EQ(s.makespan.ps(), 600);
}

TEST(RunStats, BreakdownWithoutCallsComesFromTheCpu) {
  StatsRun run(info_for(2));
  run.rec.cpu_busy(0, 0, CpuUse::kCompute, ps(0), ps(200));
  run.rec.cpu_busy(0, 0, CpuUse::kSendOverhead, ps(200), ps(230));
  run.rec.cpu_busy(0, 0, CpuUse::kRecvOverhead, ps(300), ps(310));
  run.rec.cpu_busy(0, 0, CpuUse::kCompute, ps(310), ps(330));
  // Rank 1: more CPU than its finish time: wait clamps at 0.
  run.rec.cpu_busy(1, 0, CpuUse::kCompute, ps(0), ps(90));
  run.rec.cpu_busy(1, 1, CpuUse::kSendOverhead, ps(0), ps(20));
  run.rec.finish(result_for({400, 100}, 600));
  const RankTimes& r0 = run.stats.report().ranks[0];
  EXPECT_EQ(r0.compute.ps(), 220);
  EXPECT_EQ(r0.p2p.ps(), 40);
  EXPECT_EQ(r0.wait.ps(), 400 - 220 - 40);
  EXPECT_EQ(r0.collective.ps(), 0);
  EXPECT_EQ(r0.other.ps(), 0);
  EXPECT_EQ(r0.idle.ps(), 200);
  const RankTimes& r1 = run.stats.report().ranks[1];
  EXPECT_EQ(r1.compute.ps(), 90);
  EXPECT_EQ(r1.p2p.ps(), 20);
  EXPECT_EQ(r1.wait.ps(), 0);
  EXPECT_EQ(r1.idle.ps(), 500);
}

TEST(RunStats, MatrixIsSparseAndSortedBySourceThenDestination) {
  StatsRun run(info_for(3));
  run.rec.message(msg(2, 0, 100));
  run.rec.message(msg(0, 1, 16));
  run.rec.message(msg(1, 0, 5));
  run.rec.message(msg(0, 1, 17, 0, 0, true));
  run.rec.finish(result_for({0, 0, 0}, 0));
  const StatsReport& s = run.stats.report();
  ASSERT_EQ(s.matrix.size(), 3u);
  const std::vector<std::array<uint64_t, 4>> want = {{0, 1, 2, 33}, {1, 0, 1, 5}, {2, 0, 1, 100}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(static_cast<uint64_t>(s.matrix[i].src), want[i][0]);
    EXPECT_EQ(static_cast<uint64_t>(s.matrix[i].dst), want[i][1]);
    EXPECT_EQ(s.matrix[i].messages, want[i][2]);
    EXPECT_EQ(s.matrix[i].bytes, want[i][3]);
  }
  EXPECT_EQ(s.messages.count, 4u);
  EXPECT_EQ(s.messages.bytes, 138u);
  EXPECT_EQ(s.messages.p2p_count, 3u);
  EXPECT_EQ(s.messages.p2p_bytes, 121u);
  EXPECT_EQ(s.messages.collective_count, 1u);
  EXPECT_EQ(s.messages.collective_bytes, 17u);
}

TEST(SizeHistogram, BucketEdgesArePowersOfFourFromSixteen) {
  EXPECT_EQ(SizeHistogram::bucket_of(0), 0);
  EXPECT_EQ(SizeHistogram::bucket_of(16), 0);
  EXPECT_EQ(SizeHistogram::bucket_of(17), 1);
  EXPECT_EQ(SizeHistogram::bucket_of(64), 1);
  EXPECT_EQ(SizeHistogram::bucket_of(65), 2);
  EXPECT_EQ(SizeHistogram::bucket_of(256), 2);
  EXPECT_EQ(SizeHistogram::bucket_of(257), 3);
  EXPECT_EQ(SizeHistogram::bucket_of(uint64_t{1} << 30), 13);
  EXPECT_EQ(SizeHistogram::bucket_of((uint64_t{1} << 30) + 1), 14);
  EXPECT_EQ(SizeHistogram::bucket_of(~uint64_t{0}), 14);
  EXPECT_EQ(SizeHistogram::upper_bytes(13), uint64_t{1} << 30);
}

// Spec R7 (seed 002): sizes {1, 16, 17, 64, 65, 300} give <=16: 2, <=64: 2, <=256: 1, <=1024: 1.
TEST(RunStats, HistogramOfSpecR7SplitsPointToPointAndCollective) {
  StatsRun run(info_for(2));
  for (uint64_t s : {1, 16, 17, 64, 65}) run.rec.message(msg(0, 1, s));
  run.rec.message(msg(1, 0, 300, 0, 0, true));
  run.rec.message(msg(1, 0, 16, 0, 0, true));
  run.rec.finish(result_for({0, 0}, 0));
  const std::vector<SizeBucket>& h = run.stats.report().histogram;
  ASSERT_EQ(h.size(), 15u);
  EXPECT_EQ(h[0].upper_bytes, 16u);
  EXPECT_EQ(h[0].p2p_messages, 2u);
  EXPECT_EQ(h[0].p2p_bytes, 17u);
  EXPECT_EQ(h[0].collective_messages, 1u);
  EXPECT_EQ(h[0].collective_bytes, 16u);
  EXPECT_EQ(h[1].upper_bytes, 64u);
  EXPECT_EQ(h[1].p2p_messages, 2u);
  EXPECT_EQ(h[1].p2p_bytes, 81u);
  EXPECT_EQ(h[2].upper_bytes, 256u);
  EXPECT_EQ(h[2].p2p_messages, 1u);
  EXPECT_EQ(h[2].p2p_bytes, 65u);
  EXPECT_EQ(h[3].upper_bytes, 1024u);
  EXPECT_EQ(h[3].p2p_messages, 0u);
  EXPECT_EQ(h[3].collective_messages, 1u);
  EXPECT_EQ(h[3].collective_bytes, 300u);
  EXPECT_FALSE(h[14].upper_bytes.has_value());
}

TEST(RunStats, CollectivesPerNameAndAlgorithmMergeEqualStrings) {
  // Two different pointers to "allreduce" (front-ends' static strings need not be unique).
  static const char kAllreduceA[] = "allreduce";
  static const char kAllreduceB[] = "allreduce";
  StatsRun run(info_for(2));
  run.rec.call(0, ps(0), call(kAllreduceA, CallClass::kCollective, "rdb"));
  run.rec.call(0, ps(100), call("bcast", CallClass::kCollective, "binomial"));
  run.rec.call(0, ps(150), call("comm_split", CallClass::kCollective));
  run.rec.call(0, ps(160), call("send", CallClass::kP2p));
  run.rec.call(1, ps(0), call(kAllreduceB, CallClass::kCollective, "rdb"));
  run.rec.call(1, ps(300), call("compute", CallClass::kCompute));
  run.rec.finish(result_for({200, 400}, 400));
  const std::vector<CollectiveRow>& c = run.stats.report().collectives;
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].name, "allreduce");
  EXPECT_EQ(c[0].algorithm, "rdb");
  EXPECT_EQ(c[0].calls, 2u);
  EXPECT_EQ(c[0].time.ps(), 100 + 300);
  EXPECT_EQ(c[0].max.ps(), 300);
  EXPECT_EQ(c[1].name, "bcast");
  EXPECT_EQ(c[1].calls, 1u);
  EXPECT_EQ(c[1].time.ps(), 50);
  EXPECT_EQ(c[2].name, "comm_split");
  EXPECT_FALSE(c[2].algorithm.has_value());
  EXPECT_EQ(c[2].time.ps(), 10);
}

TEST(LinkTimeline, SpreadsExactlyAndDoublesByMergingPairs) {
  LinkTimeline t(4);
  // 10 B over [1, 4) at width 1: cum(t) = floor(10 (t - 1) / 3) = 0, 3, 6, 10 at t = 1..4.
  t.add(0, 10, ps(1), ps(4));
  EXPECT_EQ(t.bin_width().ps(), 1);
  EXPECT_EQ(t.series(0), (std::vector<uint64_t>{0, 3, 3, 4}));
  // 6 B over [0, 6) needs a span of 6: width 2 (pairs merge to 3, 7), then 2 B per bin.
  t.add(0, 6, ps(0), ps(6));
  EXPECT_EQ(t.bin_width().ps(), 2);
  EXPECT_EQ(t.series(0), (std::vector<uint64_t>{3 + 2, 7 + 2, 2, 0}));
  // A zero-length message lands in the bin holding its time; a never-used series is all zeros.
  t.add(1, 5, ps(7), ps(7));
  EXPECT_EQ(t.series(1), (std::vector<uint64_t>{0, 0, 0, 5}));
  EXPECT_EQ(t.series(7), (std::vector<uint64_t>{0, 0, 0, 0}));
  EXPECT_EQ(t.used_bins(), 4);
  // cover() past the span doubles again: width 4 ([0, 16)), used bins ceil(9 / 4) = 3.
  t.cover(ps(9));
  EXPECT_EQ(t.bin_width().ps(), 4);
  EXPECT_EQ(t.series(0), (std::vector<uint64_t>{14, 2, 0, 0}));
  EXPECT_EQ(t.used_bins(), 3);
}

TEST(LinkTimeline, ResultDoesNotDependOnMessageOrder) {
  const std::vector<std::array<int64_t, 3>> msgs = {{1000, 3, 1000}, {7, 0, 3}, {999, 5, 777}, {12345, 100, 101}};
  LinkTimeline forward(8), backward(8);
  for (const auto& m : msgs) forward.add(0, static_cast<uint64_t>(m[0]), ps(m[1]), ps(m[2]));
  for (auto it = msgs.rbegin(); it != msgs.rend(); ++it)
    backward.add(0, static_cast<uint64_t>((*it)[0]), ps((*it)[1]), ps((*it)[2]));
  EXPECT_EQ(forward.bin_width(), backward.bin_width());
  EXPECT_EQ(forward.bin_width().ps(), 128);  // smallest power of two with 8 bins >= 1000 ps
  EXPECT_EQ(forward.series(0), backward.series(0));
  uint64_t sum = 0;
  for (uint64_t b : forward.series(0)) sum += b;
  EXPECT_EQ(sum, 1000u + 7 + 999 + 12345);
}

// Hosts 0 and 1 joined by links A then B (1e9 B/s); the way back is B then A.
Platform two_link_platform() {
  Platform p;
  const LinkId a = p.add_link(Link{"A", 1e9, ps(0)});
  const LinkId b = p.add_link(Link{"B", 2e9, ps(0)});
  p.add_host(Host{"h0", 1, 1e9, -1, -1});
  p.add_host(Host{"h1", 1, 1e9, -1, -1});
  p.add_route(0, 1, {a, b}, false);
  return p;
}

TEST(RunStats, LinkBytesAndTimelineFromRoutes) {
  const Platform p = two_link_platform();
  StatsRun run(info_for(2, &p));
  run.rec.message(msg(0, 1, 1000, 0, 1000));
  run.rec.message(msg(1, 0, 500, 2000, 12000));
  run.rec.finish(result_for({1000000, 900000}, 1000000));
  const StatsReport& s = run.stats.report();
  ASSERT_EQ(s.links.size(), 2u);
  EXPECT_EQ(s.links[0].name, "A");
  EXPECT_EQ(s.links[0].bytes, 1500u);
  EXPECT_FALSE(s.links[0].busy.has_value());
  // 1500 B over 1 us on 1e9 B/s (1000 B of capacity): 1.5; on B (2e9 B/s): 0.75.
  EXPECT_DOUBLE_EQ(s.links[0].utilisation, 1.5);
  EXPECT_EQ(s.links[1].name, "B");
  EXPECT_DOUBLE_EQ(s.links[1].utilisation, 0.75);
  // 200 bins over 1e6 ps: width 2^13 = 8192 (2^12 * 200 = 819200 < 1e6), ceil(1e6 / 8192) = 123 bins.
  EXPECT_EQ(s.bin.ps(), 8192);
  ASSERT_EQ(s.timeline.size(), 2u);
  EXPECT_EQ(s.timeline[0].name, "A");  // equal bytes: platform order
  ASSERT_EQ(s.timeline[0].bytes.size(), 123u);
  // 1000 B in bin 0; 500 B over [2000, 12000): floor(500 * 6192 / 10000) = 309 before 8192.
  EXPECT_EQ(s.timeline[0].bytes[0], 1000u + 309);
  EXPECT_EQ(s.timeline[0].bytes[1], 191u);
  EXPECT_EQ(s.timeline[0].bytes[2], 0u);
}

TEST(RunStats, TimelineKeepsTheSixteenBusiestLinks) {
  // Host 0 reaches host i (1..17) over its own link "Li"; rank i gets i bytes.
  Platform p;
  p.add_host(Host{"h0", 1, 1e9, -1, -1});
  for (int i = 1; i <= 17; ++i) {
    const LinkId l = p.add_link(Link{"L" + std::to_string(i), 1e9, ps(0)});
    p.add_host(Host{"h" + std::to_string(i), 1, 1e9, -1, -1});
    p.add_route(0, i, {l}, false);
  }
  StatsRun run(info_for(18, &p));
  for (int i = 1; i <= 17; ++i) run.rec.message(msg(0, i, static_cast<uint64_t>(i), 0, 10));
  run.rec.finish(result_for(std::vector<int64_t>(18, 100), 100));
  const StatsReport& s = run.stats.report();
  EXPECT_EQ(s.links.size(), 17u);
  ASSERT_EQ(s.timeline.size(), 16u);
  EXPECT_EQ(s.timeline.front().name, "L17");
  EXPECT_EQ(s.timeline.back().name, "L2");
}

TEST(RouteCache, ComputesARoutePerPairOnce) {
  const Platform p = two_link_platform();
  RouteCache cache;
  for (int i = 0; i < 3; ++i) EXPECT_EQ(cache.route(p, 0, 1).size(), 2u);
  EXPECT_EQ(cache.route(p, 1, 0).front(), 1);  // B first on the way back
  EXPECT_EQ(cache.misses(), 2u);
}

TEST(RunStats, IdealPlatformHasNoLinks) {
  StatsRun run(info_for(2));
  run.rec.message(msg(0, 1, 64, 0, 10));
  run.rec.finish(result_for({10, 10}, 10));
  EXPECT_TRUE(run.stats.report().links.empty());
  EXPECT_TRUE(run.stats.report().timeline.empty());
}

TEST(RunStats, JsonFollowsTheSchema) {
  StatsRun run(info_for(2));
  run.rec.call(0, ps(0), call("allreduce", CallClass::kCollective, "rdb"));
  run.rec.message(msg(0, 1, 20, 0, 10, true));
  run.rec.finish(result_for({10, 0}, 10));
  const nlohmann::ordered_json j = run.stats.to_json();
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"makespan_ps", "num_ranks", "ranks", "messages", "matrix", "histogram",
                                            "collectives", "links", "link_timeline"}));
  EXPECT_EQ(j["ranks"][0].dump(),
            R"({"rank":0,"host":"h0","finish_ps":10,"compute_ps":0,"p2p_ps":0,"collective_ps":10,"wait_ps":0,)"
            R"("other_ps":0,"idle_ps":0})");
  EXPECT_EQ(j["matrix"].dump(), "[[0,1,1,20]]");
  EXPECT_EQ(j["histogram"][1].dump(),
            R"({"upper_bytes":64,"p2p_messages":0,"p2p_bytes":0,"collective_messages":1,"collective_bytes":20})");
  EXPECT_TRUE(j["histogram"][14]["upper_bytes"].is_null());
  EXPECT_EQ(j["collectives"].dump(), R"([{"name":"allreduce","algorithm":"rdb","calls":1,"time_ps":10,"max_ps":10}])");
  EXPECT_EQ(j["messages"]["collective_bytes"], 20);
  EXPECT_EQ(j["link_timeline"]["bin_ps"], 1);
}

TEST(RunStats, EnergyOnlyWhenKnown) {
  StatsRun run(info_for(2));
  RunResult res = result_for({10, 10}, 10);
  res.energy.present = true;
  res.energy.total_j = 12.5;
  res.energy.hosts = {{"h0", 10.25, 0, 0, 0}, {"h1", 2.25, 0, 1.5, 1}};  // h1 was switched off for 1.5 s
  run.rec.finish(res);
  EXPECT_EQ(run.stats.to_json()["energy"].dump(),
            R"({"total_j":12.5,"hosts":[{"name":"h0","energy_j":10.25,"off_s":0.0},)"
            R"({"name":"h1","energy_j":2.25,"off_s":1.5}]})");
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(StatsCsv, WritesEveryTableWithHeadersAndExactSeconds) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "simfab_run_stats_test" / "nested";
  std::filesystem::remove_all(dir.parent_path());
  prepare_stats_dir(dir.string());  // creates the parents too
  const Platform p = two_link_platform();
  StatsRun run(info_for(2, &p));
  run.rec.call(0, ps(0), call("compute", CallClass::kCompute));
  run.rec.call(0, ps(1500000), call("bcast", CallClass::kCollective, "binomial"));
  run.rec.message(msg(0, 1, 1000, 1500000, 2000000, true));
  run.rec.finish(result_for({2000000, 2000000}, 2000000));
  run.stats.write_csv(dir.string());
  EXPECT_EQ(read_text(dir / "ranks.csv"),
            "rank,host,finish_s,compute_s,p2p_s,collective_s,wait_s,other_s,idle_s\n"
            "0,h0,0.000002000000,0.000001500000,0.000000000000,0.000000500000,0.000000000000,0.000000000000,"
            "0.000000000000\n"
            "1,h1,0.000002000000,0.000000000000,0.000000000000,0.000000000000,0.000002000000,0.000000000000,"
            "0.000000000000\n");
  EXPECT_EQ(read_text(dir / "matrix.csv"), "src,dst,messages,bytes\n0,1,1,1000\n");
  const std::string sizes = read_text(dir / "sizes.csv");
  EXPECT_EQ(sizes.substr(0, sizes.find('\n')), "upper_bytes,p2p_messages,p2p_bytes,collective_messages,collective_bytes");
  EXPECT_NE(sizes.find("\n1024,0,0,1,1000\n"), std::string::npos);
  EXPECT_NE(sizes.find("\n,0,0,0,0\n"), std::string::npos);  // the unbounded last bucket
  EXPECT_EQ(read_text(dir / "collectives.csv"), "name,algorithm,calls,time_s,max_s\nbcast,binomial,1,0.000000500000,0.000000500000\n");
  EXPECT_EQ(read_text(dir / "links.csv"), "name,bandwidth_Bps,bytes,busy_s,utilisation\nA,1000000000,1000,,0.5\nB,2000000000,1000,,0.25\n");
  // 2e6 ps over 200 bins: width 16384, ceil(2e6 / 16384) = 123 bins; [1.5e6, 2e6) spans bins 91..122.
  const std::string timeline = read_text(dir / "link_timeline.csv");
  EXPECT_EQ(timeline.substr(0, timeline.find('\n')), "link,bin,start_s,end_s,bytes");
  EXPECT_NE(timeline.find("\nA,122,0.000001998848,0.000002015232,"), std::string::npos);
  EXPECT_EQ(std::count(timeline.begin(), timeline.end(), '\n'), 1 + 2 * 123);
  EXPECT_FALSE(std::filesystem::exists(dir / "energy.csv"));
  EXPECT_FALSE(run.stats.to_json().contains("energy"));
  std::filesystem::remove_all(dir.parent_path());
}

TEST(StatsCsv, UnwritableDirectoryIsAnInputErrorNamingIt) {
  try {
    prepare_stats_dir("/proc/forbidden");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, "/proc/forbidden");
    EXPECT_NE(std::string(e.what()).find("/proc/forbidden"), std::string::npos);
  }
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "simfab_run_stats_test_file";
  std::ofstream(file) << "x";
  try {
    prepare_stats_dir(file.string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a directory"), std::string::npos) << e.what();
  }
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace simfab
