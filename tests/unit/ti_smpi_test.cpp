// Replaying what SMPI 3.32's `smpirun -trace-ti` writes, as is (ti_trace.hpp, "WHAT SMPI 3.32
// WRITES"): its spellings replay as simfab's own actions do, and the recorded samples of
// examples/ti/smpi/ replay from their list files. LogGOPS with L = 10, o = 20, g = 30, G = 1 ps/B
// (ti_test_support.hpp); `compute N` lasts N ps.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "replay/ti_trace.hpp"

#include "ti_test_support.hpp"

namespace simfab {
namespace {

using testing::run_ti_file;
using testing::run_ti_text;
using testing::ti_error_of;

// Messages of examples/ti/smpi/stencil4.txt (RecordedStencilWithProcNullHalosReplays): 24 halos
// (2 real neighbours x 4 ranks x 3 sweeps), 4 allreduces of 8 messages (dissemination on 4
// ranks) and a binomial bcast's 3.
constexpr uint64_t kStencilMessages = 24 + 4 * 8 + 3;

int64_t finish(const ExecutionResult& r, int rank) { return r.finish[static_cast<size_t>(rank)].ps(); }

void expect_same_run(const ExecutionResult& a, const ExecutionResult& b) {
  EXPECT_EQ(a.finish, b.finish);
  EXPECT_EQ(a.messages, b.messages);
  EXPECT_EQ(a.bytes, b.bytes);
}

// SMPI records no tags for MPI_Sendrecv; SimGrid's replay sends and receives with tag 0, so the
// peer's tag-0 send and receive match it.
TEST(TiSmpi, SendRecvIsASendrecvWithTagZero) {
  const std::string peer = "1 compute 500\n1 recv 0 0 1 0\n1 send 0 0 2 0\n";
  const ExecutionResult smpi = run_ti_text("smpi.txt", "0 sendRecv 1 1 2 1 0 0\n" + peer);
  const ExecutionResult own = run_ti_text("own.txt", "0 sendrecv 1 0 1 1 0 2 0 0\n" + peer);
  expect_same_run(smpi, own);
  EXPECT_EQ(smpi.messages, 2u);
  EXPECT_EQ(smpi.bytes, 24u);
  EXPECT_TRUE(smpi.blocked.empty());
}

TEST(TiSmpi, SsendAndISsendAreSynchronous) {
  const std::string peer = "1 compute 1000\n1 recv 0 0 8\n";
  expect_same_run(run_ti_text("a.txt", "0 Ssend 1 0 8\n" + peer), run_ti_text("b.txt", "0 ssend 1 0 8\n" + peer));
  EXPECT_EQ(finish(run_ti_text("c.txt", "0 ISsend 1 0 8\n0 wait 0 1 0\n" + peer), 0), 1000);
}

// waitAny <n>: the first completed of the rank's requests (the trace does not say which).
TEST(TiSmpi, WaitAnyWaitsForTheFirstRequestToComplete) {
  const std::string text =
      "0 irecv 1 4 8 0\n0 isend 1 5 8 0\n0 waitAny 2\n0 compute 7\n0 waitall 2\n"
      "1 compute 1000\n1 recv 0 5 8 0\n1 send 0 4 8 0\n";
  const ExecutionResult r = run_ti_text("any.txt", text);
  EXPECT_TRUE(r.blocked.empty());
  const ExecutionResult listed = run_ti_text(
      "listed.txt", "0 irecv 1 4 8 0\n0 isend 1 5 8 0\n0 waitany\n0 compute 7\n0 waitall 2\n"
                    "1 compute 1000\n1 recv 0 5 8 0\n1 send 0 4 8 0\n");
  expect_same_run(r, listed);
}

// The wait of a non-blocking collective carries SMPI's internal tag (allreduce: -4446) and
// meaningless src and dst; it waits for the rank's oldest outstanding non-blocking collective,
// as simfab's waitall does here.
TEST(TiSmpi, WaitWithACollectiveTagWaitsForTheNonBlockingCollective) {
  const std::string smpi =
      "0 iallreduce 16 0 0\n0 compute 5\n0 wait -333 -333 -4446\n0 compute 3\n"
      "1 compute 1000\n1 iallreduce 16 0 0\n1 wait 0 0 -4446\n";
  const std::string own =
      "0 iallreduce 16 0 0\n0 compute 5\n0 waitall\n0 compute 3\n"
      "1 compute 1000\n1 iallreduce 16 0 0\n1 waitall\n";
  const ExecutionResult r = run_ti_text("smpi.txt", smpi);
  expect_same_run(r, run_ti_text("own.txt", own));
  EXPECT_GT(finish(r, 0), 1000);  // rank 0 waited for rank 1's contribution
  // Two outstanding: the first wait takes the oldest, the second the other.
  const ExecutionResult two = run_ti_text(
      "two.txt", "0 ibarrier\n0 ibcast 8 0 0\n0 wait 0 0 -779\n0 wait 0 0 -3335\n"
                 "1 ibarrier\n1 ibcast 8 0 0\n1 wait 0 0 -779\n1 wait 0 0 -3335\n");
  EXPECT_TRUE(two.blocked.empty());
  EXPECT_NE(ti_error_of("none.txt", "0 compute 1\n0 wait -333 -333 -4446\n")
                .find("has no non-blocking collective outstanding"),
            std::string::npos);
}

// SMPI writes MPI_PROC_NULL as -333: a send to it moves nothing, an isend to it is born
// completed and its wait (dst -333) finds it.
TEST(TiSmpi, MinusThreeThreeThreeAsADestinationIsProcNull) {
  const ExecutionResult r =
      run_ti_text("null.txt", "0 send -333 0 1 0\n0 isend -333 0 3 1\n0 wait 0 -333 0\n0 compute 10\n1 compute 1\n");
  EXPECT_EQ(r.messages, 0u);
  EXPECT_EQ(finish(r, 0), 10);
}

// SMPI writes an MPI_Irecv's MPI_PROC_NULL and MPI_ANY_SOURCE both as -333 (ti_action.hpp). A
// 1D shift with one tag: each end's -333 irecv is MPI_PROC_NULL, since its one incoming message
// is taken by the receive that names the neighbour. Read as a wildcard, it would steal that
// message and leave the named receive waiting for ever.
TEST(TiSmpi, UndefinedIrecvSourceWithNoMessageLeftIsProcNull) {
  const auto shift = [](const std::string& null) {
    return "0 irecv " + null + " 0 8 0\n0 irecv 1 0 8 0\n0 isend " + null + " 0 8 0\n0 isend 1 0 8 0\n0 waitall 4\n" +
           "1 irecv 0 0 8 0\n1 irecv 2 0 8 0\n1 isend 0 0 8 0\n1 isend 2 0 8 0\n1 waitall 4\n" +
           "2 irecv 1 0 8 0\n2 irecv " + null + " 0 8 0\n2 isend 1 0 8 0\n2 isend " + null + " 0 8 0\n" +
           "2 wait " + null + " 2 0\n2 waitall 3\n";
  };
  const ExecutionResult smpi = run_ti_text("shift333.txt", shift("-333"));
  EXPECT_TRUE(smpi.blocked.empty());
  EXPECT_EQ(smpi.messages, 4u);
  expect_same_run(smpi, run_ti_text("shift666.txt", shift("-666")));
}

// A -333 irecv that a message needs stays MPI_ANY_SOURCE (any tag: any message left for it).
TEST(TiSmpi, UndefinedIrecvSourceWithAMessageLeftIsAnySource) {
  const std::string peers = "1 compute 500\n1 send 0 5 8 0\n2 compute 900\n2 send 0 6 8 0\n";
  const ExecutionResult r = run_ti_text(
      "any333.txt", "0 irecv -333 5 8 0\n0 wait -333 0 5\n0 irecv -333 -444 8 0\n0 wait -333 0 -444\n" + peers);
  EXPECT_TRUE(r.blocked.empty());
  EXPECT_EQ(r.messages, 2u);
  expect_same_run(r, run_ti_text("any555.txt",
                                 "0 irecv -555 5 8 0\n0 wait -555 0 5\n0 irecv -555 -444 8 0\n0 wait -555 0 -444\n" + peers));
}

// A deadlock whose blocked receive is a -333 irecv kept as a wildcard says it may have been an
// MPI_Irecv from MPI_PROC_NULL; the same deadlock with -555 (MPI_ANY_SOURCE for sure) does not.
TEST(TiSmpi, DeadlockOnAnUndefinedSourceSaysItMayBeProcNull) {
  const std::string peer = "1 recv 0 1 8 0\n1 send 0 7 8 0\n";
  for (const char* waiting : {"0 wait -333 0 7\n", "0 waitall 1\n"}) {
    const ExecutionResult r =
        run_ti_text("dead333.txt", std::string("0 irecv -333 7 8 0\n") + waiting + "0 send 1 1 8 0\n" + peer);
    ASSERT_EQ(r.blocked.size(), 2u);
    EXPECT_EQ(r.blocked[0].rank, 0);
    EXPECT_NE(r.blocked[0].waits_for.find("written -333"), std::string::npos) << r.blocked[0].waits_for;
    EXPECT_NE(r.blocked[0].waits_for.find("MPI_Irecv from MPI_PROC_NULL"), std::string::npos) << r.blocked[0].waits_for;
  }
  const ExecutionResult any = run_ti_text("dead555.txt", "0 irecv -555 7 8 0\n0 wait -555 0 7\n0 send 1 1 8 0\n" + peer);
  ASSERT_EQ(any.blocked.size(), 2u);
  EXPECT_EQ(any.blocked[0].waits_for.find("MPI_PROC_NULL"), std::string::npos) << any.blocked[0].waits_for;
}

// stencil2d (examples/mpi/stencil2d.c, 16x16 grid, 3 sweeps) on 2x2 ranks, recorded by smpirun
// -trace-ti: every rank's north and west halos (or south and east) are MPI_PROC_NULL, written
// `irecv -333` and `isend -333`. It replays without deadlock, as the same trace with -666 for the
// -333 does, with the same messages (kStencilMessages).
TEST(TiSmpi, RecordedStencilWithProcNullHalosReplays) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(SIMFAB_SOURCE_DIR) / "examples" / "ti" / "smpi";
  const ExecutionResult r = run_ti_file((dir / "stencil4.txt").string());
  EXPECT_TRUE(r.blocked.empty()) << (r.blocked.empty() ? "" : r.blocked[0].waits_for);
  const auto trace = open_ti_trace((dir / "stencil4.txt").string());
  std::string explicit_null;
  for (uint32_t f = 0; f < trace->file_count(); ++f) {
    std::string text(trace->text(f));
    for (size_t at = text.find("-333"); at != std::string::npos; at = text.find("-333", at)) text.replace(at, 4, "-666");
    explicit_null += text;
  }
  const ExecutionResult ref = run_ti_text("stencil666.txt", explicit_null);
  EXPECT_TRUE(ref.blocked.empty());
  expect_same_run(r, ref);
  EXPECT_EQ(r.messages, kStencilMessages);
}

// The samples recorded with smpirun -trace-ti (examples/ti/smpi/README.md), from their list files
// of per-rank files (relative to the list's directory, as SMPI writes them).
TEST(TiSmpi, RecordedSamplesReplayAsIs) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(SIMFAB_SOURCE_DIR) / "examples" / "ti" / "smpi";
  const auto trace = open_ti_trace((dir / "collectives4.txt").string());
  EXPECT_FALSE(trace->shared());
  EXPECT_EQ(trace->num_ranks(), 4);
  EXPECT_NE(std::string(trace->file_name(3)).find("_rank-4.txt"), std::string::npos);

