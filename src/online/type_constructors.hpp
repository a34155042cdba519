// type_constructors: the MPI 3.1 §4.1.2-4.1.7 datatype constructors (MPI_Type_contiguous ...
// MPI_Type_create_subarray, MPI_Type_dup), C++ side of the MPI_Type_* calls.
//
// Each validates its arguments the way the MPI call receives them (raw counts and arrays, so a
// negative count is reported before any array is read) and stops the run with
// mpi_fatal(call, "count -3 < 0") style messages; then it registers a new uncommitted derived
// datatype (datatype.hpp) and returns its handle. All are one typemap_combine of the old type
// replicated at byte displacements:
//   contiguous(n)            one piece of n copies at 0
//   vector(n, bl, stride)    n pieces of bl copies at i * stride * extent(old)
//   hvector                  the same with stride in bytes
//   indexed / hindexed       piece i: blocklengths[i] copies at displs[i] * extent (bytes)
//   indexed_block / hindexed_block: one block length for all
//   struct                   piece i of its own type, with C struct padding (typemap.hpp)
//   subarray                 nested hvectors over the dimensions, fastest first, shifted by the
//                            starts; lb 0 and extent product(sizes) * extent(old) (the full
//                            array), order MPI_ORDER_C (last dimension fastest) or
//                            MPI_ORDER_FORTRAN (first fastest)
//   resized                  the old typemap with lb and extent replaced
//   dup                      a copy, committed if the old type was
// Complexity: O(blocks of the result) each (subarray: O(blocks * ndims)).
#pragma once

#include <simfab/mpi.h>

namespace simfab::online {

MPI_Datatype type_contiguous(int count, MPI_Datatype old, const char* call);
MPI_Datatype type_vector(int count, int blocklength, int stride, MPI_Datatype old,
                         const char* call);
MPI_Datatype type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype old,
                          const char* call);
MPI_Datatype type_indexed(int count, const int* blocklengths, const int* displs, MPI_Datatype old,
                          const char* call);
MPI_Datatype type_hindexed(int count, const int* blocklengths, const MPI_Aint* displs,
                           MPI_Datatype old, const char* call);
MPI_Datatype type_indexed_block(int count, int blocklength, const int* displs, MPI_Datatype old,
                                const char* call);
MPI_Datatype type_hindexed_block(int count, int blocklength, const MPI_Aint* displs,
                                 MPI_Datatype old, const char* call);
MPI_Datatype type_struct(int count, const int* blocklengths, const MPI_Aint* displs,
                         const MPI_Datatype* types, const char* call);
MPI_Datatype type_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, const char* call);
MPI_Datatype type_subarray(int ndims, const int* sizes, const int* subsizes, const int* starts,
                           int order, MPI_Datatype old, const char* call);
MPI_Datatype type_dup(MPI_Datatype old, const char* call);

}  // namespace simfab::online
