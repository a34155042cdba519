// MPI_Allgather algorithms of OpenMPI 4.1 (ompi/mca/coll/base/coll_base_allgather.c) and MPICH 4.x
// (src/mpi/coll/allgather/allgather_intra_*.c) as point-to-point graphs (issue 4, part 3).
//
// Data (mpi/coll/check.hpp, allgather row, k = 1): segment i is rank i's block of `block_bytes`;
// rank r starts with block r and ends with all P blocks. Every message lists the blocks it
// carries. Each step is a blocking sendrecv (sendrecv_step of mpi/coll/step.hpp; Bruck's wrapping
// lists use sendrecv_list_step of mpi/coll/list_step.hpp); local copies (the own block into
// place, Bruck's final rotation) are free. Ring is the allgather pass of mpi/coll/ring_passes.hpp
// (the second half of OpenMPI's ring allreduce) started at the own block. Linear (every rank
// sends its block to every other, no dependencies) is linear_allgatherv in mpi/coll/linear.hpp.
//
// Closed forms per rank (every rank alike; "rounds" = the longest chain of messages):
//   algorithm           P        messages = rounds   message i carries          blocks sent
//   ring                any      P-1                 1 block                    P-1
//   recursive doubling  2^n      log2 P              2^i blocks                 P-1
//   Bruck               any      ceil(log2 P)        min(2^i, P-2^i) blocks     P-1
//   neighbour exchange  even     P/2                 1 block (i=0), else 2      P-1
// Bytes sent per rank are always (P-1) * block_bytes; they differ in latency terms and in which
// links they load.
//
// Patterns for rank r of P, step i = 0, 1, ...:
//   ring       send block (r-i) to r+1, recv block (r-i-1) from r-1 (ompi_coll_base_allgather_
//              intra_ring; MPICH allgather_intra_ring.c).
//   recursive  partner r XOR 2^i; send the 2^i blocks [r & ~(2^i-1), +2^i) gathered so far, recv
//   doubling   the partner's 2^i (ompi_coll_base_allgather_intra_recursivedoubling). OpenMPI calls
//              Bruck instead when P is not a power of two; MPICH's allgather_intra_recursive_
//              doubling.c adds a tree fix-up for that case, which simfab does not model: the
//              selector falls back to Bruck, as OpenMPI does.
//   Bruck      d = 2^i: send the first min(d, P-d) blocks of the rotated buffer, blocks
//              r, r+1, ... (mod P), to r-d; recv blocks r+d, r+d+1, ... from r+d
//              (ompi_coll_base_allgather_intra_bruck; MPICH allgather_intra_brucks.c sends
//              2^i blocks per full step and P - 2^i in the last, the same counts). The lists
//              wrap around P, so they are explicit segment lists (built only while tracking).
//   neighbour  (Chen et al. 2005; ompi_coll_base_allgather_intra_neighborexchange) even ranks
//   exchange   pair with r+1 first, odd ones with r-1; step 0 swaps the own block; step i >= 1
//              swaps the two blocks received in step i-1 with the other neighbour, alternating.
//              The pair of blocks starts at an even index, so it never wraps. OpenMPI calls ring
//              instead for odd P; simfab's selector does the same.
//
// Complexity: O(steps) ops and edges; Bruck allocates its lists only while tracking data.
#pragma once

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

// REQUIRES (all): 0 <= rank < size.
void allgather_ring(Fragment& f, RankId rank, int size, Bytes block_bytes);
// REQUIRES: size is a power of two.
void allgather_recursive_doubling(Fragment& f, RankId rank, int size, Bytes block_bytes);
void allgather_bruck(Fragment& f, RankId rank, int size, Bytes block_bytes);
// REQUIRES: size is even.
void allgather_neighbor_exchange(Fragment& f, RankId rank, int size, Bytes block_bytes);

}  // namespace simfab::coll
