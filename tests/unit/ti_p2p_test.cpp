// Point-to-point semantics of the MPI layer through TI replay (issue 4 part 1): send modes,
// sendrecv, probe, waitany/waitsome, cancel, wildcards, MPI_PROC_NULL, MPI misuse (truncation).
// LogGOPS with L = 10, o = 20, g = 30, G = 1 ps/B, O = 0, S = 65535 (rendezvous above), on a
// platform where 1 flop = 1 ps, so `compute N` lasts N ps.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/error.hpp"
#include "mpi/executor.hpp"
#include "net/loggops/loggops_network.hpp"
#include "platform/platform.hpp"
#include "replay/ti_program.hpp"
#include "replay/ti_trace.hpp"

#include "ti_test_support.hpp"

namespace simfab {
namespace {

ExecutionResult run(const std::string& name, const std::string& text) {
  return testing::run_ti_text(name, text);
}

std::string error_of(const std::string& name, const std::string& text) {
  return testing::ti_error_of(name, text);
}

int64_t finish(const ExecutionResult& r, int rank) { return r.finish[static_cast<size_t>(rank)].ps(); }

// A standard 8 B send is eager: the sender is done after o = 20 ps. MPI_Ssend may not complete
// before the receive matches it, which the receiver posts after computing 1000 ps: the sender ends
// at exactly 1000.
TEST(TiP2p, SsendCompletesAtTheMatchAStandardSendAtOnce) {
  const std::string peer = "1 compute 1000\n1 recv 0 0 8\n";
  const ExecutionResult standard = run("std.txt", "0 send 1 0 8\n" + peer);
  const ExecutionResult sync = run("ssend.txt", "0 ssend 1 0 8\n" + peer);
  EXPECT_EQ(finish(standard, 0), 20);
  EXPECT_EQ(finish(sync, 0), 1000);
  // issend + wait behaves the same; irsend is a standard send.
  EXPECT_EQ(finish(run("issend.txt", "0 issend 1 0 8\n0 wait 0 1 0\n" + peer), 0), 1000);
  EXPECT_EQ(finish(run("rsend.txt", "0 rsend 1 0 8\n" + peer), 0), 20);
}

// 100000 B is above S: a standard send is rendezvous and waits for the match (1000 ps); MPI_Bsend
// copies into the attached buffer and returns after o = 20 ps (plus (s-1)O = 0).
TEST(TiP2p, BsendOfARendezvousSizeCompletesLocally) {
  const std::string peer = "1 compute 1000\n1 recv 0 0 100000\n";
  EXPECT_EQ(finish(run("big.txt", "0 send 1 0 100000\n" + peer), 0), 1000);
  EXPECT_EQ(finish(run("bsend.txt", "0 bsend 1 0 100000\n" + peer), 0), 20);
  EXPECT_EQ(finish(run("ibsend.txt", "0 ibsend 1 0 100000\n0 wait 0 1 0\n" + peer), 0), 20);
}

// A ring of blocking rendezvous sends deadlocks (every rank sends first); MPI_Sendrecv does not.
TEST(TiP2p, SendrecvRingOfRendezvousMessagesDoesNotDeadlock) {
  std::string blocking, sendrecv;
  for (int r = 0; r < 4; ++r) {
    const std::string R = std::to_string(r), next = std::to_string((r + 1) % 4), prev = std::to_string((r + 3) % 4);
    blocking += R + " send " + next + " 0 100000\n" + R + " recv " + prev + " 0 100000\n";
    sendrecv += R + " sendrecv " + next + " 0 100000 " + prev + " 0 100000\n";
  }
  EXPECT_EQ(run("ring_blocking.txt", blocking).blocked.size(), 4u);
  const ExecutionResult r = run("ring_sendrecv.txt", sendrecv);
  EXPECT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.messages, 4u);
  EXPECT_EQ(r.bytes, 400000u);
}

// MPI_Probe blocks until a matching message has arrived and consumes nothing: probe + recv ends
// when a lone recv would (the recv finds the message the probe saw). A probe for a tag that never
// comes is a deadlock naming the probe.
TEST(TiP2p, ProbeWaitsForTheMessageWithoutConsumingIt) {
  const std::string sender = "0 compute 500\n0 send 1 7 8\n";
  const ExecutionResult lone = run("lone.txt", sender + "1 recv 0 7 8\n");
  const ExecutionResult probed = run("probe.txt", sender + "1 probe -555 7\n1 recv 0 7 8\n");
  ASSERT_TRUE(probed.blocked.empty());
  EXPECT_EQ(finish(probed, 1), finish(lone, 1));
  EXPECT_GT(finish(probed, 1), 500);
  const ExecutionResult stuck = run("probe_stuck.txt", sender + "1 probe 0 8\n1 recv 0 7 8\n");
  ASSERT_EQ(stuck.blocked.size(), 1u);
  EXPECT_NE(stuck.blocked[0].waits_for.find("probe_stuck.txt:3: probe for a message from rank 0 tag 8"),
            std::string::npos)
      << stuck.blocked[0].waits_for;
  // iprobe is free and never blocks.
  EXPECT_TRUE(run("iprobe.txt", sender + "1 iprobe 0 8\n1 recv 0 7 8\n").blocked.empty());
}

// Wildcards as SMPI writes them: source -555 (MPI_ANY_SOURCE) or -333, tag -444 (MPI_ANY_TAG). The
// first message to arrive matches: rank 2 sends at once, rank 1 after 5000 ps, so the wildcard
// receive completes at rank 2's arrival and the second (from rank 1) later.
TEST(TiP2p, WildcardReceivesMatchTheFirstArrival) {
  const std::string text = "1 compute 5000\n1 send 0 3 8\n2 send 0 4 8\n0 recv -555 -444 8\n0 recv -333 3 8\n";
  const ExecutionResult r = run("any.txt", text);
  ASSERT_TRUE(r.blocked.empty());
  EXPECT_GT(finish(r, 0), 5000);
  // Had the first wildcard waited for rank 1's tag 3, the second (tag 3 only) would deadlock.
  const ExecutionResult wrong = run("any_tag.txt", "1 compute 5000\n1 send 0 3 8\n2 send 0 4 8\n0 recv -555 3 8\n0 recv -333 3 8\n");
  EXPECT_EQ(wrong.blocked.size(), 1u);
}

// MPI_PROC_NULL (-666): sends, receives and their requests complete at once, with no message.
TEST(TiP2p, ProcNullCompletesAtOnce) {
  const ExecutionResult r = run("null.txt",
                                "0 send -666 0 8\n0 recv -666 0 8\n0 isend -666 1 8\n0 irecv -666 2 8\n0 wait 0 -666 1\n"
                                "0 wait -666 0 2\n0 sendrecv -666 0 8 -666 0 8\n0 probe -666 0\n1 compute 0\n");
  EXPECT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.messages, 0u);
  EXPECT_EQ(finish(r, 0), 0);
}

