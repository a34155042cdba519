// dims_create: MPI_Dims_create (MPI 3.1 §7.5.2), a balanced Cartesian grid of nnodes ranks.
//
// The dimensions the caller fixed (dims[i] > 0) stay; the free ones (dims[i] == 0) receive the
// prime factors of nnodes / product(fixed), largest factor first, each to the free dimension
// with the smallest product so far, and are then sorted in non-increasing order (as the standard
// requires): 12 over 2 -> 4 x 3, 12 over 3 -> 3 x 2 x 2, 7 over 2 -> 7 x 1.
// Errors (stop the run): ndims < 0, nnodes < 1, a negative entry,
// nnodes not divisible by the product of the fixed dimensions.
// Complexity: O(sqrt(nnodes) + factors * ndims).
#pragma once

namespace simfab::online {

void dims_create(int nnodes, int ndims, int* dims, const char* call);

}  // namespace simfab::online
