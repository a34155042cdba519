// MPI_Reduce_scatter_block algorithms (equal blocks) of MPICH 4.x and OpenMPI 4.1, as per-rank
// point-to-point graphs (fragment.hpp). Every generator appends `rank`'s ops for `size` ranks
// (any size >= 1) that each end with the reduction of block `rank`, `block` bytes long; the
// vector is n = P * block bytes. Receives that combine data are Combine::kReduce and charge `cost`.
// Data layout for check_collective(kReduceScatter, P, 0, 1, ...) (check.hpp): P segments, block b
// = segment b. Closed forms per rank, for P a power of two where it matters.
//
// recursive halving    MPICH reduce_scatter_intra_recursive_halving.c (commutative ops).
//   fold (pof2_fold.hpp, the odd rank of a pair survives and computes both blocks); recursive
//   halving over pof2 chunks, masks pof2/2, .., 1 (recursive_halving.hpp), so virtual rank v ends
//   with chunk v = its own block (and its sitter's); the survivor sends the sitter its block.
//   log2 P messages of n/2, n/4, .., n/P bytes: n (P-1)/P = block (P-1) bytes. Not a power of two:
//   + one message of n per sitter in, one of `block` back.
// ring                 OpenMPI reduce_scatter_intra_ring: the reduce-scatter ring pass
//   (ring_passes.hpp) starting from block r-1, which leaves rank r with block r.
//   P-1 messages of `block` bytes: block (P-1) bytes.
// pairwise             MPICH reduce_scatter_intra_pairwise.c / reduce_scatter_block_intra_pairwise.c:
//   for i = 1 .. P-1: sendrecv (send my contribution to block r+i to rank r+i, receive rank r-i's
//   contribution to block r) and reduce it into block r. P-1 messages of `block` bytes.
// Complexity: O(log P) ops per rank (recursive halving), O(P) (ring, pairwise).
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/reduce_cost.hpp"

namespace simfab::coll {

// REQUIRES (all): size >= 1, 0 <= rank < size.
void reduce_scatter_recursive_halving(Fragment& f, RankId rank, int size, Bytes block, const ReduceCost& cost);
void reduce_scatter_ring(Fragment& f, RankId rank, int size, Bytes block, const ReduceCost& cost);
void reduce_scatter_pairwise(Fragment& f, RankId rank, int size, Bytes block, const ReduceCost& cost);

}  // namespace simfab::coll
