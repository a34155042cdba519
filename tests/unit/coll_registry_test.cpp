// The algorithm registry (mpi/coll/registry.hpp): every named algorithm, as the registry calls it,
// computes its collective (fallbacks included), and `--cfg mpi/<collective>=NAME` changes what TI
// replay sends, with the closed-form message counts of the algorithm.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "mpi/coll/allreduce_algorithms.hpp"
#include "mpi/coll/check.hpp"
#include "mpi/coll/reduce_algorithms.hpp"
#include "mpi/coll/select_mpich.hpp"
#include "mpi/coll/select_ompi.hpp"
#include "mpi/coll/registry.hpp"
#include "mpi/coll/smpi_reduce.hpp"
#include "sim/simulation.hpp"
#include "test_support.hpp"

namespace simfab::coll {
namespace {

CollKind kind_of(CollOp op) {
  switch (op) {
    case CollOp::kBarrier: return CollKind::kBarrier;
    case CollOp::kBcast: return CollKind::kBcast;
    case CollOp::kReduce: return CollKind::kReduce;
    case CollOp::kAllreduce: return CollKind::kAllreduce;
    case CollOp::kAllgather: return CollKind::kAllgather;
    case CollOp::kAlltoall: return CollKind::kAlltoall;
    case CollOp::kGather: return CollKind::kGather;
    case CollOp::kScatter: return CollKind::kScatter;
    case CollOp::kReduceScatter: return CollKind::kReduceScatter;
    default: break;
  }
  return CollKind::kBarrier;
}

// The collectives whose algorithms the checker can run from CollCall{rank, p, root, 4096} alone
// (the v-variants need counts; scan and exscan send inputs the scan layout cannot name).
bool checkable(CollOp op) { return op < CollOp::kAllgatherv; }

TEST(CollRegistry, EveryAlgorithmComputesItsCollectiveAsCalled) {
  // Segment counts vary by algorithm, so the data is checked with one segment per block and the
  // annotations of multi-segment algorithms folded: run with a buffer small enough (<= 64 KiB)
  // that pipelined algorithms use one segment, except the algorithms whose layout the registry
  // cannot know (Rabenseifner and ring allreduce cut into P or pof2 blocks): checked by size.
  for (size_t i = 0; i < static_cast<size_t>(CollOp::kCount); ++i) {
    const auto op = static_cast<CollOp>(i);
    if (!checkable(op)) continue;
    for (const CollAlgorithm& a : coll_algorithms(op)) {
      if (!a.build) continue;  // schedgen: the caller's own pattern
      // smpi-lr's blocks and remainder carry no segment lists (registry.cpp), nor do SimGrid's
      // allgather and alltoall algorithms written with smpi_steps.hpp (smpi_allgatherv.hpp,
      // smpi_allgather.hpp, smpi_alltoallv.hpp); coll_smpi_test checks their messages against
      // SimGrid's instead.
      static const std::set<std::string> kUnannotated = {
          "smpi-lr", "smpi-rdb", "smpi-bruck", "smpi-ring", "smpi-pair", "smpi-ompi_neighborexchange",
          "smpi-NTSLR_NB", "smpi-mvapich2_scatter_dest", "smpi-ompi_ring_segmented"};
      if (kUnannotated.count(a.name)) continue;
      for (int p = 1; p <= 12; ++p) {
        uint32_t k = 1;
        const std::string name = a.name;
        if (op == CollOp::kAllreduce && name == "rabenseifner") k = allreduce_rabenseifner_segments(p);
        if (op == CollOp::kAllreduce && (name == "ring" || name == "segmented-ring")) k = allreduce_ring_segments(p, 1);
        if (op == CollOp::kBcast && name == "split-binary") k = 2;
        if (op == CollOp::kBcast && (name == "scatter-allgather" || name == "smpi-scatter_rdb_allgather" ||
                                     name == "smpi-scatter_LR_allgather"))
          k = static_cast<uint32_t>(p);
        if (op == CollOp::kBcast && name == "smpi-ompi_split_bintree") k = 4;  // two 1 KiB segments per half
        if (op == CollOp::kReduce && (name == "rabenseifner" || name == "smpi-scatter_gather"))
          k = static_cast<uint32_t>(rabenseifner_chunks(p));
        if (op == CollOp::kGather && name == "smpi-ompi_linear_sync") k = 2;  // head and tail of each block
        if (op == CollOp::kReduce && name == "smpi-ompi_pipeline")
          k = smpi_ompi_reduce_segments(SmpiReduceTree::kPipeline, CollCall{0, p, 0, 4096});
        if (op == CollOp::kReduce && name == "smpi-ompi_binomial")
          k = smpi_ompi_reduce_segments(SmpiReduceTree::kBinomial, CollCall{0, p, 0, 4096});
        const RankId root = p / 2;
        CheckReport r = check_collective(kind_of(op), p, root, k, [&](Fragment& f, RankId rank) {
          a.build(f, CollCall{rank, p, root, 4096});
        });
        EXPECT_EQ(r.error, "") << coll_op_name(op) << "=" << a.name << " on " << p << " ranks";
      }
    }
  }
}

struct TiRun {
  uint64_t messages = 0;
  uint64_t bytes = 0;
  bool deadlock = false;
};

TiRun run_ti(const std::string& trace, int hosts, const std::vector<std::string>& cfg_lines) {
  Config cfg;
  register_builtin_keys(cfg);
  for (const auto& c : cfg_lines) cfg.set_assignment(c, {});
  SimulationInput in;
  in.platform_path = testing::write_test_file(
      "p.yaml", "clusters:\n  - {name: c, prefix: n, count: " + std::to_string(hosts) +
                    ", speed: 1Gf, bandwidth: 10Gbps, latency: 1us}\n");
  in.trace_path = testing::write_test_file("t.ti", trace);
  RunResult r = run_simulation(in, cfg);
  return TiRun{r.exec.messages, r.exec.bytes, !r.exec.blocked.empty()};
}

std::string every_rank(int p, const std::string& action) {
  std::string t;
  for (int r = 0; r < p; ++r) t += std::to_string(r) + " " + action + "\n";
  return t;
}

TEST(CollRegistry, ForcedAllreduceChangesTheMessagesWithTheirClosedForms) {
  const std::string trace = every_rank(8, "allreduce 1024 0");  // 1024 B (no init: datatype BYTE)
  const Bytes n = 1024;
  EXPECT_EQ(run_ti(trace, 8, {}).messages, 8u * 3);                                    // dissemination
  EXPECT_EQ(run_ti(trace, 8, {"mpi/allreduce=recursive-doubling"}).messages, 8u * 3);  // log2 p each
  EXPECT_EQ(run_ti(trace, 8, {"mpi/allreduce=recursive-doubling"}).bytes, 8u * 3 * n);
  EXPECT_EQ(run_ti(trace, 8, {"mpi/allreduce=ring"}).messages, 8u * 2 * 7);             // 2(p-1) each
  EXPECT_EQ(run_ti(trace, 8, {"mpi/allreduce=ring"}).bytes, 8u * 2 * 7 * n / 8);         // of n/p bytes
  EXPECT_EQ(run_ti(trace, 8, {"mpi/allreduce=rabenseifner"}).messages, 8u * 2 * 3);     // 2 log2 p each
  EXPECT_EQ(run_ti(trace, 8, {"mpi/allreduce=reduce-bcast"}).messages, 2u * 7);          // 2(p-1)
}

TEST(CollRegistry, EveryAlgorithmReplaysATraceOfEveryCollectiveOnAnOddSize) {
  const int p = 7;
  std::string trace = every_rank(p, "barrier") + every_rank(p, "bcast 5000 3") + every_rank(p, "reduce 5000 0 2") +
                      every_rank(p, "allreduce 5000 0") + every_rank(p, "allgather 300 300") +
                      every_rank(p, "alltoall 300 300") + every_rank(p, "gather 300 300 4") +
                      every_rank(p, "scatter 300 300 4");
  for (size_t i = 0; i < static_cast<size_t>(CollOp::kCount); ++i) {
    const auto op = static_cast<CollOp>(i);
    for (const CollAlgorithm& a : coll_algorithms(op)) {
      TiRun r = run_ti(trace, p, {coll_op_key(op) + "=" + a.name});
      EXPECT_FALSE(r.deadlock) << coll_op_key(op) << "=" << a.name;
      EXPECT_GT(r.messages, 0u);
    }
  }
}

// Regression (MPI_ERR_TRUNCATE, found by the executor's size check): the ring's reduce-scatter
// pass issued send j after reduction j-1 but not after send j-1, so on a rank whose receive j-1
// came early the sends left out of order and the neighbour matched a 715 B block into a 714 B
// receive. Ranks entering each collective at different times (a compute of a different length per
// rank, and a reduce that releases the non-roots early) replay every algorithm of every
// collective, on both network models; buffer sizes that do not divide evenly make a wrong match
// a size mismatch (an InputError) instead of a silent mix-up. check_collective's ordering rule
// (check.hpp) proves the same statically for sizes 1-33.
TEST(CollRegistry, SkewedRanksMatchEveryCollectiveMessageInOrder) {
  for (int p : {5, 7, 12}) {
    std::string skew;
    for (int r = 0; r < p; ++r) skew += std::to_string(r) + " compute " + std::to_string((r * 7 % p) * 3000) + "\n";
    const std::string trace = skew + every_rank(p, "reduce 5000 0 2") + every_rank(p, "allreduce 5003 0") + skew +
                              every_rank(p, "bcast 200003 3") + skew + every_rank(p, "reduce 200003 0 1") + skew +
                              every_rank(p, "allreduce 300001 0") + skew + every_rank(p, "allgather 301 301") + skew +
                              every_rank(p, "alltoall 301 301") + skew + every_rank(p, "gather 301 301 4") + skew +
                              every_rank(p, "scatter 301 301 4") + skew + every_rank(p, "barrier");
    for (const char* model : {"loggops", "flow"}) {
      const std::string net = std::string("network/model=") + model;
      for (size_t i = 0; i < static_cast<size_t>(CollOp::kCount); ++i) {
        const auto op = static_cast<CollOp>(i);
        for (const CollAlgorithm& a : coll_algorithms(op)) {
          TiRun r;
          EXPECT_NO_THROW(r = run_ti(trace, p, {coll_op_key(op) + "=" + a.name, net}))
              << coll_op_key(op) << "=" << a.name << " on " << p << " ranks, " << model;
          EXPECT_FALSE(r.deadlock) << coll_op_key(op) << "=" << a.name << " on " << p << " ranks, " << model;
        }
      }
      for (const char* sel : {"ompi", "mpich"}) {
        TiRun r;
        EXPECT_NO_THROW(r = run_ti(trace, p, {std::string("mpi/coll-selector=") + sel, net})) << sel << " on " << p;
        EXPECT_FALSE(r.deadlock) << sel << " on " << p << " ranks, " << model;
      }
    }
  }
}

TEST(CollRegistry, UnknownAlgorithmIsAnErrorListingTheChoices) {
  Config cfg;
  register_builtin_keys(cfg);
  try {
    cfg.set_assignment("mpi/allreduce=rign", {});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("ring"), std::string::npos) << e.what();
  }
}

TEST(CollRegistry, SelectorsPickPerCallAndAForcedAlgorithmWins) {
  // 16 ranks, 1 MiB allreduce (BYTE): MPICH 3.3 takes Rabenseifner (> 2048 B, count >= pof2):
  // 2 log2(16) messages per rank.
  const std::string trace = every_rank(16, "allreduce 1048576 0");
  EXPECT_STREQ(select_mpich(CollOp::kAllreduce, 16, 1048576).algorithm, "rabenseifner");
  EXPECT_EQ(run_ti(trace, 16, {"mpi/coll-selector=mpich"}).messages, 16u * 2 * 4);
  // OpenMPI 4.1: whatever its table says, the selector's run is the forced run of that algorithm.
  const CollDecision d = select_ompi(CollOp::kAllreduce, 16, 1048576);
  const TiRun selected = run_ti(trace, 16, {"mpi/coll-selector=ompi"});
  const TiRun forced = run_ti(trace, 16, {std::string("mpi/allreduce=") + d.algorithm});
  EXPECT_EQ(selected.messages, forced.messages) << d.algorithm;
  EXPECT_EQ(selected.bytes, forced.bytes) << d.algorithm;
  // A forced algorithm beats the selector; forcing schedgen restores Schedgen's dissemination.
  EXPECT_EQ(run_ti(trace, 16, {"mpi/coll-selector=mpich", "mpi/allreduce=ring"}).messages, 16u * 2 * 15);
  EXPECT_EQ(run_ti(trace, 16, {"mpi/coll-selector=mpich", "mpi/allreduce=schedgen"}).messages, 16u * 4);
  // Small messages: MPICH's recursive doubling (<= 2048 B), log2(16) messages per rank.
  EXPECT_EQ(run_ti(every_rank(16, "allreduce 8 0"), 16, {"mpi/coll-selector=mpich"}).messages, 16u * 4);
}

// The count fallbacks of OpenMPI's algorithms (registry.hpp) still compute their collective,
// with the layout of the algorithm that actually runs.
TEST(CollRegistry, CountFallbacksComputeTheirCollective) {
  const CollAlgorithm* ring = find_coll_algorithm(CollOp::kAllreduce, "ring");
  const CollAlgorithm* seg = find_coll_algorithm(CollOp::kAllreduce, "segmented-ring");
  const CollAlgorithm* split = find_coll_algorithm(CollOp::kBcast, "split-binary");
  for (int p = 2; p <= 12; ++p) {
    CollCall few{0, p, 0, 8 * static_cast<Bytes>(p - 1)};  // P-1 doubles: recursive doubling (k = 1)
    few.type_size = 8;
    for (const CollAlgorithm* a : {ring, seg}) {
      CheckReport r = check_collective(CollKind::kAllreduce, p, 0, 1, [&](Fragment& f, RankId rank) {
        CollCall c = few;
        c.rank = rank;
        a->build(f, c);
      });
      EXPECT_EQ(r.error, "") << a->name << " on " << p;
    }
    CollCall one{0, p, static_cast<RankId>(p / 2), 8};  // one double: the chain (k = 1)
    one.type_size = 8;
    CheckReport r = check_collective(CollKind::kBcast, p, p / 2, 1, [&](Fragment& f, RankId rank) {
      CollCall c = one;
      c.rank = rank;
      split->build(f, c);
    });
    EXPECT_EQ(r.error, "") << "split-binary on " << p;
  }
}

// TI replay passes the action's datatype size (TiAction::dt_size) as CollCall::type_size, so the
// selectors and the algorithms see MPI's element count. Datatype 0 is MPI_DOUBLE (8 B), 6 MPI_BYTE.
TEST(CollRegistry, TiReplaySelectsByElementCount) {
  // MPICH 3.3, MPIR_Allreduce_intra_auto: nbytes > 2048 but count < pof2 -> recursive doubling.
  // 512 ranks (pof2 512), 300 doubles = 2400 B: count 300 < 512 -> recursive doubling, log2(512) = 9
  // messages per rank. The same 2400 B as MPI_BYTE (count 2400 >= 512) is Rabenseifner: 2 x 9.
  const std::vector<std::string> mpich = {"mpi/coll-selector=mpich"};
  EXPECT_EQ(run_ti(every_rank(512, "allreduce 300 0 0"), 512, mpich).messages, 512u * 9);
  EXPECT_EQ(run_ti(every_rank(512, "allreduce 2400 0 6"), 512, mpich).messages, 512u * 2 * 9);
  // At the boundary: 512 doubles (count == pof2) is Rabenseifner.
  EXPECT_EQ(run_ti(every_rank(512, "allreduce 512 0 0"), 512, mpich).messages, 512u * 2 * 9);
  // OpenMPI 4.1, 4 ranks, 8 B: the table says ring (P<8, <16 B); one double (count 1 < 4) makes
  // allreduce_intra_ring run recursive doubling (2 messages per rank), 8 bytes keep the ring
  // (2 (P-1) = 6 per rank).
  const std::vector<std::string> ompi = {"mpi/coll-selector=ompi"};
  EXPECT_EQ(run_ti(every_rank(4, "allreduce 1 0 0"), 4, ompi).messages, 4u * 2);
  EXPECT_EQ(run_ti(every_rank(4, "allreduce 8 0 6"), 4, ompi).messages, 4u * 2 * 3);
  // A rank's default datatype: `init 1` makes it MPI_DOUBLE (SimGrid), so `allreduce 1 0` is one double.
  EXPECT_EQ(run_ti("0 init 1\n1 init 1\n2 init 1\n3 init 1\n" + every_rank(4, "allreduce 1 0"), 4, ompi).messages,
            4u * 2);
}

TEST(CollRegistry, ForcedOpenMpiAlgorithmsFollowTheirCountRules) {
  // ring: 3 doubles on 4 ranks (count < P) -> recursive doubling; 24 bytes -> ring.
  EXPECT_EQ(run_ti(every_rank(4, "allreduce 3 0 0"), 4, {"mpi/allreduce=ring"}).messages, 4u * 2);
  EXPECT_EQ(run_ti(every_rank(4, "allreduce 24 0 6"), 4, {"mpi/allreduce=ring"}).messages, 4u * 2 * 3);
  // segmented-ring, 64 KiB segments of doubles: segcount 8192, P segcount = 32768 on 4 ranks.
  // 32868 doubles: one phase (the remainder 100 is not more than half of 32768): 2 (P-1) messages
  // per rank. Cutting the 65736-byte blocks into 64 KiB pieces would have made two phases.
  // 49153 doubles: the remainder 16385 > 16384 adds a phase: 2 (P-1) + (P-1) per rank.
  EXPECT_EQ(run_ti(every_rank(4, "allreduce 32868 0 0"), 4, {"mpi/allreduce=segmented-ring"}).messages, 4u * 6);
  EXPECT_EQ(run_ti(every_rank(4, "allreduce 49153 0 0"), 4, {"mpi/allreduce=segmented-ring"}).messages, 4u * 9);
  // split-binary: one double leaves a half empty -> the chain (P-1 messages); two doubles split:
  // (P-1)(S+1) with S = 1.
  EXPECT_EQ(run_ti(every_rank(4, "bcast 1 0 0"), 4, {"mpi/bcast=split-binary"}).messages, 3u);
  EXPECT_EQ(run_ti(every_rank(4, "bcast 2 0 0"), 4, {"mpi/bcast=split-binary"}).messages, 3u * 2);
}

TEST(CollRegistry, SelectorsReplayEveryCollectiveWithoutDeadlock) {
  for (int p : {2, 7, 16}) {
    std::string trace = every_rank(p, "barrier") + every_rank(p, "bcast 200000 1") + every_rank(p, "reduce 100 0 1") +
                        every_rank(p, "allreduce 300000 0") + every_rank(p, "allgather 64 64") +
                        every_rank(p, "alltoall 100 100") + every_rank(p, "gather 300 300 1") +
                        every_rank(p, "scatter 300 300 1");
    for (const char* sel : {"ompi", "mpich"}) {
      TiRun r = run_ti(trace, p, {std::string("mpi/coll-selector=") + sel});
      EXPECT_FALSE(r.deadlock) << sel << " on " << p;
    }
  }
}

}  // namespace
}  // namespace simfab::coll
