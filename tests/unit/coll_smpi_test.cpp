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
#include "mpi/coll/smpi_refusals.hpp"
#include "sim/simulation.hpp"
#include "coll_smpi_test_support.hpp"
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
      "S0:400 R6:400 S1:400 R5:400 S3:400 R3:400"}},
    // bcast 8 0 6 (ompi: NTSB, unpipelined; recorded with --cfg=smpi/send-is-detached-thresh:0)
    {"smpi-ompi", CollOp::kBcast, 13, 0, 8, {}, {},
     {"S1:8 S2:8", "R0:8 S3:8 S4:8", "R0:8 S5:8 S6:8", "R1:8 S7:8 S8:8", "R1:8 S9:8 S10:8", "R2:8 S11:8 S12:8",
      "R2:8", "R3:8", "R3:8", "R4:8", "R4:8", "R5:8", "R5:8"}},
    // bcast 16384 3 6 (ompi: NTSL, two 8 KiB pieces; the root sends to 0 first)
    {"smpi-ompi", CollOp::kBcast, 7, 3, 16384, {}, {},
     {"R3:16384 S1:8192 S1:8192",
      "R0:8192 R0:8192 S2:8192 S2:8192",
      "R1:8192 R1:8192 S3:8192 S3:8192",
      "S0:16384 R2:8192 R2:8192 S4:8192 S4:8192",
      "R3:8192 R3:8192 S5:8192 S5:8192",
      "R4:8192 R4:8192 S6:8192 S6:8192",
      "R5:8192 R5:8192"}},
    // bcast 16484 0 6 (ompi: NTSL, then the 100-byte remainder by bcast__ompi: binomial_tree)
    {"smpi-ompi", CollOp::kBcast, 4, 0, 16484, {}, {},
     {"S1:8192 S1:8192 S2:100 S1:100",
      "R0:8192 R0:8192 S2:8192 S2:8192 R0:100",
      "R1:8192 R1:8192 S3:8192 S3:8192 R0:100 S3:100",
      "R2:8192 R2:8192 R2:100"}},
    // bcast 100 2 6 (mpich: SMP_binomial, set-up already done; see SmpSetUpOnTheFirstMpichBcast)
    {"smpi-mpich", CollOp::kBcast, 5, 2, 100, {}, {},
     {"R2:100 S4:100 S2:100 S1:100", "R0:100", "S0:100 R0:100 S3:100", "R2:100", "R0:100"}},
    // reduce 4096 0 0 6 (ompi: ompi_chain, 2 chains)
    {"smpi-ompi", CollOp::kReduce, 4, 0, 4096, {}, {},
     {"R1:4096 R3:4096", "R2:4096 S0:4096", "S1:4096", "S0:4096"}},
    // reduce 16384 0 3 6 (ompi: ompi_chain, 3 chains)
    {"smpi-ompi", CollOp::kReduce, 7, 3, 16384, {}, {},
     {"S6:16384", "R2:16384 S3:16384", "S1:16384", "R4:16384 R6:16384 R1:16384", "R5:16384 S3:16384", "S4:16384",
      "R0:16384 S3:16384"}},
    // reduce 262144 0 0 6 (ompi: ompi_basic_linear, the root receives from P-1 down)
    {"smpi-ompi", CollOp::kReduce, 4, 0, 262144, {}, {},
     {"R3:262144 R2:262144 R1:262144", "S0:262144", "S0:262144", "S0:262144"}},
    // gather 100 100 3 6 6 (mpich: ompi_binomial, nearest child first)
    {"smpi-mpich", CollOp::kGather, 7, 3, 100, {}, {},
     {"R1:100 R2:100 S3:300", "S0:100", "S0:100", "R4:100 R5:200 R0:300", "S3:100", "R6:100 S3:200", "S5:100"}},
    // scatter 100 100 3 6 6 (mpich: ompi_binomial). SimGrid posts a non-leaf's receive (and an
    // even vrank's) for the whole buffer, 700 B, on ranks 0, 2 and 5: written here as the message
    // sent, which is what SimGrid times.
    {"smpi-mpich", CollOp::kScatter, 7, 3, 100, {}, {},
     {"R3:300 S1:100 S2:100", "R0:100", "R0:100", "S4:100 S5:200 S0:300", "R3:100", "R3:200 S6:100", "R5:100"}},
    // gather 4096 4096 0 6 6 (ompi: ompi_basic_linear, blocking receives in rank order)
    {"smpi-ompi", CollOp::kGather, 4, 0, 4096, {}, {}, {"R1:4096 R2:4096 R3:4096", "S0:4096", "S0:4096", "S0:4096"}},
    // gather 262144 262144 0 6 6 (ompi: ompi_linear_sync, 32 KiB first segments)
    {"smpi-ompi", CollOp::kGather, 4, 0, 262144, {}, {},
     {"R1:32768 S1:0 R1:229376 R2:32768 S2:0 R2:229376 R3:32768 S3:0 R3:229376",
      "R0:0 S0:32768 S0:229376", "R0:0 S0:32768 S0:229376", "R0:0 S0:32768 S0:229376"}},
    // Recorded for SimGrid's reduce_scatter, allgather(v), alltoall(v) algorithms (smpi_reduce_scatter.hpp,
    // smpi_allgatherv.hpp, smpi_allgather.hpp, smpi_alltoallv.hpp): doubles (datatype 0), so counts in
    // bytes are 8 x the trace's; the traces' v-counts are given per row.
    // reducescatter 1 2 3 4 1 0 (--cfg=smpi/coll-selector:mpich)
    {"smpi-mpich", CollOp::kReduceScatter, 4, 0, 80, {8, 16, 24, 32}, {},
     {"S1:72 R1:64 S2:56 R2:24",
      "S0:64 R0:72 S3:56 R3:24",
      "S3:56 R3:48 S0:24 R0:56",
      "S2:48 R2:56 S1:24 R1:56"}},
    // reducescatter 1 2 3 4 1 0 (--cfg=smpi/coll-selector:ompi)
    {"smpi-ompi", CollOp::kReduceScatter, 4, 0, 80, {8, 16, 24, 32}, {},
     {"R2:24 S2:56 R1:8 S1:16",
      "R3:24 S3:56 R0:16 S0:8",
      "R0:56 S0:24 R3:24 S3:32",
      "R1:56 S1:24 R2:32 S2:24"}},
    // reducescatter 1 2 3 4 5 1 0 (--cfg=smpi/coll-selector:ompi)
    {"smpi-ompi", CollOp::kReduceScatter, 5, 0, 120, {8, 16, 24, 32, 40}, {},
     {"S1:120 R1:8",
      "R0:120 R3:48 S3:72 R2:24 S2:24 S0:8",
      "R4:48 S4:72 R1:24 S1:24",
      "R1:72 S1:48 R4:32 S4:40",
      "R2:72 S2:48 R3:40 S3:32"}},
    // reducescatter 8192 8193 8194 8195 1 0 (--cfg=smpi/coll-selector:ompi)
    {"smpi-ompi", CollOp::kReduceScatter, 4, 0, 262176, {65536, 65544, 65552, 65560}, {},
     {"R3:65560 S1:65560 R3:65560 S1:65552 R3:65560 S1:65544",
      "R0:65560 S2:65536 R0:65560 S2:65560 R0:65560 S2:65552",
      "R1:65560 S3:65544 R1:65560 S3:65536 R1:65560 S3:65560",
      "R2:65560 S0:65552 R2:65560 S0:65544 R2:65560 S0:65536"}},
    // reducescatter 1 2 3 4 5 6 1 0 (--cfg=smpi/coll-selector:mpich)
    {"smpi-mpich", CollOp::kReduceScatter, 6, 0, 168, {8, 16, 24, 32, 40, 48}, {},
     {"S1:160 R1:152 S2:144 R2:112 S4:88 R4:80 S2:80",
      "S0:152 R0:160 S3:144 R3:112 S5:88 R5:80 S3:80",
      "S3:144 R3:136 S0:112 R0:144 R0:80",
      "S2:136 R2:144 S1:112 R1:144 R1:80",
      "S5:128 R5:120 S0:80 R0:88",
      "S4:120 R4:128 S1:80 R1:88"}},
    // allgatherv 10 10 11 12 13 0 0 (--cfg=smpi/coll-selector:ompi)
    {"smpi-ompi", CollOp::kAllgatherv, 4, 0, 80, {80, 88, 96, 104}, {},
     {"R1:88 R2:96 R3:104 S2:104 S1:104",
      "S0:80 R0:104",
      "S0:80 R0:104 S3:104",
      "S0:80 R2:104"}},
    // allgatherv 60 60 60 60 60 0 0 (--cfg=smpi/coll-selector:ompi)
    {"smpi-ompi", CollOp::kAllgatherv, 4, 0, 480, {480, 480, 480, 480}, {},
     {"S1:480 R1:480 S3:960 R3:960",
      "S0:480 R0:480 S2:960 R2:960",
      "S3:480 R3:480 S1:960 R1:960",
      "S2:480 R2:480 S0:960 R0:960"}},
    // allgatherv 10 10 11 12 13 14 0 0 (--cfg=smpi/coll-selector:mpich)
    {"smpi-mpich", CollOp::kAllgatherv, 5, 0, 80, {80, 88, 96, 104, 112}, {},
     {"S4:80 R1:88 S3:168 R2:200 S1:80 R4:112",
      "S0:88 R2:96 S4:184 R3:216 S2:88 R0:80",
      "S1:96 R3:104 S0:200 R4:192 S3:96 R1:88",
      "S2:104 R4:112 S1:216 R0:168 S4:104 R2:96",
      "S3:112 R0:80 S2:192 R1:184 S0:112 R3:104"}},
    // allgatherv 10 10 11 12 13 0 0 (--cfg=smpi/coll-selector:mpich)
    {"smpi-mpich", CollOp::kAllgatherv, 4, 0, 80, {80, 88, 96, 104}, {},
     {"S1:80 R1:288 S2:168 R2:200",
      "S0:88 R0:368 S3:168 R3:200",
      "S3:96 R3:104 S0:200 R0:368",
      "S2:104 R2:200 S1:200 R1:368"}},
    // alltoallv 50 10 10 10 10 10 50 10 10 10 10 10 0 0 (--cfg=smpi/coll-selector:mpich)
    {"smpi-mpich", CollOp::kAlltoallv, 5, 0, 0, {80, 80, 80, 80, 80}, {80, 80, 80, 80, 80},
     {"R1:80 R2:80 R3:80 S4:80 S3:80 S2:80 R4:80 S1:80",
      "R2:80 R3:80 R4:80 S0:80 S4:80 S3:80 R0:80 S2:80",
      "R3:80 R4:80 R0:80 S1:80 S0:80 S4:80 R1:80 S3:80",
      "R4:80 R0:80 R1:80 S2:80 S1:80 S0:80 R2:80 S4:80",
      "R0:80 R1:80 R2:80 S3:80 S2:80 S1:80 R3:80 S0:80"}},
    // alltoall 10 10 0 0 (--cfg=smpi/coll-selector:mpich)
    {"smpi-mpich", CollOp::kAlltoall, 5, 0, 80, {}, {},
     {"R0:80 R1:80 R2:80 R3:80 S0:80 S4:80 S3:80 S2:80 R4:80 S1:80",
      "R1:80 R2:80 R3:80 R4:80 S1:80 S0:80 S4:80 S3:80 R0:80 S2:80",
      "R2:80 R3:80 R4:80 R0:80 S2:80 S1:80 S0:80 S4:80 R1:80 S3:80",
      "R3:80 R4:80 R0:80 R1:80 S3:80 S2:80 S1:80 S0:80 R2:80 S4:80",
      "R4:80 R0:80 R1:80 R2:80 S4:80 S3:80 S2:80 S1:80 R3:80 S0:80"}},
    // alltoall 8000 8000 0 0 (--cfg=smpi/coll-selector:mpich)
    {"smpi-mpich", CollOp::kAlltoall, 6, 0, 64000, {}, {},
     {"S1:64000 R5:64000 S2:64000 R4:64000 S3:64000 R3:64000 S4:64000 R2:64000 S5:64000 R1:64000",
      "S2:64000 R0:64000 S3:64000 R5:64000 S4:64000 R4:64000 S5:64000 R3:64000 S0:64000 R2:64000",
      "S3:64000 R1:64000 S4:64000 R0:64000 S5:64000 R5:64000 S0:64000 R4:64000 S1:64000 R3:64000",
      "S4:64000 R2:64000 S5:64000 R1:64000 S0:64000 R0:64000 S1:64000 R5:64000 S2:64000 R4:64000",
      "S5:64000 R3:64000 S0:64000 R2:64000 S1:64000 R1:64000 S2:64000 R0:64000 S3:64000 R5:64000",
      "S0:64000 R4:64000 S1:64000 R3:64000 S2:64000 R2:64000 S3:64000 R1:64000 S4:64000 R0:64000"}},
    // allgather 10 10 0 0 (--cfg=smpi/coll-selector:ompi)
    {"smpi-ompi", CollOp::kAllgather, 6, 0, 80, {}, {},
     {"S1:80 R1:80 S2:160 R2:160 S4:320 R4:320 S2:160",
      "S0:80 R0:80 S3:160 R3:160 S5:320 R5:320 S3:160",
      "S3:80 R3:80 S0:160 R0:160 R0:160",
      "S2:80 R2:80 S1:160 R1:160 R1:160",
      "S5:80 R5:80 S0:160 R0:320",
      "S4:80 R4:80 S1:160 R1:320"}},
    // allgather 10 10 0 0 (--cfg=smpi/coll-selector:mpich)
    {"smpi-mpich", CollOp::kAllgather, 5, 0, 80, {}, {},
     {"S4:80 R1:80 S3:160 R2:160 S1:80 R4:80",
      "S0:80 R2:80 S4:160 R3:160 S2:80 R0:80",
      "S1:80 R3:80 S0:160 R4:160 S3:80 R1:80",
      "S2:80 R4:80 S1:160 R0:160 S4:80 R2:80",
      "S3:80 R0:80 S2:160 R1:160 S0:80 R3:80"}}

};

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

