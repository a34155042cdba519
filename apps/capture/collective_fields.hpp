// The fields of the collective records (docs/capture-format.md's table), one writer per layout,
// shared by the blocking collectives (wrap_collectives.cpp) and their nonblocking forms
// (wrap_nonblocking_collectives.cpp, which add the request number after them).
//
// Arguments MPI ignores at this rank are written `0,0,0` for datatypes and `-` for counts lists
// and are never passed to MPI_Type_size (they may be MPI_DATATYPE_NULL or garbage):
//   - rooted calls: the root-only side (Gather's receive, Scatter's send, the v counts) elsewhere
//     than at the root; for an intercommunicator, the root group's member (root MPI_ROOT) has no
//     data of its own to send or receive, and a member with root MPI_PROC_NULL neither;
//   - MPI_IN_PLACE: the send side (the receive side for Scatter(v) at the root).
// Buffers, scalar counts and the root are always written as passed. Displacements are not
// recorded. Cost: O(size of the counts lists). Thread-safety: none.
#pragma once

#include <mpi.h>

#include "capture_state.hpp"
#include "record.hpp"

namespace simfab::capture {

// Who takes part in a rooted collective, and how.
struct RootRole {
  bool is_root;     // receives (Gather) / sends (Scatter) the root-only data
  bool has_data;    // contributes its own send (Gather) / receive (Scatter) buffer
};

inline RootRole root_role(const CommInfo& c, int root) {
  if (c.inter) return RootRole{root == MPI_ROOT, root != MPI_ROOT && root != MPI_PROC_NULL};
  return RootRole{c.rank == root, true};
}

// Barrier: comm.
inline void barrier_fields(Record& r, MPI_Comm comm) { r.comm(comm); }

// Bcast: buf:count:dt:root:comm.
inline void bcast_fields(Record& r, const void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  const CommInfo c = r.state().comm(comm);
  const bool used = !c.inter || (root != MPI_PROC_NULL);
  r.buf(buf).num(count).dt_if(used, type).rank(root).comm(c);
}

// Reduce: sbuf:rbuf:count:dt:op:root:comm.
inline void reduce_fields(Record& r, const void* sbuf, const void* rbuf, int count, MPI_Datatype type, MPI_Op op,
                          int root, MPI_Comm comm) {
  const CommInfo c = r.state().comm(comm);
  const bool used = !c.inter || root != MPI_PROC_NULL;
  r.buf(sbuf).buf(rbuf).num(count).dt_if(used, type).op(op).rank(root).comm(c);
}

// Allreduce, Scan, Exscan, Reduce_scatter_block: sbuf:rbuf:count:dt:op:comm.
inline void reduce_all_fields(Record& r, const void* sbuf, const void* rbuf, int count, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm) {
  r.buf(sbuf).buf(rbuf).num(count).dt(type).op(op).comm(comm);
}

// Reduce_scatter: sbuf:rbuf:counts:dt:op:comm.
inline void reduce_scatter_fields(Record& r, const void* sbuf, const void* rbuf, const int rcounts[],
                                  MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const CommInfo c = r.state().comm(comm);
  r.buf(sbuf).buf(rbuf).counts(rcounts, c.size).dt(type).op(op).comm(c);
}

// Gather: sbuf:scount:sdt:rbuf:rcount:rdt:root:comm.
inline void gather_fields(Record& r, const void* sbuf, int scount, MPI_Datatype stype, const void* rbuf, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm) {
  const CommInfo c = r.state().comm(comm);
  const RootRole role = root_role(c, root);
  r.buf(sbuf).num(scount).dt_if(role.has_data && sbuf != MPI_IN_PLACE, stype)
      .buf(rbuf).num(rcount).dt_if(role.is_root, rtype)
      .rank(root).comm(c);
}

// Scatter: sbuf:scount:sdt:rbuf:rcount:rdt:root:comm.
inline void scatter_fields(Record& r, const void* sbuf, int scount, MPI_Datatype stype, const void* rbuf, int rcount,
                           MPI_Datatype rtype, int root, MPI_Comm comm) {
  const CommInfo c = r.state().comm(comm);
  const RootRole role = root_role(c, root);
  r.buf(sbuf).num(scount).dt_if(role.is_root, stype)
      .buf(rbuf).num(rcount).dt_if(role.has_data && rbuf != MPI_IN_PLACE, rtype)
      .rank(root).comm(c);
}

// Gatherv: sbuf:scount:sdt:rbuf:counts:rdt:root:comm.
inline void gatherv_fields(Record& r, const void* sbuf, int scount, MPI_Datatype stype, const void* rbuf,
                           const int rcounts[], MPI_Datatype rtype, int root, MPI_Comm comm) {
  const CommInfo c = r.state().comm(comm);
  const RootRole role = root_role(c, root);
  r.buf(sbuf).num(scount).dt_if(role.has_data && sbuf != MPI_IN_PLACE, stype)
      .buf(rbuf).counts(role.is_root ? rcounts : nullptr, c.remote_size).dt_if(role.is_root, rtype)
      .rank(root).comm(c);
}

// Scatterv: sbuf:counts:sdt:rbuf:rcount:rdt:root:comm.
inline void scatterv_fields(Record& r, const void* sbuf, const int scounts[], MPI_Datatype stype, const void* rbuf,
                            int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  const CommInfo c = r.state().comm(comm);
  const RootRole role = root_role(c, root);
  r.buf(sbuf).counts(role.is_root ? scounts : nullptr, c.remote_size).dt_if(role.is_root, stype)
      .buf(rbuf).num(rcount).dt_if(role.has_data && rbuf != MPI_IN_PLACE, rtype)
      .rank(root).comm(c);
}

// Allgather, Alltoall: sbuf:scount:sdt:rbuf:rcount:rdt:comm.
inline void all_to_fields(Record& r, const void* sbuf, int scount, MPI_Datatype stype, const void* rbuf, int rcount,
                          MPI_Datatype rtype, MPI_Comm comm) {
  r.buf(sbuf).num(scount).dt_if(sbuf != MPI_IN_PLACE, stype).buf(rbuf).num(rcount).dt(rtype).comm(comm);
}

// Allgatherv: sbuf:scount:sdt:rbuf:counts:rdt:comm.
inline void allgatherv_fields(Record& r, const void* sbuf, int scount, MPI_Datatype stype, const void* rbuf,
                              const int rcounts[], MPI_Datatype rtype, MPI_Comm comm) {
  const CommInfo c = r.state().comm(comm);
  r.buf(sbuf).num(scount).dt_if(sbuf != MPI_IN_PLACE, stype)
      .buf(rbuf).counts(rcounts, c.remote_size).dt(rtype).comm(c);
}

// Alltoallv: sbuf:counts:sdt:rbuf:counts:rdt:comm.
inline void alltoallv_fields(Record& r, const void* sbuf, const int scounts[], MPI_Datatype stype, const void* rbuf,
                             const int rcounts[], MPI_Datatype rtype, MPI_Comm comm) {
  const CommInfo c = r.state().comm(comm);
  const bool in_place = sbuf == MPI_IN_PLACE;
  r.buf(sbuf).counts(in_place ? nullptr : scounts, c.remote_size).dt_if(!in_place, stype)
      .buf(rbuf).counts(rcounts, c.remote_size).dt(rtype).comm(c);
}

}  // namespace simfab::capture
