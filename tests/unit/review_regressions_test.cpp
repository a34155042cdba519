// Regression tests from the pre-release correctness review. Each test names the behaviour it pins;
// the ones marked BUG fail on the reviewed code and describe the expected behaviour.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "platform/platform.hpp"
#include "replay/ti_program.hpp"
#include "replay/ti_trace.hpp"
#include "test_support.hpp"

namespace simfab {
namespace {


ExecutionResult review_run_ti(const std::string& path, LogGOPSParams p) {
  auto trace = open_ti_trace(path);
  const int n = ti_num_ranks(*trace);
  Platform platform = Platform::ideal(n);
  Engine engine;
  LogGOPSNetwork net(engine, platform, p);
  OpPool ops;
  std::vector<HostId> hosts(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) hosts[static_cast<size_t>(i)] = i;
  auto prog = make_ti_program(*trace, ops, platform, hosts);
  Executor ex(engine, net, ops, *prog, hosts);
  return ex.run();
}

// BUG (executor.cpp on_delivery, re-queue at executor.cpp:253-255). Two messages of one pair
// must be matched in the order they were sent (MPI non-overtaking; executor.hpp:20-21 claims it).
// Rank 1 is busy (calc) until 5500 ps. Message 1 (tag 1) arrives at 4000 and is re-queued for
// 5500 from time 4000; message 2 (tag 2) arrives at exactly 5500, and its delivery event was
// pushed at 1500, so it has the smaller sequence number and is processed FIRST: the any-tag
// receive r1 takes message 2, r2 (tag 1) takes message 1, and the run "succeeds". Under MPI
// ordering r1 takes message 1, r2 waits for a tag-1 message that never comes: a deadlock.
TEST(ReviewExecutor, MessagesOfOnePairAreNotOvertakenWhileTheReceiverIsBusy) {
  const char* goal =
      "num_ranks 2\n"
      "rank 0 { s1: send 1b to 1 tag 1  s2: send 1b to 1 tag 2  s2 requires s1 }\n"
      "rank 1 { c: calc 5500  r1: recv 1b from 0 tag any  r2: recv 1b from 0 tag 1\n"
      "         r1 requires c  r2 requires c }\n";
  ExecutionResult r = testing::run_goal(goal, testing::params(2500, 1500, 1000, 6, 0));
  ASSERT_EQ(r.blocked.size(), 1u) << "message 2 overtook message 1 (r1 matched tag 2)";
  EXPECT_EQ(r.blocked[0].rank, 1);
  EXPECT_EQ(r.unmatched_messages, 1u);
}

// Same scenario with an any-source receive and no wildcard on tags: the receives differ only in
// order, so the overtaking shows as which recv gets which message. r1 must get message 1 (tag 5),
// so r_tag6 (tag 6) is the one that gets message 2; with overtaking r1 takes message 2 (tag 6)
// and r_tag6 stays unmatched.
TEST(ReviewExecutor, AnySourceReceiveGetsTheEarlierMessageOfAPair) {
  const char* goal =
      "num_ranks 2\n"
      "rank 0 { s1: send 1b to 1 tag 5  s2: send 1b to 1 tag 6  s2 requires s1 }\n"
      "rank 1 { c: calc 5500  r1: recv 1b from any tag any  r2: recv 1b from 0 tag 6\n"
      "         r1 requires c  r2 requires c }\n";
  ExecutionResult r = testing::run_goal(goal, testing::params(2500, 1500, 1000, 6, 0));
  EXPECT_TRUE(r.blocked.empty()) << r.blocked[0].waits_for;
}

// BUG (loggops_network.cpp:79-93). per_byte() saturates at SimTime::never() (INT64_MAX) for an
// absurd message, but send_gap/send_overhead/recv_overhead then add g or o to it: signed integer
// overflow (UB; UBSan aborts, otherwise the time wraps negative). The existing overflow test only
// passes because it uses o = g = 0. Expected: the documented InputError ("simulated time
// overflows"). Run in a child process so that a UBSan abort fails only this test.
TEST(ReviewLogGOPS, HugeMessageWithNonZeroGapIsAnInputErrorNotASignedOverflow) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const char* big =
      "num_ranks 2 rank 0 { a: send 18000000000000000000b to 1 tag 0 } rank 1 { b: recv 1b from 0 tag 0 }";
  EXPECT_EXIT(
      {
        try {
          testing::run_goal(big, testing::params(2500, 1500, 1000, 6, 0));
        } catch (const InputError&) {
          std::_Exit(0);
        } catch (...) {
          std::_Exit(2);
        }
        std::_Exit(1);
      },
      ::testing::ExitedWithCode(0), "");
}

// BUG (executor.cpp:197, bytes_ += op.amount). GOAL sizes are any uint64; the byte total wraps
// silently. Two eager sends of 10^19 B (with G = O = 0, so no time overflow) report 1.55e18 B.
TEST(ReviewExecutor, ByteTotalDoesNotWrapAround) {
  const char* goal =
      "num_ranks 2\n"
      "rank 0 { a: send 10000000000000000000b to 1 tag 0  b: send 10000000000000000000b to 1 tag 0 }\n"
      "rank 1 { c: recv 10000000000000000000b from 0 tag 0  d: recv 10000000000000000000b from 0 tag 0 }\n";
  // Two 10^19-byte messages: the byte total would wrap around 2^64; it is an input error instead.
  EXPECT_THROW(testing::run_goal(goal, testing::params(0, 0, 0, 0, 0, UINT64_MAX)), InputError);
}

// Ranks that call different collective sequences are MPI misuse: the collective matcher names the
// first disagreement (an input error), never a crash, a CHECK or a silent wrong match.
TEST(ReviewTi, DifferentCollectiveSequencesAreAMismatchErrorNotACrash) {
  const std::string path = testing::write_test_file("mismatch.txt",
                                       "0 bcast 100000\n0 barrier\n0 allreduce 8 0\n"
                                       "1 barrier\n1 bcast 100000\n1 reduce 100000 0\n"
                                       "2 allreduce 8 0\n2 barrier\n");
  try {
    review_run_ti(path, testing::params(10, 20, 30, 1, 0));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mismatched collective: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("as collective #1 of its communicator"), std::string::npos) << e.what();
  }
}

