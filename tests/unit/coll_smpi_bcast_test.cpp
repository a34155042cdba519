// SimGrid 3.32's segmented broadcasts (smpi_bcast_large.hpp, smpi_split_bintree.hpp), message
// for message: bcast__ompi_pipeline and bcast__scatter_rdb_allgather, which its ompi selector runs
// for 1 MiB on 4 to 7 and on 16 to 31 ranks, and bcast__ompi_split_bintree (16 to 32 KiB on 256
// to 1023 ranks). Recorded as coll_smpi_test.cpp's header says (smpirun -replay
// --log=smpi_request.thres:verbose), forced with --cfg=smpi/bcast:<name> or through
// --cfg=smpi/coll-selector:ompi. SimGrid posts some receives larger than the message (every
// pipeline segment at the full segment size, the scatter's and the allgather's for the rest of
// the buffer); a receive is written here as the message its sender sent, which is what SimGrid
// times.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "coll_smpi_test_support.hpp"
#include "mpi/coll/select_smpi.hpp"
#include "mpi/coll/smpi_bcast_large.hpp"
#include "mpi/coll/smpi_split_bintree.hpp"

namespace simfab::coll {
namespace {

struct Recorded {
  const char* key;  // the configuration line
  RankId root;
  Bytes bytes;
  Bytes type_size;
  std::vector<std::string> ranks;
};

void expect_recorded(const Recorded& rec) {
  const CollChoice choice = choice_of({rec.key});
  const int p = static_cast<int>(rec.ranks.size());
  for (RankId rank = 0; rank < p; ++rank) {
    CollCall call{rank, p, rec.root, rec.bytes};
    call.type_size = rec.type_size;
    EXPECT_EQ(messages(choice, CollOp::kBcast, call), expand(rec.ranks[static_cast<size_t>(rank)]))
        << rec.key << " P=" << p << " root " << rec.root << " rank " << rank;
  }
}

// bcast 4099 1 0 on 4 ranks (16 KiB segments: 2048, 2048 and 3 doubles down the chain 1 -> 2 ->
// 3 -> 0), and bcast 40000 2 0 on 3 ranks (19 segments of 16 KiB and one of 8704 B).
TEST(CollSmpiBcast, OmpiPipelineSendsSegmentAfterSegmentDownTheChain) {
  expect_recorded({"smpi/bcast=ompi_pipeline", 1, 32792, 8, {
      "R3:16384 R3:16384 R3:24",
      "S2:16384 S2:16384 S2:24",
      "R1:16384 R1:16384 S3:16384 R1:24 S3:16384 S3:24",
      "R2:16384 R2:16384 S0:16384 R2:24 S0:16384 S0:24"}});
  expect_recorded({"smpi/bcast=ompi_pipeline", 2, 320000, 8, {
      "R2:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:16384 S1:16384 R2:8704 S1:16384 S1:8704",
      "R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:16384 R0:8704",
      "S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:16384 S0:8704"}});
}

// bcast__ompi_pipeline's segment size: 128 KiB for a few ranks and large buffers, 16 KiB for the
// ompi selector's 1 MiB on 4 to 7 ranks.
TEST(CollSmpiBcast, OmpiPipelineSegmentSizeFollowsSimGridsFit) {
  EXPECT_EQ(smpi_ompi_pipeline_segsize(3, 1 << 20), 131072u);  // 3 < 1.6134e-6 m + 2.1102
  EXPECT_EQ(smpi_ompi_pipeline_segsize(10, 1 << 22), 65536u);  // 10 < 2.3679e-6 m + 1.1787 only
  EXPECT_EQ(smpi_ompi_pipeline_segsize(4, 1 << 20), 16384u);
  EXPECT_EQ(smpi_ompi_pipeline_segsize(7, 1 << 20), 16384u);
  EXPECT_EQ(smpi_ompi_pipeline_segsize(64, 1 << 20), 131072u);  // none fits: the default
  for (int p : {4, 7}) EXPECT_STREQ(select_smpi(SmpiSelector::kOmpi, CollOp::kBcast, CollCall{0, p, 0, 1 << 20}), "ompi_pipeline");
}

// The ompi selector's 1 MiB on 24 ranks (chunks of 43691 B; ranks 0-7 have no partner at mask 16
// and get chunks 16-23 from ranks 0-7's halving), bcast 125 3 0 on 7 ranks (root 3), and
// bcast 3 2 6 on 5 ranks (bytes; the chunks of vranks 3 and 4 are empty, sent as zero-byte
// messages in the allgather but not in the scatter).
TEST(CollSmpiBcast, ScatterRdbAllgatherCompletesNonPowersOfTwoAsSimGrid) {
  expect_recorded({"mpi/coll-selector=smpi-ompi", 0, 1 << 20, 8, {
      "S16:349520 S8:349528 S4:174764 S2:87382 S1:43691 S1:43691 R1:43691 S2:87382 R2:87382 S4:174764 R4:174764 S8:349528 R8:349528 S16:699056 R16:349520 S8:349520",
      "R0:43691 S0:43691 R0:43691 S3:87382 R3:87382 S5:174764 R5:174764 S9:349528 R9:349528 S17:699056 R17:349520 S9:349520",
      "R0:87382 S3:43691 S3:43691 R3:43691 S0:87382 R0:87382 S6:174764 R6:174764 S10:349528 R10:349528 S18:699056 R18:349520 S10:349520",
      "R2:43691 S2:43691 R2:43691 S1:87382 R1:87382 S7:174764 R7:174764 S11:349528 R11:349528 S19:699056 R19:349520 S11:349520",
      "R0:174764 S6:87382 S5:43691 S5:43691 R5:43691 S6:87382 R6:87382 S0:174764 R0:174764 S12:349528 R12:349528 S20:699056 R20:349520 S12:349520",
      "R4:43691 S4:43691 R4:43691 S7:87382 R7:87382 S1:174764 R1:174764 S13:349528 R13:349528 S21:699056 R21:349520 S13:349520",
      "R4:87382 S7:43691 S7:43691 R7:43691 S4:87382 R4:87382 S2:174764 R2:174764 S14:349528 R14:349528 S22:699056 R22:349520 S14:349520",
      "R6:43691 S6:43691 R6:43691 S5:87382 R5:87382 S3:174764 R3:174764 S15:349528 R15:349528 S23:699056 R23:349520 S15:349520",
      "R0:349528 S12:174764 S10:87382 S9:43691 S9:43691 R9:43691 S10:87382 R10:87382 S12:174764 R12:174764 S0:349528 R0:349528 R0:349520",
      "R8:43691 S8:43691 R8:43691 S11:87382 R11:87382 S13:174764 R13:174764 S1:349528 R1:349528 R1:349520",
      "R8:87382 S11:43691 S11:43691 R11:43691 S8:87382 R8:87382 S14:174764 R14:174764 S2:349528 R2:349528 R2:349520",
      "R10:43691 S10:43691 R10:43691 S9:87382 R9:87382 S15:174764 R15:174764 S3:349528 R3:349528 R3:349520",
      "R8:174764 S14:87382 S13:43691 S13:43691 R13:43691 S14:87382 R14:87382 S8:174764 R8:174764 S4:349528 R4:349528 R4:349520",
      "R12:43691 S12:43691 R12:43691 S15:87382 R15:87382 S9:174764 R9:174764 S5:349528 R5:349528 R5:349520",
      "R12:87382 S15:43691 S15:43691 R15:43691 S12:87382 R12:87382 S10:174764 R10:174764 S6:349528 R6:349528 R6:349520",
      "R14:43691 S14:43691 R14:43691 S13:87382 R13:87382 S11:174764 R11:174764 S7:349528 R7:349528 R7:349520",
      "R0:349520 S20:174756 S18:87382 S17:43691 S17:43691 R17:43691 S18:87382 R18:87382 S20:174764 R20:174756 S0:349520 R0:699056",
      "R16:43691 S16:43691 R16:43691 S19:87382 R19:87382 S21:174764 R21:174756 S1:349520 R1:699056",
      "R16:87382 S19:43691 S19:43691 R19:43691 S16:87382 R16:87382 S22:174764 R22:174756 S2:349520 R2:699056",
      "R18:43691 S18:43691 R18:43691 S17:87382 R17:87382 S23:174764 R23:174756 S3:349520 R3:699056",
      "R16:174756 S22:87374 S21:43691 S21:43691 R21:43691 S22:87382 R22:87374 S16:174756 R16:174764 S4:349520 R4:699056",
      "R20:43691 S20:43691 R20:43691 S23:87382 R23:87374 S17:174756 R17:174764 S5:349520 R5:699056",
      "R20:87374 S23:43683 S23:43691 R23:43683 S20:87374 R20:87382 S18:174756 R18:174764 S6:349520 R6:699056",
      "R22:43683 S22:43683 R22:43691 S21:87374 R21:87382 S19:174756 R19:174764 S7:349520 R7:699056"}});
  expect_recorded({"smpi/bcast=scatter_rdb_allgather", 3, 1000, 8, {
      "R3:428 S2:142 S1:143 S1:143 R1:143 S2:286 R2:142 S1:142 S3:428 R3:572",
      "R0:143 S0:143 R0:143 R0:142 S4:428 R4:572",
      "R0:142 S0:142 R0:286 S5:428 R5:572",
      "S0:428 S5:286 S4:143 S4:143 R4:143 S5:286 R5:286 S0:572 R0:428",
      "R3:143 S3:143 R3:143 S6:286 R6:286 S1:572 R1:428 S6:428",
      "R3:286 S6:143 S6:143 R6:143 S3:286 R3:286 S2:572 R2:428",
      "R5:143 S5:143 R5:143 S4:286 R4:286 R4:428"}});
  expect_recorded({"smpi/bcast=scatter_rdb_allgather", 2, 3, 1, {
      "S4:0 R4:1 S3:1 R3:2 R4:0",
      "S2:0 R2:3",
      "S4:1 S3:1 S3:1 R3:1 S4:2 R4:1 S1:3 R1:0 S4:0 S3:0",
      "R2:1 S2:1 R2:1 S0:2 R0:1 R2:0",
      "R2:1 S0:1 R0:0 S2:1 R2:2 R2:0 S0:0"}});
}

// Recorded with --cfg=smpi/bcast:ompi_split_bintree (issue 34): doubles (type 0) or bytes (6).
// 1 KiB segments below 370728 B: bcast 300 1 0 on 5, 6 and 2 ranks (halves of 150 doubles: 1024 +
// 176 B), bcast 2049 1 6 on 7 and 8 ranks (halves 1025 and 1024 B: one segment short of the
// other), bcast 600 2 0 on 3, bcast 3000 5 0 on 13, bcast 5000 2 0 on 4, bcast 16384 4 6 on 9 (the
// ompi selector's 16 KiB). 8 KiB segments from 370728 B: bcast 50000 7 0 on 12, 46400 0 0 on 3.
TEST(CollSmpiBcast, OmpiSplitBintreeSendsAHalfDownEachSubtreeThenSwaps) {
  const char* key = "smpi/bcast=ompi_split_bintree";
  expect_recorded({key, 1, 2400, 8, {
      "R3:1024 R3:176 S4:1200 R4:1200",
      "S2:1024 S3:1024 S2:176 S3:176",
      "R1:1024 R1:176 S4:1024 S4:176 S3:1200 R3:1200",
      "R1:1024 R1:176 S0:1024 S0:176 S2:1200 R2:1200",
      "R2:1024 R2:176 S0:1200 R0:1200"}});
  expect_recorded({key, 1, 2400, 8, {
      "R2:1024 R2:176 R1:1200",
      "S2:1024 S3:1024 S2:176 S3:176 S0:1200",
      "R1:1024 R1:176 S4:1024 S0:1024 S4:176 S0:176 S3:1200 R3:1200",
      "R1:1024 R1:176 S5:1024 S5:176 S2:1200 R2:1200",
      "R2:1024 R2:176 S5:1200 R5:1200",
      "R3:1024 R3:176 S4:1200 R4:1200"}});
  expect_recorded({key, 1, 2400, 8, {"R1:1024 R1:176 R1:1200", "S0:1024 S0:176 S0:1200"}});
  expect_recorded({key, 3, 2049, 1, {
      "R5:1024 S6:1024 R6:1025",
      "R4:1024 R4:1 S2:1025 R2:1024",
      "R5:1024 S1:1024 R1:1025",
      "S4:1024 S5:1024 S4:1",
      "R3:1024 R3:1 S6:1024 S1:1024 S6:1 S1:1 S5:1025 R5:1024",
      "R3:1024 S0:1024 S2:1024 S4:1024 R4:1025",
      "R4:1024 R4:1 S0:1025 R0:1024"}});
  expect_recorded({key, 0, 2049, 1, {
      "S1:1024 S2:1024 S1:1 S7:1024",
      "R0:1024 R0:1 S3:1024 S5:1024 S3:1 S5:1 S2:1025 R2:1024",
      "R0:1024 S4:1024 S6:1024 S1:1024 R1:1025",
      "R1:1024 R1:1 S7:1024 S7:1 S4:1025 R4:1024",
      "R2:1024 S3:1024 R3:1025",
      "R1:1024 R1:1 S6:1025 R6:1024",
      "R2:1024 S5:1024 R5:1025",
      "R3:1024 R3:1 R0:1024"}});
  expect_recorded({key, 2, 4800, 8, {
      "R2:1024 R2:1024 R2:352 S1:2400 R1:2400",
      "R2:1024 R2:1024 R2:352 S0:2400 R0:2400",
      "S0:1024 S1:1024 S0:1024 S1:1024 S0:352 S1:352"}});
  expect_recorded({key, 5, 24000, 8, {
      "R9:1024*11 R9:736 S12:12000 R12:12000",
      "R10:1024*11 R10:736 S2:12000 R2:12000",
      "R11:1024*11 R11:736 S1:12000 R1:12000",
      "R8:1024*11 R8:736 S4:12000 R4:12000",
      "R9:1024*11 R9:736 S3:12000 R3:12000",
      "(S6:1024 S7:1024)*11 S6:736 S7:736",
      "R5:1024 (R5:1024 S8:1024 S10:1024)*10 R5:736 S8:1024 S10:1024 S8:736 S10:736 S7:12000 R7:12000",
      "R5:1024 (R5:1024 S9:1024 S11:1024)*10 R5:736 S9:1024 S11:1024 S9:736 S11:736 S6:12000 R6:12000",
      "R6:1024 (R6:1024 S12:1024 S3:1024)*10 R6:736 S12:1024 S3:1024 S12:736 S3:736 S9:12000 R9:12000",
      "R7:1024 (R7:1024 S0:1024 S4:1024)*10 R7:736 S0:1024 S4:1024 S0:736 S4:736 S8:12000 R8:12000",
      "R6:1024 (R6:1024 S1:1024)*10 R6:736 S1:1024 S1:736 S11:12000 R11:12000",
      "R7:1024 (R7:1024 S2:1024)*10 R7:736 S2:1024 S2:736 S10:12000 R10:12000",
      "R8:1024*11 R8:736 S0:12000 R0:12000"}});
  expect_recorded({key, 2, 40000, 8, {
      "R2:1024*19 R2:544 S3:20000 R3:20000",
      "R3:1024*19 R3:544 R2:20000",
      "(S3:1024 S0:1024)*19 S3:544 S0:544 S1:20000",
      "R2:1024 (R2:1024 S1:1024)*18 R2:544 S1:1024 S1:544 S0:20000 R0:20000"}});
  expect_recorded({key, 4, 16384, 1, {
      "R5:1024*8 S1:8192 R1:8192",
      "R6:1024*8 S0:8192 R0:8192",
      "R7:1024*8 S3:8192 R3:8192",
      "R8:1024*8 S2:8192 R2:8192",
      "(S5:1024 S6:1024)*8",
      "R4:1024 (R4:1024 S7:1024 S0:1024)*7 S7:1024 S0:1024 S6:8192 R6:8192",
      "R4:1024 (R4:1024 S8:1024 S1:1024)*7 S8:1024 S1:1024 S5:8192 R5:8192",
      "R5:1024 (R5:1024 S2:1024)*7 S2:1024 S8:8192 R8:8192",
      "R6:1024 (R6:1024 S3:1024)*7 S3:1024 S7:8192 R7:8192"}});
  expect_recorded({key, 7, 400000, 8, {
      "R8:8192 (R8:8192 S4:8192)*23 R8:3392 S4:8192 S4:3392 S1:200000 R1:200000",
      "R9:8192 (R9:8192 S5:8192)*23 R9:3392 S5:8192 S5:3392 S0:200000 R0:200000",
      "R10:8192*24 R10:3392 S3:200000 R3:200000",
      "R11:8192*24 R11:3392 S2:200000 R2:200000",
      "R0:8192*24 R0:3392 S5:200000 R5:200000",
      "R1:8192*24 R1:3392 S4:200000 R4:200000",
      "R10:8192*24 R10:3392 R7:200000",
      "(S8:8192 S9:8192)*24 S8:3392 S9:3392 S6:200000",
      "R7:8192 (R7:8192 S10:8192 S0:8192)*23 R7:3392 S10:8192 S0:8192 S10:3392 S0:3392 S9:200000 R9:200000",
      "R7:8192 (R7:8192 S11:8192 S1:8192)*23 R7:3392 S11:8192 S1:8192 S11:3392 S1:3392 S8:200000 R8:200000",
      "R8:8192 (R8:8192 S2:8192 S6:8192)*23 R8:3392 S2:8192 S6:8192 S2:3392 S6:3392 S11:200000 R11:200000",
      "R9:8192 (R9:8192 S3:8192)*23 R9:3392 S3:8192 S3:3392 S10:200000 R10:200000"}});
  expect_recorded({key, 0, 371200, 8, {
      "(S1:8192 S2:8192)*22 S1:5376 S2:5376",
      "R0:8192*22 R0:5376 S2:185600 R2:185600",
      "R0:8192*22 R0:5376 S1:185600 R1:185600"}});
}

// The ompi selector runs it for 16 KiB to 32 KiB on 256 to 1023 ranks; SimGrid calls
// bcast__SMP_linear instead when a half is shorter than one segment (2 KiB of bytes here), which
// simfab does not reproduce (smpi_refusals.hpp): it runs split-binary.
TEST(CollSmpiBcast, OmpiSplitBintreeIsTheOmpiSelectorsChoiceAndFallsBackBelowTwoSegments) {
  EXPECT_STREQ(select_smpi(SmpiSelector::kOmpi, CollOp::kBcast, CollCall{0, 300, 0, 16384}), "ompi_split_bintree");
  EXPECT_STREQ(select_smpi(SmpiSelector::kOmpi, CollOp::kBcast, CollCall{0, 300, 0, 32767}), "ompi_split_bintree");
  EXPECT_STRNE(select_smpi(SmpiSelector::kOmpi, CollOp::kBcast, CollCall{0, 300, 0, 32768}), "ompi_split_bintree");
  const CollChoice selected = choice_of({"mpi/coll-selector=smpi-ompi"});
  const CollChoice forced = choice_of({"smpi/bcast=ompi_split_bintree"});
  for (RankId rank : {0, 1, 150, 299})
    EXPECT_EQ(messages(selected, CollOp::kBcast, CollCall{rank, 300, 0, 20000}),
              messages(forced, CollOp::kBcast, CollCall{rank, 300, 0, 20000}));
  EXPECT_TRUE(smpi_split_bintree_splits(CollCall{0, 4, 0, 2048}));
  EXPECT_FALSE(smpi_split_bintree_splits(CollCall{0, 4, 0, 2047}));  // a half of 1023 B
  EXPECT_EQ(smpi_split_bintree_segments(CollCall{0, 4, 0, 4096}).first, 2u);
  EXPECT_EQ(smpi_split_bintree_segments(CollCall{0, 4, 0, 2047}).first, 0u);
  const CollChoice nearest = choice_of({"mpi/bcast=split-binary"});
  for (RankId rank = 0; rank < 4; ++rank)
    EXPECT_EQ(messages(forced, CollOp::kBcast, CollCall{rank, 4, 1, 100}), messages(nearest, CollOp::kBcast, CollCall{rank, 4, 1, 100}));
}

// bcast__scatter_LR_allgather and bcast__flattree, which no selector picks, forced with
// --cfg=smpi/bcast:<name>: bcast 1000 2 6 on 5 ranks (200 B chunks), 125 3 0 on 7 (143 B chunks,
// the last one 142), 3 2 6 on 5 (1 B chunks, two empty: zero-byte ring messages), 4096 1 6 on 4;
// flattree 100 2 6 on 5 and 1000 5 6 on 6.
TEST(CollSmpiBcast, ScatterLrAllgatherAndFlattreeAsSimGrid) {
  const char* lr = "smpi/bcast=scatter_LR_allgather";
  expect_recorded({lr, 2, 1000, 1, {
      "R4:200 (S1:200 R4:200)*4",
      "R2:200 (S2:200 R0:200)*4",
      "S1:200 S4:400 S3:200 (S3:200 R1:200)*4",
      "R2:200 (S4:200 R2:200)*4",
      "R2:400 S0:200 (S0:200 R3:200)*4"}});
  expect_recorded({lr, 3, 1000, 8, {
      "R3:428 S2:142 S1:143 (S1:143 R6:143)*4 S1:143 R6:142 S1:142 R6:143",
      "R0:143 (S2:143 R0:143)*5 S2:143 R0:142",
      "R0:142 S3:142 R1:143 (S3:143 R1:143)*5",
      "S0:428 S5:286 S4:143 S4:143 R2:142 S4:142 R2:143 (S4:143 R2:143)*4",
      "R3:143 S5:143 R3:143 S5:143 R3:142 S5:142 R3:143 (S5:143 R3:143)*3",
      "R3:286 S6:143 (S6:143 R4:143)*2 S6:143 R4:142 S6:142 R4:143 (S6:143 R4:143)*2",
      "R5:143 (S0:143 R5:143)*3 S0:143 R5:142 S0:142 R5:143 S0:143 R5:143"}});
  expect_recorded({lr, 2, 3, 1, {
      "S1:0 R4:1 S1:1 R4:1 S1:1 R4:1 S1:1 R4:0",
      "S2:0 R0:0 S2:0 R0:1 S2:1 R0:1 S2:1 R0:1",
      "S4:1 S3:1 S3:1 R1:0 S3:0 R1:0 S3:0 R1:1 S3:1 R1:1",
      "R2:1 S4:1 R2:1 S4:1 R2:0 S4:0 R2:0 S4:0 R2:1",
      "R2:1 S0:1 R3:1 S0:1 R3:1 S0:1 R3:0 S0:0 R3:0"}});
  expect_recorded({lr, 1, 4096, 1, {
      "R3:1024 (S1:1024 R3:1024)*3",
      "S3:2048 S2:1024 (S2:1024 R0:1024)*3",
      "R1:1024 (S3:1024 R1:1024)*3",
      "R1:2048 S0:1024 (S0:1024 R2:1024)*3"}});
  const char* flat = "smpi/bcast=flattree";
  expect_recorded({flat, 2, 100, 1, {"R2:100", "R2:100", "S0:100 S1:100 S3:100 S4:100", "R2:100", "R2:100"}});
  expect_recorded({flat, 5, 1000, 1, {"R5:1000", "R5:1000", "R5:1000", "R5:1000", "R5:1000",
                                      "S0:1000 S1:1000 S2:1000 S3:1000 S4:1000"}});
}

}  // namespace
}  // namespace simfab::coll
