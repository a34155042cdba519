// The activity stream (mpi/activity.hpp) of a replayed TI trace under LogGOPS (L = 10, o = 20,
// g = 30, G = 1 ps/B, O = 0; eager up to 65535 B) on 1e12 flop/s hosts, checked against the
// closed forms of net/loggops/loggops_network.hpp: a compute of F flops lasts F ps; a send
// starting at t occupies its CPU [t, t + o]; its data arrives at t + o + L; the receive then
// occupies the receiver's CPU for o + max((s-1)O, (s-1)G). Also RunRecorder's closing of calls
// and TiProgram's progress fraction.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/run_recorder.hpp"
#include "sim/simulation.hpp"
#include "ti_test_support.hpp"

namespace simfab {
namespace {

struct Recorded : ActivitySink {
  struct Call {
    RankId r;
    SimTime t;
    std::string name;
    CallClass cls;
    std::string algorithm;
    int32_t peer;
    uint64_t bytes;
  };
  struct Busy {
    RankId r;
    CpuUse use;
    int64_t begin, end;
  };
  std::vector<Call> calls;
  std::vector<Busy> busy;
  std::vector<MessageRecord> messages;
  RunInfo info;
  void start_run(const RunInfo& i) override { info = i; }
  void call(RankId r, SimTime t, const CallInfo& c) override {
    calls.push_back({r, t, c.name, c.cls, c.algorithm ? c.algorithm : "", c.peer, c.bytes});
  }
  void cpu_busy(RankId r, uint8_t, CpuUse use, SimTime b, SimTime e) override { busy.push_back({r, use, b.ps(), e.ps()}); }
  void message(const MessageRecord& m) override { messages.push_back(m); }
};

ExecutionResult replay(const std::string& text, ActivitySink& sink, double* progress_after = nullptr) {
  auto trace = open_ti_trace(testing::write_test_file("activity.ti", text));
  const int n = ti_num_ranks(*trace);
  Platform platform;
  for (int i = 0; i < n; ++i) platform.add_host(Host{"h" + std::to_string(i), 1, 1e12, -1, -1});
  std::vector<HostId> hosts(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) hosts[static_cast<size_t>(i)] = i;
  Engine engine;
  LogGOPSNetwork net(engine, platform, testing::params(10, 20, 30, 1, 0));
  OpPool ops;
  auto prog = make_ti_program(*trace, ops, platform, hosts);
  Executor ex(engine, net, ops, *prog, hosts);
  ex.set_activity(&sink);
  ExecutionResult r = ex.run();
  if (progress_after) *progress_after = prog->progress();
  return r;
}

constexpr const char* kTrace =
    "0 init\n1 init\n"
    "0 compute 100\n0 send 1 7 1000\n"
    "1 recv 0 7 1000\n"
    "0 allreduce 8 0\n1 allreduce 8 0\n"
    "0 finalize\n1 finalize\n";

TEST(Activity, ExecutorReportsComputeOverheadsAndMessagesWithClosedFormTimes) {
  Recorded rec;
  const ExecutionResult r = replay(kTrace, rec);
  // rank 0: compute [0, 100]; send overhead [100, 120]; the data arrives at 100 + 20 + 10.
  ASSERT_GE(rec.busy.size(), 3u);
  EXPECT_EQ(rec.busy[0].r, 0);
  EXPECT_EQ(rec.busy[0].use, CpuUse::kCompute);
  EXPECT_EQ(rec.busy[0].begin, 0);
  EXPECT_EQ(rec.busy[0].end, 100);
  EXPECT_EQ(rec.busy[1].use, CpuUse::kSendOverhead);
  EXPECT_EQ(rec.busy[1].begin, 100);
  EXPECT_EQ(rec.busy[1].end, 120);
  ASSERT_GE(rec.messages.size(), 1u);
  const MessageRecord& m = rec.messages[0];
  EXPECT_EQ(m.src, 0);
  EXPECT_EQ(m.dst, 1);
  EXPECT_EQ(m.bytes, 1000u);
  EXPECT_EQ(m.tag, 7);
  EXPECT_FALSE(m.collective());
  EXPECT_EQ(m.sent.ps(), 100);
  EXPECT_EQ(m.arrived.ps(), 100 + 20 + 10);
  // The receive overhead on rank 1 starts when the data arrives: [130, 130 + 20 + 999].
  bool recv_overhead = false;
  for (const auto& b : rec.busy)
    if (b.r == 1 && b.use == CpuUse::kRecvOverhead && b.begin == 130) recv_overhead = b.end == 1149;
  EXPECT_TRUE(recv_overhead);
  // The 2-rank dissemination allreduce: one 8-byte message each way, on the collective context.
  uint64_t coll = 0;
  for (const MessageRecord& x : rec.messages) coll += x.collective() && x.bytes == 8 ? 1 : 0;
  EXPECT_EQ(coll, 2u);
  EXPECT_EQ(rec.messages.size(), 3u);
  EXPECT_EQ(r.messages, 3u);
}

TEST(Activity, TiProgramReportsEveryActionWithItsClassAndAlgorithm) {
  Recorded rec;
  replay(kTrace, rec);
  std::vector<std::string> rank0;
  for (const auto& c : rec.calls)
    if (c.r == 0) rank0.push_back(c.name + "@" + std::to_string(c.t.ps()));
  // init at 0, compute at 0, send when the compute ends (100), the allreduce when the send's
  // overhead ends (120), finalize after the allreduce.
  ASSERT_EQ(rank0.size(), 5u);
  EXPECT_EQ(rank0[0], "init@0");
  EXPECT_EQ(rank0[1], "compute@0");
  EXPECT_EQ(rank0[2], "send@100");
  EXPECT_EQ(rank0[3], "allreduce@120");
  for (const auto& c : rec.calls) {
    if (c.name == "send") {
      EXPECT_EQ(c.cls, CallClass::kP2p);
      EXPECT_EQ(c.peer, 1);
      EXPECT_EQ(c.bytes, 1000u);
    }
    if (c.name == "recv") {
      EXPECT_EQ(c.cls, CallClass::kP2p);
    }
    if (c.name == "compute") {
      EXPECT_EQ(c.cls, CallClass::kCompute);
    }
    if (c.name == "allreduce") {
      EXPECT_EQ(c.cls, CallClass::kCollective);
      EXPECT_EQ(c.algorithm, "dissemination");  // Schedgen's pattern (ti_trace.hpp's table)
    }
    if (c.name == "init" || c.name == "finalize") {
      EXPECT_EQ(c.cls, CallClass::kOther);
    }
  }
}

struct Intervals : RunObserver {
  std::vector<std::tuple<RankId, int64_t, int64_t, std::string>> calls;
  bool finished = false;
  void start_run(const RunInfo&) override {}
  void call_interval(RankId r, SimTime b, SimTime e, const CallInfo& c) override {
    calls.emplace_back(r, b.ps(), e.ps(), c.name);
  }
  void cpu_busy(RankId, uint8_t, CpuUse, SimTime, SimTime) override {}
  void message(const MessageRecord&) override {}
  void finish(const RunResult&) override { finished = true; }
};

TEST(Activity, RecorderClosesEachCallAtTheNextAndTheLastAtTheRanksFinish) {
  RunRecorder rec;
  Intervals out;
  rec.add(&out);
  RunInfo info;
  info.rank_host = {"a", "b"};
  rec.start_run(info);
  CallInfo c;
  c.name = "compute";
  rec.call(0, SimTime::ps(0), c);
  c.name = "send";
  rec.call(0, SimTime::ps(100), c);
  c.name = "recv";
  rec.call(1, SimTime::ps(0), c);
  EXPECT_EQ(out.calls.size(), 1u);  // only rank 0's compute is closed so far
  RunResult res;
  res.num_ranks = 2;
  res.exec.finish = {SimTime::ps(120), SimTime::ps(1149)};
  rec.finish(res);
  ASSERT_EQ(out.calls.size(), 3u);
  EXPECT_EQ(out.calls[0], std::make_tuple(0, 0, 100, std::string("compute")));
  EXPECT_EQ(out.calls[1], std::make_tuple(0, 100, 120, std::string("send")));
  EXPECT_EQ(out.calls[2], std::make_tuple(1, 0, 1149, std::string("recv")));
  EXPECT_TRUE(out.finished);
}

TEST(Activity, ProgressIsTheFractionOfTheTraceRead) {
  Recorded rec;
  double progress = -2;
  replay(kTrace, rec, &progress);
  EXPECT_DOUBLE_EQ(progress, 1.0);  // every rank finished: the whole trace was read
}

}  // namespace
}  // namespace simfab

namespace simfab {
namespace {

TEST(Activity, GoalProgressCountsCompletedOps) {
  GoalSchedule g = parse_goal_text(testing::dissemination_goal(8, 64), "progress.goal");
  Platform platform = Platform::ideal(g.num_ranks);
  Engine engine;
  LogGOPSNetwork net(engine, platform, testing::params(10, 20, 30, 1, 0));
  GoalProgram prog(g);
  std::vector<HostId> hosts(static_cast<size_t>(g.num_ranks));
  for (int r = 0; r < g.num_ranks; ++r) hosts[static_cast<size_t>(r)] = r;
  EXPECT_DOUBLE_EQ(prog.progress(), 0.0);  // nothing completed yet
  Executor ex(engine, net, g.ops, prog, hosts);
  ex.run();
  EXPECT_DOUBLE_EQ(prog.progress(), 1.0);
}

}  // namespace
}  // namespace simfab