// Each rank's first call of `op` on a communicator (CollCall::smp_ready false) sends `first`,
// init_smp's messages included, and sets smp_ready; its second sends `again`.
void expect_set_up_once(const CollChoice& choice, CollOp op, CollCall call, const std::vector<std::string>& first,
                        const std::vector<std::string>& again) {
  for (RankId rank = 0; rank < call.size; ++rank) {
    bool ready = false;
    call.rank = rank;
    call.smp_ready = &ready;
    EXPECT_EQ(messages(choice, op, call), first[static_cast<size_t>(rank)]) << coll_op_name(op) << " rank " << rank;
    EXPECT_TRUE(ready);
    EXPECT_EQ(messages(choice, op, call), again[static_cast<size_t>(rank)]) << coll_op_name(op) << " rank " << rank;
  }
}

// SimGrid's mpich bcast runs comm->init_smp() on a communicator's first call (smpi_bcast.hpp).
// Recorded as above (mpich, bcast 100 2 6, P = 5, --cfg=smpi/send-is-detached-thresh:0, which
// SimGrid's replay of a small mpich bcast needs): two ring allgathers of 4 B, a 4-byte ireduce to
// 0 and binomial bcast from 0, then the bcast itself. The second call has no set-up.
TEST(CollSmpi, SmpSetUpOnTheFirstMpichBcast) {
  const std::vector<std::string> recorded = {
      "S1:4 R4:4 S2:4 R3:4 S3:4 R2:4 S4:4 R1:4 S1:4 R4:4 S2:4 R3:4 S3:4 R2:4 S4:4 R1:4 R1:4 R2:4 R3:4 R4:4 S4:4 S2:4 "
      "S1:4 R2:100 S4:100 S2:100 S1:100",
      "S2:4 R0:4 S3:4 R4:4 S4:4 R3:4 S0:4 R2:4 S2:4 R0:4 S3:4 R4:4 S4:4 R3:4 S0:4 R2:4 S0:4 R0:4 R0:100",
      "S3:4 R1:4 S4:4 R0:4 S0:4 R4:4 S1:4 R3:4 S3:4 R1:4 S4:4 R0:4 S0:4 R4:4 S1:4 R3:4 S0:4 R0:4 S3:4 S0:100 R0:100 "
      "S3:100",
      "S4:4 R2:4 S0:4 R1:4 S1:4 R0:4 S2:4 R4:4 S4:4 R2:4 S0:4 R1:4 S1:4 R0:4 S2:4 R4:4 S0:4 R2:4 R2:100",
      "S0:4 R3:4 S1:4 R2:4 S2:4 R1:4 S3:4 R0:4 S0:4 R3:4 S1:4 R2:4 S2:4 R1:4 S3:4 R0:4 S0:4 R0:4 R0:100"};
  const CollChoice choice = choice_of({"mpi/coll-selector=smpi-mpich"});
  std::vector<std::string> again;
  for (RankId rank = 0; rank < 5; ++rank) again.push_back(messages(choice, CollOp::kBcast, CollCall{rank, 5, 2, 100}));
  expect_set_up_once(choice, CollOp::kBcast, CollCall{0, 5, 2, 100}, recorded, again);
}

