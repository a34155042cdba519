// TiProgram: replaying TI traces on the executor (semantics, equivalence with GOAL, closed forms,
// deadlock reports).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "platform/platform.hpp"
#include "replay/goal_program.hpp"
#include "replay/goal_schedule.hpp"
#include "replay/ti_program.hpp"
#include "replay/ti_trace.hpp"

#include "test_support.hpp"

namespace simfab {
namespace {

std::string data(const std::string& name) { return std::string(SIMFAB_SOURCE_DIR) + "/tests/data/ti/" + name; }


// A platform of n hosts computing 1e12 flop/s, so 1 flop = 1 ps.
Platform tera_platform(int n) {
  Platform p;
  for (int i = 0; i < n; ++i) p.add_host(Host{"h" + std::to_string(i), 1, 1e12, -1, -1});
  return p;
}

std::vector<HostId> identity_hosts(int n) {
  std::vector<HostId> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  return v;
}

LogGOPSParams params(int64_t L, int64_t o, int64_t g, double G, double O = 0, Bytes S = 65535) {
  return LogGOPSParams{SimTime::ps(L), SimTime::ps(o), SimTime::ps(g), G, O, S};
}

ExecutionResult run_ti(const std::string& path, const Platform& platform, LogGOPSParams p) {
  Engine engine;
  LogGOPSNetwork net(engine, platform, p);
  OpPool ops;
  auto trace = open_ti_trace(path);
  const auto hosts = identity_hosts(ti_num_ranks(*trace));
  auto prog = make_ti_program(*trace, ops, platform, hosts);
  Executor ex(engine, net, ops, *prog, hosts);
  return ex.run();
}

ExecutionResult run_ti(const std::string& path, LogGOPSParams p) {
  auto trace = open_ti_trace(path);
  return run_ti(path, Platform::ideal(ti_num_ranks(*trace)), p);
}

ExecutionResult run_goal(const std::string& path, const Platform& platform, LogGOPSParams p) {
  GoalSchedule g = parse_goal_file(path);
  Engine engine;
  LogGOPSNetwork net(engine, platform, p);
  GoalProgram prog(g);
  const auto hosts = identity_hosts(g.num_ranks);
  Executor ex(engine, net, g.ops, prog, hosts);
  return ex.run();
}

std::vector<int64_t> finish_ps(const ExecutionResult& r) {
  std::vector<int64_t> v;
  for (SimTime t : r.finish) v.push_back(t.ps());
  return v;
}

// Every rank r: `<r> <line>`.
std::string all_ranks(int n, const std::string& line) {
  std::string out;
  for (int r = 0; r < n; ++r) out += std::to_string(r) + " " + line + "\n";
  return out;
}

TEST(TiProgram, MatchesHandWrittenGoalSchedule) {
  const Platform platform = tera_platform(4);
  const LogGOPSParams p = params(2500, 1500, 1000, 6, 0, 65535);
  ExecutionResult ti = run_ti(data("equivalence.txt"), platform, p);
  ExecutionResult goal = run_goal(data("equivalence.goal"), platform, p);
  ASSERT_TRUE(ti.blocked.empty()) << ti.blocked[0].waits_for;
  ASSERT_TRUE(goal.blocked.empty()) << goal.blocked[0].waits_for;
  EXPECT_EQ(finish_ps(ti), finish_ps(goal));
  EXPECT_EQ(ti.makespan, goal.makespan);
  EXPECT_EQ(ti.messages, goal.messages);
  EXPECT_EQ(ti.bytes, goal.bytes);
  EXPECT_EQ(ti.messages, 2u + 8u + 3u + 8u);  // p2p, allreduce, bcast, barrier
  EXPECT_GT(ti.makespan.ps(), 4200);           // rank 3 computes 4000 + 200 ps before its first collective
}

TEST(TiProgram, MatchesGoalWithRendezvousAndOverheadPerByte) {
  const Platform platform = tera_platform(4);
  // S = 50 bytes: the 100 B and 2000 B messages and the 64 B bcast use rendezvous.
  const LogGOPSParams p = params(700, 300, 900, 2.5, 1.5, 50);
  ExecutionResult ti = run_ti(data("equivalence.txt"), platform, p);
  ExecutionResult goal = run_goal(data("equivalence.goal"), platform, p);
  ASSERT_TRUE(ti.blocked.empty());
  EXPECT_EQ(finish_ps(ti), finish_ps(goal));
}

TEST(TiProgram, AllreduceEightRanksDisseminationSeed004) {
  // Seed 004 §3.2: 8 ranks, 180-byte messages (45 INTs), o=50000 g=100000 G=6000 L=0:
  // 3 rounds x (o + L + o + 179 G) = 3,522,000 ps on every rank.
  const std::string path = testing::write_test_file("allreduce.txt", all_ranks(8, "allreduce 45 0 1"));
  ExecutionResult r = run_ti(path, params(0, 50000, 100000, 6000, 0));
  ASSERT_TRUE(r.blocked.empty());
  for (SimTime t : r.finish) EXPECT_EQ(t.ps(), 3522000);
  EXPECT_EQ(r.messages, 8u * 3u);
  EXPECT_EQ(r.bytes, 8u * 3u * 180u);

  ExecutionResult zero = run_ti(path, params(0, 0, 0, 0, 0));
  for (SimTime t : zero.finish) EXPECT_EQ(t.ps(), 0);
}

TEST(TiProgram, TwoRankAllreduceOfOneIntIsOneFourByteSendAndRecv) {
  const std::string path = testing::write_test_file("allreduce2.txt", all_ranks(2, "allreduce 1 0 1"));
  ExecutionResult r = run_ti(path, params(2500, 1500, 1000, 6));
  EXPECT_EQ(r.messages, 2u);
  EXPECT_EQ(r.bytes, 8u);
  // Arrival at o + L = 4000, then the receive overhead o + (4-1)G = 1518 on both ranks.
  EXPECT_EQ(finish_ps(r), (std::vector<int64_t>{5518, 5518}));
}

TEST(TiProgram, ComputeUsesHostSpeedAndIsFreeOnTheIdealPlatform) {
  const std::string path = testing::write_test_file("c.txt", "0 compute 2.5e6\n0 sleep 1e-6\n");
  Platform slow;
  slow.add_host(Host{"slow", 1, 1e9, -1, -1});  // 1 Gflop/s: 2.5e6 flops = 2.5 ms
  ExecutionResult r = run_ti(path, slow, params(0, 0, 0, 0));
  EXPECT_EQ(r.finish[0].ps(), 2500000000 + 1000000);
  ExecutionResult ideal = run_ti(path, params(0, 0, 0, 0));
  EXPECT_EQ(ideal.finish[0].ps(), 1000000);  // only the sleep
}

TEST(TiProgram, DatatypeSizesAndInitDefault) {
  // 10 elements: BYTE by default = 10 B, DOUBLE after `init 1` = 80 B, explicit INT = 40 B.
  auto bytes_of = [](const std::string& name, const std::string& trace) {
    return run_ti(testing::write_test_file(name, trace), params(0, 0, 0, 0)).bytes;
  };
  EXPECT_EQ(bytes_of("a.txt", "0 send 1 0 10\n1 recv 0 0 10\n"), 10u);
  EXPECT_EQ(bytes_of("b.txt", "0 init 1\n1 init 1\n0 send 1 0 10\n1 recv 0 0 10\n"), 80u);
  EXPECT_EQ(bytes_of("c.txt", "0 init 1\n0 send 1 0 10 1\n1 recv 0 0 10 1\n"), 40u);
  EXPECT_EQ(bytes_of("d.txt", "0 send 1 0 10 14\n1 recv 0 0 10 14\n"), 160u);  // LONG_DOUBLE
  EXPECT_EQ(bytes_of("e.txt", all_ranks(2, "bcast 3 0 0")), 24u);
}

TEST(TiProgram, SharedAndSplitTracesGiveTheSameRun) {
  const LogGOPSParams p = params(2500, 1500, 1000, 6);
  ExecutionResult shared = run_ti(data("pingpong.txt"), p);
  ExecutionResult split = run_ti(data("split/list.txt"), p);
  ASSERT_TRUE(shared.blocked.empty());
  ASSERT_TRUE(split.blocked.empty());
  EXPECT_EQ(finish_ps(shared), finish_ps(split));
  EXPECT_EQ(shared.messages, 4u);  // 100 B, 10 B, and the 2-rank allreduce of 4 INTs
  EXPECT_EQ(shared.bytes, 100u + 10u + 2u * 16u);
}

TEST(TiProgram, IsendLetsTheNextActionStartAtOnceAndWaitBlocks) {
  // Rank 0 isends 1000 B (eager) and computes; rank 1 computes 10000 ps and then receives.
  const std::string path = testing::write_test_file("isend.txt",
                                      "0 isend 1 3 1000\n0 compute 100\n0 wait 0 1 3\n"
                                      "1 compute 10000\n1 recv 0 3 1000\n");
  Platform platform = tera_platform(2);
  ExecutionResult r = run_ti(path, platform, params(10, 20, 30, 1));
  ASSERT_TRUE(r.blocked.empty());
  // Rank 0: send overhead o = 20, then the compute of 100 ps: 120.
  EXPECT_EQ(r.finish[0].ps(), 120);
  // Rank 1: the message arrives at o + L = 30 while rank 1 computes; it is received when the
  // compute ends, for o + (s-1)G = 20 + 999.
  EXPECT_EQ(r.finish[1].ps(), 10000 + 20 + 999);
}

TEST(TiProgram, WaitallAndFinalizeWaitForOutstandingRequests) {
  const std::string path = testing::write_test_file("waitall.txt",
                                      "0 irecv 1 0 8\n0 irecv 1 1 8\n0 waitall\n0 compute 5\n"
                                      "1 compute 1000\n1 send 0 1 8\n1 send 0 0 8\n1 isend 0 2 8\n1 finalize\n"
                                      "0 recv 1 2 8\n0 finalize\n");
  ExecutionResult r = run_ti(path, tera_platform(2), params(0, 0, 0, 0));
  ASSERT_TRUE(r.blocked.empty()) << r.blocked[0].waits_for;
  EXPECT_EQ(r.finish[0].ps(), 1005);
  EXPECT_EQ(r.messages, 3u);
}

TEST(TiProgram, TestIsANoOpAndAWaitAfterItSucceeds) {
  const std::string path = testing::write_test_file("test.txt",
                                      "0 isend 1 0 4\n0 test 0 1 0\n0 test\n0 wait 0 1 0\n"
                                      "1 recv 0 0 4\n");
  ExecutionResult r = run_ti(path, params(0, 0, 0, 0));
  EXPECT_TRUE(r.blocked.empty());
}

// MPI misuse: a wait on a request that does not exist is an input error (exit 2) naming the line,
// not a deadlock.
TEST(TiProgram, WaitForANeverStartedRequestIsAnErrorNamingTheLine) {
  const std::string path = testing::write_test_file("stuck.txt", "0 init\n1 init\n0 isend 1 2 8\n1 recv 0 2 8\n0 wait 0 1 3\n");
  try {
    run_ti(path, params(0, 0, 0, 0));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("stuck.txt:5:1: wait of rank 0 for the request (src 0, dst 1, tag 3): no "
                                         "isend/irecv of this rank"),
              std::string::npos)
        << e.what();
  }
}

TEST(TiProgram, UnmatchedReceiveIsReportedWithItsLine) {
  const std::string path = testing::write_test_file("unmatched.txt", "0 recv 1 9 16\n1 compute 1\n");
  ExecutionResult r = run_ti(path, params(0, 0, 0, 0));
  ASSERT_EQ(r.blocked.size(), 1u);
  EXPECT_NE(r.blocked[0].waits_for.find("unmatched.txt:1: recv of 16 B from rank 1 tag 9"), std::string::npos)
      << r.blocked[0].waits_for;
}

TEST(TiProgram, CollectiveMissingOnOneRankIsReportedAsBlocked) {
  const std::string path = testing::write_test_file("coll.txt", "0 barrier\n1 barrier\n2 compute 1\n");
  ExecutionResult r = run_ti(path, params(0, 0, 0, 0));
  ASSERT_FALSE(r.blocked.empty());
  EXPECT_NE(r.blocked[0].waits_for.find("coll.txt:1: collective '0 barrier'"), std::string::npos)
      << r.blocked[0].waits_for;
}

TEST(TiProgram, ParseErrorsDuringReplayNameFileAndLine) {
  const std::string path = testing::write_test_file("bad.txt", "0 compute 10\n1 compute 10\n0 send 1 0 ten\n");
  try {
    run_ti(path, params(0, 0, 0, 0));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().file, path);
    EXPECT_EQ(e.loc().line, 3);
    EXPECT_EQ(e.loc().column, 12);
    EXPECT_EQ(e.text(), "0 send 1 0 ten");
    EXPECT_NE(e.message().find("expected a count"), std::string::npos) << e.message();
  }
}

