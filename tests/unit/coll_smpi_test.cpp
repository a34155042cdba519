// SimGrid 3.32's collective selection (mpi/coll/select_smpi.hpp, smpi_names.hpp, smpi_linear.hpp):
// the smpi-default / smpi-ompi / smpi-mpich selectors send, rank by rank, the point-to-point
// messages SimGrid sends inside each collective, and decide at SimGrid's thresholds.
//
// How the expected sequences were recorded (SimGrid 3.32, Debian libsimgrid-dev 3.32-2): a TI
// trace with one collective per rank (`<r> init`, `<r> <collective ...>`, `<r> finalize`, one file
// per rank and a list file) was replayed with
//   smpirun -np P -platform cluster64.xml -hostfile H -replay list.txt
//           --log=smpi_request.thres:verbose [--cfg=smpi/coll-selector:ompi|mpich]
// (cluster64.xml: examples/platforms/cluster16.xml with radical 0-63, one rank per host), and the
// "New send/recv request ... size = N, src = A, dst = B" lines of each actor, in order, were
// written as S<peer>:<bytes> / R<peer>:<bytes> (peers as ranks). SimGrid 3.32 replays no scan or
// exscan: those two were recorded from an MPI program (MPI_Scan / MPI_Exscan of 10 MPI_BYTEs)
// compiled with smpicc and run with the same options. simfab's side is each rank's fragment
// from CollChoice::build with mpi/coll-selector=<selector>, its sends and receives in order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/config.hpp"
#include "mpi/coll/registry.hpp"
#include "mpi/coll/select_smpi.hpp"
#include "mpi/coll/smpi_names.hpp"
#include "sim/simulation.hpp"
#include "test_support.hpp"