// barrier__mpich_smp (no selector picks it): init_smp on the communicator's first SMP call, then
// barrier__mpich (ompi_bruck) among the leaders. Recorded as above with
// --cfg=smpi/barrier:mpich_smp --cfg=smpi/send-is-detached-thresh:0, "barrier" on 6 ranks; the
// second call has no set-up.
TEST(CollSmpi, MpichSmpBarrierRunsTheSetUpThenDissemination) {
  const std::vector<std::string> recorded = {
      "S1:4 R5:4 S2:4 R4:4 S3:4 R3:4 S4:4 R2:4 S5:4 R1:4 S1:4 R5:4 S2:4 R4:4 S3:4 R3:4 S4:4 R2:4 S5:4 R1:4 R1:4 R2:4 R3:4 R4:4 R5:4 S4:4 S2:4 S1:4 S1:0 R5:0 S2:0 R4:0 S4:0 R2:0",
      "S2:4 R0:4 S3:4 R5:4 S4:4 R4:4 S5:4 R3:4 S0:4 R2:4 S2:4 R0:4 S3:4 R5:4 S4:4 R4:4 S5:4 R3:4 S0:4 R2:4 S0:4 R0:4 S2:0 R0:0 S3:0 R5:0 S5:0 R3:0",
      "S3:4 R1:4 S4:4 R0:4 S5:4 R5:4 S0:4 R4:4 S1:4 R3:4 S3:4 R1:4 S4:4 R0:4 S5:4 R5:4 S0:4 R4:4 S1:4 R3:4 S0:4 R0:4 S3:4 S3:0 R1:0 S4:0 R0:0 S0:0 R4:0",
      "S4:4 R2:4 S5:4 R1:4 S0:4 R0:4 S1:4 R5:4 S2:4 R4:4 S4:4 R2:4 S5:4 R1:4 S0:4 R0:4 S1:4 R5:4 S2:4 R4:4 S0:4 R2:4 S4:0 R2:0 S5:0 R1:0 S1:0 R5:0",
      "S5:4 R3:4 S0:4 R2:4 S1:4 R1:4 S2:4 R0:4 S3:4 R5:4 S5:4 R3:4 S0:4 R2:4 S1:4 R1:4 S2:4 R0:4 S3:4 R5:4 S0:4 R0:4 S5:4 S5:0 R3:0 S0:0 R2:0 S2:0 R0:0",
      "S0:4 R4:4 S1:4 R3:4 S2:4 R2:4 S3:4 R1:4 S4:4 R0:4 S0:4 R4:4 S1:4 R3:4 S2:4 R2:4 S3:4 R1:4 S4:4 R0:4 S0:4 R4:4 S0:0 R4:0 S1:0 R3:0 S3:0 R1:0"};
  const CollChoice choice = choice_of({"smpi/barrier=mpich_smp"});
  EXPECT_TRUE(choice.uses_smp_setup());
  const CollChoice bruck = choice_of({"smpi/barrier=ompi_bruck"});
  std::vector<std::string> again;
  for (RankId rank = 0; rank < 6; ++rank) again.push_back(messages(bruck, CollOp::kBarrier, CollCall{rank, 6, 0, 0}));
  expect_set_up_once(choice, CollOp::kBarrier, CollCall{0, 6, 0, 0}, recorded, again);
}

