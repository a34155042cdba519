// The converters (capture/capture_ti_writer.hpp, capture_goal_writer.hpp): seed 004 §6 test 7 (a
// 2-rank Allreduce of one int is one send 4b and one recv 4b with tag 1000000, both after the gap
// calc), the TI lines of requests, communicators and gaps, and pinning.
#include <gtest/gtest.h>

#include <sstream>

#include "capture/capture_goal_writer.hpp"
#include "capture/capture_ti_writer.hpp"
#include "replay/ti_to_goal_comms.hpp"
#include "capture_test_support.hpp"

namespace simfab {
namespace {

using testing::align_texts;
using testing::capture_text;
using testing::world;

std::string goal_of(const CaptureRun& run, const ConvertOptions& options = {}) {
  std::ostringstream out;
  write_capture_goal(run, options, out);
  return out.str();
}

std::string ti_of(const CaptureRun& run, RankId r, const ConvertOptions& options = {}) {
  std::ostringstream out;
  write_capture_ti_rank(run, r, options, out);
  return out.str();
}

TEST(CaptureWriters, Seed004Test7AllreduceOfOneInt) {
  std::vector<std::string> texts;
  for (int r = 0; r < 2; ++r)
    texts.push_back(capture_text(r, 2, {"MPI_Allreduce:14000:16:24:1:1,4,4:3:" + world(r, 2) + ":15000",
                                        "MPI_Finalize:21000:-"}));
  const std::string goal = goal_of(align_texts(texts));
  EXPECT_EQ(goal,
            "num_ranks 2\n"
            "rank 0 {\n"
            "l1: send 4b to 1 tag 1000000\n"
            "l2: recv 4b from 1 tag 1000000\n"
            "l3: calc 0\n"
            "l3 requires l1\n"
            "l3 requires l2\n"
            "l4: calc 13000000\n"
            "l1 requires l4\n"
            "l2 requires l4\n"
            "l5: calc 6000000\n"
            "l5 requires l3\n"
            "}\n"
            "rank 1 {\n"
            "l1: send 4b to 0 tag 1000000\n"
            "l2: recv 4b from 0 tag 1000000\n"
            "l3: calc 0\n"
            "l3 requires l1\n"
            "l3 requires l2\n"
            "l4: calc 13000000\n"
            "l1 requires l4\n"
            "l2 requires l4\n"
            "l5: calc 6000000\n"
            "l5 requires l3\n"
            "}\n");
}

TEST(CaptureWriters, RequestsBecomeWaitsOrOneWaitall) {
  // Rank 0: two isends and an irecv; MPI_Wait of one isend (a `wait`), then MPI_Waitall of the
  // other two (every open request: `waitall`). Rank 1 receives and sends back.
  const CaptureRun run = align_texts({
      capture_text(0, 2, {"MPI_Isend:2000:8:1:3,4,4:1:1:" + world(0, 2) + ":1:2100",
                          "MPI_Isend:2200:8:2:3,4,4:1:2:" + world(0, 2) + ":2:2300",
                          "MPI_Irecv:2400:8:1:3,4,4:1:3:" + world(0, 2) + ":3:2500", "MPI_Wait:2600:1/-2/-1/0:2700",
                          "MPI_Waitall:2800:2:2/-2/-1/0,3/1/3/4:3000", "MPI_Finalize:9000:-"}),
      capture_text(1, 2, {"MPI_Recv:2000:8:1:3,4,4:0:1:" + world(1, 2) + ":0,1,4:2500",
                          "MPI_Recv:2600:8:2:3,4,4:0:2:" + world(1, 2) + ":0,2,8:2700",
                          "MPI_Send:2800:8:1:3,4,4:0:3:" + world(1, 2) + ":2900", "MPI_Finalize:9000:-"}),
  });
  EXPECT_EQ(ti_of(run, 0),
            "0 init\n0 sleep 0.000001\n0 isend 1 1 1 1\n0 sleep 0.0000001\n0 isend 1 2 2 1\n0 sleep 0.0000001\n"
            "0 irecv 1 3 1 1\n0 sleep 0.0000001\n0 wait 0 1 1\n0 sleep 0.0000001\n0 waitall\n0 sleep 0.000006\n"
            "0 finalize\n");
  ConvertOptions fast;
  fast.speed = 2e9;
  EXPECT_EQ(ti_of(run, 1, fast),
            "1 init\n1 compute 2000\n1 recv 0 1 1 1\n1 compute 200\n1 recv 0 2 2 1\n1 compute 200\n1 send 0 3 1 1\n"
            "1 compute 12200\n1 finalize\n");
  const std::string goal = goal_of(run);
  // The isend's gap irequires it; the wait (calc 0) requires the request's op.
  EXPECT_NE(goal.find("l1: send 4b to 1 tag 1\nl2: calc 1000000\nl1 requires l2\nl3: send 8b to 1 tag 2\n"
                      "l4: calc 100000\nl3 requires l4\nl4 irequires l1\n"),
            std::string::npos);
  EXPECT_NE(goal.find("l7: calc 0\nl7 requires l1\nl8: calc 100000\nl7 requires l8\nl8 irequires l5\n"),
            std::string::npos);
  EXPECT_NE(goal.find("l9: calc 0\nl9 requires l3\nl9 requires l5\n"), std::string::npos);
}

TEST(CaptureWriters, NonblockingCollectivesAndMatchedProbes) {
  // Both ranks start an Ibcast and an Iallreduce. Rank 0 waits for them out of order (two
  // collective waits: each takes the oldest), rank 1 with one Waitall (every open request). Rank 1
  // then sends 8 B with tag 5; rank 0 takes it with MPI_Mprobe from MPI_ANY_SOURCE (the receive,
  // resolved to rank 1) and MPI_Mrecv (nothing: only its gap before it).
  const auto nbc = [](int r) {
    return std::vector<std::string>{"MPI_Ibcast:2000:8:2:3,4,4:0:" + world(r, 2) + ":1:2100",
                                    "MPI_Iallreduce:2200:16:24:1:3,4,4:1:" + world(r, 2) + ":2:2300"};
  };
  std::vector<std::string> r0 = nbc(0), r1 = nbc(1);
  for (const char* rec : {"MPI_Wait:2400:2/-2/-1/0:2500", "MPI_Wait:2600:1/-2/-1/0:2700"}) r0.push_back(rec);
  r0.push_back("MPI_Mprobe:2800:-1:5:" + world(0, 2) + ":1,5,8:3000");
  r0.push_back("MPI_Mrecv:3100:8:2:3,4,4:1,5,8:3200");
  r0.push_back("MPI_Finalize:9000:-");
  r1.push_back("MPI_Waitall:2400:2:1/-2/-1/0,2/-2/-1/0:2700");
  r1.push_back("MPI_Send:2800:8:2:3,4,4:0:5:" + world(1, 2) + ":2900");
  r1.push_back("MPI_Finalize:9000:-");
  const CaptureRun run = align_texts({capture_text(0, 2, r0), capture_text(1, 2, r1)});
  EXPECT_EQ(ti_of(run, 0),
            "0 init\n0 sleep 0.000001\n0 ibcast 2 0 1\n0 sleep 0.0000001\n0 iallreduce 1 1 1\n0 sleep 0.0000001\n"
            "0 wait -1 -1 -2\n0 sleep 0.0000001\n0 wait -1 -1 -2\n0 sleep 0.0000001\n0 recv 1 5 8 6\n"
            "0 sleep 0.0000001\n0 sleep 0.0000058\n0 finalize\n");
  EXPECT_EQ(ti_of(run, 1),
            "1 init\n1 sleep 0.000001\n1 ibcast 2 0 1\n1 sleep 0.0000001\n1 iallreduce 1 1 1\n1 sleep 0.0000001\n"
            "1 waitall\n1 sleep 0.0000001\n1 send 0 5 2 1\n1 sleep 0.0000061\n1 finalize\n");
  const std::string goal = goal_of(run);
  EXPECT_NE(goal.find("recv 8b from 1 tag 5\n"), std::string::npos) << goal;
}

TEST(CaptureWriters, CommunicatorsAndTheirCollectives) {
  std::vector<std::string> texts;
  for (int r = 0; r < 4; ++r) {
    // Colour 0: ranks 0 and 2; colour 1: rank 1 alone; rank 3: MPI_UNDEFINED.
    const std::string sub = std::to_string(100 + r) + (r == 1 ? ",0,1" : "," + std::to_string(r / 2) + ",2");
    const std::string color = r == 3 ? "-32766" : std::to_string(r % 2);
    const std::string newcomm = r == 3 ? "-" : sub;
    std::vector<std::string> recs = {"MPI_Comm_split:2000:" + world(r, 4) + ":" + color + ":" + std::to_string(r) +
                                     ":" + newcomm + ":3000"};
    if (r % 2 == 0) {
      recs.push_back("MPI_Bcast:3100:8:2:3,4,4:1:" + sub + ":3200");
      recs.push_back("MPI_Comm_free:3300:" + sub + ":3400");
    }
    recs.push_back("MPI_Finalize:5000:-");
    texts.push_back(capture_text(r, 4, recs));
  }
  const CaptureRun run = align_texts(texts);
  // Each member spent 1 us in MPI_Comm_split: that measured cost precedes the modelled exchange.
  EXPECT_EQ(ti_of(run, 2), "2 init\n2 sleep 0.000001\n2 sleep 0.000001\n2 comm_split 0 2 1\n2 sleep 0.0000001\n2 bcast 2 1 1 comm=1\n"
                           "2 comm_free 1\n2 sleep 0.0000018\n2 finalize\n");
  EXPECT_EQ(ti_of(run, 3), "3 init\n3 sleep 0.000001\n3 sleep 0.000001\n3 comm_split -333 3 -1\n3 sleep 0.000002\n3 finalize\n");
  EXPECT_EQ(ti_of(run, 1), "1 init\n1 sleep 0.000001\n1 sleep 0.000001\n1 comm_split 1 1 2\n1 sleep 0.000002\n1 finalize\n");
  const std::string goal = goal_of(run);
  // Rank 2 is the bcast's root (local rank 1 -> world 2): it sends 8 bytes to world rank 0 with
  // the first collective tag of communicator 1 (GoalTags slot 1).
  const GoalTags tags(2);
  EXPECT_NE(goal.find("send 8b to 0 tag " + std::to_string(tags.collective(1, 0))), std::string::npos);
  // The split itself is a world collective: tag 1000000 (the first on the world).
  EXPECT_NE(goal.find("tag 1000000\n"), std::string::npos);
}

TEST(CaptureWriters, TopologyConstructorsBecomeSplits) {
  // MPI_Cart_create on 2 ranks (reordered: rank 1 becomes rank 0), then MPI_Cart_sub that keeps
  // only world rank 1.
  const CaptureRun run = align_texts({
      capture_text(0, 2, {"MPI_Cart_create:2000:" + world(0, 2) + ":1:1:3,1,2:3000",
                          "MPI_Cart_sub:3100:3,1,2:-32766:0:-:3200", "MPI_Finalize:9000:-"}),
      capture_text(1, 2, {"MPI_Cart_create:2000:" + world(1, 2) + ":1:0:3,0,2:3000",
                          "MPI_Cart_sub:3100:3,0,2:0:0:4,0,1:3200", "MPI_Finalize:9000:-"}),
  });
  EXPECT_EQ(run.comm(1).members, (std::vector<RankId>{1, 0}));
  ConvertOptions simulated;
  simulated.measured_creation = false;
  EXPECT_EQ(ti_of(run, 0, simulated), "0 init\n0 sleep 0.000001\n0 comm_split 1 1 1\n0 sleep 0.0000001\n"
                                      "0 comm_split -333 0 -1 comm=1\n0 sleep 0.0000058\n0 finalize\n");
  EXPECT_EQ(ti_of(run, 1, simulated), "1 init\n1 sleep 0.000001\n1 comm_split 1 0 1\n1 sleep 0.0000001\n"
                                      "1 comm_split 0 0 2 comm=1\n1 sleep 0.0000058\n1 finalize\n");
}

TEST(CaptureWriters, CreationCostsTheShortestMembersTime) {
  // Rank 0 enters MPI_Comm_dup at 2 us and waits there for rank 1, which arrives at 8 us and is
  // done at 9.5 us: the call's own cost is rank 1's 1.5 us, charged to both before the modelled
  // exchange. Rank 0's 7 us in the call are waiting, which the replay reproduces by itself.
  const CaptureRun run = align_texts({
      capture_text(0, 2, {"MPI_Comm_dup:2000:" + world(0, 2) + ":3,0,2:9000", "MPI_Finalize:9000:-"}),
      capture_text(1, 2, {"MPI_Comm_dup:8000:" + world(1, 2) + ":3,1,2:9500", "MPI_Finalize:9500:-"}),
  });
  EXPECT_EQ(creation_cost_ps(run, 0, 1), 1500000);  // record 0 is MPI_Init
  EXPECT_EQ(creation_cost_ps(run, 1, 1), 1500000);
  EXPECT_EQ(ti_of(run, 0), "0 init\n0 sleep 0.000001\n0 sleep 0.0000015\n0 comm_dup 1\n0 finalize\n");
  EXPECT_EQ(ti_of(run, 1), "1 init\n1 sleep 0.000007\n1 sleep 0.0000015\n1 comm_dup 1\n1 finalize\n");
}

TEST(CaptureWriters, ReductionsCarryFlopsPerElement) {
  const auto allreduce = [](RankId r) {
    return capture_text(r, 2, {"MPI_Allreduce:2000:8:16:6:2,8,8:1:" + world(r, 2) + ":3000", "MPI_Finalize:4000:-"});
  };
  const CaptureRun run = align_texts({allreduce(0), allreduce(1)});
  EXPECT_EQ(ti_of(run, 0), "0 init\n0 sleep 0.000001\n0 allreduce 6 6 0\n0 sleep 0.000001\n0 finalize\n");
  ConvertOptions two;
  two.reduce_flops = 2;
  EXPECT_EQ(ti_of(run, 0, two), "0 init\n0 sleep 0.000001\n0 allreduce 6 12 0\n0 sleep 0.000001\n0 finalize\n");
}

TEST(CaptureWriters, PinningChargesNewBytesOnly) {
  // Three sends from one buffer of 400 bytes, the third from a buffer overlapping half of it.
  const CaptureRun run = align_texts({
      capture_text(0, 2, {"MPI_Send:2000:1000:100:3,4,4:1:0:" + world(0, 2) + ":2100",
                          "MPI_Send:2200:1000:100:3,4,4:1:0:" + world(0, 2) + ":2300",
                          "MPI_Send:2400:1200:100:3,4,4:1:0:" + world(0, 2) + ":2500", "MPI_Finalize:9000:-"}),
      capture_text(1, 2, {"MPI_Recv:2000:5000:100:3,4,4:0:0:" + world(1, 2) + ":0,0,400:2500",
                          "MPI_Recv:2600:5000:100:3,4,4:0:0:" + world(1, 2) + ":0,0,400:2700",
                          "MPI_Recv:2800:5000:100:3,4,4:0:0:" + world(1, 2) + ":0,0,400:2900", "MPI_Finalize:9000:-"}),
  });
  ConvertOptions pin;
  pin.pinning = true;
  pin.pin_a_us = 1;
  pin.pin_b_us = 0.01;
  EXPECT_EQ(ti_of(run, 0, pin), "0 init\n0 sleep 0.000001\n0 sleep 0.000005\n0 send 1 0 100 1\n0 sleep 0.0000001\n"
                                "0 send 1 0 100 1\n0 sleep 0.0000001\n0 sleep 0.000003\n0 send 1 0 100 1\n"
                                "0 sleep 0.0000065\n0 finalize\n");
}

}  // namespace
}  // namespace simfab
