// The check libsimfab-capture.so makes at MPI_Init: does the program call an MPI function that
// affects timing or matching but that the library does not record? Such a trace would convert and
// replay wrongly (a one-sided exchange missing, a neighbourhood collective's messages missing, a
// Fortran MPI_SEND unseen), so the library refuses to capture it (capture_state.cpp: exit 2 and one
// message naming the functions; SIMFAB_CAPTURE_ALLOW_UNRECORDED=1 makes it a warning).
//
// WHAT IS LOOKED AT: the dynamic symbol tables (.dynsym, found through PT_DYNAMIC) of every object
// loaded in the process (dl_iterate_phdr: the program and its libraries), without reading any
// file. An object's UNDEFINED function symbols named MPI_*, PMPI_*, mpi_* or pmpi_* (any case:
// Fortran compilers write mpi_send_, mpi_send__, MPI_SEND) are the MPI functions it calls. Objects
// that DEFINE MPI functions are the MPI library, its Fortran bindings or a tool (this library), and
// objects under an `openmpi` directory are Open MPI's components: their imports are the MPI
// library's own business and are not checked. Data symbols (Fortran's mpi_fortran_bottom_ & co.)
// are not functions and are not checked.
//
// WHAT PASSES: a C name MPI_X that this library defines (its wrappers, read from its own .dynsym:
// no second list to keep in step), or any spelling whose canonical name (canonical_mpi_name) is
// on the allow-list of calls that do not affect timing or matching (allowed_calls.cpp: Comm_rank,
// Wtime, Get_count, the datatype, group, info and attribute calls, ...). Everything else is
// reported, with the object that imports it: PMPI_Send (it bypasses the wrapper), mpi_send_ (the
// Fortran bindings are not wrapped), MPI_Put, MPI_Win_fence, MPI_Ineighbor_alltoall, MPI_Comm_idup,
// ...
//
// Cost: O(dynamic symbols of the loaded objects), a few ms once per rank. Thread-safety: none
// needed (called from MPI_Init). The name functions are pure and MPI-free (unit-tested).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace simfab::capture {

// An MPI function the program calls that the library does not record.
struct UnrecordedCall {
  std::string name;    // as imported: "MPI_Win_fence", "mpi_send_", "PMPI_Put"
  std::string object;  // the importing object's file name ("a.out", "libfoo.so.1")
};

// The canonical form of an MPI symbol name: lower case, without the profiling `p` and the Fortran
// decorations ("PMPI_Send" -> "mpi_send", "mpi_send__" -> "mpi_send", "MPI_SEND" -> "mpi_send",
// "mpi_send_f08" -> "mpi_send"); empty if `symbol` is not named like an MPI function.
std::string canonical_mpi_name(std::string_view symbol);

// Whether the canonical name is a call that does not affect timing or matching (allowed_calls.cpp).
bool allowed_unrecorded(std::string_view canonical);

// Whether an imported `symbol` passes: a C MPI_ name in `wrapped` (the names this library
// defines), or an allowed call in any spelling.
bool call_is_covered(std::string_view symbol, const std::vector<std::string>& wrapped);

// The calls of the loaded objects that do not pass, sorted by name, each name once (the first
// object importing it). `self`: an address inside this library (its wrappers are the covered set).
std::vector<UnrecordedCall> find_unrecorded_calls(const void* self);

// "MPI_Put and MPI_Win_fence" (names joined with ", " and a final " and ").
std::string join_call_names(const std::vector<UnrecordedCall>& calls);

}  // namespace simfab::capture
