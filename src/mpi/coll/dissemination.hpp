// Dissemination (Hensgen, Finkel & Manber 1988), exactly as LogGOPSim's Schedgen generates it
// (create_dissemination_rank; seed 004 §2.5 and §3.2; research notes B.5). Schedgen uses it for
// MPI_Barrier (1 byte), MPI_Allreduce and MPI_Allgather (count x datatype size per round, without
// growth and without a reduction calc); replay does the same.
//
// Pattern, rank r of P, rounds k = 0, 1, ... while 2^k < P (ceil(log2 P) rounds):
//   send_k  to   (r + 2^k) mod P        send_k requires recv_{k-1}   (k > 0)
//   recv_k  from (r - 2^k) mod P        (no dependency: all receives are posted at once)
// Ops are appended in the order send_0, recv_0, send_1, recv_1, ... as Schedgen writes them.
// Closed form (LogGOPS, eager, s bytes, uncontended): every rank finishes after
// ceil(log2 P) * (o + L + o + max((s-1)O, (s-1)G)) when that term dominates g + (s-1)G; seed 004
// §3.2 checks 8 ranks, 180 B, o=50000, g=100000, G=6000, L=0: 3 x 1,174,000 = 3,522,000 ps.
//
// Not a barrier as a graph: send_k waits for recv_{k-1} only, so nothing orders recv_{k-2} before
// send_k, and what a rank forwards need not include what it heard two rounds ago
// (mpi/coll/check.hpp finds a rank of 6 that leaves without hearing from another). Timing is
// unaffected when rounds complete in order, which is why replay keeps Schedgen's exact pattern.
// dissemination_barrier adds recv_k requires recv_{k-1} (the order of MPICH's blocking
// sendrecv rounds), which makes every rank's exit causally follow every rank's entry.
//
// Complexity: 2 ceil(log2 P) ops and ceil(log2 P) - 1 edges per rank (2 ceil(log2 P) - 2 for the
// barrier), O(log P) time.
#pragma once

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

// REQUIRES: 0 <= rank < size.
void dissemination(Fragment& f, RankId rank, int size, Bytes bytes);
void dissemination_barrier(Fragment& f, RankId rank, int size, Bytes bytes);

}  // namespace simfab::coll
