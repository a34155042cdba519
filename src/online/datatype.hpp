// datatype: the process-wide table of MPI datatypes of online mode, and what the runtime asks
// of a datatype (size, extent, packing).
//
// Predefined datatypes (handles 1 .. kLastPredefinedType, basic_types.hpp) always exist and are
// committed. Derived datatypes (handles >= kFirstDerivedType, from type_constructors.hpp) are
// created uncommitted; MPI_Type_commit makes them usable in communication; MPI_Type_free
// releases the user's handle. Each holds its flattened Typemap (typemap.hpp): a derived type does
// not refer to the types it was built from, so freeing those never affects it.
// Communication that is still pending when the user frees its datatype must complete normally
// (MPI 3.1 §4.1.9): the runtime brackets such use with type_retain / type_release, and a freed
// type lives on until its last release (the user's handle is invalid for the user's own calls
// right away).
// The runtime's calls (type_size, pack, ...) take a `call` ("MPI_Send") for its error message and
// stop the run (mpi_fatal) on MPI_DATATYPE_NULL, an unknown or freed handle, or an uncommitted
// type. pack / unpack of instance i address buf + i * extent + (the typemap's offsets).
// Complexity: O(1) lookup; pack / unpack as typemap.hpp. Thread-safety: none (one thread).
#pragma once

#include <simfab/mpi.h>

#include <cstdint>
#include <string>

#include "online/typemap.hpp"

namespace simfab::online {

inline constexpr MPI_Datatype kFirstDerivedType = 1024;

// ---- the runtime's interface ----
int64_t type_size(MPI_Datatype t, const char* call);
int64_t type_extent(MPI_Datatype t, const char* call);
// Packs `count` elements laid out from `buf` into `out` (contiguous, count * type_size bytes).
void pack(const void* buf, int64_t count, MPI_Datatype t, void* out);
void unpack(const void* in, int64_t count, MPI_Datatype t, void* buf);
// Packed layout == memory layout (pack is then one memcpy of count * size bytes from buf).
bool is_contiguous(MPI_Datatype t);
// "MPI_DOUBLE", the name given with MPI_Type_set_name, or "derived datatype 1025". Valid until
// the type is renamed or destroyed.
const char* type_name(MPI_Datatype t);
// Keeps t alive for a pending operation even if the user frees it (no-op on predefined types).
void type_retain(MPI_Datatype t);
void type_release(MPI_Datatype t);

// ---- the MPI_Type_* calls ----
enum class TypeUse : uint8_t {
  kQuery,        // user's handle must be live; committed or not (MPI_Type_size, constructors)
  kCommunicate,  // committed; a type the user freed while retained still answers
};
const Typemap& type_layout(MPI_Datatype t, const char* call, TypeUse use = TypeUse::kQuery);
// A new uncommitted (or committed) derived datatype.
MPI_Datatype type_register(Typemap map, bool committed = false);
void type_commit(MPI_Datatype t, const char* call);
bool type_is_committed(MPI_Datatype t, const char* call);
// Releases the user's handle; predefined types cannot be freed.
void type_free(MPI_Datatype t, const char* call);
void type_set_name(MPI_Datatype t, const char* name, const char* call);
// The name set by MPI_Type_set_name ("" if none), or a predefined type's name.
std::string type_get_name(MPI_Datatype t, const char* call);
// Derived types alive (user handles plus retained ones).
size_t live_derived_types();

}  // namespace simfab::online
