// GOAL export (replay/ti_to_goal.hpp, replay/goal_writer.hpp, sim/goal_export.hpp):
//   round trip   `run --trace T` and `run --goal export(T)` predict the same finish times, makespan,
//                messages and bytes: the bundled traces, point-to-point traces with every request
//                pattern, every collective, every forced algorithm, both selectors, LogGOPS and flow
//   golden       a 3-rank export checked byte for byte, derived by hand
//   bad input    InputError with file:line for what cannot be exported
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "mpi/coll/registry.hpp"
#include "replay/goal_schedule.hpp"
#include "replay/goal_writer.hpp"
#include "sim/goal_export.hpp"
#include "sim/simulation.hpp"
#include "test_support.hpp"

namespace simfab {
namespace {

using testing::write_test_file;

const std::string kSrc = SIMFAB_SOURCE_DIR;
const std::string kCluster16 = kSrc + "/examples/platforms/cluster16.yaml";

Config make_config(const std::vector<std::string>& cfgs) {
  Config cfg;
  register_builtin_keys(cfg);
  for (const std::string& a : cfgs) cfg.set_assignment(a, SourceLoc{"--cfg", 0, 0});
  return cfg;
}

std::string export_text(const SimulationInput& in, const std::vector<std::string>& cfgs) {
  Config cfg = make_config(cfgs);
  std::ostringstream out;
  export_trace_as_goal(in, cfg, out);
  return out.str();
}

ExecutionResult run(const SimulationInput& in, const std::vector<std::string>& cfgs) {
  Config cfg = make_config(cfgs);
  return run_simulation(in, cfg).exec;
}

// Exports `trace` for `platform` (+ hostfile) under `cfgs`, replays both, compares.
void expect_round_trip(const std::string& trace, const std::string& platform, const std::vector<std::string>& cfgs,
                       const std::string& hostfile = {}) {
  SCOPED_TRACE(trace + " with" + [&] {
    std::string s;
    for (const auto& c : cfgs) s += " --cfg " + c;
    return s;
  }());
  SimulationInput ti{platform, "", trace, hostfile};
  const std::string text = export_text(ti, cfgs);
  const std::string goal_path = write_test_file("exported.goal", text);
  SimulationInput goal{platform, goal_path, "", hostfile};
  const ExecutionResult a = run(ti, cfgs);
  const ExecutionResult b = run(goal, cfgs);
  ASSERT_TRUE(a.blocked.empty()) << "the trace itself deadlocks";
  ASSERT_TRUE(b.blocked.empty()) << "the export deadlocks: " << b.blocked.front().waits_for;
  EXPECT_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.finish, b.finish);
  EXPECT_EQ(a.messages, b.messages);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.unmatched_messages, b.unmatched_messages);
  EXPECT_GT(a.messages, 0u);
  // Deterministic: a second export is byte-identical.
  EXPECT_EQ(text, export_text(ti, cfgs));
}

std::string counts(int p, const std::function<int(int)>& f) {
  std::string s;
  for (int i = 0; i < p; ++i) s += " " + std::to_string(f(i));
  return s;
}

// Every collective of the TI format on `p` ranks, with compute between and non-zero roots; the
// v-collectives' counts agree between senders and receivers.
std::string every_collective_trace(int p) {
  std::string t;
  for (int r = 0; r < p; ++r) {
    const std::string R = std::to_string(r) + " ";
    int ssum = 0, rsum = 0;
    for (int j = 0; j < p; ++j) ssum += 10 * (r + 1) + j, rsum += 10 * (j + 1) + r;
    t += R + "init\n";
    t += R + "compute " + std::to_string((r + 1) * 100000) + "\n";
    t += R + "barrier\n";
    t += R + "bcast 1000 " + std::to_string(2 % p) + "\n";
    t += R + "reduce 500 100000 " + std::to_string(1 % p) + "\n";
    t += R + "allreduce 4096 200000\n";
    t += R + "alltoall 64 64\n";
    t += R + "alltoallv " + std::to_string(ssum) + counts(p, [&](int j) { return 10 * (r + 1) + j; }) + " " +
         std::to_string(rsum) + counts(p, [&](int j) { return 10 * (j + 1) + r; }) + "\n";
    t += R + "compute 300000\n";
    t += R + "gather 100 100 " + std::to_string(3 % p) + "\n";
    t += R + "gatherv " + std::to_string(20 + r) + counts(p, [](int i) { return 20 + i; }) + " 0\n";
    t += R + "allgather 128 128\n";
    t += R + "allgatherv " + std::to_string(30 + r) + counts(p, [](int i) { return 30 + i; }) + "\n";
    t += R + "scatter 100 100 " + std::to_string(1 % p) + "\n";
    t += R + "scatterv" + counts(p, [](int i) { return 40 + i; }) + " " + std::to_string(40 + r) + " " +
         std::to_string(2 % p) + "\n";
    t += R + "reducescatter" + counts(p, [](int i) { return 8 * (i + 1); }) + " 100000\n";
    t += R + "allreduce 1000000 0 1\n";  // 8 MB of INT: large enough for pipelined algorithms
    t += R + "finalize\n";
  }
  return t;
}

