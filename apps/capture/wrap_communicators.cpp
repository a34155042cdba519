// Communicator wrappers: MPI_Comm_dup, MPI_Comm_idup, MPI_Comm_split, MPI_Comm_create, MPI_Comm_free; and the
// unrecorded MPI_Comm_disconnect, MPI_Type_free and MPI_Op_free, which end a handle's life.
//
// Each recorded wrapper hands traced() (traced.hpp) its PMPI_X call and its fields; a call that
// returns an error code is not recorded.
// A new communicator is written as a `newcomm` field (`id,rank,size`, the next comm id) the first
// time it is seen, which is at the call that created it; `-` when the call returned
// MPI_COMM_NULL (MPI_Comm_split with MPI_UNDEFINED, MPI_Comm_create on a non-member).
// MPI_Comm_free records the communicator as it was before the call, then forgets its handle: MPI
// may give the same handle value to a later communicator, which must get a new id (ids are never
// reused). MPI_Type_free/MPI_Op_free/MPI_Comm_disconnect forget their handle for the same reason.
// Constructors that partition their parent like a split (MPI_Cart_create, MPI_Cart_sub,
// MPI_Comm_split_type, MPI_Graph_create, MPI_Dist_graph_create(_adjacent)) are written in
// MPI_Comm_split's form `comm:color:key:newcomm` under their own name: color = the parent rank of
// the new communicator's rank 0 (one color per new communicator; MPI_UNDEFINED's -32766 when this
// rank got MPI_COMM_NULL) and key = this rank's rank in it, so a reader rebuilds every member
// list by MPI_Comm_split's rule. Communicators made by other unrecorded calls
// (MPI_Intercomm_create, MPI_Comm_create_group, ...) would appear in records under an id no newcomm
// introduced: the library refuses programs that call them (unrecorded_calls.hpp).
#include <mpi.h>

#include "capture_state.hpp"
#include "record.hpp"
#include "traced.hpp"

namespace {

using simfab::capture::CallScope;
using simfab::capture::CommInfo;
using simfab::capture::Record;
using simfab::capture::traced;

// Records a partitioning constructor in the split form (see the header comment): `call` creates
// *made from parent.
template <class Call>
[[gnu::always_inline]] inline int traced_as_split(const char* func, MPI_Comm parent, const MPI_Comm* made, Call&& call) {
  return traced(func, call, [&](Record& r) {
    int color = MPI_UNDEFINED;
    int key = 0;
    if (*made != MPI_COMM_NULL) {
      MPI_Group parent_group, made_group;
      PMPI_Comm_group(parent, &parent_group);
      PMPI_Comm_group(*made, &made_group);
      const int first = 0;
      PMPI_Group_translate_ranks(made_group, 1, &first, parent_group, &color);
      PMPI_Comm_rank(*made, &key);
      PMPI_Group_free(&made_group);
      PMPI_Group_free(&parent_group);
    }
    r.comm(parent).color(color).num(key).newcomm(*made);
  });
}

}  // namespace

extern "C" int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return traced("MPI_Comm_dup", [&] { return PMPI_Comm_dup(comm, newcomm); },
                [&](Record& r) { r.comm(comm).newcomm(*newcomm); });
}

// The new communicator's handle, rank and size are known when MPI_Comm_idup returns (Open MPI sets
// its group at once; only its context id is agreed on in the background), so it is recorded then,
// with the request (completed like a send's).
extern "C" int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  return traced("MPI_Comm_idup", [&] { return PMPI_Comm_idup(comm, newcomm, request); }, [&](Record& r) {
    r.comm(comm).newcomm(*newcomm);
    r.req(r.state().new_request(*request, true));
  });
}

extern "C" int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return traced("MPI_Comm_split", [&] { return PMPI_Comm_split(comm, color, key, newcomm); },
                [&](Record& r) { r.comm(comm).color(color).num(key).newcomm(*newcomm); });
}

extern "C" int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                               MPI_Comm* newcomm) {
  return traced_as_split("MPI_Cart_create", comm, newcomm,
                         [&] { return PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm); });
}

extern "C" int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  return traced_as_split("MPI_Cart_sub", comm, newcomm, [&] { return PMPI_Cart_sub(comm, remain_dims, newcomm); });
}

extern "C" int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  return traced_as_split("MPI_Comm_split_type", comm, newcomm,
                         [&] { return PMPI_Comm_split_type(comm, split_type, key, info, newcomm); });
}

extern "C" int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                                MPI_Comm* newcomm) {
  return traced_as_split("MPI_Graph_create", comm, newcomm,
                         [&] { return PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm); });
}

extern "C" int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                              const int sourceweights[], int outdegree, const int destinations[],
                                              const int destweights[], MPI_Info info, int reorder,
                                              MPI_Comm* newcomm) {
  return traced_as_split("MPI_Dist_graph_create_adjacent", comm, newcomm, [&] {
    return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                           destweights, info, reorder, newcomm);
  });
}

extern "C" int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                                     const int destinations[], const int weights[], MPI_Info info, int reorder,
                                     MPI_Comm* newcomm) {
  return traced_as_split("MPI_Dist_graph_create", comm, newcomm, [&] {
    return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm);
  });
}

extern "C" int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return traced("MPI_Comm_create", [&] { return PMPI_Comm_create(comm, group, newcomm); },
                [&](Record& r) { r.comm(comm).newcomm(*newcomm); });
}

extern "C" int MPI_Comm_free(MPI_Comm* comm) {
  CallScope scope;
  // Looked up before the call, which sets *comm to MPI_COMM_NULL.
  const MPI_Comm freed = scope ? *comm : MPI_COMM_NULL;
  const CommInfo before = scope ? scope.state().comm(freed) : CommInfo{};
  return traced(scope, "MPI_Comm_free", [&] { return PMPI_Comm_free(comm); }, [&](Record& r) {
    r.comm(before);
    r.state().forget_comm(freed);
  });
}

extern "C" int MPI_Comm_disconnect(MPI_Comm* comm) {
  CallScope scope;
  if (scope) scope.state().forget_comm(*comm);
  return PMPI_Comm_disconnect(comm);
}

extern "C" int MPI_Type_free(MPI_Datatype* type) {
  CallScope scope;
  if (scope) scope.state().forget_type(*type);
  return PMPI_Type_free(type);
}

extern "C" int MPI_Op_free(MPI_Op* op) {
  CallScope scope;
  if (scope) scope.state().forget_op(*op);
  return PMPI_Op_free(op);
}
