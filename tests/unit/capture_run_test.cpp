// CaptureRun (capture/capture_run.hpp): alignment across ranks -- wildcard resolution,
// communicator ids that all members agree on, request resolution, the cross-rank checks of issue
// 9's bad-input list, and salvage's consistent prefix.
#include <gtest/gtest.h>

#include "capture_test_support.hpp"

namespace simfab {
namespace {

using testing::align_error;
using testing::align_texts;
using testing::capture_text;
using testing::world;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(CaptureRun, WildcardsAreResolvedToTheRecordedSource) {
  // Rank 0 receives from MPI_ANY_SOURCE twice: a Recv (status: 2) and an Irecv (done entry: 1).
  const CaptureRun run = align_texts({
      capture_text(0, 3, {"MPI_Recv:2000:8:1:3,4,4:-1:5:" + world(0, 3) + ":2,5,4:3000",
                          "MPI_Irecv:3100:8:1:3,4,4:-1:-1:" + world(0, 3) + ":1:3200", "MPI_Wait:3300:1/1/6/4:4000",
                          "MPI_Finalize:5000:-"}),
      capture_text(1, 3, {"MPI_Send:2000:8:1:3,4,4:0:6:" + world(1, 3) + ":2500", "MPI_Finalize:5000:-"}),
      capture_text(2, 3, {"MPI_Send:1500:8:1:3,4,4:0:5:" + world(2, 3) + ":2500", "MPI_Finalize:5000:-"}),
  });
  const auto& recs = run.rank(0).records;
  EXPECT_EQ(recs[1].r_peer, 2);
  EXPECT_TRUE(recs[1].wild_src);
  EXPECT_EQ(recs[2].r_peer, 1);
  EXPECT_EQ(recs[2].r_tag, 6);  // MPI_ANY_TAG resolved too
  EXPECT_TRUE(recs[2].wild_tag);
  EXPECT_EQ(run.rank(0).done[recs[3].done_begin].op, 2u);
  EXPECT_EQ(run.step(0, 3), CapStep::kOp);
}

TEST(CaptureRun, ACancelledReceiveMovesNoMessage) {
  // HPC Challenge's RandomAccess posts an MPI_ANY_SOURCE Irecv, cancels it and waits: the done
  // entry is `req/-3/-1/0` (MPI_Test_cancelled). It becomes a receive from MPI_PROC_NULL.
  const CaptureRun run = align_texts({
      capture_text(0, 2, {"MPI_Irecv:3100:8:1:3,4,4:-1:-1:" + world(0, 2) + ":1:3200", "MPI_Wait:3300:1/-3/-1/0:4000",
                          "MPI_Finalize:5000:-"}),
      capture_text(1, 2, {"MPI_Finalize:5000:-"}),
  });
  const auto& recs = run.rank(0).records;
  EXPECT_EQ(recs[1].r_peer, kCapProcNull);
  EXPECT_FALSE(recs[1].wild_src);
  EXPECT_EQ(run.rank(0).done[recs[2].done_begin].op, CapDone::kNullRequest);
}

TEST(CaptureRun, CommunicatorIdsAgreeAcrossMembers) {
  // Four ranks split by parity; each rank names its new communicator with its own handle. Then
  // MPI_Comm_create of {3, 1} (rank 0 and 2 are not members).
  std::vector<std::string> texts;
  for (int r = 0; r < 4; ++r) {
    const std::string sub = std::to_string(100 + r) + "," + std::to_string(r / 2) + ",2";
    const std::string created = r == 3 ? "200,0,2" : r == 1 ? "200,1,2" : "-";
    texts.push_back(capture_text(r, 4, {"MPI_Comm_split:2000:" + world(r, 4) + ":" + std::to_string(r % 2) + ":" +
                                            std::to_string(r) + ":" + sub + ":3000",
                                        "MPI_Barrier:3100:" + sub + ":3200",
                                        "MPI_Comm_create:3300:" + world(r, 4) + ":" + created + ":3400",
                                        "MPI_Comm_free:3500:" + sub + ":3600", "MPI_Finalize:5000:-"}));
  }
  const CaptureRun run = align_texts(texts);
  ASSERT_EQ(run.num_comms(), 4u);  // the world, two halves, the created one
  EXPECT_EQ(run.rank(0).records[1].new_id, 1);
  EXPECT_EQ(run.rank(1).records[1].new_id, 2);
  EXPECT_EQ(run.rank(2).records[1].new_id, 1);
  EXPECT_EQ(run.comm(1).members, (std::vector<RankId>{0, 2}));
  EXPECT_EQ(run.comm(2).members, (std::vector<RankId>{1, 3}));
  EXPECT_EQ(run.rank(3).records[2].comm_id, 2);  // the barrier
  EXPECT_EQ(run.comm(3).members, (std::vector<RankId>{3, 1}));
  EXPECT_EQ(run.rank(0).records[3].new_id, 3);  // a non-member knows the group too
  EXPECT_FALSE(run.rank(0).records[3].has_newcomm);
  EXPECT_EQ(run.local_rank(3, 1), 1);
  EXPECT_EQ(run.local_rank(3, 0), -1);
  EXPECT_EQ(run.step(0, 4), CapStep::kMarker);
}

TEST(CaptureRun, CrossRankErrorsNameBothSidesAndTheExpectation) {
  const std::string fin = "MPI_Finalize:9000:-";
  // Different runs.
  EXPECT_TRUE(contains(align_error({capture_text(0, 2, {fin}), capture_text(1, 2, {fin}, true, "0000000000000001")}),
                       "traces of different runs mixed together: run 5f2c0a9e1b7d4c31 and run 0000000000000001"));
  // Two files claim one rank; a missing rank.
  EXPECT_TRUE(contains(align_error({capture_text(0, 2, {fin}), capture_text(0, 2, {fin})}),
                       "two files claim rank 0 (rank-0.txt and rank-1.txt)"));
  EXPECT_TRUE(contains(align_error({capture_text(0, 3, {fin}), capture_text(1, 3, {fin})}), "no file for rank 2"));
  // Unmatched send.
  EXPECT_EQ(align_error({capture_text(0, 2, {"MPI_Send:2000:8:1:3,4,4:1:4:" + world(0, 2) + ":2500", fin}),
                         capture_text(1, 2, {fin})}),
            "rank-0.txt:9: unmatched point-to-point messages on channel (MPI_COMM_WORLD, world rank 0 -> world rank 1, "
            "tag 4): 1 send(s) but 0 receive(s); this send has no matching receive");
  // Collective mismatch (root).
  EXPECT_EQ(align_error({capture_text(0, 2, {"MPI_Bcast:2000:8:1:3,4,4:0:" + world(0, 2) + ":2500", fin}),
                         capture_text(1, 2, {"MPI_Bcast:2000:8:1:3,4,4:1:" + world(1, 2) + ":2500", fin})}),
            "rank-1.txt:9: collective mismatch: collective #0 on MPI_COMM_WORLD is MPI_Bcast (root 1, 4 bytes) here, "
            "but MPI_Bcast (root 0, 4 bytes) at rank-0.txt:9 (rank 0); expected every member to make the same call "
            "with the same root");
  // A collective one member never makes.
  EXPECT_TRUE(contains(align_error({capture_text(0, 2, {"MPI_Barrier:2000:" + world(0, 2) + ":2500", fin}),
                                    capture_text(1, 2, {fin})}),
                       "rank-0.txt:9: collective mismatch: this MPI_Barrier is collective #0 on MPI_COMM_WORLD, but rank 1"));
  // A wait on an unknown request.
  EXPECT_EQ(align_error({capture_text(0, 2, {"MPI_Wait:2000:4/1/0/4:2500", fin}), capture_text(1, 2, {fin})}),
            "rank-0.txt:9: MPI_Wait completes request 4, which no earlier MPI_Isend/MPI_Irecv (or nonblocking collective, MPI_Imrecv) of this file opened (or "
            "an earlier call already completed it)");
  // A communicator no recorded call created.
  EXPECT_TRUE(contains(align_error({capture_text(0, 2, {"MPI_Barrier:2000:77,0,2:2500", fin}),
                                    capture_text(1, 2, {"MPI_Barrier:2000:77,1,2:2500", fin})}),
                       "rank-0.txt:9: MPI_Barrier on communicator handle 77 (size 2), which no recorded call created"));
  // A message larger than its receive.
  EXPECT_TRUE(contains(align_error({capture_text(0, 2, {"MPI_Send:2000:8:2:3,4,4:1:4:" + world(0, 2) + ":2500", fin}),
                                    capture_text(1, 2, {"MPI_Recv:2000:8:1:3,4,4:0:4:" + world(1, 2) + ":0,4,4:2500", fin})}),
                       "rank-1.txt:9: message truncated"));
}

TEST(CaptureRun, SalvageCutsToAConsistentPrefix) {
  // A chain: rank 2 crashed before its first send to rank 1; rank 1 forwards what it gets to rank 0.
  // Rank 1 loses its receive, hence its send; rank 0 its receive; the barrier goes on every rank.
  const std::string fin = "MPI_Finalize:9000:-";
  const CaptureRun run = align_texts(
      {capture_text(0, 3, {"MPI_Recv:2000:8:1:3,4,4:1:0:" + world(0, 3) + ":0,0,4:3000",
                           "MPI_Barrier:4000:" + world(0, 3) + ":4500", fin}),
       capture_text(1, 3, {"MPI_Barrier:1100:" + world(1, 3) + ":1200",
                           "MPI_Recv:2000:8:1:3,4,4:2:0:" + world(1, 3) + ":2,0,4:2500",
                           "MPI_Send:2600:8:1:3,4,4:0:0:" + world(1, 3) + ":2700", fin}),
       capture_text(2, 3, {"MPI_Barrier:1100:" + world(2, 3) + ":1200"}, false)},
      true);
  // Rank 1's receive from rank 2 has no send: cut; so its send to rank 0: rank 0's receive is cut,
  // and with it rank 0's barrier, which nobody may then pass: every rank keeps MPI_Init alone.
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(run.kept(r), 1u) << "rank " << r;
    EXPECT_FALSE(run.ends_with_finalize(r));
  }
  ASSERT_EQ(run.warnings().size(), 3u);
  EXPECT_TRUE(contains(run.warnings()[0], "rank-0.txt:9: warning: rank 0 cut here (its partner was cut: channel "
                                          "(MPI_COMM_WORLD, world rank 1 -> world rank 0, tag 0)); kept 1 of 4 records"));
  EXPECT_TRUE(contains(run.warnings()[1], "rank-1.txt:9: warning: rank 1 cut here (collective #0 on MPI_COMM_WORLD is "
                                          "not reached by rank 0); kept 1 of 5 records"));
  EXPECT_TRUE(contains(run.warnings()[2], "rank-2.txt:9: warning: rank 2 cut here"));
  EXPECT_TRUE(contains(run.warnings()[2], "kept 1 of 2 records"));
}

TEST(CaptureRun, SecondsAreExactDecimals) {
  EXPECT_EQ(ps_as_seconds(0), "0");
  EXPECT_EQ(ps_as_seconds(73000000), "0.000073");
  EXPECT_EQ(ps_as_seconds(1500000000000), "1.5");
  EXPECT_EQ(ps_as_seconds(2000000000001), "2.000000000001");
}

}  // namespace
}  // namespace simfab
