// SimGrid 3.32's reduce_scatter algorithms beyond the default (smpi_linear.hpp), as the smpi-ompi
// and smpi-mpich selectors pick them (select_smpi.hpp). Rank r ends with block r; `blocks(r)` is
// its size in bytes (MPI's recvcounts x type size, unequal blocks allowed). Calls are blocking
// unless said (smpi_steps.hpp); SimGrid's replay reduces nothing (MPI_OP_NULL), so no calc.
//
//   function                      SimGrid 3.32 source (src/smpi/colls/reduce_scatter/)   pattern
//   smpi_mpich_rdb_reduce_scatter reduce_scatter-mpich.cpp, reduce_scatter__mpich_rdb      recursive doubling: at mask m,
//       sendrecv with r^m (when < P): send every block but those of my subtree [t, t+m) (t = r with the
//       low log2 m bits cleared), receive every block but those of the peer's subtree; when P is not a
//       power of two and the peer's subtree passes P, the subtree's ranks that had a partner forward
//       the received vector (the recvtype's size) to those that had none, in a halving tree (blocking).
//   smpi_mpich_pair_reduce_scatter reduce_scatter__mpich_pair                             for i = 1 .. P-1:
//       sendrecv (send block r+i to r+i, receive block r's share from r-i).
//   smpi_ompi_recursivehalving    reduce_scatter-ompi.cpp, ..._ompi_basic_recursivehalving  fold to the
//       largest power of two p' (even r < 2(P-p') send the whole vector to r+1, blocking); then for
//       m = p'/2 .. 1: irecv the kept half, blocking send of the other half, wait (a rank with nothing
//       to send or receive skips); then the odd folded ranks send their partner its block.
//   smpi_ompi_ring_reduce_scatter reduce_scatter__ompi_ring                                irecv of max(blocks)
//       from r-1 and a blocking send of block r-1 to r+1; then for k = 2 .. P-1: irecv, wait for the
//       previous receive, blocking send of block r-k; wait for the last receive.
//   smpi_ompi_butterfly_reduce_scatter reduce_scatter__ompi_butterfly (Traff's butterfly)     fold as recursive
//       halving (even r < 2(P-p') send the whole vector to r+1 and drop out); then for mask = 1, 2 ..
//       p'/2 one sendrecv with vrank v^mask: the half of the current blocks whose bit `mask` differs
//       from v is sent (each folded block v < P-p' is ranks 2v and 2v+1's blocks), the other half
//       received, zero bytes included; v ends with folded block mirror(v) (log2 p' bits reversed) and
//       gives it to the rank playing mirror(v): first (blocking send) the dropped even rank's block when
//       mirror(v) < P-p', then a sendrecv of its own block for v's (none when mirror(v) = v). A dropped
//       rank r receives block r from the rank playing mirror(r/2).
// Recorded with smpirun -replay (coll_smpi_test.cpp): P = 4, blocks 8, 16, 24, 32 bytes:
//   mpich_rdb rank 0: S1:72 R1:64 S2:56 R2:24; ompi_basic_recursivehalving rank 0: R2:24 S2:56 R1:8 S1:16.
//   ompi_butterfly, P = 6, blocks 8 .. 48 bytes, rank 4: S5:88 R5:80 S1:24 R1:56 S2:24 S3:32 R3:40.
// Messages per rank: log2 P (+ forwarding) for rdb, recursive halving and butterfly (+ 1 to 3 for
// the fold and the mirror exchange), P-1 for pair and ring.
// Complexity: O(P log P) (rdb's block sums), O(P) ops otherwise.
#pragma once

#include "mpi/coll/smpi_linear.hpp"

namespace simfab::coll {

// REQUIRES (all): size >= 1, 0 <= rank < size; a non-empty blocks.v has `size` entries.
void smpi_mpich_rdb_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks);
void smpi_mpich_pair_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks);
void smpi_ompi_recursivehalving_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks);
void smpi_ompi_ring_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks);
void smpi_ompi_butterfly_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks);

}  // namespace simfab::coll
