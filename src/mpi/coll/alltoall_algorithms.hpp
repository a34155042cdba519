// MPI_Alltoall algorithms of OpenMPI 4.1 (ompi/mca/coll/base/coll_base_alltoall.c) and MPICH 4.x
// (src/mpi/coll/alltoall/alltoall_intra_*.c) as point-to-point graphs (issue 4, part 3).
//
// Data (mpi/coll/check.hpp, alltoall row, k = 1): block (i, j), segment i*P + j, is what rank i
// sends to rank j, `block_bytes` each; rank r ends with blocks (i, r) for every i. Every message
// lists the (src, dst) blocks it carries. "Blocking sendrecv" steps are sendrecv_step of
// mpi/coll/step.hpp (sendrecv_list_step of list_step.hpp for the explicit lists of Bruck and
// ring). The own block (r, r) is a local copy (free); OpenMPI's
// pairwise runs it as a last sendrecv with itself, which simfab omits. Linear_alltoall of
// mpi/coll/linear.hpp (Schedgen's order: send to r+s, recv from r-s, interleaved) stays the
// Schedgen-compatible variant; alltoall_basic_linear below is OpenMPI's order.
//
// Closed forms per rank (every rank alike; "rounds" = the longest chain of messages):
//   algorithm       P     messages       blocks sent                          rounds
//   pairwise        any   P-1            P-1                                  P-1
//   Bruck           any   ceil(log2 P)   sum_{j<P} popcount(j)                ceil(log2 P)
//                                        (= (P/2) log2 P for P = 2^n)
//   basic linear    any   P-1            P-1                                  1
//   linear sync M   any   P-1            P-1                                  1
//   ring            any   P-1            P(P-1)/2                             P-1
//
// Patterns for rank r of P:
//   pairwise     step s = 1 .. P-1, blocking sendrecv: send (r, r+s) to r+s, recv (r-s, r) from
//                r-s (PairwisePartner::kShift: ompi_coll_base_alltoall_intra_pairwise, every P;
//                MPICH alltoall_intra_pairwise.c for P not a power of two). kXor: partner r XOR s
//                for P = 2^n, else the shift (MPICH alltoall_intra_pairwise.c).
//   Bruck        rotate so position j holds block (r, r+j); for d = 1, 2, 4, ... < P, blocking
//                sendrecv: send every position j with j & d to r+d, recv the same positions from
//                r-d; rotate back (ompi_coll_base_alltoall_intra_bruck; MPICH
//                alltoall_intra_brucks.c). Position j at rank h before step d holds the block
//                from src = h - (j & (d-1)) to src + j: it has moved by the lower bits of its
//                offset j. The message lists those global (src, dst) blocks, so the lists are
//                explicit (built only while tracking).
//   basic linear post every irecv, from r+1, r+2, ..., r-1, then every isend, to r-1, r-2, ...,
//                r+1 (ompi_coll_base_alltoall_intra_basic_linear). No `requires` edges; each send
//                `irequires` the last receive (the receives are posted first).
//   linear sync  the same order with at most M receives and M sends outstanding
//                (ompi_coll_base_alltoall_intra_linear_sync, max_outstanding_reqs = M): receive k
//                `requires` receive k-M, send k requires send k-M, and the first M sends irequire
//                receive M-1. OpenMPI refills a slot when MPI_Waitany returns any request of
//                that kind; the graph assumes they complete in posting order. M <= 0 or
//                M >= P-1 posts everything at once: that is basic linear.
//   ring         store-and-forward along r -> r+1 (no library in scope ships it; SimGrid's
//                "alltoall-ring" is the pairwise pattern): step t = 1 .. P-1, blocking sendrecv,
//                send to r+1 the P-t blocks from src r-t+1 that still have to travel, (src,
//                src+o) for o = t .. P-1; recv from r-1 the P-t blocks from src r-t. Block
//                (s, s+o) makes o hops, so the volume is quadratic: a baseline, not a contender.
//
// Complexity: O(steps) ops and edges; Bruck and ring allocate their lists only while tracking.
#pragma once

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

enum class PairwisePartner : uint8_t {
  kShift,  // to r+s, from r-s (OpenMPI 4.1)
  kXor,    // r XOR s when P is a power of two, else kShift (MPICH 4.x)
};

// REQUIRES (all): 0 <= rank < size.
void alltoall_pairwise(Fragment& f, RankId rank, int size, Bytes block_bytes,
                       PairwisePartner partner = PairwisePartner::kShift);
void alltoall_bruck(Fragment& f, RankId rank, int size, Bytes block_bytes);
void alltoall_basic_linear(Fragment& f, RankId rank, int size, Bytes block_bytes);
// `max_outstanding`: M above (<= 0: unlimited).
void alltoall_linear_sync(Fragment& f, RankId rank, int size, Bytes block_bytes, int max_outstanding);
void alltoall_ring(Fragment& f, RankId rank, int size, Bytes block_bytes);

// Blocks a Bruck message carries at step distance d: #{ j < size : j & d }. REQUIRES: d = 2^i.
uint32_t alltoall_bruck_blocks(int size, int d);

}  // namespace simfab::coll
