// Selector `ompi` (mpi/coll/select_ompi.hpp): OpenMPI v4.1.x's tuned fixed decision rules
// (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, PR #7952 + #8198). Each collective's table is
// copied below row by row from that file (`if (communicator_size < P) { if (total_dsize < B)
// alg = A; ... else alg = Z; }`) and checked at both ends of each row's communicator range, just
// below, at and just above every byte threshold.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpi/coll/registry.hpp"
#include "mpi/coll/select_ompi.hpp"

namespace simfab::coll {
namespace {

constexpr Bytes K = 1024;

struct Cut {
  Bytes below;  // 0 = the closing `else`
  int alg;
};
struct Row {
  int p_lo, p_hi;  // the communicator sizes of the row (p_hi inclusive)
  std::vector<Cut> cuts;
};

void check_table(CollOp op, const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    for (int p : {row.p_lo, row.p_hi}) {
      const std::string where = std::string(coll_op_name(op)) + " P=" + std::to_string(p);
      EXPECT_EQ(ompi_tuned_algorithm_id(op, p, 0), row.cuts.front().alg) << where << " S=0";
      for (size_t i = 0; i + 1 < row.cuts.size(); ++i) {
        const Bytes b = row.cuts[i].below;
        EXPECT_EQ(ompi_tuned_algorithm_id(op, p, b - 1), row.cuts[i].alg) << where << " S=" << b - 1;
        EXPECT_EQ(ompi_tuned_algorithm_id(op, p, b), row.cuts[i + 1].alg) << where << " S=" << b;
        EXPECT_EQ(ompi_tuned_algorithm_id(op, p, b + 1), row.cuts[i + 1].alg) << where << " S=" << b + 1;
      }
      EXPECT_EQ(ompi_tuned_algorithm_id(op, p, Bytes{1} << 40), row.cuts.back().alg) << where << " S=1T";
    }
  }
}

TEST(CollSelectOmpi, AllreduceCommutativeTable) {
  // allreduce: 1 basic_linear 2 nonoverlapping 3 recursive_doubling 4 ring 5 segmented_ring 6 rabenseifner
  check_table(CollOp::kAllreduce,
              {{1, 3, {{8, 4}, {4096, 3}, {8192, 4}, {16384, 3}, {65536, 4}, {262144, 5}, {0, 6}}},  // < 4
               {4, 7, {{16, 4}, {8192, 3}, {0, 6}}},                                                   // < 8
               {8, 15, {{8192, 3}, {0, 6}}},                                                           // < 16
               {16, 31, {{64, 5}, {4096, 3}, {0, 6}}},                                                 // < 32
               {32, 63, {{128, 5}, {0, 6}}},                                                           // < 64
               {64, 127, {{262144, 3}, {0, 6}}},                                                       // < 128
               {128, 255, {{131072, 2}, {262144, 3}, {0, 6}}},                                         // < 256
               {256, 511, {{4096, 2}, {0, 6}}},                                                        // < 512
               {512, 2047, {{2048, 2}, {16384, 3}, {0, 6}}},                                           // < 2048
               {2048, 4095, {{2048, 2}, {4096, 5}, {16384, 3}, {0, 6}}},                               // < 4096
               {4096, 100000, {{2048, 2}, {16384, 5}, {32768, 3}, {0, 6}}}});                          // else
}

TEST(CollSelectOmpi, BcastTable) {
  // bcast: 1 basic_linear 2 chain 3 pipeline 4 split_binary_tree 5 binary_tree 6 binomial 7 knomial 8 scatter_allgather
  check_table(CollOp::kBcast,
              {{1, 3, {{32, 3}, {256, 5}, {512, 3}, {1024, 7}, {32768, 1}, {131072, 5}, {262144, 2}, {524288, 1},
                       {1048576, 6}, {0, 5}}},                                                          // < 4
               {4, 7, {{64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1}, {0, 2}}},                 // < 8
               {8, 15, {{8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6}, {0, 1}}},                   // < 16
               {16, 31, {{4096, 7}, {1048576, 6}, {0, 8}}},                                            // < 32
               {32, 63, {{2048, 6}, {0, 7}}},                                                          // < 64
               {64, 127, {{0, 7}}},                                                                    // < 128
               {128, 255, {{2, 6}, {16384, 5}, {32768, 1}, {65536, 5}, {0, 7}}},                       // < 256
               {256, 1023, {{16384, 7}, {32768, 4}, {0, 7}}},                                          // < 1024
               {1024, 2047, {{524288, 7}, {0, 8}}},                                                    // < 2048
               {2048, 4095, {{262144, 7}, {0, 8}}},                                                    // < 4096
               {4096, 100000, {{8192, 7}, {16384, 5}, {262144, 7}, {0, 8}}}});                         // else
}

TEST(CollSelectOmpi, ReduceCommutativeTable) {
  // reduce: 1 linear 2 chain 3 pipeline 4 binary 5 binomial 6 in-order_binary 7 rabenseifner
  check_table(CollOp::kReduce,
              {{1, 3, {{8, 7}, {16, 4}, {32, 3}, {262144, 1}, {524288, 3}, {1048576, 2}, {0, 3}}},      // < 4
               {4, 7, {{4096, 4}, {65536, 2}, {262144, 5}, {524288, 1}, {1048576, 5}, {0, 1}}},         // < 8
               {8, 15, {{8192, 4}, {0, 5}}},                                                           // < 16
               {16, 31, {{4096, 4}, {0, 5}}},                                                          // < 32
               {32, 255, {{0, 5}}},                                                                    // < 256
               {256, 511, {{8192, 5}, {16384, 6}, {0, 5}}},                                            // < 512
               {512, 2047, {{0, 5}}},                                                                  // < 2048
               {2048, 4095, {{512, 5}, {1024, 6}, {8192, 5}, {16384, 6}, {0, 5}}},                     // < 4096
               {4096, 100000, {{16, 5}, {32, 6}, {1024, 5}, {2048, 6}, {8192, 5}, {16384, 6}, {0, 5}}}});  // else
}

TEST(CollSelectOmpi, AllgatherTable) {
  // allgather: 1 linear 2 bruck 3 recursive_doubling 4 ring 5 neighbor 6 two_proc
  check_table(CollOp::kAllgather,
              {{2, 2, {{0, 6}}},                                                                       // == 2
               {3, 31, {{0, 3}}},                                                                      // < 32
               {32, 63, {{1024, 3}, {65536, 5}, {0, 4}}},                                              // < 64
               {64, 127, {{512, 3}, {65536, 5}, {0, 4}}},                                              // < 128
               {128, 255, {{512, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {0, 4}}},                 // < 256
               {256, 511, {{32, 3}, {128, 2}, {1024, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {0, 4}}},  // < 512
               {512, 1023, {{64, 3}, {256, 2}, {2048, 3}, {0, 5}}},                                    // < 1024
               {1024, 2047, {{4, 3}, {8, 2}, {16, 3}, {32, 2}, {256, 3}, {512, 2}, {4096, 3}, {0, 5}}},  // < 2048
               {2048, 4095, {{32, 2}, {128, 3}, {512, 2}, {4096, 3}, {0, 5}}},                         // < 4096
               {4096, 100000, {{2, 3}, {8, 2}, {16, 3}, {512, 2}, {4096, 3}, {0, 5}}}});               // else
  // P = 1 falls in the `< 32` row (OpenMPI never calls the selector there, but it is defined).
  EXPECT_EQ(ompi_tuned_algorithm_id(CollOp::kAllgather, 1, 100), 3);
}

TEST(CollSelectOmpi, AlltoallTable) {
  // alltoall: 1 linear 2 pairwise 3 modified_bruck 4 linear_sync 5 two_proc
  check_table(CollOp::kAlltoall,
              {{2, 2, {{2, 2}, {4, 5}, {16, 2}, {64, 5}, {256, 2}, {4096, 5}, {32768, 2}, {262144, 4},
                       {1048576, 5}, {0, 2}}},                                                          // == 2
               {3, 7, {{8192, 4}, {16384, 1}, {65536, 4}, {524288, 1}, {1048576, 2}, {0, 1}}},          // < 8
               {8, 15, {{262144, 4}, {0, 1}}},                                                         // < 16
               {16, 31, {{4, 4}, {512, 3}, {8192, 4}, {32768, 1}, {262144, 4}, {524288, 1}, {0, 4}}},  // < 32
               {32, 63, {{512, 3}, {524288, 1}, {0, 4}}},                                              // < 64
               {64, 127, {{1024, 3}, {2048, 1}, {4096, 4}, {262144, 1}, {0, 2}}},                      // < 128
               {128, 255, {{1024, 3}, {2048, 4}, {262144, 1}, {0, 2}}},                                // < 256
               {256, 511, {{1024, 3}, {8192, 4}, {32768, 1}, {0, 2}}},                                 // < 512
               {512, 1023, {{512, 3}, {8192, 4}, {16384, 1}, {131072, 4}, {262144, 1}, {0, 2}}},       // < 1024
               {1024, 2047, {{512, 3}, {1024, 4}, {2048, 1}, {16384, 4}, {262144, 1}, {0, 4}}},        // < 2048
               {2048, 4095, {{1024, 3}, {4096, 4}, {8192, 1}, {131072, 4}, {0, 1}}},                   // < 4096
               {4096, 100000, {{2048, 3}, {8192, 4}, {16384, 1}, {32768, 4}, {65536, 1}, {0, 4}}}});   // else
}

TEST(CollSelectOmpi, BarrierTable) {
  // barrier: 1 linear 2 double_ring 3 recursive_doubling 4 bruck 5 two_proc 6 tree (by P only)
  check_table(CollOp::kBarrier, {{1, 3, {{0, 3}}},
                                 {4, 7, {{0, 1}}},
                                 {8, 63, {{0, 3}}},
                                 {64, 255, {{0, 4}}},
                                 {256, 511, {{0, 6}}},
                                 {512, 1023, {{0, 4}}},
                                 {1024, 4095, {{0, 6}}},
                                 {4096, 100000, {{0, 4}}}});
}

TEST(CollSelectOmpi, GatherTable) {
  // gather: 1 basic_linear 2 binomial 3 linear_sync
  check_table(CollOp::kGather, {{1, 3, {{2, 3}, {4, 1}, {32768, 2}, {65536, 1}, {131072, 2}, {0, 3}}},  // < 4
                                {4, 7, {{1024, 2}, {8192, 1}, {32768, 2}, {262144, 1}, {0, 3}}},       // < 8
                                {8, 255, {{0, 2}}},                                                    // < 256
                                {256, 511, {{2048, 2}, {8192, 1}, {0, 2}}},                            // < 512
                                {512, 100000, {{0, 2}}}});                                             // else
}

TEST(CollSelectOmpi, ScatterTable) {
  // scatter: 1 basic_linear 2 binomial 3 linear_nb
  check_table(CollOp::kScatter,
              {{1, 3, {{2, 3}, {131072, 1}, {262144, 3}, {0, 1}}},                                    // < 4
               {4, 7, {{2048, 2}, {4096, 1}, {8192, 2}, {32768, 1}, {1048576, 3}, {0, 1}}},            // < 8
               {8, 15, {{16384, 2}, {1048576, 3}, {0, 1}}},                                           // < 16
               {16, 31, {{16384, 2}, {32768, 1}, {0, 3}}},                                            // < 32
               {32, 63, {{512, 2}, {8192, 3}, {16384, 2}, {0, 3}}},                                   // < 64
               {64, 100000, {{512, 2}, {0, 3}}}});                                                    // else
}

TEST(CollSelectOmpi, MappingToRegistryNames) {
  auto name = [](CollOp op, int p, Bytes s) { return std::string(select_ompi(op, p, s).algorithm); };
  // allreduce
  EXPECT_EQ(name(CollOp::kAllreduce, 2, 4), "ring");                      // P<4, <8: ring
  EXPECT_EQ(name(CollOp::kAllreduce, 2, 100), "recursive-doubling");      // P<4, <4096: rd
  EXPECT_EQ(name(CollOp::kAllreduce, 2, 100 * K), "ring");                // P<4, <256K: segmented_ring, segsize 0
  EXPECT_EQ(name(CollOp::kAllreduce, 16, 1 * K * K), "rabenseifner");     // P<32, else
  EXPECT_EQ(name(CollOp::kAllreduce, 200, 1 * K), "reduce-bcast");        // P<256, <128K: nonoverlapping
  // bcast
  EXPECT_EQ(name(CollOp::kBcast, 2, 1), "pipeline");                      // P<4, <32: pipeline
  EXPECT_EQ(name(CollOp::kBcast, 2, 200 * K), "pipeline");                // P<4, <256K: chain
  EXPECT_EQ(name(CollOp::kBcast, 2, 600), "knomial4");                    // P<4, <1K: knomial
  EXPECT_EQ(name(CollOp::kBcast, 2, 4 * K), "linear");                    // P<4, <32K: basic_linear
  EXPECT_EQ(name(CollOp::kBcast, 2, 100), "binary");                      // P<4, <256: binary_tree
  EXPECT_EQ(name(CollOp::kBcast, 4, 100), "binomial");                    // P<8, <128: binomial
  EXPECT_EQ(name(CollOp::kBcast, 300, 20 * K), "split-binary");           // P<1024, <32K: split_binary
  EXPECT_EQ(name(CollOp::kBcast, 16, 2 * K * K), "scatter-allgather");    // P<32, else
  // reduce
  EXPECT_EQ(name(CollOp::kReduce, 2, 4), "rabenseifner");                 // P<4, <8 (4 chars >= pof2 2)
  EXPECT_EQ(name(CollOp::kReduce, 2, 1), "linear");  // P<4, <8, but count 1 < pof2: redscat_gather -> linear
  EXPECT_EQ(name(CollOp::kReduce, 2, 800 * K), "pipeline");               // P<4, <1M: chain
  EXPECT_EQ(name(CollOp::kReduce, 300, 10 * K), "binary");                // P<512, <16K: in-order_binary
  EXPECT_EQ(name(CollOp::kReduce, 100, 1), "binomial");                   // P<256
  EXPECT_EQ(name(CollOp::kReduce, 4, 300 * K), "linear");                 // P<8, <512K
  // allgather
  EXPECT_EQ(name(CollOp::kAllgather, 2, 1), "recursive-doubling");        // two_proc
  EXPECT_EQ(name(CollOp::kAllgather, 40, 2 * K), "neighbor-exchange");    // P<64, <64K
  EXPECT_EQ(name(CollOp::kAllgather, 40, 1 * K * K), "ring");             // P<64, else
  EXPECT_EQ(name(CollOp::kAllgather, 300, 64), "bruck");                  // P<512, <128
  // alltoall
  EXPECT_EQ(name(CollOp::kAlltoall, 2, 8), "pairwise");                   // two_proc
  EXPECT_EQ(name(CollOp::kAlltoall, 4, 1), "basic-linear");               // linear_sync, max_requests 0
  EXPECT_EQ(name(CollOp::kAlltoall, 4, 10 * K), "basic-linear");          // linear
  EXPECT_EQ(name(CollOp::kAlltoall, 40, 100), "bruck");                   // modified_bruck
  EXPECT_EQ(name(CollOp::kAlltoall, 100, 1 * K * K), "pairwise");
  // barrier
  EXPECT_EQ(name(CollOp::kBarrier, 2, 0), "recursive-doubling");
  EXPECT_EQ(name(CollOp::kBarrier, 4, 0), "tree");                        // linear
  EXPECT_EQ(name(CollOp::kBarrier, 100, 0), "dissemination");             // bruck
  EXPECT_EQ(name(CollOp::kBarrier, 300, 0), "tree");                      // tree
  // gather / scatter: the linear variants are simfab's linear (schedgen) pattern
  EXPECT_EQ(name(CollOp::kGather, 2, 1), "schedgen");                     // linear_sync
  EXPECT_EQ(name(CollOp::kGather, 2, 4 * K), "binomial");
  EXPECT_EQ(name(CollOp::kScatter, 2, 1), "schedgen");                    // linear_nb
  EXPECT_EQ(name(CollOp::kScatter, 2, 4 * K), "schedgen");                // basic_linear
  EXPECT_EQ(name(CollOp::kScatter, 4, 1), "binomial");
}

// Count fallbacks inside OpenMPI v4.1.x's algorithms (ompi/mca/coll/base/coll_base_*.c): the
// table (ompi_tuned_algorithm_id) looks at bytes; the algorithm it calls then looks at the element
// count and may run another one (ompi_executed_algorithm_id, select_ompi). Each case below sits
// exactly at the count boundary, and shows that the byte-as-element reading (type_size 1) of the
// same buffer would not fall back.
struct Exec {
  int tuned, executed;
  std::string name;
};
Exec exec(CollOp op, int p, Bytes bytes, Bytes type_size) {
  return {ompi_tuned_algorithm_id(op, p, bytes), ompi_executed_algorithm_id(op, p, bytes, type_size),
          select_ompi(op, p, bytes, type_size).algorithm};
}

TEST(CollSelectOmpi, AllreduceRingFallsBackToRecursiveDoublingWhenCountIsBelowP) {
  // allreduce_intra_ring: `if (count < size) -> recursive doubling`. Table: P<8, <16 B -> 4 ring.
  Exec e = exec(CollOp::kAllreduce, 4, 8, 8);  // one MPI_DOUBLE: count 1 < 4
  EXPECT_EQ(e.tuned, 4);
  EXPECT_EQ(e.executed, 3);
  EXPECT_EQ(e.name, "recursive-doubling");
  EXPECT_EQ(exec(CollOp::kAllreduce, 4, 8, 1).name, "ring");                // 8 chars: count 8 >= 4
  EXPECT_EQ(exec(CollOp::kAllreduce, 4, 8, 2).name, "ring");                // 4 shorts: count == P
  EXPECT_EQ(exec(CollOp::kAllreduce, 4, 6, 2).name, "recursive-doubling");  // 3 shorts: count P-1
  // P<4, <8 B -> ring: one MPI_INT on 2 ranks (count 1 < 2) vs 4 chars.
  EXPECT_EQ(exec(CollOp::kAllreduce, 2, 4, 4).name, "recursive-doubling");
  EXPECT_EQ(exec(CollOp::kAllreduce, 2, 4, 1).name, "ring");
}

TEST(CollSelectOmpi, AllreduceSegmentedRingIsTheRingThenRecursiveDoublingByCount) {
  // segsize 0: segcount = count, so `count < size * segcount` -> ring, whose count < size ->
  // recursive doubling. Table: P<32, <64 B -> 5 segmented_ring.
  Exec e = exec(CollOp::kAllreduce, 16, 60, 4);  // 15 ints < 16
  EXPECT_EQ(e.tuned, 5);
  EXPECT_EQ(e.executed, 3);
  EXPECT_EQ(e.name, "recursive-doubling");
  e = exec(CollOp::kAllreduce, 16, 32, 2);  // 16 shorts == P
  EXPECT_EQ(e.tuned, 5);
  EXPECT_EQ(e.executed, 4);
  EXPECT_EQ(e.name, "ring");
  EXPECT_EQ(exec(CollOp::kAllreduce, 16, 60, 1).name, "ring");  // 60 chars >= 16
  // P<4096, 2K..4K B -> 5: 2048 ranks, 1023 MPI_INTs (4092 B) < 2048; 4092 chars would be >= 2048.
  EXPECT_EQ(exec(CollOp::kAllreduce, 2048, 4092, 4).name, "recursive-doubling");
  EXPECT_EQ(exec(CollOp::kAllreduce, 2048, 4092, 1).name, "ring");
}

TEST(CollSelectOmpi, AllreduceRabenseifnerFallsBackToBasicLinearWhenCountIsBelowPof2) {
  // allreduce_intra_redscat_allgather: `if (count < nprocs_pof2 || !commute) -> basic_linear`.
  // Table: P<4096, >= 16K B -> 6. 2048 ranks (pof2 2048), 16-byte elements (MPI_LONG_DOUBLE).
  Exec e = exec(CollOp::kAllreduce, 2048, 2047 * 16, 16);
  EXPECT_EQ(e.tuned, 6);
  EXPECT_EQ(e.executed, 1);
  EXPECT_EQ(e.name, "reduce-bcast");  // basic_linear's mapping
  EXPECT_EQ(exec(CollOp::kAllreduce, 2048, 2048 * 16, 16).name, "rabenseifner");  // count == pof2
  EXPECT_EQ(exec(CollOp::kAllreduce, 2048, 2047 * 16, 1).name, "rabenseifner");   // as bytes
  // 3000 ranks: pof2 is still 2048.
  EXPECT_EQ(exec(CollOp::kAllreduce, 3000, 2047 * 16, 16).name, "reduce-bcast");
}

TEST(CollSelectOmpi, ReduceRabenseifnerFallsBackToLinearWhenCountIsBelowPof2) {
  // reduce_intra_redscat_gather: `if (nprocs_pof2 < 2 || count < nprocs_pof2 || !commute)
  // -> basic_linear`. Table: P<4, <8 B -> 7.
  Exec e = exec(CollOp::kReduce, 2, 4, 4);  // one MPI_INT, pof2 2
  EXPECT_EQ(e.tuned, 7);
  EXPECT_EQ(e.executed, 1);
  EXPECT_EQ(e.name, "linear");
  EXPECT_EQ(exec(CollOp::kReduce, 3, 4, 2).name, "rabenseifner");  // 2 shorts == pof2(3) = 2
  EXPECT_EQ(exec(CollOp::kReduce, 3, 4, 4).name, "linear");
  EXPECT_EQ(exec(CollOp::kReduce, 2, 4, 1).name, "rabenseifner");  // 4 chars
  EXPECT_EQ(exec(CollOp::kReduce, 2, 0, 8).name, "linear");        // count 0
  // P = 1: nothing is sent; the table's choice stays.
  EXPECT_EQ(exec(CollOp::kReduce, 1, 4, 4).executed, 7);
}

TEST(CollSelectOmpi, BcastScatterAllgatherFallsBackToLinearWhenCountIsBelowP) {
  // bcast_intra_scatter_allgather(_ring): `if (count < comm_size) -> basic_linear`.
  // Table: P<32, >= 1M B -> 8. 16 ranks, a derived datatype of 128 KiB per element.
  const Bytes t = 128 * K;
  Exec e = exec(CollOp::kBcast, 16, 15 * t, t);
  EXPECT_EQ(e.tuned, 8);
  EXPECT_EQ(e.executed, 1);
  EXPECT_EQ(e.name, "linear");
  EXPECT_EQ(exec(CollOp::kBcast, 16, 16 * t, t).name, "scatter-allgather");  // count == P
  EXPECT_EQ(exec(CollOp::kBcast, 16, 15 * t, 1).name, "scatter-allgather");
}

TEST(CollSelectOmpi, BcastSplitBinaryFallsBackToTheChainWhenAHalfIsEmpty) {
  // bcast_intra_split_bintree: counts[1] = count / 2 == 0 -> chain (segsize 0, fanout 1).
  // Table: P<1024, 16K..32K B -> 4.
  Exec e = exec(CollOp::kBcast, 300, 20000, 20000);  // one 20000-byte element
  EXPECT_EQ(e.tuned, 4);
  EXPECT_EQ(e.executed, 2);
  EXPECT_EQ(e.name, "pipeline");
  EXPECT_EQ(exec(CollOp::kBcast, 300, 20000, 10000).name, "split-binary");  // count 2
  EXPECT_EQ(exec(CollOp::kBcast, 300, 20000, 1).name, "split-binary");
}

TEST(CollSelectOmpi, CountOnlyChangesTheDocumentedFallbacks) {
  // Every other decision is the same whatever the element size (the tables compare bytes).
  for (size_t i = 0; i < static_cast<size_t>(CollOp::kAllgatherv); ++i) {  // the ops with tables
    const auto op = static_cast<CollOp>(i);
    for (int p : {1, 2, 3, 5, 8, 16, 33, 100, 300, 700, 1500, 3000, 5000})
      for (Bytes s : {Bytes{0}, Bytes{1}, Bytes{8}, Bytes{100}, Bytes{4096}, Bytes{20000}, Bytes{1} << 20,
                      Bytes{1} << 24})
        for (Bytes ts : {Bytes{1}, Bytes{4}, Bytes{8}, Bytes{16}}) {
          const int tuned = ompi_tuned_algorithm_id(op, p, s);
          const int run = ompi_executed_algorithm_id(op, p, s, ts);
          if (run == tuned) continue;
          const bool documented = (op == CollOp::kAllreduce && (tuned == 4 || tuned == 5 || tuned == 6)) ||
                                  (op == CollOp::kReduce && tuned == 7) ||
                                  (op == CollOp::kBcast && (tuned == 4 || tuned == 8 || tuned == 9));
          EXPECT_TRUE(documented) << coll_op_name(op) << " P=" << p << " S=" << s << " ts=" << ts;
        }
  }
}

TEST(CollSelectOmpi, EveryDecisionIsARegistryAlgorithmAndUnsegmented) {
  const std::vector<int> sizes = {1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 511, 512, 1023,
                                  1024, 2047, 2048, 4095, 4096, 10000};
  std::vector<Bytes> bytes = {0, 1};
  for (Bytes b = 2; b <= (Bytes{1} << 24); b *= 2) {
    bytes.push_back(b - 1);
    bytes.push_back(b);
  }
  for (size_t i = 0; i < static_cast<size_t>(CollOp::kAllgatherv); ++i) {  // the ops with tables
    const auto op = static_cast<CollOp>(i);
    for (int p : sizes)
      for (Bytes s : bytes) {
        for (Bytes ts : {Bytes{1}, Bytes{8}}) {
          const CollDecision d = select_ompi(op, p, s, ts);
          ASSERT_NE(d.algorithm, nullptr);
          bool known = false;
          for (const CollAlgorithm& a : coll_algorithms(op)) known = known || std::string(a.name) == d.algorithm;
          EXPECT_TRUE(known) << coll_op_name(op) << " P=" << p << " S=" << s << " -> " << d.algorithm;
          EXPECT_EQ(d.segment_bytes, 0u);
        }
      }
  }
}

}  // namespace
}  // namespace simfab::coll
