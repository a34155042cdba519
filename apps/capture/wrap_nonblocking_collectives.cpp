// Nonblocking collective wrappers: MPI_Ibarrier, MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce, MPI_Iscan,
// MPI_Iexscan, MPI_Ireduce_scatter_block, MPI_Ireduce_scatter, MPI_Igather, MPI_Iscatter,
// MPI_Iallgather, MPI_Ialltoall and the v variants (Igatherv, Iscatterv, Iallgatherv, Ialltoallv).
//
// Each records the blocking collective's fields (collective_fields.hpp) followed by the request it
// returned, numbered like an Isend's (`...:comm:req`); the completion call that finds the request
// done lists it as `id/-2/-1/0`, like a send's (wrap_completion.cpp). simfab convert writes TI's
// i<collective> at the call and its wait at that completion (docs/capture-format.md). A call that
// returns an error code is not recorded.
#include <mpi.h>

#include "collective_fields.hpp"
#include "traced.hpp"

namespace sc = simfab::capture;
using simfab::capture::Record;
using simfab::capture::traced;

namespace {

// Records `func` with the fields `fields(record)` writes and then the request `*request` (its new
// number), when call() succeeds.
template <class Call, class Fields>
[[gnu::always_inline]] inline int nonblocking(const char* func, MPI_Request* request, Call&& call, Fields&& fields) {
  return traced(func, call, [&](Record& r) {
    fields(r);
    r.req(r.state().new_request(*request, true));
  });
}

using ReduceAllFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*);
using AllFn = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm, MPI_Request*);

[[gnu::always_inline]] inline int reduce_all(const char* name, ReduceAllFn pmpi, const void* sbuf, void* rbuf,
                                             int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                             MPI_Request* req) {
  return nonblocking(name, req, [&] { return pmpi(sbuf, rbuf, count, type, op, comm, req); },
                     [&](Record& r) { sc::reduce_all_fields(r, sbuf, rbuf, count, type, op, comm); });
}

[[gnu::always_inline]] inline int all_to(const char* name, AllFn pmpi, const void* sbuf, int scount,
                                         MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                                         MPI_Comm comm, MPI_Request* req) {
  return nonblocking(name, req, [&] { return pmpi(sbuf, scount, stype, rbuf, rcount, rtype, comm, req); },
                     [&](Record& r) { sc::all_to_fields(r, sbuf, scount, stype, rbuf, rcount, rtype, comm); });
}

}  // namespace

extern "C" int MPI_Ibarrier(MPI_Comm comm, MPI_Request* req) {
  return nonblocking("MPI_Ibarrier", req, [&] { return PMPI_Ibarrier(comm, req); },
                     [&](Record& r) { sc::barrier_fields(r, comm); });
}

extern "C" int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* req) {
  return nonblocking("MPI_Ibcast", req, [&] { return PMPI_Ibcast(buf, count, type, root, comm, req); },
                     [&](Record& r) { sc::bcast_fields(r, buf, count, type, root, comm); });
}

extern "C" int MPI_Ireduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                           MPI_Comm comm, MPI_Request* req) {
  return nonblocking("MPI_Ireduce", req, [&] { return PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req); },
                     [&](Record& r) { sc::reduce_fields(r, sbuf, rbuf, count, type, op, root, comm); });
}

extern "C" int MPI_Iallreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request* req) {
  return reduce_all("MPI_Iallreduce", PMPI_Iallreduce, sbuf, rbuf, count, type, op, comm, req);
}
extern "C" int MPI_Iscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                         MPI_Request* req) {
  return reduce_all("MPI_Iscan", PMPI_Iscan, sbuf, rbuf, count, type, op, comm, req);
}
extern "C" int MPI_Iexscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                           MPI_Request* req) {
  return reduce_all("MPI_Iexscan", PMPI_Iexscan, sbuf, rbuf, count, type, op, comm, req);
}
extern "C" int MPI_Ireduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype type, MPI_Op op,
                                         MPI_Comm comm, MPI_Request* req) {
  return reduce_all("MPI_Ireduce_scatter_block", PMPI_Ireduce_scatter_block, sbuf, rbuf, rcount, type, op, comm, req);
}

extern "C" int MPI_Ireduce_scatter(const void* sbuf, void* rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op,
                                   MPI_Comm comm, MPI_Request* req) {
  return nonblocking("MPI_Ireduce_scatter", req,
                     [&] { return PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, type, op, comm, req); },
                     [&](Record& r) { sc::reduce_scatter_fields(r, sbuf, rbuf, rcounts, type, op, comm); });
}

extern "C" int MPI_Igather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                           MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req) {
  return nonblocking("MPI_Igather", req,
                     [&] { return PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req); },
                     [&](Record& r) { sc::gather_fields(r, sbuf, scount, stype, rbuf, rcount, rtype, root, comm); });
}

extern "C" int MPI_Iscatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                            MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req) {
  return nonblocking("MPI_Iscatter", req,
                     [&] { return PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req); },
                     [&](Record& r) { sc::scatter_fields(r, sbuf, scount, stype, rbuf, rcount, rtype, root, comm); });
}

extern "C" int MPI_Igatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                            const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req) {
  return nonblocking(
      "MPI_Igatherv", req,
      [&] { return PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req); },
      [&](Record& r) { sc::gatherv_fields(r, sbuf, scount, stype, rbuf, rcounts, rtype, root, comm); });
}

extern "C" int MPI_Iscatterv(const void* sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                             void* rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req) {
  return nonblocking(
      "MPI_Iscatterv", req,
      [&] { return PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req); },
      [&](Record& r) { sc::scatterv_fields(r, sbuf, scounts, stype, rbuf, rcount, rtype, root, comm); });
}

extern "C" int MPI_Iallgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                              MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req) {
  return all_to("MPI_Iallgather", PMPI_Iallgather, sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
}
extern "C" int MPI_Ialltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                             MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req) {
  return all_to("MPI_Ialltoall", PMPI_Ialltoall, sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
}

extern "C" int MPI_Iallgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                               const int displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req) {
  return nonblocking(
      "MPI_Iallgatherv", req,
      [&] { return PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req); },
      [&](Record& r) { sc::allgatherv_fields(r, sbuf, scount, stype, rbuf, rcounts, rtype, comm); });
}

extern "C" int MPI_Ialltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                              void* rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                              MPI_Request* req) {
  return nonblocking(
      "MPI_Ialltoallv", req,
      [&] { return PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req); },
      [&](Record& r) { sc::alltoallv_fields(r, sbuf, scounts, stype, rbuf, rcounts, rtype, comm); });
}