// waitany returns with the first request to complete: rank 0 computes 100000 ps after it, so it
// ends 100000 + o after rank 1's early message, long before rank 2's late one (sent at 10^6).
// waitall would wait for both first. The later `wait` consumes the other request.
TEST(TiP2p, WaitanyResumesAtTheFirstCompletion) {
  const std::string senders = "1 send 0 0 8\n2 compute 1000000\n2 send 0 0 8\n";
  const std::string head = "0 irecv 1 0 8\n0 irecv 2 0 8\n";
  const ExecutionResult any = run("waitany.txt", senders + head + "0 waitany\n0 compute 100000\n0 wait 2 0 0\n");
  const ExecutionResult all = run("waitall.txt", senders + head + "0 waitall\n0 compute 100000\n");
  ASSERT_TRUE(any.blocked.empty());
  EXPECT_LT(finish(any, 0), 1000000 + 100);  // the compute overlapped rank 2's wait
  EXPECT_GT(finish(all, 0), 1100000);
  // With a key list: only the listed request counts (rank 2's), so the compute starts after 10^6.
  const ExecutionResult listed = run("waitany_keys.txt", senders + head + "0 waitany 1 2 0 0\n0 compute 100000\n0 waitall\n");
  EXPECT_GT(finish(listed, 0), 1100000);
  // waitsome consumes every completed request: here the early one, so `wait 1 0 0` then fails.
  const std::string err = error_of("waitsome.txt", senders + head + "0 compute 50000\n0 waitsome\n0 wait 1 0 0\n");
  EXPECT_NE(err.find("waitsome.txt:8:1: wait of rank 0 for the request (src 1, dst 0, tag 0)"), std::string::npos) << err;
}

