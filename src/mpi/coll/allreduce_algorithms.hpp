// MPI_Allreduce algorithms of MPICH 4.x and OpenMPI 4.1, as per-rank point-to-point graphs
// (fragment.hpp). Every generator appends `rank`'s ops for an allreduce of `bytes` bytes on
// `size` ranks (any size >= 1); each receive that combines data is Combine::kReduce and charges
// `cost` per byte (reduce_after, reduce_cost.hpp). Closed forms below are per rank, for P a power
// of two (pof2) dividing n = bytes; with P not a power of two the fold (pof2_fold.hpp) adds one
// message of n per folded rank before and after the core.
//
// Data layout for check_collective(kAllreduce, P, 0, k, ...) (check.hpp): the buffer is cut into
// k segments (k chosen by the algorithm, given next to each; the *_segments() functions return it).
//
// recursive doubling   MPICH allreduce_intra_recursive_doubling.c; OpenMPI
//                      allreduce_intra_recursivedoubling (which folds the other way).  k = 1.
//   fold; for mask = 1, 2, .., pof2/2: sendrecv the whole buffer with vrank ^ mask, reduce; unfold.
//   log2 P messages of n bytes; n log2 P bytes.
// Rabenseifner         MPICH allreduce_intra_reduce_scatter_allgather.c; OpenMPI
//                      allreduce_intra_redscat_allgather.  k = pof2 (MPICH's pof2 chunks of
//                      count/pof2 elements; the fold's ranks own no chunk).
//   fold; recursive halving reduce-scatter (masks 1, 2, ..), recursive doubling allgather
//   (masks .., 2, 1; recursive_halving.hpp); unfold.
//   2 log2 P messages; 2 n (P-1)/P bytes.
// ring                 OpenMPI allreduce_intra_ring.  k = P (block b = segment b).
//   reduce-scatter ring pass from block r, then allgather ring pass from block r+1
//   (ring_passes.hpp). 2(P-1) messages of n/P bytes; 2 n (P-1)/P bytes. (OpenMPI falls back to
//   recursive doubling when count < P, an element count: the registry's business, registry.hpp.)
// segmented ring       OpenMPI allreduce_intra_ring_segmented.  k = P * segments (piece ph of
//                      block b = segment b*segments + ph).
//   `segments` reduce-scatter ring passes, one per piece of every block (OpenMPI's "phases":
//   num_phases = block count / segcount, segcount from the segment size), then one allgather ring
//   pass of whole blocks. segments (P-1) messages of n/(P segments) bytes + (P-1) of n/P;
//   2 n (P-1)/P bytes. segments = 1 is the plain ring.
// reduce + bcast       MPICH's and OpenMPI's fallback composition (OpenMPI
//                      allreduce_intra_nonoverlapping): binomial reduce to rank 0 then binomial
//                      bcast from it (binomial.hpp), the bcast starting on each rank when its
//                      share of the reduce is done.  k = 1.
//   P-1 messages of n in each tree; rank 0 reduces ceil(log2 P) times.
// Complexity: O(log P) ops per rank for the recursive ones, O(P * segments) for the rings.
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/reduce_cost.hpp"

namespace simfab::coll {

// REQUIRES (all): size >= 1, 0 <= rank < size; segments >= 1.
void allreduce_recursive_doubling(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost);
void allreduce_rabenseifner(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost);
void allreduce_ring(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost);
void allreduce_ring_segmented(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost,
                              uint32_t segments);
void allreduce_reduce_bcast(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost);

// The k of each layout.
uint32_t allreduce_rabenseifner_segments(int size);
uint32_t allreduce_ring_segments(int size, uint32_t segments = 1);

}  // namespace simfab::coll