namespace simfab::coll {
namespace {

struct Recorded {
  const char* selector;
  CollOp op;
  int p;
  RankId root;
  Bytes bytes;  // CollCall::bytes
  std::vector<Bytes> counts, counts2;
  std::vector<std::string> ranks;  // what SimGrid's rank r sent and received, in order
};

const Recorded kRecorded[] = {
    // barrier
    {"smpi-default", CollOp::kBarrier, 5, 0, 0, {}, {},
     {"R1:0 R2:0 R3:0 R4:0 S1:0 S2:0 S3:0 S4:0",
      "S0:0 R0:0",
      "S0:0 R0:0",
      "S0:0 R0:0",
      "S0:0 R0:0"}},
    // bcast 100 2 6
    {"smpi-default", CollOp::kBcast, 5, 2, 100, {}, {},
     {"R4:100",
      "R2:100",
      "S1:100 S4:100 S3:100",
      "R2:100",
      "R2:100 S0:100"}},
    // bcast 100 3 6
    {"smpi-default", CollOp::kBcast, 7, 3, 100, {}, {},
     {"R3:100 S2:100 S1:100",
      "R0:100",
      "R0:100",
      "S0:100 S5:100 S4:100",
      "R3:100",
      "R3:100 S6:100",
      "R5:100"}},
    // reduce 100 0 2 6
    {"smpi-default", CollOp::kReduce, 5, 2, 100, {}, {},
     {"S2:100",
      "S2:100",
      "R0:100 R1:100 R3:100 R4:100",
      "S2:100",
      "S2:100"}},
    // allreduce 100 0 6
    {"smpi-default", CollOp::kAllreduce, 5, 0, 100, {}, {},
     {"R1:100 R2:100 R3:100 R4:100 S4:100 S2:100 S1:100",
      "S0:100 R0:100",
      "S0:100 R0:100 S3:100",
      "S0:100 R2:100",
      "S0:100 R0:100"}},
    // allreduce 100 0 6
    {"smpi-default", CollOp::kAllreduce, 8, 0, 100, {}, {},
     {"R1:100 R2:100 R3:100 R4:100 R5:100 R6:100 R7:100 S4:100 S2:100 S1:100",
      "S0:100 R0:100",
      "S0:100 R0:100 S3:100",
      "S0:100 R2:100",
      "S0:100 R0:100 S6:100 S5:100",
      "S0:100 R4:100",
      "S0:100 R4:100 S7:100",
      "S0:100 R6:100"}},
    // gather 10 10 2 6 6
    {"smpi-default", CollOp::kGather, 5, 2, 10, {}, {},
     {"S2:10",
      "S2:10",
      "R0:10 R1:10 R3:10 R4:10",
      "S2:10",
      "S2:10"}},
    // scatter 10 10 2 6 6
    {"smpi-default", CollOp::kScatter, 5, 2, 10, {}, {},
     {"R2:10",
      "R2:10",
      "S0:10 S1:10 S3:10 S4:10",
      "R2:10",
      "R2:10"}},
    // allgather 10 10 6 6
    {"smpi-default", CollOp::kAllgather, 4, 0, 10, {}, {},
     {"S1:10 R1:10 S2:10 R2:10 S3:10 R3:10",
      "S0:10 R0:10 S2:10 R2:10 S3:10 R3:10",
      "S0:10 R0:10 S1:10 R1:10 S3:10 R3:10",
      "S0:10 R0:10 S1:10 R1:10 S2:10 R2:10"}},
    // alltoall 10 10 6 6
    {"smpi-default", CollOp::kAlltoall, 5, 0, 10, {}, {},
     {"R1:10 R2:10 R3:10 R4:10 S4:10 S3:10 S2:10 S1:10",
      "R2:10 R3:10 R4:10 R0:10 S0:10 S4:10 S3:10 S2:10",
      "R3:10 R4:10 R0:10 R1:10 S1:10 S0:10 S4:10 S3:10",
      "R4:10 R0:10 R1:10 R2:10 S2:10 S1:10 S0:10 S4:10",
      "R0:10 R1:10 R2:10 R3:10 S3:10 S2:10 S1:10 S0:10"}},
    // alltoall 100 100 6 6
    {"smpi-default", CollOp::kAlltoall, 16, 0, 100, {}, {},
     {"S1:800 R15:800 S2:800 R14:800 S4:800 R12:800 S8:800 R8:800",
      "S2:800 R0:800 S3:800 R15:800 S5:800 R13:800 S9:800 R9:800",
      "S3:800 R1:800 S4:800 R0:800 S6:800 R14:800 S10:800 R10:800",
      "S4:800 R2:800 S5:800 R1:800 S7:800 R15:800 S11:800 R11:800",
      "S5:800 R3:800 S6:800 R2:800 S8:800 R0:800 S12:800 R12:800",
      "S6:800 R4:800 S7:800 R3:800 S9:800 R1:800 S13:800 R13:800",
      "S7:800 R5:800 S8:800 R4:800 S10:800 R2:800 S14:800 R14:800",
      "S8:800 R6:800 S9:800 R5:800 S11:800 R3:800 S15:800 R15:800",
      "S9:800 R7:800 S10:800 R6:800 S12:800 R4:800 S0:800 R0:800",
      "S10:800 R8:800 S11:800 R7:800 S13:800 R5:800 S1:800 R1:800",
      "S11:800 R9:800 S12:800 R8:800 S14:800 R6:800 S2:800 R2:800",
      "S12:800 R10:800 S13:800 R9:800 S15:800 R7:800 S3:800 R3:800",
      "S13:800 R11:800 S14:800 R10:800 S0:800 R8:800 S4:800 R4:800",
      "S14:800 R12:800 S15:800 R11:800 S1:800 R9:800 S5:800 R5:800",
      "S15:800 R13:800 S0:800 R12:800 S2:800 R10:800 S6:800 R6:800",
      "S0:800 R14:800 S1:800 R13:800 S3:800 R11:800 S7:800 R7:800"}},
    // gatherv 10 10 10 10 10 2 6 6
    {"smpi-default", CollOp::kGatherv, 4, 2, 10, {10, 10, 10, 10}, {},
     {"S2:10",
      "S2:10",
      "R0:10 R1:10 R3:10",
      "S2:10"}},
    // scatterv 10 10 10 10 10 2 6 6
    {"smpi-default", CollOp::kScatterv, 4, 2, 10, {10, 10, 10, 10}, {},
     {"R2:10",
      "R2:10",
      "S0:10 S1:10 S3:10",
      "R2:10"}},
    // allgatherv 10 10 10 10 10 6
    {"smpi-default", CollOp::kAllgatherv, 4, 0, 10, {10, 10, 10, 10}, {},
     {"S1:10 R1:10 S2:10 R2:10 S3:10 R3:10",
      "S0:10 R0:10 S2:10 R2:10 S3:10 R3:10",
      "S0:10 R0:10 S1:10 R1:10 S3:10 R3:10",
      "S0:10 R0:10 S1:10 R1:10 S2:10 R2:10"}},
    // alltoallv 100 10 10 10 10 100 10 10 10 10 6 6
    {"smpi-default", CollOp::kAlltoallv, 4, 0, 0, {10, 10, 10, 10}, {10, 10, 10, 10},
     {"R1:10 R2:10 R3:10 S1:10 S2:10 S3:10",
      "R0:10 R2:10 R3:10 S0:10 S2:10 S3:10",
      "R0:10 R1:10 R3:10 S0:10 S1:10 S3:10",
      "R0:10 R1:10 R2:10 S0:10 S1:10 S2:10"}},
    // reducescatter 10 10 10 10 10 0 6
    {"smpi-default", CollOp::kReduceScatter, 5, 0, 50, {10, 10, 10, 10, 10}, {},
     {"R1:50 R2:50 R3:50 R4:50 S1:10 S2:10 S3:10 S4:10",
      "S0:50 R0:10",
      "S0:50 R0:10",
      "S0:50 R0:10",
      "S0:50 R0:10"}},
    // ('scan', 10)
    {"smpi-default", CollOp::kScan, 4, 0, 10, {}, {},
     {"S1:10 S2:10 S3:10",
      "R0:10 S2:10 S3:10",
      "R0:10 R1:10 S3:10",
      "R0:10 R1:10 R2:10"}},
    // ('exscan', 10)
    {"smpi-default", CollOp::kExscan, 4, 0, 10, {}, {},
     {"S1:10 S2:10 S3:10",
      "R0:10 S2:10 S3:10",
      "R0:10 R1:10 S3:10",
      "R0:10 R1:10 R2:10"}},
    // barrier
    {"smpi-ompi", CollOp::kBarrier, 5, 0, 0, {}, {},
     {"R1:0 R2:0 R3:0 R4:0 S1:0 S2:0 S3:0 S4:0",
      "S0:0 R0:0",
      "S0:0 R0:0",
      "S0:0 R0:0",
      "S0:0 R0:0"}},
    // barrier
    {"smpi-ompi", CollOp::kBarrier, 7, 0, 0, {}, {},
     {"R1:0 R2:0 R3:0 R4:0 R5:0 R6:0 S1:0 S2:0 S3:0 S4:0 S5:0 S6:0",
      "S0:0 R0:0",
      "S0:0 R0:0",
      "S0:0 R0:0",
      "S0:0 R0:0",
      "S0:0 R0:0",
      "S0:0 R0:0"}},
    // allreduce 100 0 6
    {"smpi-ompi", CollOp::kAllreduce, 5, 0, 100, {}, {},
     {"S1:100 R1:100",
      "R0:100 S2:100 R2:100 S3:100 R3:100 S0:100",
      "S1:100 R1:100 S4:100 R4:100",
      "S4:100 R4:100 S1:100 R1:100",
      "S3:100 R3:100 S2:100 R2:100"}},
    // allreduce 14 0 6
    {"smpi-ompi", CollOp::kAllreduce, 4, 0, 14, {}, {},
     {"S1:3 R3:3 S1:3 R3:3 S1:3 R3:3 S1:3 R3:3 S1:3 R3:3 S1:3 R3:3 R1:2 R2:2 S1:2 S2:2",
      "S2:3 R0:3 S2:3 R0:3 S2:3 R0:3 S2:3 R0:3 S2:3 R0:3 S2:3 R0:3 R3:2 S0:2 R0:2 S3:2",
      "S3:3 R1:3 S3:3 R1:3 S3:3 R1:3 S3:3 R1:3 S3:3 R1:3 S3:3 R1:3 S0:2 R0:2",
      "S0:3 R2:3 S0:3 R2:3 S0:3 R2:3 S0:3 R2:3 S0:3 R2:3 S0:3 R2:3 S1:2 R1:2"}},
    // barrier
    {"smpi-mpich", CollOp::kBarrier, 6, 0, 0, {}, {},
     {"S1:0 R5:0 S2:0 R4:0 S4:0 R2:0",
      "S2:0 R0:0 S3:0 R5:0 S5:0 R3:0",
      "S3:0 R1:0 S4:0 R0:0 S0:0 R4:0",
      "S4:0 R2:0 S5:0 R1:0 S1:0 R5:0",
      "S5:0 R3:0 S0:0 R2:0 S2:0 R0:0",
      "S0:0 R4:0 S1:0 R3:0 S3:0 R1:0"}},
    // alltoall 100 100 6 6
    {"smpi-mpich", CollOp::kAlltoall, 8, 0, 100, {}, {},
     {"S1:400 R7:400 S2:400 R6:400 S4:400 R4:400",
      "S2:400 R0:400 S3:400 R7:400 S5:400 R5:400",
      "S3:400 R1:400 S4:400 R0:400 S6:400 R6:400",
      "S4:400 R2:400 S5:400 R1:400 S7:400 R7:400",
      "S5:400 R3:400 S6:400 R2:400 S0:400 R0:400",
      "S6:400 R4:400 S7:400 R3:400 S1:400 R1:400",
      "S7:400 R5:400 S0:400 R4:400 S2:400 R2:400",
      "S0:400 R6:400 S1:400 R5:400 S3:400 R3:400"}}

};

CollChoice choice_of(const std::vector<std::string>& cfg_lines) {
  Config cfg;
  register_builtin_keys(cfg);
  for (const auto& c : cfg_lines) cfg.set_assignment(c, {});
  return CollChoice::from(cfg);
}

// Rank `rank`'s sends and receives, in fragment order, as the recordings write them.
std::string messages(const CollChoice& choice, CollOp op, CollCall call) {
  Fragment f;
  EXPECT_TRUE(choice.build(op, f, call)) << coll_op_name(op);
  std::string out;
  for (const FragOp& o : f.ops()) {
    if (o.kind == OpKind::kCalc) continue;
    out += (out.empty() ? "" : " ") + std::string(o.kind == OpKind::kSend ? "S" : "R") + std::to_string(o.peer) + ":" +
           std::to_string(o.amount);
  }
  return out;
}

TEST(CollSmpi, EveryRankSendsWhatSimGridSent) {
  for (const Recorded& r : kRecorded) {
    const CollChoice choice = choice_of({std::string("mpi/coll-selector=") + r.selector});
    for (RankId rank = 0; rank < r.p; ++rank) {
      CollCall call{rank, r.p, r.root, r.bytes};
      call.counts = r.counts;
      call.counts2 = r.counts2;
      EXPECT_EQ(messages(choice, r.op, call), r.ranks[static_cast<size_t>(rank)])
          << r.selector << " " << coll_op_name(r.op) << " P=" << r.p << " rank " << rank;
    }
  }
}

TEST(CollSmpi, SimGridsOwnKeysMeanTheSameAsTheSelectors) {
  const Recorded& bcast = kRecorded[1];  // smpi-default bcast, P = 5, root 2
  ASSERT_EQ(bcast.op, CollOp::kBcast);
  for (const auto& cfg : std::vector<std::vector<std::string>>{
           {"smpi/coll-selector=default"},
           {"mpi/coll-selector=ompi", "smpi/coll-selector=default"},  // SimGrid's key wins
           {"smpi/bcast=binomial_tree"},
           {"mpi/bcast=linear", "smpi/bcast=default"}}) {
    const CollChoice choice = choice_of(cfg);
    for (RankId rank = 0; rank < bcast.p; ++rank)
      EXPECT_EQ(messages(choice, CollOp::kBcast, CollCall{rank, bcast.p, bcast.root, bcast.bytes}),
                bcast.ranks[static_cast<size_t>(rank)])
          << cfg.back() << " rank " << rank;
  }
  EXPECT_EQ(choice_of({"smpi/coll-selector=ompi"}).selector, CollChoice::Selector::kSmpiOmpi);
  EXPECT_EQ(choice_of({"smpi/coll-selector=mpich"}).selector, CollChoice::Selector::kSmpiMpich);
  EXPECT_EQ(choice_of({"mpi/coll-selector=smpi-mpich"}).selector, CollChoice::Selector::kSmpiMpich);
  // smpi/<collective>=ompi: that collective follows SimGrid's ompi selector (P = 5 allreduce of
  // 100 B: rdb), the others keep theirs.
  const CollChoice ompi_allreduce = choice_of({"smpi/allreduce=ompi"});
  EXPECT_EQ(messages(ompi_allreduce, CollOp::kAllreduce, CollCall{0, 5, 0, 100}), "S1:100 R1:100");
}

TEST(CollSmpi, UnknownSimGridNameIsAnErrorListingTheValidOnes) {
  Config cfg;
  register_builtin_keys(cfg);
  try {
    cfg.set_assignment("smpi/bcast=binomial", {});
    FAIL() << "accepted an unknown SimGrid name";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("binomial_tree"), std::string::npos) << what;
    EXPECT_NE(what.find("scatter_LR_allgather"), std::string::npos) << what;
  }
  EXPECT_THROW(cfg.set_assignment("smpi/coll-selector=mvapich2", {}), InputError);
}

TEST(CollSmpi, EverySimGridNameRunsARegisteredAlgorithm) {
  for (size_t i = 0; i < static_cast<size_t>(CollOp::kCount); ++i) {
    const auto op = static_cast<CollOp>(i);
    EXPECT_FALSE(smpi_names(op).empty()) << coll_op_name(op);
    for (const SmpiName& n : smpi_names(op)) {
      const CollAlgorithm* a = smpi_algorithm(op, n.simgrid);
      ASSERT_NE(a, nullptr) << coll_op_name(op) << " " << n.simgrid << " -> " << n.simfab;
      EXPECT_NE(a->build, nullptr) << n.simfab;
    }
  }
}

std::string pick(SmpiSelector s, CollOp op, int p, Bytes bytes, Bytes type_size = 1, std::vector<Bytes> counts = {}) {
  CollCall c{0, p, 0, bytes};
  c.type_size = type_size;
  c.counts = counts;
  return select_smpi(s, op, c);
}

// smpi_default_selector.cpp: fixed algorithms, alltoall through the ompi table, unequal
// reduce_scatter blocks through the mpich one.
TEST(CollSmpi, DefaultSelectorDecisions) {
  const auto d = SmpiSelector::kDefault;
  EXPECT_EQ(pick(d, CollOp::kBarrier, 64, 0), "ompi_basic_linear");
  EXPECT_EQ(pick(d, CollOp::kBcast, 64, 1 << 24), "binomial_tree");
  for (CollOp op : {CollOp::kReduce, CollOp::kAllreduce, CollOp::kGather, CollOp::kScatter, CollOp::kAllgather,
                    CollOp::kGatherv, CollOp::kScatterv, CollOp::kAllgatherv, CollOp::kAlltoallv, CollOp::kScan,
                    CollOp::kExscan})
    EXPECT_EQ(pick(d, op, 7, 1 << 20), "default") << coll_op_name(op);
  EXPECT_EQ(pick(d, CollOp::kAlltoall, 20, 511), "bruck");          // P<32: <512 modified_bruck
  EXPECT_EQ(pick(d, CollOp::kAlltoall, 20, 512), "basic_linear");   // <8K linear_sync
  EXPECT_EQ(pick(d, CollOp::kAlltoall, 5, 524287), "basic_linear");
  EXPECT_EQ(pick(d, CollOp::kAlltoall, 5, 524288), "pair");         // P<8: <1M pairwise
  EXPECT_EQ(pick(d, CollOp::kReduceScatter, 4, 40, 1, {10, 10, 10, 10}), "default");
  EXPECT_EQ(pick(d, CollOp::kReduceScatter, 4, 30, 1, {10, 0, 10, 10}), "mpich_rdb");
}

// smpi_openmpi_selector.cpp (02/2022): OpenMPI 4.1's tables over SimGrid's implementations.
TEST(CollSmpi, OmpiSelectorDecisions) {
  const auto o = SmpiSelector::kOmpi;
  EXPECT_EQ(pick(o, CollOp::kAllreduce, 3, 7), "lr");  // P<4: <8 ring (lr)
  EXPECT_EQ(pick(o, CollOp::kAllreduce, 3, 8), "rdb");
  EXPECT_EQ(pick(o, CollOp::kAllreduce, 4, 15), "lr");  // P<8: <16 ring (lr)
  EXPECT_EQ(pick(o, CollOp::kAllreduce, 3, 262143), "ompi_ring_segmented");
  EXPECT_EQ(pick(o, CollOp::kAllreduce, 8, 8191), "rdb");
  EXPECT_EQ(pick(o, CollOp::kAllreduce, 8, 8192), "rab_rdb");
  EXPECT_EQ(pick(o, CollOp::kAllreduce, 200, 1000), "redbcast");
  EXPECT_EQ(pick(o, CollOp::kBcast, 5, 63), "NTSB");
  EXPECT_EQ(pick(o, CollOp::kBcast, 5, 64), "binomial_tree");
  EXPECT_EQ(pick(o, CollOp::kBcast, 5, 8192), "NTSL");
  EXPECT_EQ(pick(o, CollOp::kBcast, 20, 1 << 20), "scatter_rdb_allgather");
  EXPECT_EQ(pick(o, CollOp::kBcast, 100, 10), "mvapich2_knomial_intra_node");
  EXPECT_EQ(pick(o, CollOp::kReduce, 5, 4095), "ompi_binary");
  EXPECT_EQ(pick(o, CollOp::kReduce, 5, 4096), "ompi_chain");
  EXPECT_EQ(pick(o, CollOp::kReduce, 3, 7), "ompi_basic_linear");  // rabenseifner, not in SimGrid
  EXPECT_EQ(pick(o, CollOp::kBarrier, 2, 0), "ompi_recursivedoubling");
  EXPECT_EQ(pick(o, CollOp::kBarrier, 5, 0), "ompi_basic_linear");
  EXPECT_EQ(pick(o, CollOp::kBarrier, 100, 0), "ompi_bruck");
  EXPECT_EQ(pick(o, CollOp::kBarrier, 300, 0), "ompi_tree");
  EXPECT_EQ(pick(o, CollOp::kAllgather, 2, 10), "pair");
  EXPECT_EQ(pick(o, CollOp::kAllgather, 40, 1023), "rdb");
  EXPECT_EQ(pick(o, CollOp::kAllgather, 40, 1024), "ompi_neighborexchange");
  EXPECT_EQ(pick(o, CollOp::kGather, 5, 1023), "ompi_binomial");
  EXPECT_EQ(pick(o, CollOp::kGather, 5, 1 << 20), "ompi_linear_sync");
  EXPECT_EQ(pick(o, CollOp::kScatter, 5, 2048), "ompi_basic_linear");
  // SimGrid's own tables: reduce_scatter (sum of blocks), allgatherv (sum / P), alltoallv (P).
  EXPECT_EQ(smpi_ompi_reduce_scatter_id(5, 7), 1);
  EXPECT_EQ(smpi_ompi_reduce_scatter_id(5, 8), 2);
  EXPECT_EQ(smpi_ompi_reduce_scatter_id(5, 262144), 3);
  EXPECT_EQ(smpi_ompi_reduce_scatter_id(3, 65536), 4);
  EXPECT_EQ(pick(o, CollOp::kReduceScatter, 5, 50, 1, {10, 10, 10, 10, 10}), "ompi_basic_recursivehalving");
  EXPECT_EQ(smpi_ompi_allgatherv_id(5, 255), 1);
  EXPECT_EQ(smpi_ompi_allgatherv_id(5, 256), 4);
  EXPECT_EQ(pick(o, CollOp::kAllgatherv, 5, 10, 1, {300, 300, 300, 300, 300}), "ompi_neighborexchange");
  EXPECT_EQ(pick(o, CollOp::kAlltoallv, 3, 0), "pair");
  EXPECT_EQ(pick(o, CollOp::kAlltoallv, 4, 0), "ompi_basic_linear");
  EXPECT_EQ(pick(o, CollOp::kAlltoallv, 64, 0), "pair");
  EXPECT_EQ(pick(o, CollOp::kScan, 4, 10), "default");
}

// smpi_mpich_selector.cpp (SMP branches aside, see select_smpi.hpp).
TEST(CollSmpi, MpichSelectorDecisions) {
  const auto m = SmpiSelector::kMpich;
  EXPECT_EQ(pick(m, CollOp::kAllreduce, 16, 2048), "rdb");
  EXPECT_EQ(pick(m, CollOp::kAllreduce, 16, 2049), "rab_rdb");
  EXPECT_EQ(pick(m, CollOp::kAllreduce, 512, 2400, 8), "rdb");  // 300 doubles < pof2 = 512
  EXPECT_EQ(pick(m, CollOp::kAlltoall, 8, 255), "bruck");
  EXPECT_EQ(pick(m, CollOp::kAlltoall, 7, 255), "mvapich2_scatter_dest");
  EXPECT_EQ(pick(m, CollOp::kAlltoall, 8, 256), "mvapich2_scatter_dest");
  EXPECT_EQ(pick(m, CollOp::kAlltoall, 7, 32768), "pair");
  EXPECT_EQ(pick(m, CollOp::kAlltoall, 8, 32768), "ring");
  EXPECT_EQ(pick(m, CollOp::kBcast, 8, 1 << 20), "binomial_tree");
  EXPECT_EQ(pick(m, CollOp::kBcast, 10, 12287), "binomial_tree");
  EXPECT_EQ(pick(m, CollOp::kBcast, 10, 12288), "scatter_rdb_allgather");
  EXPECT_EQ(pick(m, CollOp::kBcast, 9, 12288), "scatter_LR_allgather");
  EXPECT_EQ(pick(m, CollOp::kBcast, 10, 524288), "scatter_LR_allgather");
  EXPECT_EQ(pick(m, CollOp::kReduce, 16, 2047), "binomial");
  EXPECT_EQ(pick(m, CollOp::kReduce, 16, 2048), "scatter_gather");
  EXPECT_EQ(pick(m, CollOp::kReduce, 16, 2048, 256), "binomial");  // count 8 < 16
  EXPECT_EQ(pick(m, CollOp::kAllgather, 8, 65535), "rdb");         // 524280 < 524288
  EXPECT_EQ(pick(m, CollOp::kAllgather, 8, 65536), "ring");
  EXPECT_EQ(pick(m, CollOp::kAllgather, 6, 13653), "bruck");        // 81918 <= 81920
  EXPECT_EQ(pick(m, CollOp::kAllgather, 6, 13654), "ring");
  EXPECT_EQ(pick(m, CollOp::kBarrier, 6, 0), "ompi_bruck");
  EXPECT_EQ(pick(m, CollOp::kGather, 6, 10), "ompi_binomial");
  EXPECT_EQ(pick(m, CollOp::kAlltoallv, 6, 10), "bruck");
  EXPECT_EQ(pick(m, CollOp::kReduceScatter, 4, 0, 1, {524288, 0, 0, 0}), "mpich_rdb");
  EXPECT_EQ(pick(m, CollOp::kReduceScatter, 4, 0, 1, {524289, 0, 0, 0}), "mpich_pair");
  EXPECT_EQ(pick(m, CollOp::kAllgatherv, 4, 0, 1, {10, 10, 10, 10}), "mpich_rdb");
  EXPECT_EQ(pick(m, CollOp::kAllgatherv, 5, 0, 1, {10, 10, 10, 10, 10}), "ompi_bruck");
}

std::string every_rank(int p, const std::string& action) {
  std::string t;
  for (int r = 0; r < p; ++r) t += std::to_string(r) + " " + action + "\n";
  return t;
}

// Every collective TI replay has, under each smpi selector and on odd and even sizes, replays to
// the end (no deadlock, no MPI error).
TEST(CollSmpi, EverySelectorReplaysEveryCollective) {
  for (int p : {3, 4, 7, 8}) {
    std::string counts;
    for (int r = 0; r < p; ++r) counts += " " + std::to_string(100 + r);
    std::string same;
    for (int r = 0; r < p; ++r) same += " 300";
    const std::string trace = every_rank(p, "barrier") + every_rank(p, "bcast 5000 1") +
                              every_rank(p, "reduce 5000 0 2") + every_rank(p, "allreduce 5003 0") +
                              every_rank(p, "allgather 301 301") + every_rank(p, "alltoall 301 301") +
                              every_rank(p, "gather 301 301 1") + every_rank(p, "scatter 301 301 1") +
                              every_rank(p, "reducescatter" + counts + " 0") +
                              every_rank(p, "reducescatter" + same + " 0") + every_rank(p, "scan 77 0") +
                              every_rank(p, "exscan 77 0") + every_rank(p, "alltoallv 900" + same + " 900" + same) +
                              every_rank(p, "allgatherv 300" + same);
    for (const char* sel : {"smpi-default", "smpi-ompi", "smpi-mpich"}) {
      Config cfg;
      register_builtin_keys(cfg);
      cfg.set_assignment(std::string("mpi/coll-selector=") + sel, {});
      SimulationInput in;
      in.platform_path = testing::write_test_file(
          "p.yaml", "clusters:\n  - {name: c, prefix: n, count: " + std::to_string(p) +
                        ", speed: 1Gf, bandwidth: 10Gbps, latency: 1us}\n");
      in.trace_path = testing::write_test_file("t.ti", trace);
      RunResult r;
      ASSERT_NO_THROW(r = run_simulation(in, cfg)) << sel << " P=" << p;
      EXPECT_TRUE(r.exec.blocked.empty()) << sel << " P=" << p;
      EXPECT_GT(r.exec.messages, 0u);
    }
  }
}

}  // namespace
}  // namespace simfab::coll
