// Communicators in TI replay (issue 4 part 2) and MPI's collective-matching rule (bad input):
// comm_split / comm_dup / comm_create / comm_free, actions on `comm=<id>`, local-rank translation,
// per-communicator matching contexts, and mismatched collectives named with their lines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "mpi/coll_match.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "platform/platform.hpp"
#include "replay/ti_program.hpp"
#include "replay/ti_trace.hpp"

#include "ti_test_support.hpp"

namespace simfab {
namespace {

ExecutionResult run(const std::string& name, const std::string& text) {
  return testing::run_ti_text(name, text, testing::TiHosts::kIdeal);
}

std::string error_of(const std::string& name, const std::string& text) {
  return testing::ti_error_of(name, text, testing::TiHosts::kIdeal);
}

// Every rank r of n: `<r> ` + line(r).
template <class F>
std::string each(int n, F line) {
  std::string out;
  for (int r = 0; r < n; ++r) out += std::to_string(r) + " " + line(r) + "\n";
  return out;
}

// 8 ranks split by parity (ids 1 = even, 2 = odd; key = rank). The split costs a Bruck allgather
// of 8 B blocks on the world: 3 rounds, each rank sends 1, 2 and 4 blocks (56 B): 24 messages,
// 448 B. A binomial bcast of 1000 B on each 4-rank half: 3 messages each, 6000 B in all.
TEST(TiComm, SplitThenABcastOnEachHalf) {
  const std::string split = each(8, [](int r) { return "comm_split " + std::to_string(r % 2) + " " + std::to_string(r) + " " + std::to_string(1 + r % 2); });
  const ExecutionResult only = run("split.txt", split);
  EXPECT_EQ(only.messages, 24u);
  EXPECT_EQ(only.bytes, 448u);
  const ExecutionResult r = run("split_bcast.txt", split + each(8, [](int r) { return "bcast 1000 0 comm=" + std::to_string(1 + r % 2); }));
  ASSERT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.messages, 30u);
  EXPECT_EQ(r.bytes, 6448u);
}

// Point-to-point on a sub-communicator uses its local ranks and its own matching context: rank 1
// (local 0 of the odd half) sends 8 B on comm 2 and then 16 B on the world with the same tag; rank
// 3 (local 1) receives the world message first. Had the world receive matched the comm message,
// the comm receive would get 16 B into 8 (MPI_ERR_TRUNCATE).
TEST(TiComm, PointToPointUsesLocalRanksAndItsOwnContext) {
  const std::string split = each(4, [](int r) { return "comm_split " + std::to_string(r % 2) + " 0 " + std::to_string(1 + r % 2); });
  const ExecutionResult r = run("p2p.txt", split + "1 send 1 0 8 comm=2\n1 send 3 0 16\n3 recv 1 0 16\n3 recv 0 0 8 comm=2\n");
  ASSERT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.messages, 8u + 2u);
  // isend/wait keys name local ranks and the communicator.
  const ExecutionResult q = run("req.txt", split + "1 isend 1 4 8 comm=2\n1 wait 0 1 4 comm=2\n3 irecv 0 4 8 comm=2\n"
                                                   "3 wait 0 1 4 comm=2\n");
  EXPECT_TRUE(q.blocked.empty());
  // A key without the communicator does not find the request.
  EXPECT_NE(error_of("req_world.txt", split + "1 isend 1 4 8 comm=2\n1 wait 0 1 4\n3 recv 0 4 8 comm=2\n")
                .find("req_world.txt:6:1: wait of rank 1 for the request"),
            std::string::npos);
}

// comm_dup: an 8 B recursive-doubling allreduce (3 messages per rank on 8 ranks), then Schedgen's
// dissemination allreduce on the copy (3 per rank): 48 messages.
TEST(TiComm, DupCostsAnAllreduceAndWorksLikeTheWorld) {
  const ExecutionResult r = run("dup.txt", each(8, [](int) { return "comm_dup 5"; }) + each(8, [](int) { return "allreduce 8 0 comm=5"; }));
  ASSERT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.messages, 48u);
}