TEST(TiProgram, ActionAfterFinalizeIsAnError) {
  const std::string path = testing::write_test_file("fin.txt", "0 finalize\n1 compute 1\n0 compute 5\n");
  try {
    run_ti(path, params(0, 0, 0, 0));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 3);
    EXPECT_NE(e.message().find("after 'finalize'"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("line 1"), std::string::npos) << e.message();
  }
}

TEST(TiProgram, HugeComputeIsAnErrorNotAnOverflow) {
  Platform slow;
  slow.add_host(Host{"slow", 1, 1, -1, -1});  // 1 flop/s
  const std::string path = testing::write_test_file("huge.txt", "0 compute 1e300\n");
  EXPECT_THROW(run_ti(path, slow, params(0, 0, 0, 0)), InputError);
}

TEST(TiProgram, MemoryPerRankIsSmall) {
  EXPECT_LE(TiProgram::rank_state_bytes(), 40u);
  const std::string path = testing::write_test_file("mem.txt", all_ranks(1000, "compute 1"));
  auto trace = open_ti_trace(path);
  OpPool ops;
  Platform platform = Platform::ideal(1000);
  auto prog = make_ti_program(*trace, ops, platform, identity_hosts(1000));
  auto* ti = dynamic_cast<TiProgram*>(prog.get());
  ASSERT_NE(ti, nullptr);
  EXPECT_LE(ti->memory_bytes(), 1000u * 48u);
}

}  // namespace
}  // namespace simfab
