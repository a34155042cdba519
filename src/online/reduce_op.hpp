// reduce_op: MPI reduction operations, built-in (MPI_MAX .. MPI_NO_OP, handles 1 .. 14) and
// user-defined (MPI_Op_create, handles >= kFirstUserOp), applied to buffers of a datatype.
//
// reduce_packed computes inout = in (op) inout elementwise, both buffers in PACKED form (what
// pack() produces), the order a non-commutative operation needs: `in` is the earlier ranks'
// contribution. Built-in operations use the kernels of reduce_kernels.hpp on the one predefined
// type the datatype is made of (typemap.hpp's `element`: MPI_SUM on contiguous(4, MPI_INT) sums
// 4 ints per element); MPI 3.1 §5.9.2 decides which (operation, type) pairs exist, and any other
// pair stops the run ("MPI_SUM is not defined on MPI_BYTE"). MPI_REPLACE (inout = in) and
// MPI_NO_OP apply to any type. A user function receives the native layout (the datatype's own
// handle and memory layout): a non-contiguous type is unpacked into temporaries, the function
// called, and inout packed back; counts beyond INT_MAX are passed in several calls.
// reduce_native is the same on buffers in memory layout (MPI_Reduce_local).
// A user operation freed while a reduction still uses it stays alive until op_release (as for
// datatypes, datatype.hpp).
// Complexity: O(count * elements) plus, for a user function on a non-contiguous type, the
// temporaries (2 x the buffers' span) and the pack / unpack. Thread-safety: none.
#pragma once

#include <simfab/mpi.h>

#include <cstdint>
#include <string>

namespace simfab::online {

inline constexpr MPI_Op kFirstUserOp = 32;

// ---- the runtime's interface ----
void reduce_packed(MPI_Op op, const void* in, void* inout, int64_t count, MPI_Datatype t,
                   const char* call);
bool op_is_commutative(MPI_Op op, const char* call);
void op_retain(MPI_Op op);
void op_release(MPI_Op op);

// ---- the MPI_Op_* calls ----
MPI_Op op_create(MPI_User_function* fn, bool commutative, const char* call);
void op_free(MPI_Op op, const char* call);
void reduce_native(MPI_Op op, const void* in, void* inout, int64_t count, MPI_Datatype t,
                   const char* call);
// "MPI_SUM", "user operation 33".
std::string op_name(MPI_Op op);

}  // namespace simfab::online