// comm_create over ranks {0, 1, 2} of 4: rank 3 gets no communicator and may not use it; after
// every member frees it the id no longer exists, and may be created again.
TEST(TiComm, CreateFreeAndReuse) {
  const std::string create = each(4, [](int r) { return std::string("comm_create ") + (r < 3 ? "7" : "-1") + " 3 0 1 2"; });
  const ExecutionResult r = run("create.txt", create + each(3, [](int) { return "barrier comm=7"; }));
  EXPECT_TRUE(r.blocked.empty());
  EXPECT_NE(error_of("nonmember.txt", create + "3 barrier comm=7\n").find("rank 3 is not a member of communicator 7 (3 ranks)"),
            std::string::npos);
  const std::string freed = create + each(3, [](int) { return "comm_free 7"; });
  EXPECT_NE(error_of("freed.txt", freed + "0 barrier comm=7\n").find("communicator 7 does not exist"), std::string::npos);
  EXPECT_TRUE(run("reuse.txt", freed + each(4, [](int) { return "comm_dup 7"; }) + each(4, [](int) { return "barrier comm=7"; }))
                  .blocked.empty());
}

TEST(TiComm, CreationMisuseNamesTheRankAndLine) {
  // Two ranks of colour 0 name different new communicators.
  const std::string err = error_of("ids.txt", "0 comm_split 0 0 1\n1 comm_split 0 0 2\n");
  EXPECT_NE(err.find("ids.txt:2:1: rank 1: MPI_Comm_split"), std::string::npos) << err;
  EXPECT_NE(error_of("world.txt", "0 comm_free 0\n1 compute 0\n").find("MPI_COMM_WORLD (communicator 0) cannot be freed"),
            std::string::npos);
  EXPECT_NE(error_of("badid.txt", "0 barrier comm=x\n1 barrier\n").find("expected a communicator id (0 or more) after 'comm='"),
            std::string::npos);
}

// MPI's rule: the members' k-th collectives must be the same call with matching root and sizes.
TEST(TiComm, MismatchedCollectivesAreErrorsNamingBothRanks) {
  std::string err = error_of("root.txt", "0 bcast 100 0\n1 bcast 100 1\n");
  EXPECT_NE(err.find("mismatched collective: "), std::string::npos) << err;
  EXPECT_NE(err.find("root.txt:2: rank 1 calls bcast as collective #1 of its communicator, but its root is 1 where rank 0's is 0"),
            std::string::npos)
      << err;
  err = error_of("count.txt", "0 allreduce 100 0\n1 allreduce 200 0\n");
  EXPECT_NE(err.find("its size is 200 B where an earlier member's is 100 B (rank 0 at "), std::string::npos) << err;
  err = error_of("kind.txt", "0 barrier\n1 bcast 5\n");
  EXPECT_NE(err.find("rank 0 called barrier there"), std::string::npos) << err;
  // gather: a sender's size against what the root receives from each.
  err = error_of("gather.txt", "0 gather 8 8 0\n1 gather 16 0 0\n");
  EXPECT_NE(err.find("its size is 16 B where an earlier member's is 8 B"), std::string::npos) << err;
  // gatherv: rank 2 gives 30 B where the root expects 20 (the root enters last).
  err = error_of("gatherv.txt", "1 gatherv 10 0 0 0 0\n2 gatherv 30 0 0 0 0\n0 compute 5\n0 gatherv 0 0 10 20 0\n");
  EXPECT_NE(err.find("it expects 20 B from rank 2, which gives 30 B"), std::string::npos) << err;
  // The same rules on a sub-communicator (roots are local ranks there).
  const std::string split = "0 comm_split 0 0 1\n1 comm_split 0 0 1\n2 comm_split 1 0 2\n";
  err = error_of("sub.txt", split + "0 reduce 8 0 0 comm=1\n1 reduce 8 0 1 comm=1\n");
  EXPECT_NE(err.find("its root is 1 where rank 0's is 0"), std::string::npos) << err;
}

