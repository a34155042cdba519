// Collective wrappers: MPI_Barrier, MPI_Bcast, the reductions (Reduce, Allreduce, Scan, Exscan,
// Reduce_scatter_block, Reduce_scatter) and the data movers (Gather, Scatter, Allgather, Alltoall
// and their v variants).
//
// Each wrapper hands traced() (traced.hpp) its PMPI_X call and its fields, in the field order of
// the table in docs/capture-format.md; a call that returns an error code is not recorded.
//
// Arguments MPI ignores at this rank are written `0,0,0` for datatypes and `-` for counts lists
// and are never passed to MPI_Type_size (they may be MPI_DATATYPE_NULL or garbage):
//   - rooted calls: the root-only side (Gather's receive, Scatter's send, the v counts) elsewhere
//     than at the root; for an intercommunicator, the root group's member (root MPI_ROOT) has no
//     data of its own to send or receive, and a member with root MPI_PROC_NULL neither;
//   - MPI_IN_PLACE: the send side (the receive side for Scatter(v) at the root).
// Buffers, scalar counts and the root are always written as passed. Displacements are not
// recorded. Nonblocking and neighbourhood collectives are not wrapped: they pass through
// unrecorded, and their requests are unknown to the completion wrappers.
#include <mpi.h>

#include "capture_state.hpp"
#include "record.hpp"
#include "traced.hpp"

namespace {

using simfab::capture::CommInfo;
using simfab::capture::Record;
using simfab::capture::traced;

// Who takes part in a rooted collective, and how.
struct RootRole {
  bool is_root;     // receives (Gather) / sends (Scatter) the root-only data
  bool has_data;    // contributes its own send (Gather) / receive (Scatter) buffer
};

RootRole root_role(const CommInfo& c, int root) {
  if (c.inter) return RootRole{root == MPI_ROOT, root != MPI_ROOT && root != MPI_PROC_NULL};
  return RootRole{c.rank == root, true};
}

}  // namespace

extern "C" int MPI_Barrier(MPI_Comm comm) {
  return traced("MPI_Barrier", [&] { return PMPI_Barrier(comm); }, [&](Record& r) { r.comm(comm); });
}

extern "C" int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return traced("MPI_Bcast", [&] { return PMPI_Bcast(buf, count, type, root, comm); }, [&](Record& r) {
    const CommInfo c = r.state().comm(comm);
    const bool used = !c.inter || (root != MPI_PROC_NULL);
    r.buf(buf).num(count).dt_if(used, type).rank(root).comm(c);
  });
}

extern "C" int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                          MPI_Comm comm) {
  return traced(
      "MPI_Reduce", [&] { return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm); },
      [&](Record& r) {
        const CommInfo c = r.state().comm(comm);
        const bool used = !c.inter || root != MPI_PROC_NULL;
        r.buf(sbuf).buf(rbuf).num(count).dt_if(used, type).op(op).rank(root).comm(c);
      });
}

namespace {

// Allreduce, Scan, Exscan: sbuf:rbuf:count:dt:op:comm.
using ReduceAllFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);

[[gnu::always_inline]] inline int reduce_all(const char* name, ReduceAllFn pmpi, const void* sbuf, void* rbuf, int count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm) {
  return traced(name, [&] { return pmpi(sbuf, rbuf, count, type, op, comm); },
                [&](Record& r) { r.buf(sbuf).buf(rbuf).num(count).dt(type).op(op).comm(comm); });
}

}  // namespace

extern "C" int MPI_Allreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce_all("MPI_Allreduce", PMPI_Allreduce, sbuf, rbuf, count, type, op, comm);
}
extern "C" int MPI_Scan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce_all("MPI_Scan", PMPI_Scan, sbuf, rbuf, count, type, op, comm);
}
extern "C" int MPI_Exscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce_all("MPI_Exscan", PMPI_Exscan, sbuf, rbuf, count, type, op, comm);
}
extern "C" int MPI_Reduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype type, MPI_Op op,
                                        MPI_Comm comm) {
  return reduce_all("MPI_Reduce_scatter_block", PMPI_Reduce_scatter_block, sbuf, rbuf, rcount, type, op, comm);
}

