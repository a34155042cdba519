// SimGrid 3.32's linear collectives: the non-blocking "nbc" implementations that its `default`
// selector runs for most collectives (src/smpi/colls/smpi_default_selector.cpp calls
// colls::igather, iscatter, ireduce, iallgather(v), ialltoallv and waits; smpi_nbc_impl.cpp),
// the fixed gatherv/scatterv/scan/exscan of src/smpi/colls/smpi_coll.cpp, and
// reduce_scatter__default (ireduce to rank 0 then scatterv). Every rank posts all its requests at
// once, in increasing rank order of the peers, and waits for all of them (MPI_Waitall): no edges
// between them, so they issue in fragment order. A rank never messages itself (SMPI copies
// locally). Zero-byte blocks are still sent (SMPI does not skip them).
//
//   function                    pattern (P ranks, peers in rank order, the own rank skipped)    SimGrid
//   smpi_linear_to_root         root: irecv from each rank; others: isend to the root             igather(v), ireduce
//   smpi_linear_from_root       root: isend to each rank; others: irecv from the root             iscatter(v), scatterv
//   smpi_linear_allgatherv      for each peer: isend my block, irecv its block                    iallgather(v)
//   smpi_linear_alltoallv       irecv from every peer, then isend to every peer                   ialltoallv
//   smpi_linear_scan            irecv from every lower rank, then isend to every higher one       scan, exscan
//   smpi_default_reduce_scatter smpi_linear_to_root (reduce of the whole vector to 0), then        reduce_scatter__default
//                               smpi_linear_from_root of each rank's block from 0 (blocking
//                               phases: the scatter starts when the reduce has completed)
// Recorded with `smpirun -replay ... --log=smpi_request.thres:verbose` (tests/unit/coll_smpi_test.cpp):
// P = 5, gather root 1: rank 1 posts R0 R2 R3 R4, ranks 0, 2, 3, 4 post S1.
//
// Data (check.hpp layouts, k = 1): gather/scatter/allgather blocks are ranks' blocks, alltoall's
// (src, dst) blocks, reduce's one segment (Combine::kReduce at the root), reduce_scatter's P
// blocks. Scan and exscan carry no segment list (each rank sends its own input, which the
// checker's scan layout cannot name apart from the prefix it accumulates).
// Messages: P-1 (to/from root), P(P-1) (allgatherv, alltoallv), P(P-1)/2 (scan), 2(P-1)
// (reduce_scatter). Complexity: O(P) ops per rank, no edges but the phase join.
#pragma once

#include <span>

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

// One byte count per rank: `each` for every rank, or v[r] when v is not empty.
struct PerRank {
  PerRank(Bytes b = 0) : each(b) {}  // NOLINT(google-explicit-constructor): a size converts
  PerRank(std::span<const Bytes> counts) : v(counts) {}  // NOLINT(google-explicit-constructor)
  Bytes operator()(RankId r) const { return v.empty() ? each : v[static_cast<size_t>(r)]; }

  Bytes each = 0;
  std::span<const Bytes> v;
};

// REQUIRES (all): 0 <= rank, root < size; non-empty spans hold `size` entries.
// `recv(r)`: what the root receives from rank r; `send`: what a non-root sends. `reduce`: the
// receives combine into one segment (ireduce) instead of filling rank r's block (igather).
void smpi_linear_to_root(Fragment& f, RankId rank, int size, RankId root, Bytes send, PerRank recv, bool reduce);
void smpi_linear_from_root(Fragment& f, RankId rank, int size, RankId root, PerRank send, Bytes recv);
void smpi_linear_allgatherv(Fragment& f, RankId rank, int size, Bytes send, PerRank recv);
void smpi_linear_alltoallv(Fragment& f, RankId rank, int size, PerRank send, PerRank recv);
void smpi_linear_scan(Fragment& f, RankId rank, int size, Bytes bytes);
// `blocks(r)`: rank r's block of the result; the reduce moves their sum.
void smpi_default_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks);

// Makes the ops appended since `begin` blocking calls, each waiting for the previous one (a
// `requires` chain). SimGrid 3.32's gather__ompi_basic_linear and scatter__ompi_basic_linear
// (gather-ompi.cpp, scatter-ompi.cpp) send igather's / iscatter's messages in the same order, but
// with Request::recv / Request::send: smpi_linear_to_root / from_root, then smpi_blocking.
// Recorded: gather 4096 on 4 ranks, root 0: R1* R2* R3*; scatter: S1* S2* S3* (* = blocking).
void smpi_blocking(Fragment& f, uint32_t begin);

}  // namespace simfab::coll
