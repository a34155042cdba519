// Adversarial review of the MPI layer (point-to-point semantics, communicators, the collective
// matcher, non-blocking collectives). Every test here FAILS on the reviewed code (HEAD 71a7bb8) and describes the behaviour MPI and the documentation
// (replay/ti_trace.hpp "SIMFAB EXTENSIONS", docs/architecture.md) call for.
// LogGOPS with L = 10, o = 20, g = 30, G = 1 ps/B, O = 0, S = 65535; 1 flop = 1 ps.
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

std::string blocked_text(const ExecutionResult& r) {
  std::string out;
  for (const BlockedRank& b : r.blocked) out += "rank " + std::to_string(b.rank) + ": " + b.waits_for + "\n";
  return out;
}

// BUG (ti_program.cpp:246-252, wait_any): the keys listed by waitany/waitsome are looked up with
// a default TiAction whose `comm` is 0, whatever the line's comm=<id>; an irecv on communicator 1
// is therefore "not outstanding" and a valid trace is rejected. `wait 1 0 0 comm=1` finds the same
// request (ti_comm_test's PointToPointUsesLocalRanksAndItsOwnContext). Expected: no error, no
// deadlock (the send matches the irecv, waitany returns it).
TEST(ReviewMpi, WaitanyKeysAreLookedUpOnTheLinesCommunicator) {
  const std::string trace =
      "0 comm_dup 1\n1 comm_dup 1\n"
      "0 irecv 1 0 8 comm=1\n0 waitany 1 1 0 0 comm=1\n1 send 0 0 8 comm=1\n";
  EXPECT_EQ(error_of("waitany_comm.txt", trace), "(no error)");
  const std::string some =
      "0 comm_dup 1\n1 comm_dup 1\n"
      "0 irecv 1 0 8 comm=1\n0 waitsome 1 1 0 0 comm=1\n1 send 0 0 8 comm=1\n";
  EXPECT_EQ(error_of("waitsome_comm.txt", some), "(no error)");
}

// BUG (ti_comm.cpp:28-40, member_comm): after `comm_free` the rank's handle is MPI_COMM_NULL, yet
// member_comm only asks whether the communicator still exists (some other member has not freed
// it yet) and whether the rank is in its group; CommTable's freed_ marks are checked only by
// creation calls. So rank 0's send on a communicator it already freed is accepted here, but
// rejected ("communicator 1 does not exist") when rank 1 happens to free it first: whether an
// erroneous trace is reported depends on simulated timing. Expected: an InputError naming the
// line and saying that rank 0 freed communicator 1.
TEST(ReviewMpi, UsingACommunicatorAfterFreeingItIsAnError) {
  const std::string err = error_of("use_after_free.txt",
                                   "0 comm_dup 1\n1 comm_dup 1\n0 comm_free 1\n0 send 1 0 8 comm=1\n"
                                   "1 recv 0 0 8 comm=1\n1 comm_free 1\n");
  EXPECT_NE(err.find("use_after_free.txt:4"), std::string::npos) << err;
}

// BUG (coll_match.cpp:16-17, mismatch): the message says the LATE rank "calls <p.name>", the
// first member's collective, not its own: rank 1 calls reduce, the message says "rank 1 calls
// bcast ..., but rank 0 called bcast there" (it contradicts itself; same for bcast vs ibcast).
// Expected: "rank 1 calls reduce".
TEST(ReviewMpi, MismatchedCollectiveNamesTheLateRanksOwnCall) {
  const std::string err = error_of("kind.txt", "0 bcast 8 0\n1 reduce 8 0 0\n");
  EXPECT_NE(err.find("rank 1 calls reduce"), std::string::npos) << err;
  const std::string nb = error_of("nb.txt", "0 ibcast 8 0\n0 waitall\n1 bcast 8 0\n");
  EXPECT_NE(nb.find("rank 1 calls bcast"), std::string::npos) << nb;
}

// BUG (coll_match.hpp: records are checked only when members enter; nothing looks at records left
// at the end or when a communicator is freed). Rank 1 never calls the bcast that rank 0 (the root,
// eager sends) completes: MPI-3.1 §5.1 requires every member to call it, and ti_trace.hpp promises
// "collectives whose members disagree on the call" are input errors. The run "succeeds" (CLI exit
// 0, one unmatched message). Same on a sub-communicator that both ranks then free: the stale
// record even survives the free and, once the id is reused, produces a baffling "rank 0 calls
// bcast ... its size is 5 B where an earlier member's is 10 B (rank 0 at ...:5)" against the freed
// communicator (see the report). Expected: an InputError (or at least a blocked rank) naming the
// collective rank 1 never called.
TEST(ReviewMpi, ACollectiveSomeMemberNeverCallsIsReported) {
  const auto reported = [](const std::string& name, const std::string& trace) {
    try {
      return !run(name, trace).blocked.empty();
    } catch (const InputError&) {
      return true;
    }
  };
  EXPECT_TRUE(reported("world.txt", "0 bcast 10 0\n1 compute 0\n"));
  EXPECT_TRUE(reported("freed.txt", "0 comm_dup 1\n1 comm_dup 1\n0 bcast 10 0 comm=1\n0 comm_free 1\n1 comm_free 1\n"));
}

// BUG (performance; executor.cpp:60-68 with ti_comm.cpp:57-64): a non-blocking collective lets the
// rank go on at once, so k ibarriers make ~2k sends ready on one rank at time 0. Each send that
// finds the CPU/NIC busy is re-queued at the time it frees up, where all the others are re-queued
// again: O(k^2) events (measured: k = 2500 -> 12.6 M events, 5000 -> 50 M, 20000 -> 800 M events,
// 600 s and 1.5 GB for 4 ranks). The blocking barriers cost 28 events each. Expected: the same
// ops cost O(k) events (a per-rank FIFO of ops waiting for a resource, or starting an ibarrier's
// next op only when the previous one started); allow 3x the blocking version's events.
// Fixed by the executor's per-resource FIFOs of waiting ops (executor.hpp).
TEST(ReviewMpi, ManyPendingNonBlockingCollectivesCostLinearlyManyEvents) {
  constexpr int k = 400;
  std::string blocking, nonblocking;
  for (int r = 0; r < 4; ++r) {
    for (int i = 0; i < k; ++i) {
      blocking += std::to_string(r) + " barrier\n";
      nonblocking += std::to_string(r) + " ibarrier\n";
    }
    nonblocking += std::to_string(r) + " waitall\n";
  }
  const ExecutionResult b = run("blocking.txt", blocking);
  const ExecutionResult nb = run("nonblocking.txt", nonblocking);
  ASSERT_TRUE(nb.blocked.empty()) << blocked_text(nb);
  EXPECT_EQ(nb.messages, b.messages);
  EXPECT_LE(nb.events, 3 * b.events) << "blocking: " << b.events << " events";
}

// BUG (cosmetic; ti_program.cpp:223-226, require_request): a key naming MPI_PROC_NULL is echoed
// as "src -2" (the internal kProcNull), a value the trace never contains. Expected: -666 or
// MPI_PROC_NULL, as the trace wrote it.
TEST(ReviewMpi, ProcNullKeyIsEchoedAsTheTraceWroteIt) {
  const std::string err = error_of("procnull.txt", "0 wait -666 0 0\n");
  EXPECT_EQ(err.find("src -2"), std::string::npos) << err;
}

}  // namespace
}  // namespace simfab