// alltoall__pair on a power of two: sendrecv with r ^ i for i = 1 .. P-1 (i = 0 is SimGrid's local
// copy). Recorded with --cfg=smpi/alltoall:pair, "alltoall 10 10 6 6" on 4 ranks; on 6 ranks
// SimGrid throws (smpi_refusals.hpp).
TEST(CollSmpi, AlltoallPairExchangesWithXorPartners) {
  const std::vector<std::string> recorded = {"S1:10 R1:10 S2:10 R2:10 S3:10 R3:10", "S0:10 R0:10 S3:10 R3:10 S2:10 R2:10",
                                             "S3:10 R3:10 S0:10 R0:10 S1:10 R1:10", "S2:10 R2:10 S1:10 R1:10 S0:10 R0:10"};
  const CollChoice choice = choice_of({"smpi/alltoall=pair"});
  for (RankId rank = 0; rank < 4; ++rank)
    EXPECT_EQ(messages(choice, CollOp::kAlltoall, CollCall{rank, 4, 0, 10}), recorded[static_cast<size_t>(rank)]);
  const CollAlgorithm& pair = *smpi_algorithm(CollOp::kAlltoall, "pair");
  EXPECT_EQ(smpi_refusal_warning(CollOp::kAlltoall, pair, CollCall{0, 6, 0, 10}),
            "simfab: warning: SimGrid 3.32 refuses alltoall 'pair' on 6 ranks (needs a power of two); simfab runs it "
            "anyway, with partners r+i and r-i");
  EXPECT_EQ(smpi_refusal_warning(CollOp::kAlltoall, pair, CollCall{0, 8, 0, 10}), "");
  EXPECT_EQ(smpi_refusal_warning(CollOp::kAlltoall, *find_coll_algorithm(CollOp::kAlltoall, "pairwise"),
                                 CollCall{0, 6, 0, 10}),
            "");  // simfab's own pairwise is not SimGrid's
}

