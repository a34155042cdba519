// MPICH's default collective selection (mpi/coll/select_mpich.hpp). Expected values come from
// MPICH 3.3 (pmodels/mpich): the MPIR_<Coll>_intra_auto functions of src/mpi/coll/bcast/bcast.c,
// reduce/reduce.c, allreduce/allreduce.c, allgather/allgather.c, alltoall/alltoall.c,
// barrier/barrier.c, gather/gather.c and scatter/scatter.c, with the CVAR defaults of those files:
//   BCAST_SHORT_MSG_SIZE 12288, BCAST_LONG_MSG_SIZE 524288, BCAST_MIN_PROCS 8,
//   REDUCE_SHORT_MSG_SIZE 2048, ALLREDUCE_SHORT_MSG_SIZE 2048,
//   ALLGATHER_SHORT_MSG_SIZE 81920, ALLGATHER_LONG_MSG_SIZE 524288,
//   ALLTOALL_SHORT_MSG_SIZE 256, ALLTOALL_MEDIUM_MSG_SIZE 32768 (and the literal comm_size >= 8).
#include <gtest/gtest.h>

#include <string>

#include "mpi/coll/registry.hpp"
#include "mpi/coll/select_mpich.hpp"

namespace simfab::coll {
namespace {

std::string algo(CollOp op, int p, Bytes bytes, Bytes type_size = 1) {
  return select_mpich(op, p, bytes, type_size).algorithm;
}

TEST(CollSelectMpich, EveryDecisionIsARegisteredUnsegmentedAlgorithm) {
  const Bytes sizes[] = {0, 1, 255, 256, 257, 2047, 2048, 2049, 12287, 12288, 32768, 32769, 81919, 81920,
                         524287, 524288, 1 << 24};
  for (size_t i = 0; i < static_cast<size_t>(CollOp::kAllgatherv); ++i) {  // the ops with tables
    const auto op = static_cast<CollOp>(i);
    for (int p = 1; p <= 70; ++p) {
      for (Bytes b : sizes) {
        for (Bytes ts : {Bytes{1}, Bytes{4}, Bytes{8}}) {
          const CollDecision d = select_mpich(op, p, b, ts);
          bool found = false;
          for (const CollAlgorithm& a : coll_algorithms(op))
            if (std::string(a.name) == d.algorithm && a.build) found = true;
          EXPECT_TRUE(found) << coll_op_name(op) << " P=" << p << " bytes=" << b << " -> " << d.algorithm;
          EXPECT_EQ(d.segment_bytes, 0u);
        }
      }
    }
  }
}

// bcast.c, MPIR_Bcast_intra_auto:
//   (nbytes < SHORT) || (comm_size < MIN_PROCS)            -> binomial
//   (nbytes < LONG) && pof2(comm_size)                     -> scatter + recursive-doubling allgather
//   otherwise                                              -> scatter + ring allgather
// Both scatter variants map to "scatter-allgather".
TEST(CollSelectMpich, BcastShortThresholdIsStrict) {
  EXPECT_EQ(algo(CollOp::kBcast, 16, 12287), "binomial");
  EXPECT_EQ(algo(CollOp::kBcast, 16, 12288), "scatter-allgather");
  EXPECT_EQ(algo(CollOp::kBcast, 16, 12289), "scatter-allgather");
  EXPECT_EQ(algo(CollOp::kBcast, 12, 12287), "binomial");
  EXPECT_EQ(algo(CollOp::kBcast, 12, 12288), "scatter-allgather");
}

TEST(CollSelectMpich, BcastMinProcsIsEight) {
  // comm_size < 8 -> binomial whatever the size.
  EXPECT_EQ(algo(CollOp::kBcast, 7, 12288), "binomial");
  EXPECT_EQ(algo(CollOp::kBcast, 7, 1 << 24), "binomial");
  EXPECT_EQ(algo(CollOp::kBcast, 4, 1 << 24), "binomial");  // power of two but below MIN_PROCS
  EXPECT_EQ(algo(CollOp::kBcast, 8, 12288), "scatter-allgather");
  EXPECT_EQ(algo(CollOp::kBcast, 9, 12288), "scatter-allgather");
  EXPECT_EQ(algo(CollOp::kBcast, 1, 1 << 24), "binomial");
}

TEST(CollSelectMpich, BcastLongAndPowerOfTwoBranchesBothMapToScatterAllgather) {
  // medium + pof2 (scatter/recursive doubling in MPICH), long or non-pof2 (scatter/ring).
  for (int p : {8, 9, 16, 24, 32}) {
    for (Bytes b : {Bytes{524287}, Bytes{524288}, Bytes{524289}})
      EXPECT_EQ(algo(CollOp::kBcast, p, b), "scatter-allgather") << p << " " << b;
  }
}

// reduce.c, MPIR_Reduce_intra_auto:
//   (count * type_size > SHORT) && builtin op && (count >= pof2) -> reduce_scatter_gather
//   otherwise                                                    -> binomial
TEST(CollSelectMpich, ReduceShortThresholdIsInclusiveForBinomial) {
  EXPECT_EQ(algo(CollOp::kReduce, 16, 2047), "binomial");
  EXPECT_EQ(algo(CollOp::kReduce, 16, 2048), "binomial");  // > SHORT is needed
  EXPECT_EQ(algo(CollOp::kReduce, 16, 2049), "rabenseifner");
  EXPECT_EQ(algo(CollOp::kReduce, 2, 2049), "rabenseifner");
  EXPECT_EQ(algo(CollOp::kReduce, 1, 2049), "rabenseifner");  // pof2 = 1
}

TEST(CollSelectMpich, ReduceNeedsCountAtLeastPof2) {
  // 4096 doubles = 32 KiB: count 4096 vs pof2.
  EXPECT_EQ(algo(CollOp::kReduce, 4096, 4096 * 8, 8), "rabenseifner");  // count == pof2
  EXPECT_EQ(algo(CollOp::kReduce, 5000, 4096 * 8, 8), "rabenseifner");  // pof2(5000) = 4096
  EXPECT_EQ(algo(CollOp::kReduce, 8192, 4096 * 8, 8), "binomial");      // count < pof2 = 8192
  EXPECT_EQ(algo(CollOp::kReduce, 8191, 4095 * 8, 8), "binomial");      // count 4095 < pof2 4096
  // 300 doubles (2400 B > 2048) on 257..511 ranks: pof2 = 256 <= 300; on 512: pof2 = 512 > 300.
  EXPECT_EQ(algo(CollOp::kReduce, 511, 2400, 8), "rabenseifner");
  EXPECT_EQ(algo(CollOp::kReduce, 512, 2400, 8), "binomial");
}

// allreduce.c, MPIR_Allreduce_intra_auto:
//   (nbytes <= SHORT) || user op || (count < pof2) -> recursive doubling
//   otherwise                                      -> reduce_scatter_allgather (Rabenseifner)
TEST(CollSelectMpich, AllreduceShortThresholdIsInclusive) {
  EXPECT_EQ(algo(CollOp::kAllreduce, 16, 2047), "recursive-doubling");
  EXPECT_EQ(algo(CollOp::kAllreduce, 16, 2048), "recursive-doubling");
  EXPECT_EQ(algo(CollOp::kAllreduce, 16, 2049), "rabenseifner");
  EXPECT_EQ(algo(CollOp::kAllreduce, 13, 1 << 20), "rabenseifner");  // not a power of two: fold
  EXPECT_EQ(algo(CollOp::kAllreduce, 2, 2049), "rabenseifner");
}

TEST(CollSelectMpich, AllreduceNeedsCountAtLeastPof2) {
  EXPECT_EQ(algo(CollOp::kAllreduce, 511, 2400, 8), "rabenseifner");  // count 300 >= pof2 256
  EXPECT_EQ(algo(CollOp::kAllreduce, 512, 2400, 8), "recursive-doubling");  // 300 < 512
  EXPECT_EQ(algo(CollOp::kAllreduce, 1024, 1024 * 4, 4), "rabenseifner");  // count == pof2
  EXPECT_EQ(algo(CollOp::kAllreduce, 1024, 1023 * 4, 4), "recursive-doubling");
  // Default type_size 1: count = bytes.
  EXPECT_EQ(algo(CollOp::kAllreduce, 4096, 4095), "recursive-doubling");
  EXPECT_EQ(algo(CollOp::kAllreduce, 4096, 4096), "rabenseifner");
}

// The same buffer read as MPI_DOUBLEs or as MPI_BYTEs, exactly at MPICH's `count >= pof2` boundary
// (allreduce.c and reduce.c, MPIR_{Allreduce,Reduce}_intra_auto): only the element reading is
// MPICH's. With doubles the count rule can only bite above SHORT (2048 B = 256 doubles), i.e. on
// 512 ranks or more; on 16 ranks every allreduce above 2048 B has count >= 257 >= 16.
TEST(CollSelectMpich, CountRuleUsesElementsNotBytes) {
  // 1024 ranks, pof2 1024: 1023 doubles = 8184 B -> count 1023 < 1024 -> recursive doubling;
  // 8184 bytes would be count 8184 >= 1024 -> Rabenseifner. 1024 doubles: count == pof2.
  EXPECT_EQ(algo(CollOp::kAllreduce, 1024, 1023 * 8, 8), "recursive-doubling");
  EXPECT_EQ(algo(CollOp::kAllreduce, 1024, 1023 * 8, 1), "rabenseifner");
  EXPECT_EQ(algo(CollOp::kAllreduce, 1024, 1024 * 8, 8), "rabenseifner");
  EXPECT_EQ(algo(CollOp::kReduce, 1024, 1023 * 8, 8), "binomial");
  EXPECT_EQ(algo(CollOp::kReduce, 1024, 1023 * 8, 1), "rabenseifner");
  EXPECT_EQ(algo(CollOp::kReduce, 1024, 1024 * 8, 8), "rabenseifner");
  // 16 ranks: 257 doubles (2056 B, the first size above SHORT) is already count >= 16.
  EXPECT_EQ(algo(CollOp::kAllreduce, 16, 257 * 8, 8), "rabenseifner");
  EXPECT_EQ(algo(CollOp::kAllreduce, 16, 256 * 8, 8), "recursive-doubling");  // 2048 B: <= SHORT
  // The byte thresholds do not move with the element size.
  for (Bytes ts : {Bytes{1}, Bytes{4}, Bytes{8}}) {
    EXPECT_EQ(algo(CollOp::kBcast, 16, 12288, ts), "scatter-allgather") << ts;
    EXPECT_EQ(algo(CollOp::kAllgather, 12, 81920, ts), "ring") << ts;
    EXPECT_EQ(algo(CollOp::kAlltoall, 8, 256, ts), "bruck") << ts;
  }
}

// allgather.c, MPIR_Allgather_intra_auto, tot_bytes = recvcount * comm_size * type_size:
//   (tot_bytes < LONG) && pof2(comm_size) -> recursive doubling
//   else (tot_bytes < SHORT)              -> Bruck
//   else                                  -> ring
TEST(CollSelectMpich, AllgatherPowerOfTwo) {
  EXPECT_EQ(algo(CollOp::kAllgather, 16, 1), "recursive-doubling");
  EXPECT_EQ(algo(CollOp::kAllgather, 16, 81920), "recursive-doubling");  // SHORT irrelevant for pof2
  EXPECT_EQ(algo(CollOp::kAllgather, 16, 524287), "recursive-doubling");
  EXPECT_EQ(algo(CollOp::kAllgather, 16, 524288), "ring");  // >= LONG, and >= SHORT
  EXPECT_EQ(algo(CollOp::kAllgather, 16, 524289), "ring");
  EXPECT_EQ(algo(CollOp::kAllgather, 1, 100), "recursive-doubling");  // 1 is a power of two
  EXPECT_EQ(algo(CollOp::kAllgather, 2, 524287), "recursive-doubling");
}

TEST(CollSelectMpich, AllgatherNotPowerOfTwo) {
  EXPECT_EQ(algo(CollOp::kAllgather, 12, 81919), "bruck");
  EXPECT_EQ(algo(CollOp::kAllgather, 12, 81920), "ring");  // SHORT is strict for Bruck
  EXPECT_EQ(algo(CollOp::kAllgather, 12, 81921), "ring");
  EXPECT_EQ(algo(CollOp::kAllgather, 3, 1), "bruck");
  EXPECT_EQ(algo(CollOp::kAllgather, 15, 524287), "ring");
  EXPECT_EQ(algo(CollOp::kAllgather, 17, 81919), "bruck");
}

// alltoall.c, MPIR_Alltoall_intra_auto, nbytes = sendcount * type_size:
//   (nbytes <= SHORT) && (comm_size >= 8) -> Bruck
//   else (nbytes <= MEDIUM)               -> scattered (isend/irecv)
//   else                                  -> pairwise
TEST(CollSelectMpich, AlltoallThresholds) {
  EXPECT_EQ(algo(CollOp::kAlltoall, 8, 255), "bruck");
  EXPECT_EQ(algo(CollOp::kAlltoall, 8, 256), "bruck");  // inclusive
  EXPECT_EQ(algo(CollOp::kAlltoall, 8, 257), "basic-linear");
  EXPECT_EQ(algo(CollOp::kAlltoall, 8, 32767), "basic-linear");
  EXPECT_EQ(algo(CollOp::kAlltoall, 8, 32768), "basic-linear");  // inclusive
  EXPECT_EQ(algo(CollOp::kAlltoall, 8, 32769), "pairwise");
  EXPECT_EQ(algo(CollOp::kAlltoall, 12, 1), "bruck");  // no power-of-two condition
  EXPECT_EQ(algo(CollOp::kAlltoall, 13, 1 << 20), "pairwise");
}

TEST(CollSelectMpich, AlltoallBruckNeedsEightRanks) {
  EXPECT_EQ(algo(CollOp::kAlltoall, 7, 1), "basic-linear");
  EXPECT_EQ(algo(CollOp::kAlltoall, 7, 256), "basic-linear");
  EXPECT_EQ(algo(CollOp::kAlltoall, 4, 256), "basic-linear");
  EXPECT_EQ(algo(CollOp::kAlltoall, 8, 1), "bruck");
  EXPECT_EQ(algo(CollOp::kAlltoall, 9, 256), "bruck");
  EXPECT_EQ(algo(CollOp::kAlltoall, 7, 32769), "pairwise");
}

// barrier.c / gather.c / scatter.c: a single intra-communicator algorithm.
TEST(CollSelectMpich, SingleAlgorithmCollectives) {
  for (int p : {1, 2, 7, 8, 33}) {
    for (Bytes b : {Bytes{0}, Bytes{1}, Bytes{1} << 30}) {
      EXPECT_EQ(algo(CollOp::kBarrier, p, b), "dissemination");
      EXPECT_EQ(algo(CollOp::kGather, p, b), "binomial");
      EXPECT_EQ(algo(CollOp::kScatter, p, b), "binomial");
    }
  }
}

TEST(CollSelectMpich, TotalBytesFromRegistryCallBytes) {
  // allgather: CollCall::bytes is one block, MPICH compares recvcount * comm_size * type_size.
  EXPECT_EQ(mpich_total_bytes(CollOp::kAllgather, 12, 1000), 12000u);
  EXPECT_EQ(mpich_total_bytes(CollOp::kAllgather, 0, 1000), 1000u);
  // 12 ranks x 6826 B = 81912 < 81920 -> Bruck; x 6827 = 81924 -> ring.
  EXPECT_EQ(algo(CollOp::kAllgather, 12, mpich_total_bytes(CollOp::kAllgather, 12, 6826)), "bruck");
  EXPECT_EQ(algo(CollOp::kAllgather, 12, mpich_total_bytes(CollOp::kAllgather, 12, 6827)), "ring");
  for (CollOp op : {CollOp::kBcast, CollOp::kReduce, CollOp::kAllreduce, CollOp::kAlltoall, CollOp::kGather,
                    CollOp::kScatter, CollOp::kBarrier})
    EXPECT_EQ(mpich_total_bytes(op, 12, 1000), 1000u) << coll_op_name(op);
}

TEST(CollSelectMpich, CvarsOverrideTheDefaults) {
  MpichCvars cv;
  cv.bcast_short_msg_size = 100;
  cv.bcast_min_procs = 2;
  EXPECT_EQ(std::string(select_mpich(CollOp::kBcast, 2, 100, 1, cv).algorithm), "scatter-allgather");
  EXPECT_EQ(std::string(select_mpich(CollOp::kBcast, 2, 99, 1, cv).algorithm), "binomial");
  cv.alltoall_short_msg_size = 0;
  EXPECT_EQ(std::string(select_mpich(CollOp::kAlltoall, 64, 1, 1, cv).algorithm), "basic-linear");
}

}  // namespace
}  // namespace simfab::coll