  const ExecutionResult coll = run_ti_file((dir / "collectives4.txt").string());
  EXPECT_TRUE(coll.blocked.empty());
  EXPECT_GE(coll.makespan.ps(), 15 * 100000);  // 15 computes of 1e5 flops at 1e12 flop/s
  EXPECT_GT(coll.messages, 0u);

  const ExecutionResult dialect = run_ti_file((dir / "dialect2.txt").string());
  EXPECT_TRUE(dialect.blocked.empty());
  EXPECT_EQ(dialect.finish.size(), 2u);
  EXPECT_GE(dialect.makespan.ps(), 3000000);  // compute 1e6 and 2e6 flops

  // procnull.c: MPI_PROC_NULL in every point-to-point call, MPI_ANY_SOURCE and MPI_ANY_TAG
  // receives (all written -333 / -444), roots 2 and 1. Rank 0 receives rank 1's 4 and rank 2's 2
  // messages; the irecvs -333 of tags 14 and 16 are MPI_PROC_NULL, those of tag -444 wildcards.
  const ExecutionResult null = run_ti_file((dir / "procnull3.txt").string());
  EXPECT_TRUE(null.blocked.empty()) << (null.blocked.empty() ? "" : null.blocked[0].waits_for);
  EXPECT_EQ(null.finish.size(), 3u);
  EXPECT_EQ(null.unmatched_messages, 0u);
}

}  // namespace
}  // namespace simfab
