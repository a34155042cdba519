// The allow-list of unrecorded_calls.hpp: MPI calls libsimfab-capture.so does not record because
// they affect neither the timing of the run's communication nor which message matches which
// receive. Their time counts as computation, which is what they are (local bookkeeping). Names are
// canonical (canonical_mpi_name: lower case, no profiling `p`, no Fortran decoration).
//
// A call belongs here only if dropping it from the trace cannot change the replay:
//   - queries and local objects: ranks, sizes, groups, datatypes, ops, info, attributes, keyvals,
//     error handlers and codes, names, topology queries, handle conversions (*_c2f, *_f2c);
//   - clocks and versions: MPI_Wtime, MPI_Wtick, MPI_Get_version, ...;
//   - status and buffer helpers: MPI_Get_count, MPI_Get_elements(_x), MPI_Pack/Unpack,
//     MPI_Status_set_*, MPI_Alloc_mem/Free_mem, MPI_Buffer_attach/detach, MPI_Reduce_local;
//   - MPI_Cancel and MPI_Test_cancelled: a cancelled request's completion is recorded (`-3` in its
//     done entry) and converts as a request that moved nothing;
//   - MPI_Request_get_status: a test that completes nothing (the request's Wait/Test records it);
//   - MPI_Initialized, MPI_Finalized, MPI_Abort, MPI_Query_thread, MPI_Is_thread_main,
//     MPI_Comm_get_parent (MPI_COMM_NULL unless spawned; spawning itself is refused), MPI_Pcontrol.
// NOT here (refused when unwrapped): anything that sends, receives, synchronises or creates a
// communicator: one-sided (MPI_Win_*, MPI_Put, ...), neighbourhood collectives, MPI_Comm_idup,
// MPI_Intercomm_create, MPI_Comm_create_group, MPI_Comm_spawn, file I/O, and the PMPI_ or Fortran
// spelling of any recorded call.
#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>

#include "unrecorded_calls.hpp"

namespace simfab::capture {
namespace {

// Whole families: every call whose canonical name starts with one of these.
constexpr std::array<std::string_view, 7> kAllowedPrefixes = {
    "mpi_type_", "mpi_group_", "mpi_info_", "mpi_errhandler_", "mpi_t_", "mpi_status_set_", "mpi_add_error_",
};

// Single calls, sorted (binary search).
constexpr std::array<std::string_view, 76> kAllowedCalls = {
    "mpi_abort", "mpi_address", "mpi_aint_add", "mpi_aint_diff", "mpi_alloc_mem", "mpi_attr_delete",
    "mpi_attr_get", "mpi_attr_put", "mpi_buffer_attach", "mpi_buffer_detach", "mpi_cancel", "mpi_cart_coords",
    "mpi_cart_get", "mpi_cart_map", "mpi_cart_rank", "mpi_cart_shift", "mpi_cartdim_get",
    "mpi_comm_call_errhandler", "mpi_comm_compare", "mpi_comm_create_errhandler", "mpi_comm_create_keyval",
    "mpi_comm_delete_attr", "mpi_comm_free_keyval", "mpi_comm_get_attr", "mpi_comm_get_errhandler",
    "mpi_comm_get_info", "mpi_comm_get_name", "mpi_comm_get_parent", "mpi_comm_group", "mpi_comm_rank",
    "mpi_comm_remote_group", "mpi_comm_remote_size", "mpi_comm_set_attr", "mpi_comm_set_errhandler",
    "mpi_comm_set_info", "mpi_comm_set_name", "mpi_comm_size", "mpi_comm_test_inter", "mpi_dims_create",
    "mpi_dist_graph_neighbors", "mpi_dist_graph_neighbors_count", "mpi_error_class", "mpi_error_string",
    "mpi_finalized", "mpi_free_mem", "mpi_get_address", "mpi_get_count", "mpi_get_elements",
    "mpi_get_elements_x", "mpi_get_library_version", "mpi_get_processor_name", "mpi_get_version",
    "mpi_graph_get", "mpi_graph_map", "mpi_graph_neighbors", "mpi_graph_neighbors_count", "mpi_graphdims_get",
    "mpi_initialized", "mpi_is_thread_main", "mpi_keyval_create", "mpi_keyval_free", "mpi_op_commutative",
    "mpi_op_create", "mpi_pack", "mpi_pack_external", "mpi_pack_external_size", "mpi_pack_size", "mpi_pcontrol",
    "mpi_query_thread", "mpi_reduce_local", "mpi_request_get_status", "mpi_test_cancelled", "mpi_unpack",
    "mpi_unpack_external", "mpi_wtick", "mpi_wtime",
};

constexpr bool sorted() {
  for (std::size_t i = 1; i < kAllowedCalls.size(); ++i)
    if (!(kAllowedCalls[i - 1] < kAllowedCalls[i])) return false;
  return true;
}
static_assert(sorted(), "kAllowedCalls must stay sorted (binary search)");

// Handle conversions between the C and Fortran bindings.
bool conversion(std::string_view name) {
  const auto ends = [&](std::string_view s) { return name.size() > s.size() && name.substr(name.size() - s.size()) == s; };
  return ends("_c2f") || ends("_f2c");
}

}  // namespace

bool allowed_unrecorded(std::string_view canonical) {
  if (std::binary_search(kAllowedCalls.begin(), kAllowedCalls.end(), canonical)) return true;
  for (std::string_view p : kAllowedPrefixes)
    if (canonical.substr(0, p.size()) == p) return true;
  return conversion(canonical);
}

}  // namespace simfab::capture
