// SimGrid 3.32's allgather__NTSLR_NB (src/smpi/colls/allgather/allgather-NTSLR-NB.cpp), the
// logical ring with non-blocking calls that smpi-ompi picks as OpenMPI's algorithm 1: rank r posts
// P-1 irecvs from r-1 (tags tag+i), then for i = 0 .. P-2: isend block r-i to r+1, wait for irecv
// i, wait for that isend. P-1 messages of `block` bytes each way per rank.
// SimGrid's other allgather algorithms are the allgatherv ones with equal blocks
// (smpi_allgatherv.hpp: ring, pair, bruck = ompi_bruck, ompi_neighborexchange, rdb = mpich_rdb's
// exchange); registry.cpp maps them.
// Complexity: O(P) ops and edges per rank.
#pragma once

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

// REQUIRES: size >= 1, 0 <= rank < size.
void smpi_allgather_ntslr_nb(Fragment& f, RankId rank, int size, Bytes block);

}  // namespace simfab::coll
