// Binomial trees for MPI_Bcast and MPI_Reduce, exactly as LogGOPSim's Schedgen generates them
// (create_binomial_tree_bcast_rank / create_binomial_tree_reduce_rank; seed 004 §2.5; research
// notes B.5).
//
// Virtual ranks: the tree is built for root 0 and then ranks 0 and `root` swap places
// (Schedgen's RANK2VRANK/VRANK2RANK swap only those two; every other rank keeps its number).
// Rounds r = 0 .. ceil(log2 P) - 1, with d = 2^r and v = the rank's virtual rank:
//   bcast   if v < d and v + d < P: send to v + d          (requires the recv, if there is one)
//           if d <= v < 2d:          recv from v - d
//   reduce  if v < d and v + d < P: recv from v + d        (the send requires it)
//           if d <= v < 2d:          send to v - d
// So the bcast root sends to 1, 2, 4, ... with no dependencies, and a non-root receives once from
// its parent, then forwards to its children at increasing distance. The reduce is the mirror:
// receives are posted at once, and the one send to the parent waits for every child. There is no
// calc for the reduction itself (Schedgen has none; replay appends the trace's compute amount).
// Schedgen re-emits `send requires recv` in every later round; duplicates do not change the
// semantics, so each edge is emitted once here.
//
// Closed form (bcast from root 0, only L > 0): rank r receives after L times its depth in the
// tree, depth = number of one bits of v (popcount), e.g. 8 ranks: 0 1 1 2 1 2 2 3 x L.
// Complexity: at most ceil(log2 P) sends + 1 recv (bcast) per rank, O(log P) time and edges.
#pragma once

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

// Schedgen's rank <-> virtual rank mapping (an involution: swaps 0 and root).
inline RankId binomial_vrank(RankId rank, RankId root) {
  if (rank == 0) return root;
  if (rank == root) return 0;
  return rank;
}

// REQUIRES: 0 <= rank, root < size. `data`: the segments every message carries (the whole
// buffer of a bcast/reduce, {0, 1}, unless composed into a larger collective).
void binomial_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, Segs data = {0, 1});
void binomial_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, Segs data = {0, 1});

}  // namespace simfab::coll