// MPI_Cancel of a posted receive: the irecv never takes the message, the later recv does. Without
// the cancel the irecv takes it and the recv deadlocks.
TEST(TiP2p, CancelledReceiveLeavesTheMessageToALaterOne) {
  const std::string sender = "0 compute 1000\n0 send 1 5 8\n";
  EXPECT_TRUE(run("cancel.txt", sender + "1 irecv 0 5 8\n1 cancel 0 1 5\n1 wait 0 1 5\n1 recv 0 5 8\n").blocked.empty());
  EXPECT_EQ(run("nocancel.txt", sender + "1 irecv 0 5 8\n1 wait 0 1 5\n1 recv 0 5 8\n").blocked.size(), 1u);
  // Too late: the message (sent at 0) is already there when the irecv is posted at 100 and matches
  // it at once, so the cancel does nothing and the recv deadlocks. (A message that arrives while
  // the receiver computes waits for its CPU, so the compute must come before the irecv.)
  EXPECT_EQ(run("late.txt", "0 send 1 5 8\n1 compute 100\n1 irecv 0 5 8\n1 cancel 0 1 5\n1 wait 0 1 5\n1 recv 0 5 8\n")
                .blocked.size(),
            1u);
}

// A message larger than its receive is MPI_ERR_TRUNCATE, an input error naming the receive's line
// and rank, and the sizes.
TEST(TiP2p, TruncationIsAnErrorNamingTheReceive) {
  const std::string err = error_of("trunc.txt", "0 send 1 0 16\n1 compute 5\n1 irecv 0 0 8\n1 wait 0 1 0\n");
  EXPECT_NE(err.find("MPI_ERR_TRUNCATE: "), std::string::npos) << err;
  EXPECT_NE(err.find("trunc.txt:3 (rank 1): rank 1 receives 16 B from rank 0 tag 0 into a buffer of 8 B"),
            std::string::npos)
      << err;
  // A larger receive buffer is fine (MPI allows it).
  EXPECT_TRUE(run("bigger.txt", "0 send 1 0 8\n1 recv 0 0 16\n").blocked.empty());
}

TEST(TiP2p, BadArgumentsNameTheExpectedForm) {
  EXPECT_NE(error_of("b1.txt", "0 ssend -555 0 8\n1 compute 0\n").find("destination rank -555 is out of range"),
            std::string::npos);
  EXPECT_NE(error_of("b2.txt", "0 sendrecv 1 0 8 1 0\n1 compute 0\n").find("wrong number of arguments for 'sendrecv'"),
            std::string::npos);
  EXPECT_NE(error_of("b3.txt", "0 waitany 2 0 1 0\n1 compute 0\n").find("7 (1 + 3 per key)"), std::string::npos);
  EXPECT_NE(error_of("b4.txt", "0 cancel 0 1 0\n1 compute 0\n").find("cancel of rank 0 for the request"),
            std::string::npos);
}

}  // namespace
}  // namespace simfab