extern "C" int MPI_Reduce_scatter(const void* sbuf, void* rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op,
                                  MPI_Comm comm) {
  return traced(
      "MPI_Reduce_scatter", [&] { return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm); },
      [&](Record& r) {
        const CommInfo c = r.state().comm(comm);
        r.buf(sbuf).buf(rbuf).counts(rcounts, c.size).dt(type).op(op).comm(c);
      });
}

extern "C" int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm) {
  return traced(
      "MPI_Gather", [&] { return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); },
      [&](Record& r) {
        const CommInfo c = r.state().comm(comm);
        const RootRole role = root_role(c, root);
        r.buf(sbuf).num(scount).dt_if(role.has_data && sbuf != MPI_IN_PLACE, stype)
            .buf(rbuf).num(rcount).dt_if(role.is_root, rtype)
            .rank(root).comm(c);
      });
}

extern "C" int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                           MPI_Datatype rtype, int root, MPI_Comm comm) {
  return traced(
      "MPI_Scatter", [&] { return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); },
      [&](Record& r) {
        const CommInfo c = r.state().comm(comm);
        const RootRole role = root_role(c, root);
        r.buf(sbuf).num(scount).dt_if(role.is_root, stype)
            .buf(rbuf).num(rcount).dt_if(role.has_data && rbuf != MPI_IN_PLACE, rtype)
            .rank(root).comm(c);
      });
}

extern "C" int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                           const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm) {
  return traced(
      "MPI_Gatherv", [&] { return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm); },
      [&](Record& r) {
        const CommInfo c = r.state().comm(comm);
        const RootRole role = root_role(c, root);
        r.buf(sbuf).num(scount).dt_if(role.has_data && sbuf != MPI_IN_PLACE, stype)
            .buf(rbuf).counts(role.is_root ? rcounts : nullptr, c.remote_size).dt_if(role.is_root, rtype)
            .rank(root).comm(c);
      });
}

extern "C" int MPI_Scatterv(const void* sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                            void* rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  return traced(
      "MPI_Scatterv", [&] { return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm); },
      [&](Record& r) {
        const CommInfo c = r.state().comm(comm);
        const RootRole role = root_role(c, root);
        r.buf(sbuf).counts(role.is_root ? scounts : nullptr, c.remote_size).dt_if(role.is_root, stype)
            .buf(rbuf).num(rcount).dt_if(role.has_data && rbuf != MPI_IN_PLACE, rtype)
            .rank(root).comm(c);
      });
}

namespace {

// Allgather, Alltoall: sbuf:scount:sdt:rbuf:rcount:rdt:comm.
using AllFn = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);

[[gnu::always_inline]] inline int all_to(const char* name, AllFn pmpi, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
           MPI_Datatype rtype, MPI_Comm comm) {
  return traced(name, [&] { return pmpi(sbuf, scount, stype, rbuf, rcount, rtype, comm); }, [&](Record& r) {
    r.buf(sbuf).num(scount).dt_if(sbuf != MPI_IN_PLACE, stype).buf(rbuf).num(rcount).dt(rtype).comm(comm);
  });
}

}  // namespace

extern "C" int MPI_Allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                             MPI_Datatype rtype, MPI_Comm comm) {
  return all_to("MPI_Allgather", PMPI_Allgather, sbuf, scount, stype, rbuf, rcount, rtype, comm);
}
extern "C" int MPI_Alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm) {
  return all_to("MPI_Alltoall", PMPI_Alltoall, sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

extern "C" int MPI_Allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                              const int displs[], MPI_Datatype rtype, MPI_Comm comm) {
  return traced(
      "MPI_Allgatherv", [&] { return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm); },
      [&](Record& r) {
        const CommInfo c = r.state().comm(comm);
        r.buf(sbuf).num(scount).dt_if(sbuf != MPI_IN_PLACE, stype)
            .buf(rbuf).counts(rcounts, c.remote_size).dt(rtype).comm(c);
      });
}

extern "C" int MPI_Alltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                             void* rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  return traced(
      "MPI_Alltoallv",
      [&] { return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm); },
      [&](Record& r) {
        const CommInfo c = r.state().comm(comm);
        const bool in_place = sbuf == MPI_IN_PLACE;
        r.buf(sbuf).counts(in_place ? nullptr : scounts, c.remote_size).dt_if(!in_place, stype)
            .buf(rbuf).counts(rcounts, c.remote_size).dt(rtype).comm(c);
      });
}
