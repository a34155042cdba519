// SimGrid 3.32's bcast__ompi_split_bintree (src/smpi/colls/bcast/bcast-ompi-split-bintree.cpp),
// which its ompi selector picks for 16 to 32 KiB on 256 to 1023 ranks (select_smpi.hpp), as
// `smpirun -replay` runs it. Virtual ranks v = (rank - root) mod P on Open MPI's binary tree
// (tree_shapes.hpp, kary 2: the root's first child heads the odd vranks, its second the even).
//
// The count elements are cut into two halves, h0 = ceil(count / 2) and h1 = floor(count / 2),
// each into n_h = ceil(h_h / seg) segments of seg = segsize / type_size elements, the last one
// shorter; segsize is 1 KiB below 370728 bytes, 8 KiB from there (at least one element).
//   1. The root, segment after segment, sends (blocking) segment s of half 0 to its first child
//      and of half 1 to its second. A node v holds half lr = (v + 1) mod 2 (odd vranks half 0,
//      even ones half 1): an inner node relays it as bcast__ompi_pipeline's inner nodes do
//      (smpi_relay_segments: at most two receives posted, blocking sends to each child in
//      turn); a leaf receives the segments one blocking Request::recv after the other.
//   2. Each rank swaps halves with its pair: rank + 1 (real ranks, mod P) for half 0, rank - 1
//      for half 1, in one Request::sendrecv (its half out, the other in). On odd P the root
//      does nothing; on even P the root sends half 1 to rank root - 1 (which holds half 0), the
//      only rank without a pair, which receives it.
//   When a half is empty or smaller than one segment (count < 2 seg), SimGrid calls
//   bcast__SMP_linear instead, which `smpirun -replay` 3.32 aborts on (init_smp frees an invalid
//   pointer); simfab runs its nearest algorithm there (registry.cpp's split-binary) and
//   smpi_split_bintree_splits says which case a call is (smpi_refusals.hpp warns).
// Messages: n_0 or n_1 segments per tree edge in step 1, then P-1 halves in step 2 (on even P
// the root's send to root - 1 is one of them).
// Recorded (coll_smpi_bcast_test.cpp): P = 6, 300 doubles, root 1 (1 KiB segments: 2 per half):
//   1: S2:1024 S3:1024 S2:176 S3:176 S0:1200    2: R1:1024 R1:176 S4:1024 S0:1024 S4:176 S0:176
//   S3:1200 R3:1200    0: R2:1024 R2:176 R1:1200.
// Checker segments: half 0 is segments 0 .. n_0 - 1, half 1 the next n_1 (k = n_0 + n_1).
// Complexity: O(n_0 + n_1) ops per rank.
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/registry.hpp"

namespace simfab::coll {

// The two halves' segment counts n_0 and n_1 SimGrid cuts c's buffer into; {0, 0} when it
// would call bcast__SMP_linear instead (a half smaller than one segment).
struct SplitSegments {
  uint32_t first = 0;
  uint32_t second = 0;
};
SplitSegments smpi_split_bintree_segments(const CollCall& c);
bool smpi_split_bintree_splits(const CollCall& c);

// REQUIRES: 0 <= c.rank, c.root < c.size; smpi_split_bintree_splits(c) (the caller runs its
// fallback otherwise).
void smpi_split_bintree_bcast(Fragment& f, const CollCall& c);

}  // namespace simfab::coll
