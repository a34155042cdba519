// MPI_Reduce_scatter as a composition (Schedgen has no expansion for it; research notes B.5):
//   1. binomial_reduce of the whole vector (sum of recv[i] bytes) to rank 0;
//   2. linear_scatterv of recv[i] bytes from rank 0 to every rank i.
// On rank 0 every scatter send requires every op that ends the reduce there (its receives);
// on another rank the scatter receive requires its reduce send, so a rank takes part in the
// scatter only after it has finished its share of the reduce, as a blocking reduce followed by a
// blocking scatterv would. Both phases use the collective's one tag; they never confuse their
// messages because rank 0 is nobody's child in the reduce tree.
//
// Complexity: rank 0 has O(log P) + P - 1 ops and O(P log P) edges; other ranks O(log P) ops.
#pragma once

#include <span>

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

// REQUIRES: 0 <= rank < size; recv holds `size` entries; `total` = the sum of recv (the caller
// has checked it does not overflow).
void reduce_scatter_reduce_then_scatterv(Fragment& f, RankId rank, int size, std::span<const Bytes> recv,
                                         Bytes total);

}  // namespace simfab::coll