// Point-to-point with every request pattern: blocking send/recv, isend/irecv completed by wait
// (in and out of order, on a request already complete), waitall, finalize with requests open,
// a tag -1 receive, test, sleep, init with a datatype (rank 1 counts DOUBLEs), sizes over the
// eager limit.
const char* kP2pTrace =
    "0 init\n1 init 1\n2 init\n3 init\n"
    "0 compute 1e6\n"
    "0 isend 1 3 100\n0 isend 2 4 20000\n0 irecv 3 5 70000\n0 wait 0 2 4\n0 test 0 1 3\n0 waitall\n"
    "1 irecv 0 3 800\n1 sleep 0.00001\n1 send 2 7 128\n1 wait 0 1 3\n1 recv 3 -1 16\n"
    "2 recv 1 7 1024\n2 irecv 0 4 20000\n2 isend 3 9 1000000\n2 wait 2 3 9\n2 compute 5e5\n2 wait 0 2 4\n"
    "3 isend 0 5 70000\n3 send 1 11 16\n3 irecv 2 9 1000000\n3 compute 2e5\n3 wait 3 0 5\n"
    "0 finalize\n1 finalize\n2 finalize\n3 finalize\n";

TEST(GoalExport, RoundTripBundledTraces) {
  for (const char* name : {"pingpong.ti", "allreduce16.ti", "stencil16.ti"}) {
    const std::string t = kSrc + "/examples/ti/" + name;
    expect_round_trip(t, kCluster16, {});
    expect_round_trip(t, kCluster16, {"network/model=flow"});
  }
  expect_round_trip(kSrc + "/examples/ti/pingpong.ti", kSrc + "/examples/platforms/two-hosts.yaml", {});
  for (const char* alg : {"ring", "recursive-doubling", "rabenseifner", "segmented-ring"})
    expect_round_trip(kSrc + "/examples/ti/allreduce16.ti", kCluster16, {std::string("mpi/allreduce=") + alg});
}

TEST(GoalExport, RoundTripPointToPoint) {
  const std::string t = write_test_file("p2p.ti", kP2pTrace);
  expect_round_trip(t, kCluster16, {});
  expect_round_trip(t, kCluster16, {"network/model=flow"});
  // Two ranks per host: messages between them use the loopback.
  expect_round_trip(t, kCluster16, {}, write_test_file("hosts.txt", "node0:2\nnode5:2\n"));
}

TEST(GoalExport, RoundTripEveryCollective) {
  for (int p : {3, 5, 8}) {
    const std::string t = write_test_file("coll" + std::to_string(p) + ".ti", every_collective_trace(p));
    expect_round_trip(t, kCluster16, {});
    expect_round_trip(t, kCluster16, {"network/model=flow"});
    for (const char* sel : {"ompi", "mpich"}) {
      expect_round_trip(t, kCluster16, {std::string("mpi/coll-selector=") + sel});
      expect_round_trip(t, kCluster16, {std::string("mpi/coll-selector=") + sel, "network/model=flow"});
    }
  }
}

TEST(GoalExport, RoundTripEveryForcedAlgorithm) {
  const std::string t = write_test_file("coll6.ti", every_collective_trace(6));
  for (size_t i = 0; i < static_cast<size_t>(coll::CollOp::kCount); ++i) {
    const auto op = static_cast<coll::CollOp>(i);
    for (const coll::CollAlgorithm& a : coll::coll_algorithms(op))
      expect_round_trip(t, kCluster16, {coll::coll_op_key(op) + "=" + a.name});
  }
}

// 3 ranks on cluster16 (10 Gf hosts). Hand derivation:
//   rank 0  compute 1e6 flops / 1e10 flop/s = 100 us = 100000000 ps           -> l1: calc
//           isend 16 B to 1 tag 5: waits for the compute                        -> l2, requires l1
//           irecv 8 B from 2 tag 6: starts once the isend started              -> l3, irequires l2
//           waitall: the next action requires both requests' ops (the irecv's entry, first in
//           the frontier, is upgraded to requires; the isend's is added)
//   barrier (collective #0: tag 2^30 = 1073741824), dissemination on 3 ranks (fragment.hpp):
//           op0 send to r+1, op1 recv from r-1, op2 send to r+2 (requires op1), op3 recv from
//           r-2, op4 the closing calc 0 requiring the end ops op0, op2, op3. The roots op0, op1,
//           op3 wait for the frontier (l3, l2); internal edges follow the ops.
//   rank 1  recv 16 B from 0 tag 5, then the barrier (frontier: requires l1).
//   rank 2  send 8 B to 0 tag 6, then the barrier.
constexpr const char* kGoldenTrace =
    "0 init\n1 init\n2 init\n0 compute 1e6\n0 isend 1 5 16\n0 irecv 2 6 8\n1 recv 0 5 16\n2 send 0 6 8\n"
    "0 waitall\n0 barrier\n1 barrier\n2 barrier\n0 finalize\n1 finalize\n2 finalize\n";
