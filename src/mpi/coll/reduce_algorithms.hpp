// MPI_Reduce algorithms of OpenMPI 4.1 (ompi/mca/coll/base/coll_base_reduce.c) and MPICH 4.x
// (src/mpi/coll/reduce/), on the shapes of mpi/coll/tree_shapes.hpp. P ranks, n bytes, S >= 1
// segments (the buffer cut by share(); piece s is checker segment s, layout k = S). Every
// receive combines (Combine::kReduce) and is followed by reduce_after(), so a rank with c
// children in the tree charges exactly c * n * ps_per_byte of calc (summed over its pieces).
//
//   function               pattern                                              messages   volume
//   linear_reduce          every rank sends n to the root (basic_linear)        P-1        (P-1) n
//   knomial_reduce(k, S)   tree_up on the in-order k-nomial tree (k = 2: the     (P-1) S    (P-1) n
//                          binomial reduce_intra_binomial / MPICH
//                          reduce_intra_binomial.c; k > 2: MPICH's k-nomial
//                          ireduce_tsp_tree.c)
//   binary_reduce(S)       tree_up on the binary tree (reduce_intra_binary)     (P-1) S    (P-1) n
//   chain_reduce(S, c)     tree_up on c chains (reduce_intra_chain; c = 1:      (P-1) S    (P-1) n
//                          reduce_intra_pipeline)
//   rabenseifner_reduce    MPICH reduce_intra_reduce_scatter_gather.c (OpenMPI  see below
//                          reduce_intra_redscat_gather): Q = the largest power
//                          of two <= P, R = P - Q, the buffer cut into Q chunks
//                          (chunk i = segment i, share(n, Q, i); layout k = Q).
//     1. fold: odd ranks r < 2R send all n to r-1 (which reduces) and drop out (MPICH's reduce
//        keeps the even rank of a pair); the Q others are renumbered q = r/2 (r < 2R) or r - R.
//     2. reduce-scatter by recursive halving, masks m = 1, 2, .. Q/2: q and q^m hold the same
//        chunk range; the lower keeps its lower half, the upper its upper half; each sends the
//        half it gives away and reduces the half it keeps. q ends with one chunk, fully reduced.
//     3. binomial gather to the root's number (the root, or root-1 for an excluded odd root),
//        masks m = Q/2 .. 1: of the pair q, q^m the one that differs from the root's number in
//        bit m sends its whole range (kReplace) and is done. An excluded root then receives the
//        whole result from root-1.
//     Messages: R + Q log2 Q + Q - 1 (+1 when the root is excluded). Volume (Q | n):
//     R n + (Q-1) n + n log2(Q) / 2 (+ n). Reduce receives: R of n bytes, then n/2, n/4, .., n/Q.
// A rank sends piece s to its parent once it has combined piece s of every child, so a chain
// pipelines: the critical path is P-1 hops for c = 1 whatever S, and in time about P-1+S-1
// piece transfers.
// The reduction is assumed commutative (children combine in arrival order), as in OpenMPI's
// generic tree reduce; the calc of each child is charged after its receive.
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/reduce_cost.hpp"

namespace simfab::coll {

// REQUIRES (all): 0 <= rank, root < size; segments >= 1; radix >= 2; chains >= 1.
void linear_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, const ReduceCost& cost = {});
void knomial_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, int radix, uint32_t segments = 1,
                    const ReduceCost& cost = {});
void binary_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, uint32_t segments = 1,
                   const ReduceCost& cost = {});
void chain_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, uint32_t segments, int chains = 1,
                  const ReduceCost& cost = {});
void rabenseifner_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, const ReduceCost& cost = {});
// Q above: the largest power of two <= size (the checker's k for rabenseifner_reduce).
int rabenseifner_chunks(int size);

}  // namespace simfab::coll
