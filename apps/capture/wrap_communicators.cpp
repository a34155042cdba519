// Communicator wrappers: MPI_Comm_dup, MPI_Comm_split, MPI_Comm_create, MPI_Comm_free; and the
// unrecorded MPI_Comm_disconnect, MPI_Type_free and MPI_Op_free, which end a handle's life.
//
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
// (MPI_Intercomm_create, MPI_Comm_idup, MPI_Comm_create_group, ...) appear in records under an id
// no newcomm introduced.
#include <mpi.h>

#include "capture_state.hpp"
#include "record.hpp"

using simfab::capture::CallScope;
using simfab::capture::CommInfo;
using simfab::capture::now_ns;
using simfab::capture::Record;

extern "C" int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  CallScope scope;
  if (!scope) return PMPI_Comm_dup(comm, newcomm);
  const auto t0 = now_ns();
  const int rc = PMPI_Comm_dup(comm, newcomm);
  const auto t1 = now_ns();
  if (rc == MPI_SUCCESS) Record(scope.state(), "MPI_Comm_dup", t0).comm(comm).newcomm(*newcomm).end(t1);
  return rc;
}

extern "C" int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  CallScope scope;
  if (!scope) return PMPI_Comm_split(comm, color, key, newcomm);
  const auto t0 = now_ns();
  const int rc = PMPI_Comm_split(comm, color, key, newcomm);
  const auto t1 = now_ns();
  if (rc == MPI_SUCCESS) {
    Record(scope.state(), "MPI_Comm_split", t0).comm(comm).color(color).num(key).newcomm(*newcomm).end(t1);
  }
  return rc;
}

namespace {

// The split-form record of a partitioning constructor (see the header comment).
void record_as_split(simfab::capture::CaptureState& state, const char* name, std::int64_t t0, MPI_Comm parent,
                     MPI_Comm made, std::int64_t t1) {
  int color = MPI_UNDEFINED;
  int key = 0;
  if (made != MPI_COMM_NULL) {
    MPI_Group parent_group, made_group;
    PMPI_Comm_group(parent, &parent_group);
    PMPI_Comm_group(made, &made_group);
    const int first = 0;
    PMPI_Group_translate_ranks(made_group, 1, &first, parent_group, &color);
    PMPI_Comm_rank(made, &key);
    PMPI_Group_free(&made_group);
    PMPI_Group_free(&parent_group);
  }
  Record(state, name, t0).comm(parent).color(color).num(key).newcomm(made).end(t1);
}

}  // namespace

extern "C" int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                               MPI_Comm* newcomm) {
  CallScope scope;
  if (!scope) return PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm);
  const auto t0 = now_ns();
  const int rc = PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm);
  const auto t1 = now_ns();
  if (rc == MPI_SUCCESS) record_as_split(scope.state(), "MPI_Cart_create", t0, comm, *newcomm, t1);
  return rc;
}

extern "C" int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  CallScope scope;
  if (!scope) return PMPI_Cart_sub(comm, remain_dims, newcomm);
  const auto t0 = now_ns();
  const int rc = PMPI_Cart_sub(comm, remain_dims, newcomm);
  const auto t1 = now_ns();
  if (rc == MPI_SUCCESS) record_as_split(scope.state(), "MPI_Cart_sub", t0, comm, *newcomm, t1);
  return rc;
}

extern "C" int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  CallScope scope;
  if (!scope) return PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  const auto t0 = now_ns();
  const int rc = PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  const auto t1 = now_ns();
  if (rc == MPI_SUCCESS) record_as_split(scope.state(), "MPI_Comm_split_type", t0, comm, *newcomm, t1);
  return rc;
}

extern "C" int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                                MPI_Comm* newcomm) {
  CallScope scope;
  if (!scope) return PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm);
  const auto t0 = now_ns();
  const int rc = PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm);
  const auto t1 = now_ns();
  if (rc == MPI_SUCCESS) record_as_split(scope.state(), "MPI_Graph_create", t0, comm, *newcomm, t1);
  return rc;
}

extern "C" int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                              const int sourceweights[], int outdegree, const int destinations[],
                                              const int destweights[], MPI_Info info, int reorder,
                                              MPI_Comm* newcomm) {
  CallScope scope;
  if (!scope) {
    return PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                           destweights, info, reorder, newcomm);
  }
  const auto t0 = now_ns();
  const int rc = PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree, destinations,
                                                 destweights, info, reorder, newcomm);
  const auto t1 = now_ns();
  if (rc == MPI_SUCCESS) record_as_split(scope.state(), "MPI_Dist_graph_create_adjacent", t0, comm, *newcomm, t1);
  return rc;
}

extern "C" int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                                     const int destinations[], const int weights[], MPI_Info info, int reorder,
                                     MPI_Comm* newcomm) {
  CallScope scope;
  if (!scope) return PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm);
  const auto t0 = now_ns();
  const int rc = PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm);
  const auto t1 = now_ns();
  if (rc == MPI_SUCCESS) record_as_split(scope.state(), "MPI_Dist_graph_create", t0, comm, *newcomm, t1);
  return rc;
}

extern "C" int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  CallScope scope;
  if (!scope) return PMPI_Comm_create(comm, group, newcomm);
  const auto t0 = now_ns();
  const int rc = PMPI_Comm_create(comm, group, newcomm);
  const auto t1 = now_ns();
  if (rc == MPI_SUCCESS) Record(scope.state(), "MPI_Comm_create", t0).comm(comm).newcomm(*newcomm).end(t1);
  return rc;
}

extern "C" int MPI_Comm_free(MPI_Comm* comm) {
  CallScope scope;
  if (!scope) return PMPI_Comm_free(comm);
  const MPI_Comm freed = *comm;
  const CommInfo before = scope.state().comm(freed);
  const auto t0 = now_ns();
  const int rc = PMPI_Comm_free(comm);
  const auto t1 = now_ns();
  if (rc == MPI_SUCCESS) {
    Record(scope.state(), "MPI_Comm_free", t0).comm(before).end(t1);
    scope.state().forget_comm(freed);
  }
  return rc;
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
