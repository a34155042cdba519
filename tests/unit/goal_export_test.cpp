// GOAL export (replay/ti_to_goal.hpp, replay/goal_writer.hpp, sim/goal_export.hpp):
//   round trip   `run --trace T` and `run --goal export(T)` predict the same finish times, makespan,
//                messages and bytes: the bundled traces, point-to-point traces with every request
//                pattern, every collective, every forced algorithm, both selectors, LogGOPS and flow;
//                MPI_PROC_NULL, wildcard sources, sendrecv, rsend, the no-op actions; communicators
//                (split into two colours with collectives and point-to-point on each half, dup,
//                create with a non-member, free, an id reused, a first pass that must defer)
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
#include "replay/ti_to_goal_comms.hpp"
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
  SimulationInput ti{platform, "", trace, hostfile, {}, 0, {}, false, {}, 0, {}};
  const std::string text = export_text(ti, cfgs);
  const std::string goal_path = write_test_file("exported.goal", text);
  SimulationInput goal{platform, goal_path, "", hostfile, {}, 0, {}, false, {}, 0, {}};
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

TEST(GoalExport, RoundTripSmpiWaitOfANonBlockingCollective) {
  // smpirun -trace-ti writes the wait of an MPI_Iallreduce with SMPI's internal tag (-4446).
  const std::string t = write_test_file(
      "icoll.ti",
      "0 init\n1 init\n0 iallreduce 16 0 0\n0 compute 5\n0 wait -333 -333 -4446\n0 compute 3\n"
      "1 compute 1000\n1 iallreduce 16 0 0\n1 wait 0 0 -4446\n0 finalize\n1 finalize\n");
  expect_round_trip(t, kCluster16, {});
  expect_round_trip(t, kCluster16, {"network/model=smpi"});
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

// MPI_PROC_NULL peers (no op; requests born completed, waited by wait, waitany, waitsome), the send
// modes and probe on MPI_PROC_NULL, rsend/irsend (standard sends), sendrecv (one half null, both
// null, both real), wildcard sources with concrete tags in ranks that also call a collective,
// cancel of an isend (nothing to cancel), iprobe/testany/testsome/testall (no-ops).
const char* kProcNullTrace =
    "0 init\n1 init\n2 init\n3 init\n"
    "0 compute 1e6\n0 send -666 1 5\n0 isend -666 2 5\n0 rsend 1 4 2000\n0 irsend 2 5 30000\n"
    "0 ssend -666 1 5\n0 issend -666 3 5\n0 bsend -666 1 5\n0 ibsend -666 3 5\n0 testall\n0 wait 0 -666 2\n"
    "0 waitsome 2 0 -666 3 0 -666 3\n0 cancel 0 2 5\n0 wait 0 2 5\n"
    "1 recv -666 1 5\n1 irecv -666 6 5\n1 irecv 0 4 2000\n1 probe -666 0\n1 iprobe 0 4\n1 testany\n"
    "1 waitany 2 -666 1 6 0 1 4\n1 testsome\n1 wait 0 1 4\n1 sendrecv 2 9 100 -666 9 100\n"
    "1 sendrecv -666 9 100 3 10 4000\n"
    "2 irecv -555 5 30000\n2 compute 1e5\n2 recv 1 9 100\n2 wait -555 2 5\n2 sendrecv -666 1 1 -666 1 1\n"
    "2 sendrecv 3 11 5000 3 12 5000\n"
    "3 send 1 10 4000\n3 sendrecv 2 12 5000 2 11 5000\n3 irecv -333 20 64\n3 waitall\n0 send 3 20 64\n"
    "0 allreduce 1000 1e5\n1 allreduce 1000 1e5\n2 allreduce 1000 1e5\n3 allreduce 1000 1e5\n"
    "0 finalize\n1 finalize\n2 finalize\n3 finalize\n";

TEST(GoalExport, RoundTripProcNullWildcardsSendrecv) {
  const std::string t = write_test_file("procnull.ti", kProcNullTrace);
  expect_round_trip(t, kCluster16, {});
  expect_round_trip(t, kCluster16, {"network/model=flow"});
  const std::string text = export_text(SimulationInput{kCluster16, "", t, "", {}, 0, {}, false, {}, 0, {}}, {});
  EXPECT_NE(text.find("recv 30000b from any tag 5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("recv 64b from any tag 20\n"), std::string::npos) << text;
  // sendrecv: both ops wait for the previous action and the next action requires both.
  const std::string p = write_test_file("sendrecv.ti", "0 compute 1e6\n0 sendrecv 1 1 8 1 2 16\n0 compute 1e6\n"
                                                        "1 sendrecv 0 2 16 0 1 8\n");
  EXPECT_NE(export_text(SimulationInput{kCluster16, "", p, "", {}, 0, {}, false, {}, 0, {}}, {})
                .find("l1: calc 100000000\nl2: send 8b to 1 tag 1\nl2 requires l1\nl3: recv 16b from 1 tag 2\n"
                      "l3 requires l1\nl4: calc 100000000\nl4 requires l2\nl4 requires l3\n}\n"),
            std::string::npos);
  expect_round_trip(p, kCluster16, {});
}

// SMPI's -333 irecv sources are settled as replay settles them (replay/ti_undefined_sources.hpp):
// stencil2d's missing neighbours (MPI_PROC_NULL) write no receive at all.
TEST(GoalExport, RoundTripSmpiRecordingWithUndefinedSources) {
  const std::string t = kSrc + "/examples/ti/smpi/stencil4.txt";
  expect_round_trip(t, kCluster16, {});
  expect_round_trip(t, kCluster16, {"network/model=smpi"});
  const std::string text = export_text(SimulationInput{kCluster16, "", t, "", {}, 0, {}, false, {}, 0, {}}, {});
  EXPECT_EQ(text.find("from any"), std::string::npos);
  EXPECT_NE(text.find("recv 64b from 2 tag 1"), std::string::npos) << text.substr(0, 2000);
}

// The collectives of every_collective_trace on communicator `comm` of `p` ranks, for the rank whose
// local rank is `local` (v-counts relative to the communicator).
std::string comm_collectives(const std::string& R, int local, int p, const std::string& comm) {
  const std::string c = " comm=" + comm + "\n";
  int ssum = 0, rsum = 0;
  for (int j = 0; j < p; ++j) ssum += 10 * (local + 1) + j, rsum += 10 * (j + 1) + local;
  std::string t;
  t += R + "barrier" + c;
  t += R + "bcast 1000 " + std::to_string(2 % p) + c;
  t += R + "reduce 500 100000 " + std::to_string(1 % p) + c;
  t += R + "allreduce 4096 200000" + c;
  t += R + "alltoallv " + std::to_string(ssum) + counts(p, [&](int j) { return 10 * (local + 1) + j; }) + " " +
       std::to_string(rsum) + counts(p, [&](int j) { return 10 * (j + 1) + local; }) + c;
  t += R + "gatherv " + std::to_string(20 + local) + counts(p, [](int i) { return 20 + i; }) + " 1" + c;
  t += R + "scatterv" + counts(p, [](int i) { return 40 + i; }) + " " + std::to_string(40 + local) + " " +
       std::to_string(2 % p) + c;
  t += R + "reducescatter" + counts(p, [](int i) { return 8 * (i + 1); }) + " 100000" + c;
  t += R + "allgather 128 128" + c;
  return t;
}

// 10 ranks split into colour r % 2 with key -r (each half in reverse world order: local rank i of
// the even half is world 8 - 2i), every collective on both halves, point-to-point on a half with
// local peers, a wildcard source and requests; then world collectives (the same number per rank).
std::string split_trace() {
  std::string t;
  for (int r = 0; r < 10; ++r) {
    const std::string R = std::to_string(r) + " ";
    const int local = 4 - r / 2;
    t += R + "init\n" + R + "compute " + std::to_string((r + 1) * 100000) + "\n";
    t += R + "comm_split " + std::to_string(r % 2) + " " + std::to_string(-r) + " " + std::to_string(1 + r % 2) + "\n";
    t += comm_collectives(R, local, 5, std::to_string(1 + r % 2));
    if (r % 2 == 1) {  // odd half: local i+1 sends to local i (world r+2 -> r), a ring of irecvs from any
      const std::string c = " comm=2\n";
      if (local > 0) t += R + "isend " + std::to_string(local - 1) + " 3 " + std::to_string(1000 * r) + c;
      if (local < 4) t += R + "irecv -555 3 100000" + c;
      t += R + "compute 1e5\n" + R + "waitall\n";
      t += R + "sendrecv " + std::to_string((local + 1) % 5) + " 4 64 " + std::to_string((local + 4) % 5) + " 4 64" + c;
    } else {  // even half: blocking ping-pong between locals 0 and 4 (worlds 8 and 0), tag beyond 2^15
      const std::string c = " comm=1\n";
      if (local == 0) t += R + "send 4 70000 20000" + c + R + "recv 4 70001 8" + c;
      if (local == 4) t += R + "recv 0 70000 20000" + c + R + "send 0 70001 8" + c;
    }
    t += R + "allreduce 64 1000\n" + R + "alltoall 16 16\n" + R + "finalize\n";
  }
  return t;
}

TEST(GoalExport, RoundTripSplitIntoTwoColours) {
  const std::string t = write_test_file("split.ti", split_trace());
  expect_round_trip(t, kCluster16, {});
  expect_round_trip(t, kCluster16, {"network/model=flow"});
  for (const char* sel : {"ompi", "mpich"}) expect_round_trip(t, kCluster16, {std::string("mpi/coll-selector=") + sel});
  expect_round_trip(t, kCluster16, {"mpi/allreduce=ring", "mpi/bcast=pipeline", "mpi/barrier=recursive-doubling"});
  expect_round_trip(t, kCluster16, {}, write_test_file("hosts.txt", "node0:3\nnode5:3\nnode9:4\n"));
}

// Tags per communicator (GoalTags): 2 communicators -> blocks of 2^28 from 3 x 2^29, the lower
// half point-to-point. Rank 1 (local 0 of the odd half, id 2 = slot 2) sends to local 1 (world 3)
// with tag 5; the split itself is the world's collective #0 (tag 2^30); comm 2's first collective
// is at its block's upper half.
TEST(GoalExport, SubCommunicatorTagsAndLocalRanks) {
  std::string t;
  for (int r = 0; r < 4; ++r) t += std::to_string(r) + " comm_split " + std::to_string(r % 2) + " 0 " + std::to_string(1 + r % 2) + "\n";
  t += "1 send 1 5 8 comm=2\n3 recv 0 5 8 comm=2\n0 barrier comm=1\n2 barrier comm=1\n1 barrier comm=2\n3 barrier comm=2\n";
  const std::string path = write_test_file("tags.ti", t);
  const std::string text = export_text(SimulationInput{kCluster16, "", path, "", {}, 0, {}, false, {}, 0, {}}, {});
  const int32_t base2 = kCommTagBase + (int32_t{1} << 28);
  EXPECT_NE(text.find("send 8b to 3 tag " + std::to_string(base2 + 5) + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("recv 8b from 1 tag " + std::to_string(base2 + 5) + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("send 1b to 3 tag " + std::to_string(base2 + (int32_t{1} << 27)) + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("send 1b to 2 tag " + std::to_string(kCommTagBase + (int32_t{1} << 27)) + "\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("tag 1073741824\n"), std::string::npos) << text;  // the split
  expect_round_trip(path, kCluster16, {});
}

TEST(GoalTags, BlocksShrinkWithTheNumberOfCommunicators) {
  EXPECT_EQ(GoalTags(0).p2p_limit(0), kCollTagBase);
  EXPECT_EQ(GoalTags(1).p2p_limit(1), int32_t{1} << 28);
  EXPECT_EQ(GoalTags(2).p2p_limit(2), int32_t{1} << 27);
  EXPECT_EQ(GoalTags(3).p2p_limit(1), int32_t{1} << 26);
  EXPECT_EQ(GoalTags(8192).p2p_limit(1), int32_t{1} << 15);  // MPI_TAG_UB is at least 32767
  EXPECT_EQ(GoalTags(8193).p2p_limit(1), int32_t{1} << 14);
  const GoalTags big(GoalTags::kMaxSubComms);
  EXPECT_EQ(big.p2p_limit(1), 2);
  // The last slot's last tag is the largest GOAL tag; the world's ranges are untouched.
  EXPECT_EQ(big.collective(GoalTags::kMaxSubComms, 3), INT32_MAX);
  EXPECT_EQ(GoalTags(5).collective(0, 0), kCollTagBase);
  EXPECT_EQ(GoalTags(5).collective(0, (uint64_t{1} << 29) + 7), kCollTagBase + 7);  // wraps
  EXPECT_EQ(GoalTags(5).p2p(0, 12), 12);
  const GoalTags t(3);  // 2^27 per block
  EXPECT_EQ(t.p2p(3, 9), kCommTagBase + 2 * (int32_t{1} << 27) + 9);
  EXPECT_EQ(t.collective(3, 0), kCommTagBase + 2 * (int32_t{1} << 27) + (int32_t{1} << 26));
  EXPECT_EQ(t.collective(1, uint64_t{1} << 26), t.collective(1, 0));
}

// comm_dup, comm_create leaving rank 2 out (it computes meanwhile), collectives and requests on the
// new communicators (local ranks: create's group order 4 3 0 1), frees, id 7 created again by a
// dup of the dup; no world collective after the asymmetric ones.
std::string dup_create_free_trace() {
  std::string t;
  const auto each = [&](const std::function<std::string(int)>& f) {
    for (int r = 0; r < 5; ++r)
      if (std::string x = f(r); !x.empty()) t += std::to_string(r) + " " + x + "\n";
  };
  each([](int) { return std::string("init"); });
  each([](int r) { return "compute " + std::to_string((r + 1) * 100000); });
  each([](int) { return std::string("comm_dup 3"); });
  each([](int) { return std::string("allreduce 4000 1e4 comm=3"); });
  each([](int r) { return std::string("comm_create ") + (r != 2 ? "7" : "-1") + " 4 4 3 0 1"; });
  each([](int r) { return std::string(r != 2 ? "barrier comm=7" : "compute 1e6"); });
  each([](int r) { return std::string(r != 2 ? "bcast 2000 2 comm=7" : ""); });
  t += "4 isend 3 9 500 comm=7\n1 irecv 0 9 500 comm=7\n4 wait 0 3 9 comm=7\n1 wait 0 3 9 comm=7\n";
  t += "0 send 1 1 700 comm=3\n1 recv 0 1 700 comm=3\n";
  each([](int r) { return std::string(r != 2 ? "comm_free 7" : ""); });
  each([](int) { return std::string("comm_dup 7 comm=3"); });
  each([](int) { return std::string("alltoall 100 100 comm=7"); });
  t += "3 send 0 4 99 comm=7\n0 recv 3 4 99 comm=7\n";
  each([](int) { return std::string("barrier comm=3"); });
  each([](int) { return std::string("comm_free 3"); });
  each([](int) { return std::string("comm_free 7"); });
  each([](int) { return std::string("finalize"); });
  return t;
}

TEST(GoalExport, RoundTripDupCreateFree) {
  const std::string t = write_test_file("create.ti", dup_create_free_trace());
  expect_round_trip(t, kCluster16, {});
  expect_round_trip(t, kCluster16, {"network/model=flow"});
  expect_round_trip(t, kCluster16, {"mpi/coll-selector=mpich"});
}

// The first pass must not complete rank 2's comm_dup 5 (on {0, 2}) while id 5 ({0, 1}) is alive:
// rank 1 frees it only after its own creation on {1, 3}. In replay rank 2 first receives 100 MB
// that rank 3 sends after that creation, so rank 1 has freed the id long before; the first pass
// reaches rank 2's arrival earlier (it skips the receive) and must defer it.
TEST(GoalExport, FirstPassDefersACreationWhoseIdIsStillAlive) {
  std::string t;
  for (int r = 0; r < 4; ++r) {
    const std::string R = std::to_string(r) + " ";
    t += R + "comm_create " + (r < 2 ? "5" : "-1") + " 2 0 1\n";
    t += R + "comm_create " + (r % 2 == 0 ? "6" : "-1") + " 2 0 2\n";
    t += R + "comm_create " + (r % 2 == 1 ? "7" : "-1") + " 2 1 3\n";
  }
  t += "0 comm_free 5\n0 comm_dup 5 comm=6\n0 barrier comm=5\n1 comm_dup 8 comm=7\n1 comm_free 5\n";
  t += "2 recv 3 0 100000000\n2 comm_dup 5 comm=6\n2 barrier comm=5\n3 comm_dup 8 comm=7\n3 send 2 0 100000000\n";
  const std::string path = write_test_file("defer.ti", t);
  expect_round_trip(path, kCluster16, {});
}

// Non-blocking collectives (the rank goes on; waitall or finalize completes them), scan, exscan.
TEST(GoalExport, RoundTripNonBlockingCollectivesAndScans) {
  std::string t;
  for (int r = 0; r < 5; ++r) {
    const std::string R = std::to_string(r) + " ";
    t += R + "compute " + std::to_string((r + 1) * 100000) + "\n" + R + "iallreduce 40000 1e5\n" + R + "compute 2e5\n" +
         R + "ibcast 3000 1\n" + R + "isend " + std::to_string((r + 1) % 5) + " 3 500\n" + R + "irecv " +
         std::to_string((r + 4) % 5) + " 3 500\n" + R + "waitall\n" + R + "scan 800 1e4\n" + R + "exscan 800 1e4\n" + R +
         "ibarrier\n" + R + "compute 1e5\n";
  }
  const std::string path = write_test_file("nonblocking.ti", t);
  expect_round_trip(path, kCluster16, {});
  expect_round_trip(path, kCluster16, {"network/model=flow"});
  expect_round_trip(path, kCluster16, {"mpi/coll-selector=ompi"});
}

TEST(GoalExport, CommunicatorErrors) {
  const auto error_of = [](const std::string& trace) {
    try {
      export_text(SimulationInput{kCluster16, "", write_test_file("comm.ti", trace), "", {}, 0, {}, false, {}, 0, {}}, {});
    } catch (const InputError& e) {
      return format_error(e);
    }
    return std::string("(no error)");
  };
  std::string e = error_of("0 comm_split 0 0 1\n1 compute 5\n");
  EXPECT_NE(e.find("comm.ti:1:"), std::string::npos) << e;
  EXPECT_NE(e.find("comm_split of rank 0 (creation #0 on communicator 0) never completes: 1 member(s) never make "
                   "that call (rank(s) 1"),
            std::string::npos)
      << e;
  e = error_of("0 comm_dup 1\n1 comm_dup 2\n");
  EXPECT_NE(e.find("comm.ti:2:1: rank 1: MPI_Comm_dup"), std::string::npos) << e;
  e = error_of("0 barrier comm=4\n1 barrier\n");
  EXPECT_NE(e.find("comm.ti:1:1: communicator 4 does not exist for rank 0"), std::string::npos) << e;
  e = error_of("0 comm_create 1 1 0\n1 comm_create -1 1 0\n1 barrier comm=1\n");
  EXPECT_NE(e.find("comm.ti:3:1: communicator 1 does not exist for rank 1"), std::string::npos) << e;
  e = error_of("0 comm_dup 1\n1 comm_dup 1\n0 comm_free 1\n0 barrier comm=1\n");
  EXPECT_NE(e.find("comm.ti:4:1: communicator 1 does not exist for rank 0"), std::string::npos) << e;
  // Tags on a sub-communicator: one communicator gets 2^28 of them.
  e = error_of("0 comm_dup 1\n1 comm_dup 1\n0 send 1 268435456 8 comm=1\n1 recv 0 268435456 8 comm=1\n");
  EXPECT_NE(e.find("comm.ti:3:1: tag 268435456 on communicator 1 is too large for GOAL export"), std::string::npos) << e;
  EXPECT_NE(e.find("must stay below 268435456"), std::string::npos) << e;
  // Creations are collectives: no tag any with them.
  e = error_of("0 comm_dup 1\n1 comm_dup 1\n0 recv 1 -1 8 comm=1\n1 send 0 3 8 comm=1\n");
  EXPECT_NE(e.find("comm.ti:3:1: a receive with tag -1 (MPI_ANY_TAG) cannot be exported together with collectives "
                   "(rank 0 has one at line 1"),
            std::string::npos)
      << e;
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
  EXPECT_EQ(export_text(SimulationInput{kCluster16, "", t, "", {}, 0, {}, false, {}, 0, {}}, {}), kGoldenGoal);
  expect_round_trip(t, kCluster16, {});
  // The text parses back (simfab's GOAL reader is the grammar's reference).
  const GoalSchedule g = parse_goal_text(kGoldenGoal, "golden.goal");
  EXPECT_EQ(g.op_count(), 20u);
}

TEST(GoalExport, WithoutPlatformComputeIsFree) {
  const std::string t = write_test_file("golden.ti", kGoldenTrace);
  const std::string text = export_text(SimulationInput{"", "", t, "", {}, 0, {}, false, {}, 0, {}}, {});
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
    export_text(SimulationInput{kCluster16, "", t, "", {}, 0, {}, false, {}, 0, {}}, {});
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
  // What GOAL cannot express: send modes, probes, cancel of a receive, any-of waits.
  const std::string why = "; replay the trace with simfab run instead";
  expect_export_error("0 ssend 1 0 8\n1 recv 0 0 8\n",
                      {"bad.ti:1:1: cannot export 'ssend' to GOAL: GOAL has no synchronous-mode send", why});
  expect_export_error("0 issend 1 0 8\n0 wait 0 1 0\n1 recv 0 0 8\n", {"bad.ti:1:1: cannot export 'issend'"});
  expect_export_error("0 bsend 1 0 8\n1 recv 0 0 8\n",
                      {"bad.ti:1:1: cannot export 'bsend' to GOAL: GOAL has no buffered-mode send", why});
  expect_export_error("0 ibsend 1 0 8\n0 wait 0 1 0\n1 recv 0 0 8\n", {"bad.ti:1:1: cannot export 'ibsend'"});
  expect_export_error("0 send 1 0 8\n1 probe 0 0\n1 recv 0 0 8\n",
                      {"bad.ti:2:1: cannot export 'probe' to GOAL: GOAL has no probe", why});
  expect_export_error("0 send 1 0 8\n1 irecv 0 0 8\n1 cancel 0 1 0\n1 wait 0 1 0\n",
                      {"bad.ti:3:1: cannot export 'cancel' to GOAL: whether the receive is cancelled depends on its timing"});
  expect_export_error("0 send 1 0 8\n1 irecv 0 0 8\n1 waitany\n",
                      {"bad.ti:3:1: cannot export 'waitany' to GOAL: GOAL has no any-of dependency", why});
  expect_export_error("0 send 1 0 8\n1 irecv -666 0 8\n1 irecv 0 0 8\n1 waitsome\n",
                      {"bad.ti:4:1: cannot export 'waitsome' to GOAL: GOAL has no any-of dependency"});
  expect_export_error("0 send 1 0 8\n1 irecv 0 0 8\n1 waitany 1 0 1 5\n",
                      {"bad.ti:3:1: waitany for a request (src 0, dst 1, tag 5) that was never started"});
}

}  // namespace
}  // namespace simfab