// bcast__mvapich2_knomial_intra_node, which SimGrid's ompi selector picks for some sizes
// (smpi_bcast.hpp): the communicator's init_smp on the first call, then a 4-nomial tree with a
// waitall per level. Recorded as above with --cfg=smpi/bcast:mvapich2_knomial_intra_node and
// --cfg=smpi/send-is-detached-thresh:0, P = 6, two "bcast 25 1 1" (100 B, root 1): the second
// call has no set-up.
TEST(CollSmpi, MvapichKnomialBcastRunsTheSetUpThenAFourNomialTree) {
  const std::vector<std::string> recorded = {
      "S1:4 R5:4 S2:4 R4:4 S3:4 R3:4 S4:4 R2:4 S5:4 R1:4 S1:4 R5:4 S2:4 R4:4 S3:4 R3:4 S4:4 R2:4 S5:4 R1:4 R1:4 R2:4 "
      "R3:4 R4:4 R5:4 S4:4 S2:4 S1:4 R5:100",
      "S2:4 R0:4 S3:4 R5:4 S4:4 R4:4 S5:4 R3:4 S0:4 R2:4 S2:4 R0:4 S3:4 R5:4 S4:4 R4:4 S5:4 R3:4 S0:4 R2:4 S0:4 R0:4 "
      "S5:100 S2:100 S3:100 S4:100",
      "S3:4 R1:4 S4:4 R0:4 S5:4 R5:4 S0:4 R4:4 S1:4 R3:4 S3:4 R1:4 S4:4 R0:4 S5:4 R5:4 S0:4 R4:4 S1:4 R3:4 S0:4 R0:4 "
      "S3:4 R1:100",
      "S4:4 R2:4 S5:4 R1:4 S0:4 R0:4 S1:4 R5:4 S2:4 R4:4 S4:4 R2:4 S5:4 R1:4 S0:4 R0:4 S1:4 R5:4 S2:4 R4:4 S0:4 R2:4 "
      "R1:100",
      "S5:4 R3:4 S0:4 R2:4 S1:4 R1:4 S2:4 R0:4 S3:4 R5:4 S5:4 R3:4 S0:4 R2:4 S1:4 R1:4 S2:4 R0:4 S3:4 R5:4 S0:4 R0:4 "
      "S5:4 R1:100",
      "S0:4 R4:4 S1:4 R3:4 S2:4 R2:4 S3:4 R1:4 S4:4 R0:4 S0:4 R4:4 S1:4 R3:4 S2:4 R2:4 S3:4 R1:4 S4:4 R0:4 S0:4 R4:4 "
      "R1:100 S0:100"};
  const std::vector<std::string> again = {"R5:100", "S5:100 S2:100 S3:100 S4:100", "R1:100", "R1:100", "R1:100",
                                          "R1:100 S0:100"};
  const CollChoice choice = choice_of({"smpi/bcast=mvapich2_knomial_intra_node"});
  EXPECT_TRUE(choice.uses_smp_setup());
  expect_set_up_once(choice, CollOp::kBcast, CollCall{0, 6, 1, 100}, recorded, again);
  // The ompi selector picks it for 104 B on 13 ranks (allgatherv GB's inner bcast; the set-up
  // then costs SimGrid ten times the bcast itself, validation/simgrid).
  EXPECT_STREQ(select_smpi(SmpiSelector::kOmpi, CollOp::kBcast, CollCall{0, 13, 0, 104}), "mvapich2_knomial_intra_node");
}

