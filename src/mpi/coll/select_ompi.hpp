// Selector `ompi`: the algorithm OpenMPI 4.1's `tuned` collective component picks when no rules
// file and no forced algorithm are given (issue 4, selectors).
//
// Source: OpenMPI v4.1.x, ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, the
// ompi_coll_tuned_<collective>_intra_dec_fixed functions as rewritten by open-mpi/ompi PR #7952
// (v4.1.x backport of ce40cfb, "coll/tuned: Change the default collective algorithm
// selection") with the v4.1.x follow-up PR #8198 (linear algorithms removed from the allreduce
// and allgather tables). These are tables by communicator size and data size, not the 1.x-4.0
// formulas. SimGrid's smpi ompi selector (updated 02/2022) carries the same tables.
//
// Every decision is "the first row whose comm-size bound exceeds P, then the first column whose
// byte bound exceeds S" (all OpenMPI tests are strict: `communicator_size < N`,
// `total_dsize < B`). S ("total_dsize" in OpenMPI) is, per collective:
//   bcast, reduce, allreduce        dsize * count: the whole buffer
//   allgather, alltoall             dsize * scount: one rank's block (what one rank sends to one peer)
//   gather                          dsize * rcount (root) / scount: one rank's block
//   scatter                         dsize * scount (root) / rcount: one rank's block
//   barrier                         (ignored)
// That is exactly CollCall::bytes of mpi/coll/registry.hpp, so a caller passes it unchanged.
// The tables look at bytes only (never at `count` or `dsize` alone), so a 64 B allreduce picks
// the same row entry whether it is 64 chars or 8 doubles. The element count (count =
// total_bytes / type_size, CollCall::type_size) matters afterwards, inside the algorithm the
// table picked (see "Count fallbacks" below).
//
// Commutativity: TI traces do not record the reduction operation, so simfab ASSUMES every
// reduction is commutative (true of MPI's predefined operations) and always takes the
// commutative branch of the allreduce and reduce tables; OpenMPI's non-commutative tables
// (recursive doubling / nonoverlapping / linear / in-order binary only) are not reproduced.
// A trace of a user-defined non-commutative operation is therefore modelled with algorithms
// OpenMPI would not run for it.
//
// Tables (P = communicator size; "<B:alg" = below B bytes; last entry = everything above;
// numbers are OpenMPI's algorithm ids, names below).
//
//  allreduce  1 basic_linear 2 nonoverlapping 3 recursive_doubling 4 ring 5 segmented_ring 6 rabenseifner
//    P<4     <8:4 <4K:3 <8K:4 <16K:3 <64K:4 <256K:5 :6
//    P<8     <16:4 <8K:3 :6             P<16    <8K:3 :6
//    P<32    <64:5 <4K:3 :6             P<64    <128:5 :6
//    P<128   <256K:3 :6                 P<256   <128K:2 <256K:3 :6
//    P<512   <4K:2 :6                   P<2048  <2K:2 <16K:3 :6
//    P<4096  <2K:2 <4K:5 <16K:3 :6      else    <2K:2 <16K:5 <32K:3 :6
//  bcast  1 basic_linear 2 chain 3 pipeline 4 split_binary_tree 5 binary_tree 6 binomial 7 knomial
//         8 scatter_allgather 9 scatter_allgather_ring
//    P<4     <32:3 <256:5 <512:3 <1K:7 <32K:1 <128K:5 <256K:2 <512K:1 <1M:6 :5
//    P<8     <64:5 <128:6 <2K:5 <8K:6 <1M:1 :2
//    P<16    <8:7 <64:5 <4K:7 <16K:5 <32K:6 :1
//    P<32    <4K:7 <1M:6 :8             P<64    <2K:6 :7          P<128   :7
//    P<256   <2:6 <16K:5 <32K:1 <64K:5 :7                         P<1024  <16K:7 <32K:4 :7
//    P<2048  <512K:7 :8                 P<4096  <256K:7 :8
//    else    <8K:7 <16K:5 <256K:7 :8
//  reduce  1 linear 2 chain 3 pipeline 4 binary 5 binomial 6 in-order_binary 7 rabenseifner
//    P<4     <8:7 <16:4 <32:3 <256K:1 <512K:3 <1M:2 :3
//    P<8     <4K:4 <64K:2 <256K:5 <512K:1 <1M:5 :1
//    P<16    <8K:4 :5                   P<32    <4K:4 :5           P<256   :5
//    P<512   <8K:5 <16K:6 :5            P<2048  :5
//    P<4096  <512:5 <1K:6 <8K:5 <16K:6 :5
//    else    <16:5 <32:6 <1K:5 <2K:6 <8K:5 <16K:6 :5
//  allgather  1 linear 2 bruck 3 recursive_doubling 4 ring 5 neighbor 6 two_proc
//    P==2    :6                          P<32    :3
//    P<64    <1K:3 <64K:5 :4             P<128   <512:3 <64K:5 :4
//    P<256   <512:3 <128K:5 <512K:4 <1M:5 :4
//    P<512   <32:3 <128:2 <1K:3 <128K:5 <512K:4 <1M:5 :4
//    P<1024  <64:3 <256:2 <2K:3 :5
//    P<2048  <4:3 <8:2 <16:3 <32:2 <256:3 <512:2 <4K:3 :5
//    P<4096  <32:2 <128:3 <512:2 <4K:3 :5
//    else    <2:3 <8:2 <16:3 <512:2 <4K:3 :5
//  alltoall  1 linear 2 pairwise 3 modified_bruck 4 linear_sync 5 two_proc
//    P==2    <2:2 <4:5 <16:2 <64:5 <256:2 <4K:5 <32K:2 <256K:4 <1M:5 :2
//    P<8     <8K:4 <16K:1 <64K:4 <512K:1 <1M:2 :1
//    P<16    <256K:4 :1
//    P<32    <4:4 <512:3 <8K:4 <32K:1 <256K:4 <512K:1 :4
//    P<64    <512:3 <512K:1 :4           P<128   <1K:3 <2K:1 <4K:4 <256K:1 :2
//    P<256   <1K:3 <2K:4 <256K:1 :2      P<512   <1K:3 <8K:4 <32K:1 :2
//    P<1024  <512:3 <8K:4 <16K:1 <128K:4 <256K:1 :2
//    P<2048  <512:3 <1K:4 <2K:1 <16K:4 <256K:1 :4
//    P<4096  <1K:3 <4K:4 <8K:1 <128K:4 :1
//    else    <2K:3 <8K:4 <16K:1 <32K:4 <64K:1 :4
//  barrier  1 linear 2 double_ring 3 recursive_doubling 4 bruck 5 two_proc 6 tree
//    P<4:3  P<8:1  P<64:3  P<256:4  P<512:6  P<1024:4  P<4096:6  else 4
//  gather  1 basic_linear 2 binomial 3 linear_sync
//    P<4     <2:3 <4:1 <32K:2 <64K:1 <128K:2 :3
//    P<8     <1K:2 <8K:1 <32K:2 <256K:1 :3
//    P<256   :2                          P<512   <2K:2 <8K:1 :2          else :2
//  scatter  1 basic_linear 2 binomial 3 linear_nb
//    P<4     <2:3 <128K:1 <256K:3 :1
//    P<8     <2K:2 <4K:1 <8K:2 <32K:1 <1M:3 :1
//    P<16    <16K:2 <1M:3 :1             P<32    <16K:2 <32K:1 :3
//    P<64    <512:2 <8K:3 <16K:2 :3      else    <512:2 :3
//
// Mapping to simfab's registry names. The fixed decisions call every algorithm with segsize 0
// and fan-in/out 0 (`..._do_this(..., alg, 0, 0)`), which OpenMPI's base algorithms read as
// "unsegmented" and, for chains, "fanout forced to 1 (pipeline)". So every decision here has
// segment_bytes = 0: the registry's fixed 64 KiB segmentation does not apply.
//   OpenMPI                          simfab            why
//   allreduce basic_linear           reduce-bcast      linear reduce + linear bcast; closest
//   allreduce nonoverlapping         reduce-bcast      reduce then bcast (OpenMPI's own decisions)
//   allreduce segmented_ring         ring              segsize 0: segcount = count, so OpenMPI's
//                                                      "count < size*segcount" switches to ring
//   bcast basic_linear               linear
//   bcast chain                      pipeline          chain fanout 0 is forced to 1 = pipeline
//   bcast knomial                    knomial4          coll_tuned_bcast_knomial_radix default 4
//   bcast split_binary_tree          split-binary
//   bcast scatter_allgather          scatter-allgather OpenMPI gathers by recursive doubling,
//                                                      simfab's by ring (= scatter_allgather_ring)
//   reduce chain                     pipeline          fanout 0 forced to 1
//   reduce in-order_binary           binary            same tree shape, in rank order
//   allgather two_proc               recursive-doubling one exchange at P = 2
//   allgather neighbor               neighbor-exchange
//   alltoall linear                  basic-linear
//   alltoall modified_bruck          bruck
//   alltoall linear_sync             basic-linear      OpenMPI's max_requests defaults to 0 =
//                                                      all P-1 requests outstanding = basic linear
//   alltoall two_proc                pairwise          one exchange at P = 2
//   barrier linear                   tree              fan-in to 0 then fan-out; simfab's is binomial
//   barrier bruck                    dissemination     same pattern (send to r+2^k, recv from r-2^k)
//   barrier two_proc                 recursive-doubling
//   gather/scatter basic_linear, gather linear_sync, scatter linear_nb
//                                    schedgen          simfab's linear gather/scatter pattern
//
// Count fallbacks. The fixed decision calls the algorithm of the table (segsize 0), and some of
// OpenMPI's algorithms then check the element count (count = total_bytes / type_size; pof2 =
// the largest power of two <= P) and run another one. select_ompi returns the algorithm that
// actually runs (ompi_executed_algorithm_id), ompi_tuned_algorithm_id the table's choice:
//   allreduce 5 segmented_ring   segcount = count (segsize 0), so count < P*segcount always:
//                                -> 4 ring                       (allreduce_intra_ring_segmented)
//   allreduce 4 ring             count < P     -> 3 recursive_doubling   (allreduce_intra_ring)
//   allreduce 6 rabenseifner     count < pof2  -> 1 basic_linear        (allreduce_intra_redscat_allgather)
//   reduce 7 rabenseifner        pof2 < 2 || count < pof2 -> 1 linear   (reduce_intra_redscat_gather)
//   bcast 8/9 scatter_allgather(_ring)  count < P -> 1 basic_linear     (bcast_intra_scatter_allgather)
//   bcast 4 split_binary_tree    count < 2 (a half is empty) -> 2 chain (bcast_intra_split_bintree)
// (source: OpenMPI v4.1.x ompi/mca/coll/base/coll_base_{allreduce,reduce,bcast}.c). P = 1 runs no
// communication and keeps the table's choice. E.g. P = 4, one MPI_DOUBLE (8 B): the table says
// ring (P<8, <16 B), count 1 < 4 makes it recursive doubling; 8 MPI_CHARs keep the ring.
// No other algorithm of the tables looks at count in a way that changes its messages (the
// allgather/alltoall/gather/scatter ones and the unsegmented trees move whole buffers or
// blocks); OpenMPI cuts blocks in whole elements where simfab cuts bytes (split.hpp).
#pragma once

#include "core/sim_time.hpp"
#include "mpi/coll/registry.hpp"

namespace simfab::coll {

struct CollDecision {
  const char* algorithm;  // a name of coll_algorithms(op)
  Bytes segment_bytes;    // 0 = unsegmented
};

// What OpenMPI 4.1's tuned component runs for `op` on `comm_size` ranks with `total_bytes` as
// defined above (CollCall::bytes) of `type_size`-byte elements (CollCall::type_size; 1 = MPI_BYTE),
// count fallbacks included. comm_size < 1 is treated as 1, type_size 0 as 1.
CollDecision select_ompi(CollOp op, int comm_size, Bytes total_bytes, Bytes type_size = 1);

// The table's decision as OpenMPI's own algorithm id (the numbers of the tables above), before
// the count fallbacks and the mapping to simfab names; for tests and reports.
int ompi_tuned_algorithm_id(CollOp op, int comm_size, Bytes total_bytes);
// The id of the algorithm that runs: ompi_tuned_algorithm_id after the count fallbacks above.
int ompi_executed_algorithm_id(CollOp op, int comm_size, Bytes total_bytes, Bytes type_size = 1);

}  // namespace simfab::coll
