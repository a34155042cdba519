// The two passes of OpenMPI's ring algorithms (coll_base_allreduce.c: allreduce_intra_ring and
// allreduce_intra_ring_segmented; coll_base_reduce_scatter.c: reduce_scatter_intra_ring; OpenMPI
// 4.1). Rank r sends to r+1 and receives from r-1 (mod P); the buffer is P blocks.
//
// Reduce-scatter pass (P-1 messages per rank), starting with block `first`:
//   post irecv 0; send block first
//   for j = 1 .. P-2: post irecv j; wait irecv j-1; reduce it into block first-j; send block first-j
//   wait irecv P-2; reduce it into block first-(P-1) = first+1
// Receive j brings block first-1-j (mod P). OpenMPI double-buffers the receives (inbuf[2]): irecv j
// is posted after the blocking send j-1 returned, which itself followed reduction j-2 into the
// buffer irecv j reuses; so here irecv j requires send j-1 and send j requires reduction j-1.
// Program order, which MPI's FIFO matching needs (check.hpp): send j also requires send j-1 (the
// blocking MPI_Send j-1 returned before irecv j, wait j-1 and the reduction that precede send j;
// without it a rank whose receive j-1 came early issued its sends out of order and the neighbour
// matched them to the wrong receives), and irecv j irequires irecv j-1 (posted in loop order).
// The rank ends owning block first+1 reduced over all ranks: allreduce starts at first = r (owns
// r+1), reduce_scatter at first = r-1 (owns r).
// Allgather pass (P-1 MPI_Sendrecv, "distribution loop"), starting with block `first`:
//   for j = 0 .. P-2: send block first-j, receive block first-1-j (kReplace)
// Allreduce runs it with first = r+1, the block the reduce-scatter pass left complete.
//
// Pieces (allreduce_intra_ring_segmented): each block is cut into `pieces` pieces and the
// reduce-scatter pass runs once per piece ("phase"), each phase starting when the rank finished
// the previous one; ranks drift apart by phases, which is the pipelining. The allgather pass moves
// whole blocks.
// Segments: block b is segments [b*stride, (b+1)*stride), piece ph of it the stride/pieces segments
// from b*stride + ph*stride/pieces. Bytes: block b = share(total, P, b), piece ph of it
// share(block b, pieces, ph).
// Closed forms (n divisible by P): each pass sends P-1 messages of n/P bytes per rank (n/(P*pieces)
// for a reduce-scatter phase), n (P-1)/P bytes per rank per pass.
// Complexity: O(P) ops and edges per rank per pass.
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/reduce_cost.hpp"
#include "mpi/coll/split.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

struct RingBlocks {
  Bytes total = 0;
  uint32_t blocks = 1;  // P
  uint32_t stride = 1;  // segments per block
  uint32_t pieces = 1;  // divides stride

  Side piece(RankId peer, uint32_t b, uint32_t ph) const {
    const uint32_t per = stride / pieces;
    return Side{peer, share(share(total, blocks, b), pieces, ph), Segs{b * stride + ph * per, per}};
  }
  Side whole(RankId peer, uint32_t b) const { return Side{peer, share(total, blocks, b), Segs{b * stride, stride}}; }
};

// REQUIRES: 0 <= rank < size = blocks.blocks; ph < blocks.pieces. `first` may be any integer
// (taken mod P). Both return the step that ends the pass (`prev` when size == 1).
After ring_reduce_scatter_pass(Fragment& f, RankId rank, int size, const RingBlocks& blocks, uint32_t ph,
                               int first, const ReduceCost& cost, After prev);
After ring_allgather_pass(Fragment& f, RankId rank, int size, const RingBlocks& blocks, int first, After prev);

}  // namespace simfab::coll