// reduce__binomial (what the mpich selector runs for small reduces; smpi_reduce.hpp), recorded
// with --cfg=smpi/reduce:binomial, "reduce 25 0 2 1" on 6 ranks (100 B, root 2).
TEST(CollSmpi, BinomialReduceReceivesNearestChildFirst) {
  const std::vector<std::string> recorded = {"R1:100 S2:100", "S0:100", "R3:100 R4:100 R0:100",
                                             "S2:100",        "R5:100 S2:100", "S4:100"};
  const CollChoice choice = choice_of({"smpi/reduce=binomial"});
  for (RankId rank = 0; rank < 6; ++rank)
    EXPECT_EQ(messages(choice, CollOp::kReduce, CollCall{rank, 6, 2, 100}), recorded[static_cast<size_t>(rank)])
        << "rank " << rank;
}

// reduce_generic's segmented walk (smpi_reduce.hpp), recorded as above with the algorithm forced
// (--cfg=smpi/reduce:ompi_binomial, reduce 4096 0 0 6 on 8 ranks: 1 KiB segments; and
// --cfg=smpi/reduce:ompi_pipeline, reduce 3000 0 1 6 on 4 ranks: one 32 KiB segment; and
// --cfg=smpi/reduce:ompi_in_order_binary, unsegmented).
TEST(CollSmpi, OmpiReduceGenericWalksSegmentsAsSimGrid) {
  struct Forced {
    const char* key;
    int p;
    RankId root;
    Bytes bytes;
    std::vector<std::string> ranks;
  };
  const Forced cases[] = {
      {"smpi/reduce=ompi_binomial", 8, 0, 4096,
       {"R1:1024 R2:1024 R4:1024 R1:1024 R2:1024 R4:1024 R1:1024 R2:1024 R4:1024 R1:1024 R2:1024 R4:1024",
        "S0:1024 S0:1024 S0:1024 S0:1024",
        "R3:1024 R3:1024 S0:1024 R3:1024 S0:1024 R3:1024 S0:1024 S0:1024",
        "S2:1024 S2:1024 S2:1024 S2:1024",
        "R5:1024 R6:1024 R5:1024 S0:1024 R6:1024 R5:1024 S0:1024 R6:1024 R5:1024 S0:1024 R6:1024 S0:1024",
        "S4:1024 S4:1024 S4:1024 S4:1024",
        "R7:1024 R7:1024 S4:1024 R7:1024 S4:1024 R7:1024 S4:1024 S4:1024",
        "S6:1024 S6:1024 S6:1024 S6:1024"}},
      {"smpi/reduce=ompi_pipeline", 4, 1, 3000, {"S3:3000", "R2:3000", "R3:3000 S1:3000", "R0:3000 S2:3000"}},
      // ompi_in_order_binary: the in-order binary tree rooted at P-1, then P-1 -> root (reduce 100 0 2 0
      // on 7 ranks; reduce 10 0 0 0 on 13).
      {"smpi/reduce=ompi_in_order_binary", 7, 2, 800,
       {"S2:800", "S2:800", "R1:800 R0:800 S6:800 R6:800", "S5:800", "S5:800", "R4:800 R3:800 S6:800",
        "R5:800 R2:800 S2:800"}},
      {"smpi/reduce=ompi_in_order_binary", 13, 0, 80,
       {"S2:80 R12:80", "S2:80", "R1:80 R0:80 S5:80", "S4:80", "R3:80 S5:80", "R4:80 R2:80 S12:80", "S8:80", "S8:80",
        "R7:80 R6:80 S11:80", "S10:80", "R9:80 S11:80", "R10:80 R8:80 S12:80", "R11:80 R5:80 S0:80"}},
  };
  for (const Forced& c : cases) {
    const CollChoice choice = choice_of({c.key});
    for (RankId rank = 0; rank < c.p; ++rank)
      EXPECT_EQ(messages(choice, CollOp::kReduce, CollCall{rank, c.p, c.root, c.bytes}), c.ranks[static_cast<size_t>(rank)])
          << c.key << " rank " << rank;
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
  EXPECT_EQ(pick(o, CollOp::kScatter, 5, 1 << 19), "default");  // Open MPI's linear_nb (id 3)
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
  // allreduce__mpich runs mvapich2_two_level on a fresh communicator: with one rank per host,
  // allreduce__rdb among the leaders whatever the size (measured against smpirun running
  // validation/simgrid/programs/collectives.c).
  EXPECT_EQ(pick(m, CollOp::kAllreduce, 16, 2048), "rdb");
  EXPECT_EQ(pick(m, CollOp::kAllreduce, 16, 2049), "rdb");
  EXPECT_EQ(pick(m, CollOp::kAllreduce, 512, 2400, 8), "rdb");  // 300 doubles < pof2 = 512
  EXPECT_EQ(pick(m, CollOp::kAlltoall, 8, 255), "bruck");
  EXPECT_EQ(pick(m, CollOp::kAlltoall, 7, 255), "mvapich2_scatter_dest");
  EXPECT_EQ(pick(m, CollOp::kAlltoall, 8, 256), "mvapich2_scatter_dest");
  EXPECT_EQ(pick(m, CollOp::kAlltoall, 7, 32768), "pair");
  EXPECT_EQ(pick(m, CollOp::kAlltoall, 8, 32768), "ring");
  // bcast__mpich: init_smp, then SMP_binomial on uniform hosts, whatever the size.
  for (int p : {4, 9, 10}) EXPECT_EQ(pick(m, CollOp::kBcast, p, 524288), "SMP_binomial");
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
// TI replay runs SimGrid's init_smp once per communicator, on its first mpich bcast, reduce or
// allreduce (smpi_bcast.hpp): 4 ranks, 2 x 4 x 3 ring messages + 3 + 3 for the set-up, then
// 3 messages per bcast or binomial reduce.
TEST(CollSmpi, MpichSmpSetUpRunsOncePerCommunicator) {
  const int p = 4;
  const auto messages_of = [&](const std::string& trace) {
    Config cfg;
    register_builtin_keys(cfg);
    cfg.set_assignment("mpi/coll-selector=smpi-mpich", {});
    SimulationInput in;
    in.platform_path = testing::write_test_file(
        "p.yaml", "clusters:\n  - {name: c, prefix: n, count: 4, speed: 1Gf, bandwidth: 10Gbps, latency: 1us}\n");
    in.trace_path = testing::write_test_file("t.ti", trace);
    return run_simulation(in, cfg).exec.messages;
  };
  const uint64_t setup = 2 * p * (p - 1) + 2 * (p - 1);
  EXPECT_EQ(messages_of(every_rank(p, "bcast 100 0")), setup + 3);
  EXPECT_EQ(messages_of(every_rank(p, "bcast 100 0") + every_rank(p, "bcast 100 2")), setup + 3 + 4);  // + root -> 0
  EXPECT_EQ(messages_of(every_rank(p, "reduce 100 0 0") + every_rank(p, "bcast 100 0")), setup + 3 + 3);
  EXPECT_EQ(messages_of(every_rank(p, "gather 100 100 0")), 3u);  // gather__mpich: no set-up
}

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