// Non-blocking collectives (ibcast, iallreduce, ...): the rank goes on at once and waitall (or
// waitany/waitsome without a list, or finalize) completes them. With 1 flop = 1 ps here (ideal
// platform: compute is free), overlap shows against a sleep: the blocking form ends a rank at
// bcast + 1 ms, the non-blocking one at max(bcast, 1 ms).
TEST(TiComm, NonBlockingCollectivesOverlapAndCompleteInWaitall) {
  const auto trace = [](const std::string& bcast) {
    return each(4, [&](int) { return bcast + " 100000 0"; }) + each(4, [](int) { return "sleep 0.001"; }) +
           each(4, [](int) { return "waitall"; });
  };
  const ExecutionResult blocking = run("bcast.txt", trace("bcast"));
  const ExecutionResult overlapped = run("ibcast.txt", trace("ibcast"));
  ASSERT_TRUE(overlapped.blocked.empty());
  EXPECT_EQ(overlapped.messages, blocking.messages);
  // The root overlaps its 1 ms sleep with the bcast's 2 x 100 ns of transfers; the receivers do
  // not: under LogGOPS a message is processed only when its receiver's CPU is free (no
  // asynchronous progress during a computation, as in LogGOPSim), so they receive after the sleep.
  EXPECT_LT(overlapped.finish[0].ps(), blocking.finish[0].ps());
  EXPECT_LE(overlapped.makespan.ps(), blocking.makespan.ps());
  EXPECT_GT(blocking.finish[0].ps(), 1000000000 + 100000);  // bcast (>= one 100 ns send), then the sleep
  // Mixed with blocking collectives on the same communicator (one sequence of collectives), and
  // on a sub-communicator; waitany without a list takes the first one done.
  const std::string mixed = each(4, [](int) { return "iallreduce 64 0"; }) + each(4, [](int) { return "barrier"; }) +
                            each(4, [](int) { return "comm_dup 3"; }) + each(4, [](int) { return "ibarrier comm=3"; }) +
                            each(4, [](int) { return "waitany"; }) + each(4, [](int) { return "finalize"; });
  EXPECT_TRUE(run("mixed.txt", mixed).blocked.empty());
  // A blocking collective never matches a non-blocking one (MPI-3.1 §5.12).
  EXPECT_NE(error_of("imix.txt", "0 ibarrier\n0 waitall\n1 barrier\n").find("rank 0 called ibarrier there"),
            std::string::npos);
  // A non-blocking collective some rank never joins is a deadlock naming it.
  const ExecutionResult stuck = run("istuck.txt", "0 ibarrier\n0 waitall\n1 compute 0\n");
  ASSERT_EQ(stuck.blocked.size(), 1u);
  EXPECT_NE(stuck.blocked[0].waits_for.find("non-blocking collective"), std::string::npos) << stuck.blocked[0].waits_for;
}

// scan / exscan (simfab extensions) replay as MPICH's recursive doubling: in round mask = 1, 2,
// 4, ... rank r exchanges with r ^ mask when that rank exists. 8 ranks: 3 rounds x 8 = 24
// messages; 5 ranks: 4 + 4 + 2 = 10 (pairs (0,1),(2,3); (0,2),(1,3); (0,4)). On a communicator
// the same exchange runs over its members.
TEST(TiComm, ScanAndExscanReplayAsRecursiveDoubling) {
  EXPECT_EQ(run("scan8.txt", each(8, [](int) { return "scan 16 0"; })).messages, 24u);
  EXPECT_EQ(run("exscan5.txt", each(5, [](int) { return "exscan 16 0"; })).messages, 10u);
  const std::string split = each(10, [](int r) { return "comm_split " + std::to_string(r % 2) + " 0 " + std::to_string(1 + r % 2); });
  const ExecutionResult r = run("scan_sub.txt", split + each(10, [](int r) { return "scan 8 0 comm=" + std::to_string(1 + r % 2); }));
  // the split's Bruck allgather on 10 ranks: 4 rounds, 40 messages; two 5-rank scans: 20.
  EXPECT_EQ(r.messages, 40u + 20u);
}

// The world's collective sequence counts world collectives only: halves that ran different
// numbers of collectives on their own communicators still meet in the next world barrier.
TEST(TiComm, WorldSequenceCountsWorldCollectivesOnly) {
  const std::string split = each(4, [](int r) { return "comm_split " + std::to_string(r % 2) + " 0 " + std::to_string(1 + r % 2); });
  const std::string halves = "0 barrier comm=1\n2 barrier comm=1\n0 barrier comm=1\n2 barrier comm=1\n1 barrier comm=2\n"
                             "3 barrier comm=2\n";
  EXPECT_TRUE(run("halves.txt", split + halves + each(4, [](int) { return "barrier"; })).blocked.empty());
}

TEST(CollectiveMatcher, ForgetsACollectiveOnceEveryMemberEntered) {
  CollectiveMatcher m([](int32_t r, uint64_t pos) { return "r" + std::to_string(r) + "@" + std::to_string(pos); });
  CollSignature s;
  s.name = "bcast";
  s.root = 0;
  s.bytes = 8;
  for (int32_t r = 0; r < 3; ++r) m.enter(0, 0, 3, r, r, 0, s);
  EXPECT_EQ(m.pending(), 0u);
  m.enter(0, 1, 3, 0, 0, 0, s);
  m.enter(2, 1, 3, 0, 0, 0, s);  // another communicator: its own record
  EXPECT_EQ(m.pending(), 2u);
}

}  // namespace
}  // namespace simfab
