// Typemap: the memory layout of an MPI datatype, flattened when the datatype is built.
//
// MPI 3.1 §4.1 defines a datatype as a sequence of (basic type, displacement) pairs. simfab
// stores that sequence compactly as `blocks`: runs of `count` consecutive elements of one scalar
// predefined type at a byte offset (a pair type such as MPI_DOUBLE_INT is two blocks, its value
// and its int), in typemap order, adjacent blocks of the same type merged. From the blocks it
// derives `runs`: maximal contiguous byte ranges, whatever their types, which is all that packing
// needs. Packing `count` instances of a type whose instance i starts at buf + i * extent copies
// the runs of each instance in turn into a contiguous buffer of count * size bytes; a type whose
// one run fills its extent (MPI_INT, contiguous(n, MPI_DOUBLE), a struct without holes) packs in
// a single memcpy.
//
// Bounds (MPI 3.1 §4.1.6-4.1.7, without the removed MPI_LB / MPI_UB markers): lb and ub come from
// the parts' lb / ub (so a resized part keeps its bounds when replicated); true_lb / true_ub from
// the bytes actually occupied. Only MPI_Type_create_struct pads: when no part has explicit bounds
// (MPI_Type_create_resized), ub is rounded up so that the extent is a multiple of the largest
// alignment of the parts, as a C compiler pads a struct ({double; char} has extent 16).
//
// For reductions, `element` is the one predefined type (a pair type counts as one element) that
// every basic element of the type is made of, with element_count of them per instance, or
// kMixedElements when the type mixes several (then only MPI_REPLACE / MPI_NO_OP apply).
//
// Complexity: building is O(blocks of the result) (replicating a dense part, one block that
// fills its extent, is O(1)); pack / unpack O(count * runs) memcpy calls, O(1) calls for a dense
// type; element counting O(blocks). Memory: 24 B per block + 16 B per run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "online/basic_types.hpp"

namespace simfab::online {

inline constexpr MPI_Datatype kNoElements = MPI_DATATYPE_NULL;  // the type holds no data
inline constexpr MPI_Datatype kMixedElements = -1;

struct TypeBlock {
  int64_t offset;      // bytes from the instance's start (may be negative)
  int64_t count;       // consecutive elements of `basic`
  MPI_Datatype basic;  // a scalar predefined type (never a pair type)
  int32_t basic_size;
};

struct ByteRun {
  int64_t offset;
  int64_t bytes;
};

struct Typemap {
  std::vector<TypeBlock> blocks;
  std::vector<ByteRun> runs;
  int64_t size = 0;  // packed bytes per instance
  int64_t lb = 0;
  int64_t ub = 0;
  int64_t true_lb = 0;
  int64_t true_ub = 0;
  int32_t align = 1;
  bool explicit_bounds = false;  // resized (or built from a resized type): struct does not pad
  MPI_Datatype element = kNoElements;
  int64_t element_count = 0;  // elements of `element` per instance
  int64_t basic_count = 0;    // scalar basic elements per instance (a pair counts 2)

  int64_t extent() const { return ub - lb; }
  int64_t true_extent() const { return true_ub - true_lb; }
  // The packed layout of any count of instances equals their memory layout.
  bool contiguous() const {
    return size == 0 || (runs.size() == 1 && runs[0].offset == 0 && runs[0].bytes == extent());
  }
};

Typemap typemap_predefined(const BasicType& b);

// `copies` instances of `type`, instance j at disp + j * type->extent() bytes.
struct TypePiece {
  const Typemap* type;
  int64_t copies;
  int64_t disp;
};

// The concatenation of the pieces' typemaps (MPI_Type_create_struct; the other constructors are
// a single type replicated at several displacements). pad: apply struct's alignment padding.
Typemap typemap_combine(std::span<const TypePiece> pieces, bool pad);
Typemap typemap_resized(const Typemap& old, int64_t lb, int64_t extent);

void typemap_pack(const Typemap& t, const std::byte* buf, int64_t count, std::byte* out);
void typemap_unpack(const Typemap& t, const std::byte* in, int64_t count, std::byte* buf);

// Basic elements in the first `bytes` packed bytes of instances of t; -1 when `bytes` ends inside
// a basic element (MPI_Get_elements then answers MPI_UNDEFINED).
int64_t typemap_elements(const Typemap& t, int64_t bytes);
// The packed bytes of the first `elements` basic elements (MPI_Status_set_elements).
int64_t typemap_bytes_of_elements(const Typemap& t, int64_t elements);

}  // namespace simfab::online
