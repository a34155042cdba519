// MPI_Gather / MPI_Scatter algorithms of OpenMPI 4.1 (ompi/mca/coll/base/coll_base_gather.c,
// coll_base_scatter.c; MPICH 4.x gather/gather_intra_binomial.c and scatter/
// scatter_intra_binomial.c have the same shape). P ranks, b bytes per rank's block, checker
// layout P*k (block r = rank r's data; k = 1 except linear_sync_gather, k = 2).
//
//   binomial_gather / binomial_scatter (gather_intra_binomial / scatter_intra_binomial): the
//     in-order binomial tree of tree_shapes.hpp (build_in_order_bmtree), whose subtree at vrank
//     v is the contiguous vranks [v, v + m), m = knomial_subtree(v, P, 2) = min(lowbit(v), P-v).
//     Gather: v receives its children's runs (any order), then sends its whole run of m blocks
//     to its parent in one message (requiring every child's recv). Scatter: the mirror; v
//     receives its run, then sends each child its run (largest first). Each message lists every
//     block it carries (the real ranks of its vranks).
//     Messages: P-1. Volume: b * (sum over v > 0 of min(lowbit(v), P-v)) = b (P/2) log2 P when
//     P = 2^m. Critical path: floor(log2 P) hops.
//   linear_sync_gather(first) (gather_intra_linear_sync): block r is two segments, its first
//     min(first, b) bytes (segment 2r) and the rest (segment 2r+1). The root, for each other rank
//     i in rank order: posts the recv of i's first segment, sends i a zero-byte sync (a blocking
//     send: it irequires that recv), posts the recv of i's rest (requiring the sync, which orders
//     it after the first segment's recv, as FIFO matching needs), and waits for the first segment
//     before moving on to the next rank. A
//     non-root waits for the sync, sends its first segment, then its rest.
//     Messages: 3(P-1) (P-1 of them zero-byte). Volume: (P-1) b.
//
// binomial_blocks is the shared in-order binomial scatter/gather of P runs; BlockNaming says how
// vrank v's block is named and sized: kRanks, segment rank_of_vrank(v) of b bytes (this file);
// kChunks, segment v of share(b, P, v) bytes (the chunks of scatter_allgather_bcast);
// kCeilChunks, segment v of MPICH's scatter_for_bcast: bytes [v c, min((v + 1) c, b)) with c =
// ceil(b / P), so the last vranks may hold nothing, and a run of nothing is not sent at all (MPICH
// skips the send and the receive).
#pragma once

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

enum class BlockFlow : uint8_t { kGather, kScatter };
enum class BlockNaming : uint8_t { kRanks, kChunks, kCeilChunks };
// The children's order and calls: kFarFirst, largest subtree first, each message waiting only for
// its data (OpenMPI/MPICH above); kNearFirstBlocking, nearest child (smallest subtree) first, one
// blocking Request::recv / Request::send after the other, as SimGrid 3.32's gather__ompi_binomial
// and scatter__ompi_binomial (src/smpi/colls/gather/gather-ompi.cpp, scatter/scatter-ompi.cpp)
// run them. Recorded (smpirun -replay, coll_smpi_test.cpp), P = 7, root 3, 100 B blocks, gather:
// 3: R4:100 R5:200 R0:300   0: R1 R2 S3:300   5: R6 S3:200; scatter mirrors it (3: S4 S5 S0).
// (SimGrid posts a non-leaf's scatter receive for the whole buffer; the message is the run.)
// kFarFirstBlocking: largest subtree first, each call blocking (MPICH's scatter_for_bcast as
// SimGrid 3.32 runs it, Request::send after Request::send).
enum class BlockOrder : uint8_t { kFarFirst, kNearFirstBlocking, kFarFirstBlocking };

// REQUIRES (all): 0 <= rank, root < size.
void binomial_blocks(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, BlockFlow flow, BlockNaming naming,
                     BlockOrder order = BlockOrder::kFarFirst);
void binomial_gather(Fragment& f, RankId rank, int size, RankId root, Bytes block);
void binomial_scatter(Fragment& f, RankId rank, int size, RankId root, Bytes block);
void linear_sync_gather(Fragment& f, RankId rank, int size, RankId root, Bytes block, Bytes first_segment);

}  // namespace simfab::coll
