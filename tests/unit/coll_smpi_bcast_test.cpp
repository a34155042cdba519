// SimGrid 3.32's large-message broadcasts (smpi_bcast_large.hpp), message for message:
// bcast__ompi_pipeline and bcast__scatter_rdb_allgather, which its ompi selector runs for 1 MiB on
// 4 to 7 and on 16 to 31 ranks. Recorded as coll_smpi_test.cpp's header says (smpirun -replay
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
    EXPECT_EQ(messages(choice, CollOp::kBcast, call), rec.ranks[static_cast<size_t>(rank)])
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

}  // namespace
}  // namespace simfab::coll
