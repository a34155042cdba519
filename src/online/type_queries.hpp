// type_queries: the MPI calls that read a datatype against a byte count: MPI_Get_count /
// MPI_Get_elements (from MPI_Status's simfab_count, the received bytes), MPI_Status_set_elements,
// and MPI_Pack / MPI_Unpack / MPI_Pack_size on a user buffer with a position.
//
// Counts answer MPI_UNDEFINED when the bytes are not a whole number of the unit asked for (or
// when an int result would overflow). A datatype of size 0 counts 0. MPI_Pack / MPI_Unpack stop
// the run when the data would run past outsize / insize (MPI_ERR_TRUNCATE). The communicator
// argument of MPI_Pack & co. is not consulted (every rank shares one data representation).
// Complexity: O(1) for counts of whole instances, O(blocks) for MPI_Get_elements; packing as
// typemap.hpp.
#pragma once

#include <simfab/mpi.h>

#include <cstdint>

namespace simfab::online {

// Whole instances of t in `bytes`, or MPI_UNDEFINED.
int64_t count_of_bytes(int64_t bytes, MPI_Datatype t, const char* call);
// Basic elements of t in `bytes`, or MPI_UNDEFINED.
int64_t elements_of_bytes(int64_t bytes, MPI_Datatype t, const char* call);
// Bytes of the first `elements` basic elements of instances of t.
int64_t bytes_of_elements(int64_t elements, MPI_Datatype t, const char* call);
// An int result of an MPI call, MPI_UNDEFINED when it does not fit.
int to_int_or_undefined(int64_t n);

void pack_at(const void* inbuf, int incount, MPI_Datatype t, void* outbuf, int outsize,
             int* position, const char* call);
void unpack_at(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
               MPI_Datatype t, const char* call);
int pack_size(int incount, MPI_Datatype t, const char* call);

}  // namespace simfab::online
