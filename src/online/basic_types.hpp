// basic_types: the predefined datatypes of online mode (MPI_INT, MPI_DOUBLE_INT, ...), one row
// each in a table indexed by handle (1 .. kLastPredefinedType, the values of <simfab/mpi.h>).
//
// A row gives the C layout (size, extent and alignment on this machine, e.g. MPI_LONG_DOUBLE is
// 16 bytes on x86-64), the MPI 3.1 §5.9.2 class that decides which built-in reduction operations
// apply, and the reduction kernel of each operation.
// Pair types (MPI_DOUBLE_INT, ... for MPI_MINLOC / MPI_MAXLOC) are C structs {value; int index}:
// in memory the index sits at pair_index_offset (after padding) and the extent is sizeof the
// struct, e.g. MPI_DOUBLE_INT: index at 8, extent 16; packed, the index follows the value with no
// padding: size 12. MPI_2INT and MPI_FLOAT_INT have no padding (size = extent = 8). Fortran's
// pairs (MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER) hold the index in the value's type.
// Complexity: O(1) lookup. The table is constant (no state).
#pragma once

#include <simfab/mpi.h>

#include <cstddef>
#include <cstdint>

namespace simfab::online {

// MPI 3.1 §5.9.2 groups of basic types; kText (MPI_CHAR, MPI_WCHAR) and kPacked take no
// arithmetic operation, only MPI_REPLACE and MPI_NO_OP.
enum class TypeClass : uint8_t {
  kText,
  kInteger,
  kFloat,
  kComplex,
  kLogical,
  kByte,
  kPacked,
  kPair
};

// inout[i] = in[i] (op) inout[i] for n elements in packed form (buffers need no alignment).
using ReduceKernel = void (*)(const std::byte* in, std::byte* inout, int64_t n);
using KernelPicker = ReduceKernel (*)(MPI_Op op);  // nullptr: op undefined on the type

struct BasicType {
  MPI_Datatype handle;
  const char* name;
  int32_t size;    // packed bytes
  int32_t extent;  // bytes in memory
  int32_t align;
  TypeClass type_class;
  MPI_Datatype pair_value;    // pairs: the value's type (MPI_DATATYPE_NULL otherwise)
  int32_t pair_index_offset;  // pairs: where the index sits in memory
  MPI_Datatype pair_index;    // pairs: the index's type (MPI_INT; the value's for MPI_2REAL & co.)
  KernelPicker kernel;
};

inline constexpr MPI_Datatype kLastPredefinedType = MPI_LOGICAL8;

// nullptr if t is not a predefined datatype.
const BasicType* basic_type(MPI_Datatype t);

}  // namespace simfab::online
