// Recursive halving (reduce-scatter) and recursive doubling (allgather, or gather to one rank) over
// the pof2 survivors of a Pof2Fold (pof2_fold.hpp): the two halves of Rabenseifner's allreduce
// (MPICH 4.x allreduce_intra_reduce_scatter_allgather.c) and reduce (reduce_intra_reduce_scatter_
// gather.c), and MPICH's reduce_scatter_intra_recursive_halving.c.
//
// The buffer is cut into pof2 chunks. A survivor with virtual rank v starts holding all of them;
// in each of the log2(pof2) rounds it pairs with v ^ mask, halves its range [lo, hi), keeps the
// lower half when bit `mask` of v is 0 (the upper one otherwise), sends the other half and
// reduces the partner's copy of the kept half into its own (one MPI_Sendrecv + reduction):
//   round mask:  send [mid, hi) or [lo, mid)     recv + reduce the other half     mid = (lo+hi)/2
// It ends holding one chunk, reduced over the whole group. The allgather undoes the rounds in
// reverse mask order: the partner holds the sibling of the current range (the range of the same
// size just above when bit `mask` of v is 0, just below otherwise); send the range, receive the
// sibling (kReplace), hold both. The gather runs the same rounds towards one virtual rank `to`: of
// each pair, the rank whose bit `mask` differs from `to`'s sends its range and is done, the other
// receives the sibling (a binomial gather; `to` ends holding every chunk).
// Mask order: MPICH's allreduce goes near-first (mask = 1, 2, .., pof2/2), which leaves v with chunk
// bit_reverse(v); its reduce_scatter goes far-first (pof2/2, .., 1), which leaves v with chunk v,
// the block it must return.
//
// Chunks: `units` equal shares of `total` bytes (share(), split.hpp), k segments each; chunk i
// covers one unit, except that the first `merged` chunks cover two (2i, 2i+1): reduce_scatter's
// folded pairs, whose survivor computes its sitter's block too. Allreduce: units = pof2, merged 0.
// A range of chunks is a contiguous range of units, so every message is one run of segments.
//
// Closed forms (pof2 ranks, no fold, n bytes divisible by pof2): each half sends log2(pof2)
// messages per rank of n/2, n/4, .., n/pof2 bytes: n (pof2-1)/pof2 bytes per rank per half.
// Complexity: O(log P) ops and edges per rank.
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/pof2_fold.hpp"
#include "mpi/coll/reduce_cost.hpp"
#include "mpi/coll/split.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

enum class MaskOrder : uint8_t { kNearFirst, kFarFirst };

struct HalvingChunks {
  uint32_t units = 1;
  Bytes total = 0;
  uint32_t k = 1;       // segments per unit
  uint32_t merged = 0;  // chunks covering two units

  uint32_t unit(uint32_t chunk) const { return chunk < merged ? 2 * chunk : chunk + merged; }
  Segs segs(uint32_t lo, uint32_t hi) const { return Segs{unit(lo) * k, (unit(hi) - unit(lo)) * k}; }
  Bytes bytes(uint32_t lo, uint32_t hi) const {
    return share_offset(total, units, unit(hi)) - share_offset(total, units, unit(lo));
  }
};

struct ChunkRange {
  uint32_t lo = 0;
  uint32_t hi = 0;
};

// REQUIRES: 0 <= vrank < fold.pof2(); chunks.unit(fold.pof2()) == chunks.units. `held` receives
// the chunk the rank ends with. Returns the last round.
After halving_reduce_scatter(Fragment& f, const Pof2Fold& fold, int vrank, const HalvingChunks& chunks,
                             MaskOrder order, const ReduceCost& cost, After prev, ChunkRange& held);

// The usual opening of the three: fold_in of the whole buffer (chunks 0 .. pof2), then, on a
// survivor, the halving. Returns the last step so far; `held` is set on survivors only.
After fold_and_halve(Fragment& f, const Pof2Fold& fold, RankId rank, const HalvingChunks& chunks, MaskOrder order,
                     const ReduceCost& cost, ChunkRange& held);

// `order`: the order the halving used (the allgather runs it backwards); `held`: what it left.
After doubling_allgather(Fragment& f, const Pof2Fold& fold, int vrank, const HalvingChunks& chunks, MaskOrder order,
                         ChunkRange held, After prev);

// The gather to virtual rank `to` (REQUIRES: 0 <= to < fold.pof2()). Returns the rank's last step
// (its send, or for `to` the last receive).
After doubling_gather(Fragment& f, const Pof2Fold& fold, int vrank, const HalvingChunks& chunks, MaskOrder order,
                      ChunkRange held, int to, After prev);

}  // namespace simfab::coll
