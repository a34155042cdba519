// MPI_Scan and MPI_Exscan algorithms as per-rank point-to-point graphs (fragment.hpp). P ranks,
// n bytes per rank's buffer, reductions charged through reduce_after (reduce_cost.hpp).
//
// Data layout for check_collective(kScan / kExscan, P, 0, k, ...) (check.hpp): 2k segments,
//   [0, k)   recvbuf: the result (MPICH's recvbuf, OpenMPI's rbuf)
//   [k, 2k)  the partial sum a rank sends on (MPICH's partial_scan; the chain exscan's
//            reduce_buffer, which starts as a copy of sbuf)
// None of these algorithms pipelines: every message carries the whole buffer, all k segments of
// one of the two runs; k > 1 only makes the checker prove the annotation covers every segment.
// A received buffer (MPICH's tmp_buf) that the receiver merges into BOTH runs is one receive
// listing [k, 2k) then [0, k) (check.hpp's fan-out).
//
// linear scan (chain)  OpenMPI 4.1 coll_base_scan.c ompi_coll_base_scan_intra_linear (and
//                      coll_basic_scan): rank 0 sends its buffer to rank 1; rank r > 0 receives
//                      the prefix {0..r-1} from r-1 into recvbuf, reduces its own into it, and,
//                      unless it is the last rank, sends {0..r} on to r+1. Uses [0, k) only.
//   P-1 messages of n bytes; P-1 reductions of n (ranks 1..P-1); P-1 rounds.
//
// linear exscan (chain) OpenMPI 4.1 coll_basic_exscan.c: rank 0 sends sbuf to rank 1; rank
//                      0 < r < P-1 receives the prefix {0..r-1} from r-1 into recvbuf, reduces it
//                      into a copy of its sbuf (reduce_buffer = [k, 2k): {0..r}) and sends that to
//                      r+1; rank P-1 only receives. (The receive lands in both runs: recvbuf gets
//                      the prefix, reduce_buffer its sum with sbuf; the last rank's receive
//                      replaces its scratch run, which holds nothing it needs.)
//   P-1 messages of n bytes; P-2 reductions of n (ranks 1..P-2; none when P <= 2); P-1 rounds.
//
// recursive doubling scan   MPICH 4.x scan_intra_recursive_doubling.c (commutative op; OpenMPI
//                      4.1 ompi_coll_base_scan_intra_recursivedoubling is the same exchange).
//   Round i = 0, 1, ..., mask = 2^i < P: rank r exchanges partial_scan with dst = r ^ mask if
//   dst < P (MPIC_Sendrecv; no partner: the round is skipped). The upper rank (r > dst)
//   reduces the received tmp_buf into partial_scan AND recvbuf; the lower one into partial_scan
//   only. Before round i, partial_scan at r = its aligned 2^i-block {b .. b+2^i-1} (clipped to
//   P), recvbuf = {b .. r}: the lower half of a pair sends exactly what the upper half's prefix
//   lacks.
// recursive doubling exscan MPICH 4.x exscan_intra_recursive_doubling.c: the same exchange,
//   but recvbuf starts empty (not {r}): an upper rank COPIES tmp_buf into recvbuf the first time
//   (the round of r's lowest set bit, so every r > 0 gets one) and reduces it in afterwards.
//   Rank 0's recvbuf is never written (MPI leaves it undefined).
// Closed forms for both, with partners(r) = #{i : 2^i < P, r ^ 2^i < P} and pairs = (1/2) sum_r
// partners(r) (P = 2^m: partners = m for every rank, pairs = P m / 2):
//   messages: partners(r) of n bytes from rank r, 2 pairs in all; rounds (critical path in
//   hops): ceil(log2 P) (0 for P = 1).
//   reductions: per pair, n at the lower rank and 2n at the upper one: 3 n pairs in all for
//   the scan; the exscan saves one n per rank r > 0 (the first copy): 3 n pairs - n (P-1).
//   Each rank charges its reductions of a round as one calc after that round's receive.
// Complexity: O(1) ops per rank for the chains, 3 per round (send, recv, calc) for recursive
// doubling: O(log P). Fan-out segment lists are only built while tracking (check.hpp).
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/reduce_cost.hpp"

namespace simfab::coll {

// REQUIRES (all): size >= 1, 0 <= rank < size, segments >= 1 (check.hpp's k).
void scan_linear(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost, uint32_t segments = 1);
void scan_recursive_doubling(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost,
                             uint32_t segments = 1);
void exscan_linear(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost, uint32_t segments = 1);
void exscan_recursive_doubling(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost,
                               uint32_t segments = 1);

}  // namespace simfab::coll
