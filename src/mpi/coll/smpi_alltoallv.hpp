// SimGrid 3.32's alltoallv algorithms beyond the default (smpi_linear.hpp's ialltoallv pattern,
// which is also alltoallv__ompi_basic_linear's: every irecv, then every isend, rank order, one
// waitall), as the smpi-ompi and smpi-mpich selectors pick them (select_smpi.hpp). Rank r sends
// send(j) bytes to rank j and receives recv(j) from it; a rank never messages itself unless said.
//
//   function                 SimGrid 3.32 source (src/smpi/colls/alltoallv/)   pattern
//   smpi_alltoallv_bruck     alltoallv-bruck.cpp   groups of 4 (MPIR_PARAM_ALLTOALL_THROTTLE): for
//                            ii = 0, 4, 8..: irecv from r+ii .. r+ii+3, isend to r-ii .. r-ii-3 (mod P,
//                            self skipped), waitall; the next group starts when that one completed
//                            to_self: SimGrid's alltoall__mvapich2_scatter_dest (alltoall-mvapich-
//                            scatter-dest.cpp, MV2_ALLTOALL_THROTTLE_FACTOR 4), the same groups with the
//                            rank's own block included: an irecv and an isend to itself, which SMPI
//                            sends as messages (recorded: P = 5, rank 0: R0 R1 R2 R3 S0 S4 S3 S2, R4 S1)
//   smpi_alltoallv_pair      alltoallv-pair.cpp    for i = 1 .. P-1: sendrecv with r^i (P a power of
//                            two; SimGrid throws otherwise, simfab runs bruck's exchange instead)
// Recorded with smpirun -replay --cfg=smpi/coll-selector:mpich (coll_smpi_test.cpp): P = 5,
// rank 0: R1 R2 R3 S4 S3 S2 (group 0), then R4 S1 (group 1).
// Complexity: O(P) ops per rank, O(P) edges per group boundary.
#pragma once

#include "mpi/coll/smpi_linear.hpp"

namespace simfab::coll {

// REQUIRES (all): size >= 1, 0 <= rank < size; non-empty spans have `size` entries.
void smpi_alltoallv_bruck(Fragment& f, RankId rank, int size, PerRank send, PerRank recv, bool to_self = false);
void smpi_alltoallv_pair(Fragment& f, RankId rank, int size, PerRank send, PerRank recv);

}  // namespace simfab::coll
