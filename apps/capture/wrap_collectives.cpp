// Collective wrappers: MPI_Barrier, MPI_Bcast, the reductions (Reduce, Allreduce, Scan, Exscan,
// Reduce_scatter_block, Reduce_scatter) and the data movers (Gather, Scatter, Allgather, Alltoall
// and their v variants).
//
// Each wrapper hands traced() (traced.hpp) its PMPI_X call and its fields, written by the shared
// writers of collective_fields.hpp in the field order of the table in docs/capture-format.md; a
// call that returns an error code is not recorded. The nonblocking forms are in
// wrap_nonblocking_collectives.cpp; neighbourhood collectives are not wrapped (the library refuses
// a program that calls them at MPI_Init: unrecorded_calls.hpp).
#include <mpi.h>

#include "collective_fields.hpp"
#include "traced.hpp"

namespace sc = simfab::capture;
using simfab::capture::Record;
using simfab::capture::traced;

extern "C" int MPI_Barrier(MPI_Comm comm) {
  return traced("MPI_Barrier", [&] { return PMPI_Barrier(comm); }, [&](Record& r) { sc::barrier_fields(r, comm); });
}

extern "C" int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return traced("MPI_Bcast", [&] { return PMPI_Bcast(buf, count, type, root, comm); },
                [&](Record& r) { sc::bcast_fields(r, buf, count, type, root, comm); });
}

extern "C" int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                          MPI_Comm comm) {
  return traced("MPI_Reduce", [&] { return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm); },
                [&](Record& r) { sc::reduce_fields(r, sbuf, rbuf, count, type, op, root, comm); });
}

namespace {

// Allreduce, Scan, Exscan, Reduce_scatter_block: sbuf:rbuf:count:dt:op:comm.
using ReduceAllFn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);

[[gnu::always_inline]] inline int reduce_all(const char* name, ReduceAllFn pmpi, const void* sbuf, void* rbuf,
                                             int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return traced(name, [&] { return pmpi(sbuf, rbuf, count, type, op, comm); },
                [&](Record& r) { sc::reduce_all_fields(r, sbuf, rbuf, count, type, op, comm); });
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
  return traced("MPI_Reduce_scatter", [&] { return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm); },
                [&](Record& r) { sc::reduce_scatter_fields(r, sbuf, rbuf, rcounts, type, op, comm); });
}

extern "C" int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm) {
  return traced("MPI_Gather", [&] { return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); },
                [&](Record& r) { sc::gather_fields(r, sbuf, scount, stype, rbuf, rcount, rtype, root, comm); });
}

extern "C" int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                           MPI_Datatype rtype, int root, MPI_Comm comm) {
  return traced("MPI_Scatter", [&] { return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); },
                [&](Record& r) { sc::scatter_fields(r, sbuf, scount, stype, rbuf, rcount, rtype, root, comm); });
}

extern "C" int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                           const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm) {
  return traced(
      "MPI_Gatherv", [&] { return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm); },
      [&](Record& r) { sc::gatherv_fields(r, sbuf, scount, stype, rbuf, rcounts, rtype, root, comm); });
}

extern "C" int MPI_Scatterv(const void* sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                            void* rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  return traced(
      "MPI_Scatterv", [&] { return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm); },
      [&](Record& r) { sc::scatterv_fields(r, sbuf, scounts, stype, rbuf, rcount, rtype, root, comm); });
}

namespace {

// Allgather, Alltoall: sbuf:scount:sdt:rbuf:rcount:rdt:comm.
using AllFn = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm);

[[gnu::always_inline]] inline int all_to(const char* name, AllFn pmpi, const void* sbuf, int scount,
                                         MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                                         MPI_Comm comm) {
  return traced(name, [&] { return pmpi(sbuf, scount, stype, rbuf, rcount, rtype, comm); },
                [&](Record& r) { sc::all_to_fields(r, sbuf, scount, stype, rbuf, rcount, rtype, comm); });
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
      [&](Record& r) { sc::allgatherv_fields(r, sbuf, scount, stype, rbuf, rcounts, rtype, comm); });
}

extern "C" int MPI_Alltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                             void* rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  return traced(
      "MPI_Alltoallv",
      [&] { return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm); },
      [&](Record& r) { sc::alltoallv_fields(r, sbuf, scounts, stype, rbuf, rcounts, rtype, comm); });
}
