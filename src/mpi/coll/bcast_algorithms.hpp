// MPI_Bcast algorithms of OpenMPI 4.1 (ompi/mca/coll/base/coll_base_bcast.c) and MPICH 4.x
// (src/mpi/coll/bcast/), on the shapes of mpi/coll/tree_shapes.hpp. P ranks, n bytes, S >= 1
// segments: the buffer is cut into S pieces by share() and piece s is checker segment s (so the
// check_collective layout has k = S, or k = 2S for split_binary_bcast, k = P for
// scatter_allgather_bcast). Every rank is a virtual rank v = (rank - root) mod P.
//
//   function                   pattern                                          messages        volume
//   linear_bcast               the root sends n to each rank (basic_linear)     P-1             (P-1) n
//   knomial_bcast(k, S)        tree_down on the in-order k-nomial tree          (P-1) S         (P-1) n
//                              (bcast_intra_knomial; k = 2: binomial)
//   binary_bcast(S)            tree_down on the binary tree (bcast_intra_bintree; (P-1) S        (P-1) n
//                              S > 1: OpenMPI's segmented binary tree)
//   chain_bcast(S, c)          tree_down on c chains hanging off the root       (P-1) S         (P-1) n
//                              (bcast_intra_chain; c = 1: bcast_intra_pipeline)
//   split_binary_bcast(S)      bcast_intra_split_bintree: half h of the buffer  (P-1)(S+1)      (P-1) n
//                              (segments [hS, hS+S)) goes down the root's h-th  (P >= 2)
//                              subtree (left: odd vranks get half 0, right: even
//                              vranks half 1), pipelined in S pieces; then each
//                              odd vrank v swaps halves with v+1 (one message of
//                              its whole half each way); when P is even the
//                              last vrank P-1 has no partner and the root sends
//                              it half 1 instead.
//   scatter_allgather_bcast    van de Geijn (MPICH bcast_intra_scatter_ring_     P-1 + P(P-1)    n (log2 P)/2
//                              allgather.c): a binomial scatter of the P chunks  = P^2 - 1       + (P-1) n
//                              (chunk j = share(n, P, j) = segment j, owned by                   (P = 2^m,
//                              vrank j; each message carries the receiver's                      P | n)
//                              subtree of chunks), then a ring allgather: in
//                              step i = 0 .. P-2, vrank v sends chunk v-i to
//                              v+1 and receives chunk v-i-1 from v-1 (mod P),
//                              one blocking MPIC_Sendrecv per step (sendrecv_step).
// Critical path in hops (checker rounds), any S: k-nomial: the most non-zero base-k digits of
// a vrank below P (binomial: floor(log2 P)); binary: floor(log2 P); chain: ceil((P-1)/c). In time, with S pieces the last
// piece reaches depth D after about D + S - 1 piece transfers (pieces share the links).
// Phases of a composed algorithm are sequenced with then_after (blocking calls in the source).
#pragma once

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

// REQUIRES (all): 0 <= rank, root < size; segments >= 1; radix >= 2; chains >= 1.
void linear_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes);
void knomial_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, int radix, uint32_t segments = 1);
void binary_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, uint32_t segments = 1);
void chain_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, uint32_t segments, int chains = 1);
void split_binary_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, uint32_t segments = 1);
void scatter_allgather_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes);

}  // namespace simfab::coll