// PASSING pin: a rank that reaches finalize with a rendezvous isend nobody receives is blocked
// (kFinalizing), not silently finished; the report names the send.
TEST(ReviewTi, FinalizeWithAnUnmatchedRendezvousIsendIsBlocked) {
  const std::string path = testing::write_test_file("fin.txt", "0 isend 1 0 100000\n0 finalize\n1 compute 1\n1 finalize\n");
  ExecutionResult r = review_run_ti(path, testing::params(10, 20, 30, 1, 0));
  ASSERT_EQ(r.blocked.size(), 1u);
  EXPECT_EQ(r.blocked[0].rank, 0);
  EXPECT_NE(r.blocked[0].waits_for.find("finalize"), std::string::npos) << r.blocked[0].waits_for;
  EXPECT_NE(r.blocked[0].waits_for.find("never matched by a recv"), std::string::npos) << r.blocked[0].waits_for;
}

// PASSING pin: an eager isend completes inside run_send right after on_started advanced the rank
// into `wait` for that very request; waitall with nothing outstanding passes, and a second wait
// on the same key is a request waited twice: an input error at its line.
TEST(ReviewTi, WaitInsideOnStartedOfItsOwnEagerIsend) {
  const std::string path = testing::write_test_file("w.txt",
                                       "0 isend 1 0 8\n0 wait 0 1 0\n0 waitall\n0 wait 0 1 0\n"
                                       "1 recv 0 0 8\n");
  try {
    review_run_ti(path, testing::params(10, 20, 30, 1, 0));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("w.txt:4:1: wait of rank 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("already completed it"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace simfab
