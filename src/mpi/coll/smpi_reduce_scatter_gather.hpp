// SimGrid 3.32's reduce__scatter_gather (src/smpi/colls/reduce/reduce-scatter-gather.cpp, MPICH's
// reduce_scatter + gather), which its mpich selector runs for count >= pof2 and 2 KiB or more
// (select_smpi.hpp), as `smpirun -replay` runs it. Unlike simfab's rabenseifner reduce
// (reduce_algorithms.hpp), it keeps SimGrid's index arithmetic, quirks included.
//
// P ranks, pof2 = the largest power of two <= P, rem = P - pof2, n = max(count, P) elements
// (fewer elements than ranks are padded to P), cut into pof2 chunks: n / pof2 each, the last
// chunk the rest. Chunk i is checker segment i (k = pof2). Every call is blocking.
//   0. A sendrecv with itself, which SimGrid copies without a message.
//   1. Fold: an odd rank r < 2 rem sends all n elements to r - 1 and leaves; the even one reduces
//      them and takes number q = r / 2, every rank r >= 2 rem takes q = r - rem (real rank of
//      number q: 2q if q < rem, else q + rem).
//   2. Reduce-scatter by recursive halving over q, mask = 1, 2, .. pof2/2, keeping MPICH's
//      send_idx / recv_idx / last_idx: each step a sendrecv with q ^ mask, the lower number
//      keeping the lower half of its current chunk range, reducing what it receives.
//   3. Gather to the root's number (root / 2 or root - rem; 0 for an odd root < 2 rem), mask =
//      pof2/2 .. 1: q receives from q ^ mask the range it lacks, until the partner's subtree of
//      2 mask numbers holds the root's number: q then sends its range there and stops.
//      An odd root r < 2 rem first receives chunk 0 from rank 0 and replaces it (number 0,
//      chunk range [0, 2)); ranks whose partner is number 0 send to that root instead.
// SimGrid refuses one input: fewer elements than ranks on a non-power-of-two communicator (the
// fold sends n = P elements into a receive of count: MPI_ERR_TRUNCATE, the run aborts); simfab
// receives the P elements, and smpi_refusals.hpp warns. count = 0 sends nothing.
// Recorded (coll_smpi_test.cpp): P = 6, 1000 doubles, root 1:
//   0: R1:8000 S2:4000 R2:4000 S4:2000 R4:2000 S1:2000   1: S0:8000 R0:2000 R4:2000 R2:4000
//   3: S2:8000   others: their reduce-scatter pairs, then one gather send or receive each.
// The reductions cost nothing here (SimGrid's replay reduces with MPI_OP_NULL).
// Complexity: O(log P) ops and time per rank.
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/registry.hpp"

namespace simfab::coll {

// Whether SimGrid 3.32 aborts this call (count < P, P not a power of two; see above).
bool smpi_scatter_gather_truncates(const CollCall& c);

// REQUIRES: 0 <= c.rank, c.root < c.size.
void smpi_scatter_gather_reduce(Fragment& f, const CollCall& c);

}  // namespace simfab::coll
