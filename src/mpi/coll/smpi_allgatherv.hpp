// SimGrid 3.32's allgatherv algorithms beyond the default (smpi_linear.hpp), as the smpi-ompi and
// smpi-mpich selectors pick them (select_smpi.hpp). Rank r sends `send` bytes (the trace's own
// count) and receives `recv(j)` from rank j (the recvcounts x type size); blocks are unequal.
// SimGrid's replay passes all-zero displacements (ReduceScatter/AllgatherV parsers), which only
// GB looks at. Calls are blocking unless said (smpi_steps.hpp); a rank never messages itself
// (SMPI copies locally; sendrecv to self sends nothing).
//
//   function                        SimGrid 3.32 source (src/smpi/colls/allgatherv/)   pattern
//   smpi_allgatherv_ring            allgatherv-ring.cpp                 for i = 1 .. P-1: sendrecv (send mine to
//                                                                       r+i, receive r-i's block)
//   smpi_allgatherv_pair            allgatherv-pair.cpp                 for i = 1 .. P-1: sendrecv with r^i (P a
//                                                                       power of two; SimGrid throws otherwise,
//                                                                       simfab runs the ring)
//   GB (registry.cpp)               allgatherv-GB.cpp                   gatherv to 0 (SimGrid's linear one), then
//                                                                       colls::bcast from 0 of max(recvcounts)
//                                                                       (displacements are 0), as the active
//                                                                       selector picks it
//   smpi_allgatherv_ompi_bruck      allgatherv-ompi-bruck.cpp           distance d = 1, 2, 4..: sendrecv (send
//                                                                       blocks r .. r+n-1 to r-d, receive blocks
//                                                                       r+d .. r+d+n-1 from r+d), n = min(d, P-d)
//   smpi_allgatherv_neighborexchange allgatherv-ompi-neighborexchange.cpp  odd P: the ring; else sendrecv of
//                                                                       my block with neighbour 0 (r+1 for even
//                                                                       r, r-1 for odd), then P/2-1 sendrecv of
//                                                                       two blocks alternating neighbours
//   smpi_allgatherv_mpich_ring      allgatherv-mpich-ring.cpp           blocks travel to r+1 in chunks of at
//                                                                       most max(min block, 256 KiB) bytes:
//                                                                       sendrecv, or send / recv alone when one
//                                                                       side has nothing left
//   smpi_allgatherv_mpich_rdb       allgatherv-mpich-rdb.cpp            recursive doubling: sendrecv with r^m of
//                                                                       what I hold, the receive posted for all
//                                                                       the blocks from the peer's subtree on;
//                                                                       P not a power of two: the holders send
//                                                                       what they last received to the others
// Recorded with smpirun -replay (coll_smpi_test.cpp), e.g. P = 5, 8-byte blocks of 10..14
// elements, mpich_ring rank 0: S1:80 R4:112 S1:112 R4:104 S1:104 R4:96 S1:96 R4:88.
// Complexity: O(P) ops per rank (ring, pair, mpich_ring per chunk), O(log P) otherwise; block sums
// O(P) per step; mpich_rdb replays every rank's held count (O(P log P)).
#pragma once

#include "mpi/coll/smpi_linear.hpp"

namespace simfab::coll {

// REQUIRES (all): size >= 1, 0 <= rank < size; a non-empty recv.v has `size` entries.
void smpi_allgatherv_ring(Fragment& f, RankId rank, int size, Bytes send, PerRank recv);
void smpi_allgatherv_pair(Fragment& f, RankId rank, int size, Bytes send, PerRank recv);
void smpi_allgatherv_ompi_bruck(Fragment& f, RankId rank, int size, PerRank recv);
void smpi_allgatherv_neighborexchange(Fragment& f, RankId rank, int size, Bytes send, PerRank recv);
// `type_size`: bytes per element (the pipeline chunk is counted in elements).
void smpi_allgatherv_mpich_ring(Fragment& f, RankId rank, int size, PerRank recv, Bytes type_size);
// `allgather`: the receives are posted as SimGrid's allgather__rdb (allgather-rdb.cpp, the same
// exchange for equal blocks) posts them: mask blocks, and one block per rank still missing.
void smpi_allgatherv_mpich_rdb(Fragment& f, RankId rank, int size, PerRank recv, bool allgather = false);

}  // namespace simfab::coll
