// SimGrid 3.32's reduce__scatter_gather (smpi_reduce_scatter_gather.hpp), message for message, as
// the mpich selector runs it for count >= pof2 and 2 KiB or more. Recorded as coll_smpi_test.cpp's
// header says, with --cfg=smpi/reduce:scatter_gather, "reduce <count> 0 <root> <type>" (type 0:
// doubles, 6: bytes) on 2 to 13 ranks: powers of two and not, roots odd and even, below and above
// 2 rem (the fold), counts that pof2 divides and that it does not. SimGrid's sendrecv with itself
// copies and sends nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "coll_smpi_test_support.hpp"
#include "mpi/coll/select_smpi.hpp"
#include "mpi/coll/smpi_reduce_scatter_gather.hpp"

namespace simfab::coll {
namespace {

struct Recorded {
  int p;
  RankId root;
  Bytes bytes;
  Bytes type_size;
  std::vector<std::string> ranks;
};

void expect_recorded(const CollChoice& choice, const Recorded& rec) {
  for (RankId rank = 0; rank < rec.p; ++rank) {
    CollCall call{rank, rec.p, rec.root, rec.bytes};
    call.type_size = rec.type_size;
    EXPECT_EQ(messages(choice, CollOp::kReduce, call), rec.ranks[static_cast<size_t>(rank)])
        << "P=" << rec.p << " root " << rec.root << " " << rec.bytes << " B, rank " << rank;
  }
}

TEST(CollSmpiReduce, ScatterGatherSendsWhatSimGridSent) {
  const Recorded recorded[] = {
      // reduce 1000 0 1 0 on 2 ranks
      {2, 1, 8000, 8, {
          "S1:4000 R1:4000 S1:4000",
          "S0:4000 R0:4000 R0:4000"}},
      // reduce 1000 0 1 0 on 3 ranks
      {3, 1, 8000, 8, {
          "R1:8000 S2:4000 R2:4000 S1:4000",
          "S0:8000 R0:4000 R2:4000",
          "S0:4000 R0:4000 S1:4000"}},
      // reduce 1001 0 2 0 on 3 ranks
      {3, 2, 8008, 8, {
          "R1:8008 S2:4008 R2:4000 S2:4000",
          "S0:8008",
          "S0:4000 R0:4008 R0:4000"}},
      // reduce 1000 0 1 0 on 4 ranks
      {4, 1, 8000, 8, {
          "S1:4000 R1:4000 S2:2000 R2:2000 R2:2000 S1:4000",
          "S0:4000 R0:4000 S3:2000 R3:2000 R3:2000 R0:4000",
          "S3:4000 R3:4000 S0:2000 R0:2000 S0:2000",
          "S2:4000 R2:4000 S1:2000 R1:2000 S1:2000"}},
      // reduce 4099 0 4 6 on 5 ranks
      {5, 4, 4099, 1, {
          "R1:4099 S2:2051 R2:2048 S3:1024 R3:1024 S3:1024",
          "S0:4099",
          "S0:2048 R0:2051 S4:1027 R4:1024 S4:1024",
          "S4:2051 R4:2048 S0:1024 R0:1024 R0:1024 S4:2048",
          "S3:2048 R3:2051 S2:1024 R2:1027 R2:1024 R3:2048"}},
      // reduce 1000 0 1 0 on 6 ranks
      {6, 1, 8000, 8, {
          "R1:8000 S2:4000 R2:4000 S4:2000 R4:2000 S1:2000",
          "S0:8000 R0:2000 R4:2000 R2:4000",
          "R3:8000 S0:4000 R0:4000 S5:2000 R5:2000 R5:2000 S1:4000",
          "S2:8000",
          "S5:4000 R5:4000 S0:2000 R0:2000 S1:2000",
          "S4:4000 R4:4000 S2:2000 R2:2000 S2:2000"}},
      // reduce 1001 0 2 0 on 6 ranks
      {6, 2, 8008, 8, {
          "R1:8008 S2:4008 R2:4000 S4:2000 R4:2000 R4:2000 S2:4000",
          "S0:8008",
          "R3:8008 S0:4000 R0:4008 S5:2008 R5:2000 R5:2008 R0:4000",
          "S2:8008",
          "S5:4008 R5:4000 S0:2000 R0:2000 S0:2000",
          "S4:4000 R4:4008 S2:2000 R2:2008 S2:2008"}},
      // reduce 300 0 3 0 on 7 ranks
      {7, 3, 2400, 8, {
          "R1:2400 S2:1200 R2:1200 S4:600 R4:600 S3:600",
          "S0:2400",
          "R3:2400 S0:1200 R0:1200 S6:600 R6:600 R6:600 S3:1200",
          "S2:2400 R0:600 R4:600 R2:1200",
          "R5:2400 S6:1200 R6:1200 S0:600 R0:600 S3:600",
          "S4:2400",
          "S4:1200 R4:1200 S2:600 R2:600 S2:600"}},
      // reduce 300 0 5 0 on 7 ranks
      {7, 5, 2400, 8, {
          "R1:2400 S2:1200 R2:1200 S4:600 R4:600 S5:600",
          "S0:2400",
          "R3:2400 S0:1200 R0:1200 S6:600 R6:600 R6:600 S5:1200",
          "S2:2400",
          "R5:2400 S6:1200 R6:1200 S0:600 R0:600 S5:600",
          "S4:2400 R0:600 R4:600 R2:1200",
          "S4:1200 R4:1200 S2:600 R2:600 S2:600"}},
      // reduce 1003 0 6 0 on 8 ranks
      {8, 6, 8024, 8, {
          "S1:4024 R1:4000 S2:2000 R2:2000 S4:1000 R4:1000 S4:1000",
          "S0:4000 R0:4024 S3:2024 R3:2000 S5:1000 R5:1000 S5:1000",
          "S3:4024 R3:4000 S0:2000 R0:2000 S6:1000 R6:1000 S6:1000",
          "S2:4000 R2:4024 S1:2000 R1:2024 S7:1024 R7:1000 S7:1000",
          "S5:4024 R5:4000 S6:2000 R6:2000 S0:1000 R0:1000 R0:1000 S6:2000",
          "S4:4000 R4:4024 S7:2024 R7:2000 S1:1000 R1:1000 R1:1000 S7:2000",
          "S7:4024 R7:4000 S4:2000 R4:2000 S2:1000 R2:1000 R2:1000 R4:2000 R7:4024",
          "S6:4000 R6:4024 S5:2000 R5:2024 S3:1000 R3:1024 R3:1000 R5:2000 S6:4024"}},
      // reduce 4099 0 3 6 on 12 ranks
      {12, 3, 4099, 1, {
          "R1:4099 S2:2051 R2:2048 S4:1024 R4:1024 S8:512 R8:512 S3:512",
          "S0:4099",
          "R3:4099 S0:2048 R0:2051 S6:1027 R6:1024 S9:512 R9:512 R9:512 R6:1027 S3:2051",
          "S2:4099 R0:512 R8:512 R4:1024 R2:2051",
          "R5:4099 S6:2051 R6:2048 S0:1024 R0:1024 S10:512 R10:512 R10:512 S3:1024",
          "S4:4099",
          "R7:4099 S4:2048 R4:2051 S2:1024 R2:1027 S11:515 R11:512 R11:515 S2:1027",
          "S6:4099",
          "S9:2051 R9:2048 S10:1024 R10:1024 S0:512 R0:512 S3:512",
          "S8:2048 R8:2051 S11:1027 R11:1024 S2:512 R2:512 S2:512",
          "S11:2051 R11:2048 S8:1024 R8:1024 S4:512 R4:512 S4:512",
          "S10:2048 R10:2051 S9:1024 R9:1027 S6:512 R6:515 S6:515"}},
      // reduce 1000 0 0 0 on 13 ranks
      {13, 0, 8000, 8, {
          "R1:8000 S2:4000 R2:4000 S4:2000 R4:2000 S8:1000 R8:1000 R8:1000 R4:2000 R2:4000",
          "S0:8000",
          "R3:8000 S0:4000 R0:4000 S6:2000 R6:2000 S10:1000 R10:1000 R10:1000 R6:2000 S0:4000",
          "S2:8000",
          "R5:8000 S6:4000 R6:4000 S0:2000 R0:2000 S11:1000 R11:1000 R11:1000 S0:2000",
          "S4:8000",
          "R7:8000 S4:4000 R4:4000 S2:2000 R2:2000 S12:1000 R12:1000 R12:1000 S2:2000",
          "S6:8000",
          "R9:8000 S10:4000 R10:4000 S11:2000 R11:2000 S0:1000 R0:1000 S0:1000",
          "S8:8000",
          "S8:4000 R8:4000 S12:2000 R12:2000 S2:1000 R2:1000 S2:1000",
          "S12:4000 R12:4000 S8:2000 R8:2000 S4:1000 R4:1000 S4:1000",
          "S11:4000 R11:4000 S10:2000 R10:2000 S6:1000 R6:1000 S6:1000"}},
      // reduce 1000 0 9 0 on 13 ranks
      {13, 9, 8000, 8, {
          "R1:8000 S2:4000 R2:4000 S4:2000 R4:2000 S8:1000 R8:1000 S9:1000",
          "S0:8000",
          "R3:8000 S0:4000 R0:4000 S6:2000 R6:2000 S10:1000 R10:1000 R10:1000 R6:2000 S9:4000",
          "S2:8000",
          "R5:8000 S6:4000 R6:4000 S0:2000 R0:2000 S11:1000 R11:1000 R11:1000 S9:2000",
          "S4:8000",
          "R7:8000 S4:4000 R4:4000 S2:2000 R2:2000 S12:1000 R12:1000 R12:1000 S2:2000",
          "S6:8000",
          "R9:8000 S10:4000 R10:4000 S11:2000 R11:2000 S0:1000 R0:1000 S9:1000",
          "S8:8000 R0:1000 R8:1000 R4:2000 R2:4000",
          "S8:4000 R8:4000 S12:2000 R12:2000 S2:1000 R2:1000 S2:1000",
          "S12:4000 R12:4000 S8:2000 R8:2000 S4:1000 R4:1000 S4:1000",
          "S11:4000 R11:4000 S10:2000 R10:2000 S6:1000 R6:1000 S6:1000"}},
      // reduce 5 0 3 0 on 8 ranks: fewer elements than ranks, padded to 8 (one per chunk)
      {8, 3, 40, 8, {
          "S1:32 R1:32 S2:16 R2:16 S4:8 R4:8 R4:8 S2:16",
          "S0:32 R0:32 S3:16 R3:16 S5:8 R5:8 R5:8 S3:16",
          "S3:32 R3:32 S0:16 R0:16 S6:8 R6:8 R6:8 R0:16 S3:32",
          "S2:32 R2:32 S1:16 R1:16 S7:8 R7:8 R7:8 R1:16 R2:32",
          "S5:32 R5:32 S6:16 R6:16 S0:8 R0:8 S0:8",
          "S4:32 R4:32 S7:16 R7:16 S1:8 R1:8 S1:8",
          "S7:32 R7:32 S4:16 R4:16 S2:8 R2:8 S2:8",
          "S6:32 R6:32 S5:16 R5:16 S3:8 R3:8 S3:8"}},
  };
  const CollChoice choice = choice_of({"smpi/reduce=scatter_gather"});
  for (const Recorded& rec : recorded) expect_recorded(choice, rec);
}

// The mpich selector's choice (count >= pof2 and 2 KiB or more; below, binomial), and the input
// SimGrid aborts on: fewer elements than ranks when P is not a power of two, where the fold's
// odd rank sends P elements to a receive of count (MPI_ERR_TRUNCATE; recorded, reduce 3 0 3 0 on
// 6 ranks). simfab receives the P elements and goes on (smpi_refusals.hpp warns).
TEST(CollSmpiReduce, ScatterGatherIsMpichsLargeReduceAndTruncatesBelowPRanks) {
  CollCall large{0, 6, 0, 8000};
  large.type_size = 8;
  EXPECT_STREQ(select_smpi(SmpiSelector::kMpich, CollOp::kReduce, large), "scatter_gather");
  CollCall small{0, 6, 0, 2040};
  small.type_size = 8;
  EXPECT_STREQ(select_smpi(SmpiSelector::kMpich, CollOp::kReduce, small), "binomial");
  CollCall few{0, 6, 3, 24};
  few.type_size = 8;
  EXPECT_TRUE(smpi_scatter_gather_truncates(few));
  few.size = 8;
  EXPECT_FALSE(smpi_scatter_gather_truncates(few));
  const CollChoice choice = choice_of({"smpi/reduce=scatter_gather"});
  EXPECT_EQ(messages(choice, CollOp::kReduce, CollCall{3, 6, 3, 24, 8}).substr(0, 6), "S2:48 ");
  EXPECT_EQ(messages(choice, CollOp::kReduce, CollCall{2, 6, 3, 24, 8}).substr(0, 6), "R3:48 ");
}

}  // namespace
}  // namespace simfab::coll
