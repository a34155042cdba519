// MPI_Barrier algorithms of OpenMPI 4.1 (ompi/mca/coll/base/coll_base_barrier.c); the
// dissemination (Bruck) barrier is mpi/coll/dissemination.hpp. Messages carry no data (`bytes`
// each, 0 in OpenMPI); a rank may leave once it has heard, directly or transitively, from every
// rank (what check_collective(kBarrier) proves).
//
//   function                     pattern                                             messages
//   tree_barrier                 fan-in to rank 0 over the binomial tree of          2(P-1)
//                                tree_shapes.hpp (a rank reports to its parent once
//                                all its children did), then fan-out down the same
//                                tree (barrier_intra_tree's up-then-down scheme)
//   linear_barrier               barrier_intra_basic_linear (SimGrid's            2(P-1)
//                                barrier__ompi_basic_linear, its default): rank 0
//                                posts a receive from every rank, waits, then
//                                sends to every rank; the others send to 0, then
//                                receive from 0 (the flat tree of tree_shapes.hpp)
//   smpi_ompi_tree_barrier       SimGrid's barrier__ompi_tree (barrier-ompi.cpp):  2(P-1)
//                                fan-in then fan-out on the binomial tree whose
//                                rank r meets partner r^jump for jump = 1, 2, 4..
//                                (up: the higher one sends) and back down in the
//                                reverse order, every call blocking; unlike
//                                tree_barrier, children come nearest first
//   recursive_doubling_barrier   barrier_intra_recursivedoubling: with Q the largest  Q log2 Q
//                                power of two <= P, rank r >= Q first reports to      + 2(P-Q)
//                                r-Q and waits for its release; r < P-Q waits for     (P log2 P
//                                r+Q's report; then the Q ranks exchange with r XOR   for P = 2^m)
//                                2^i for i = 0 .. log2 Q - 1 (a sendrecv per round,
//                                each round after the previous); finally r < P-Q
//                                releases r+Q.
//   double_ring_barrier          barrier_intra_doublering: a token goes twice round   2P (P >= 2)
//                                the ring 0 -> 1 -> ... -> P-1 -> 0; rank r > 0 waits
//                                for its left neighbour before passing it on, rank 0
//                                starts each lap and waits for its return.
// Critical path (hops): 2 floor(log2 P); log2 Q when P = Q, at most log2 Q + 2 otherwise; 2P.
#pragma once

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

// REQUIRES (all): 0 <= rank < size.
void tree_barrier(Fragment& f, RankId rank, int size, Bytes bytes = 0);
void linear_barrier(Fragment& f, RankId rank, int size, Bytes bytes = 0);
void smpi_ompi_tree_barrier(Fragment& f, RankId rank, int size, Bytes bytes = 0);
void recursive_doubling_barrier(Fragment& f, RankId rank, int size, Bytes bytes = 0);
void double_ring_barrier(Fragment& f, RankId rank, int size, Bytes bytes = 0);

}  // namespace simfab::coll
