// SimGrid 3.32's large-message broadcasts, which its ompi selector picks for 1 MiB and more
// (select_smpi.hpp: ompi_pipeline below 8 ranks, scatter_rdb_allgather from 16 to 31), and
// scatter_LR_allgather, which only smpi/bcast forces, as `smpirun -replay` runs them. Virtual ranks v = (rank - root) mod P (tree_shapes.hpp).
//
// smpi_ompi_pipeline_bcast: bcast__ompi_pipeline (src/smpi/colls/bcast/bcast-ompi-pipeline.cpp),
//   a chain v -> v+1 with the buffer cut into N = ceil(count / segcount) segments,
//   segcount = computed_segcount(segsize) (split.hpp), the last segment shorter, where segsize
//   (smpi_ompi_pipeline_segsize) is 128 KiB if P < 1.6134e-6 m + 2.1102, else 64 KiB if
//   P < 2.3679e-6 m + 1.1787, else 16 KiB if P < 3.2118e-6 m + 8.7936, else 128 KiB (m = bytes).
//     root   per segment s: isend s to the child, wait for it (segment after segment)
//     middle irecv 0; for s = 1 .. N-1: irecv s, wait for s-1, isend s-1 to the child and wait
//            for it; then wait for N-1, isend it and wait. So receive s is posted once segment
//            s-2 was received and sent on, and at most two receives are outstanding.
//     leaf   irecv 0; for s = 1 .. N-1: irecv s, wait for s-1; wait for N-1.
//   Messages: N per chain link, (P-1) N in all.
//   Recorded (coll_smpi_bcast_test.cpp): P = 4, 4099 doubles, root 1 (16 KiB segments):
//     1: S2:16384 S2:16384 S2:24   2: R1 R1 S3 R1 S3 S3   0 (the last): R3 R3 R3.
//
// smpi_scatter_rdb_allgather_bcast: bcast__scatter_rdb_allgather (bcast-scatter-rdb-allgather.cpp,
//   MPICH's long-message bcast): the buffer cut into P chunks of c = ceil(b / P) bytes (the last
//   ones short or empty), MPICH's binomial scatter of them (binomial_blocks, kCeilChunks: blocking
//   sends, far subtree first, empty runs not sent), then a recursive-doubling allgather: for
//   mask = 1, 2, .. < P, one MPI_Sendrecv with v ^ mask (when it is < P) swapping the chunks of
//   the two aligned subtrees of `mask` ranks, zero-byte messages included. When P is not a power
//   of two, a subtree whose partner subtree is missing (v ^ mask >= P for some of its ranks) then
//   completes inside itself, MPICH's "experimental" recursive halving: with t = v's subtree root
//   (aligned on 2 mask) and d = P - t - mask ranks that did swap, for m = mask/2 .. 1 (k = log2 of
//   2m), a rank below (v >> k << k) + d sends the partner subtree's chunks (blocking) to v ^ m
//   when that is at or above it, which receives them (blocking).
//   Messages per rank: the scatter's (at most log2 P), then ceil(log2 P) sendrecvs, plus the
//   forwarding's few.
//   Recorded: ompi, P = 24, 1 MiB (8 B doubles), root 0: rank 0: S16:349520 S8:349528 S4:174764
//   S2:87382 S1:43691 | S1:43691 R1:43691 S2:87382 R2:87382 S4:174764 R4:174764 S8:349528
//   R8:349528 S16:699056 R16:349520 | S8:349520.
//
// smpi_scatter_lr_allgather_bcast: bcast__scatter_LR_allgather (bcast-scatter-LR-allgather.cpp; no
//   selector picks it): the same binomial scatter of c = ceil(b / P)-byte chunks, then a ring
//   allgather: P-1 MPI_Sendrecv steps, each sending the chunk of vrank (s - root) to rank + 1 and
//   receiving that of (s' - root) from rank - 1, where s starts at the rank and s' = s - 1 (mod P)
//   trails it; empty chunks are sent as zero-byte messages. Messages per rank: the scatter's,
//   then 2 (P-1). Recorded: P = 5, 1000 B, root 2: 2: S1:200 S4:400 S3:200 | (S3:200 R1:200)*4.
//
// SimGrid's replay reduces nothing, and a receive is written as the message sent (SimGrid posts
// some larger: the scatter's and the allgather's receives ask for the rest of the buffer).
// Complexity: O(N) ops for the pipeline, O(log P) for scatter_rdb_allgather, O(P) for
// scatter_LR_allgather.
#pragma once

#include <span>

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/registry.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

// The relay both SimGrid pipelines (ompi_pipeline, ompi_split_bintree: smpi_split_bintree.hpp)
// run on a node below the root: n segments from `parent`, each `segment` bytes but the last
// (`last` bytes), checker segments first .. first + n - 1. irecv 0; for s = 1 .. n-1: irecv s,
// wait for s-1, then a blocking send of s-1 to each child in turn; wait for n-1 and send it on.
// With no child that is the pipeline's leaf (irecv s, wait for s-1). Returns what ends it (the
// last send, or the last two receives of a leaf). REQUIRES: n >= 1.
struct SegmentRun {
  uint32_t n = 1;
  Bytes segment = 0;
  Bytes last = 0;
  uint32_t first = 0;
  Bytes bytes(uint32_t s) const { return s + 1 < n ? segment : last; }
};
After smpi_relay_segments(Fragment& f, RankId parent, std::span<const RankId> children, const SegmentRun& run);

// bcast__ompi_pipeline's segment size (bytes) for `size` ranks and `bytes`.
Bytes smpi_ompi_pipeline_segsize(int size, Bytes bytes);

// REQUIRES (both): 0 <= c.rank, c.root < c.size.
void smpi_ompi_pipeline_bcast(Fragment& f, const CollCall& c);
void smpi_scatter_rdb_allgather_bcast(Fragment& f, const CollCall& c);
void smpi_scatter_lr_allgather_bcast(Fragment& f, const CollCall& c);

}  // namespace simfab::coll