constexpr const char* kGoldenGoal =
    "num_ranks 3\n"
    "rank 0 {\n"
    "l1: calc 100000000\n"
    "l2: send 16b to 1 tag 5\nl2 requires l1\n"
    "l3: recv 8b from 2 tag 6\nl3 irequires l2\n"
    "l4: send 1b to 1 tag 1073741824\nl4 requires l3\nl4 requires l2\n"
    "l5: recv 1b from 2 tag 1073741824\nl5 requires l3\nl5 requires l2\n"
    "l6: send 1b to 2 tag 1073741824\n"
    "l7: recv 1b from 1 tag 1073741824\nl7 requires l3\nl7 requires l2\n"
    "l8: calc 0\n"
    "l6 requires l5\nl8 requires l4\nl8 requires l6\nl8 requires l7\n"
    "}\n"
    "rank 1 {\n"
    "l1: recv 16b from 0 tag 5\n"
    "l2: send 1b to 2 tag 1073741824\nl2 requires l1\n"
    "l3: recv 1b from 0 tag 1073741824\nl3 requires l1\n"
    "l4: send 1b to 0 tag 1073741824\n"
    "l5: recv 1b from 2 tag 1073741824\nl5 requires l1\n"
    "l6: calc 0\n"
    "l4 requires l3\nl6 requires l2\nl6 requires l4\nl6 requires l5\n"
    "}\n"
    "rank 2 {\n"
    "l1: send 8b to 0 tag 6\n"
    "l2: send 1b to 0 tag 1073741824\nl2 requires l1\n"
    "l3: recv 1b from 1 tag 1073741824\nl3 requires l1\n"
    "l4: send 1b to 1 tag 1073741824\n"
    "l5: recv 1b from 0 tag 1073741824\nl5 requires l1\n"
    "l6: calc 0\n"
    "l4 requires l3\nl6 requires l2\nl6 requires l4\nl6 requires l5\n"
    "}\n";

TEST(GoalExport, GoldenThreeRanks) {
  const std::string t = write_test_file("golden.ti", kGoldenTrace);
  EXPECT_EQ(export_text(SimulationInput{kCluster16, "", t, ""}, {}), kGoldenGoal);
  expect_round_trip(t, kCluster16, {});
  // The text parses back (simfab's GOAL reader is the grammar's reference).
  const GoalSchedule g = parse_goal_text(kGoldenGoal, "golden.goal");
  EXPECT_EQ(g.op_count(), 20u);
}

TEST(GoalExport, WithoutPlatformComputeIsFree) {
  const std::string t = write_test_file("golden.ti", kGoldenTrace);
  const std::string text = export_text(SimulationInput{"", "", t, ""}, {});
  EXPECT_NE(text.find("l1: calc 0\n"), std::string::npos) << text;
}

TEST(GoalWriter, EmptyRanksAndAnyTag) {
  std::ostringstream out;
  GoalWriter w(out, 2);
  w.begin_rank();
  w.end_rank();
  w.begin_rank();
  const GoalLabel a = w.recv(4, 0, kAnyTag);
  const GoalLabel b = w.calc(7);
  w.depend(b, a, true);
  w.end_rank();
  w.finish();
  EXPECT_EQ(out.str(), "num_ranks 2\nrank 0 {\n}\nrank 1 {\nl1: recv 4b from 0 tag any\nl2: calc 7\nl2 irequires l1\n}\n");
  EXPECT_EQ(w.ops_written(), 2u);
  EXPECT_EQ(w.dependencies_written(), 1u);
}

void expect_export_error(const std::string& trace, const std::vector<std::string>& expected) {
  const std::string t = write_test_file("bad.ti", trace);
  try {
    export_text(SimulationInput{kCluster16, "", t, ""}, {});
    ADD_FAILURE() << "no InputError for\n" << trace;
  } catch (const InputError& e) {
    const std::string msg = format_error(e);
    for (const std::string& x : expected) EXPECT_NE(msg.find(x), std::string::npos) << msg;
  }
}

TEST(GoalExport, BadInput) {
  expect_export_error("0 init\n1 init\n0 isend 1 0 8\n0 wait 0 1 1\n1 recv 0 0 8\n",
                      {"bad.ti:4:", "wait for a request (src 0, dst 1, tag 1) that was never started", "0 wait 0 1 1"});
  expect_export_error("0 init\n1 init\n0 send 1 1073741824 8\n1 recv 0 1073741824 8\n",
                      {"bad.ti:3:", "tag 1073741824 is in the range GOAL export gives collectives"});
  expect_export_error("0 recv 1 -1 8\n0 barrier\n1 send 0 3 8\n1 barrier\n",
                      {"bad.ti:1:", "tag -1 (MPI_ANY_TAG) cannot be exported together with collectives",
                       "has one at line 2"});
  expect_export_error("0 barrier\n0 recv 1 -1 8\n1 barrier\n1 send 0 3 8\n",
                      {"bad.ti:2:", "has one at line 1"});
  expect_export_error("0 init\n0 finalize\n0 compute 5\n", {"bad.ti:3:", "action after 'finalize'"});
  expect_export_error("0 init\n0 compute lots\n", {"bad.ti:2:", "lots"});
}

}  // namespace
}  // namespace simfab
