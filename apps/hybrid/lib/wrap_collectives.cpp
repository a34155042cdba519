// Collective wrappers of a hybrid run: the blocking collectives of MPI-1 (barrier, bcast, reduce,
// allreduce, gather(v), scatter(v), allgather(v), alltoall(v), reduce_scatter(_block), scan,
// exscan) and the communicator constructors. Each writes its TI line (ti_trace.hpp; the
// simulator runs simfab's algorithm and mpi/coll-selector for it) and then runs the real
// collective as its non-blocking twin (PMPI_I<coll>) under rule 1 of hybrid_state.hpp: tested
// once, the stream flushed before the rank really waits. Every rank goes through these wrappers,
// so every rank runs the non-blocking form and MPI's rule that blocking and non-blocking
// collectives never match holds. Rule 2: the roles that need nothing from the others
// (MPI_Bcast's root, MPI_Reduce's and MPI_Gather(v)'s other ranks) run from a copy of their input
// and complete later (deferred), as their simulated counterparts may.
// Reductions write 0 flops: the real reduction's time is inside the real call, never counted.
// The non-blocking barrier, bcast, reduce, allreduce, allgather and alltoall are recorded too;
// the other non-blocking, the neighbourhood and MPI-4 collectives pass through unrecorded (their
// time counts as computation).
#include <mpi.h>

#include <vector>

#include "hybrid_state.hpp"
#include "span_copy.hpp"

namespace {

using simfab::hybrid::app_comm;
using simfab::hybrid::blocking_call;
using simfab::hybrid::CallScope;
using simfab::hybrid::span_copy;
using simfab::hybrid::state;
using simfab::hybrid::ti_count;

int comm_size(MPI_Comm c) {
  int n = 0;
  PMPI_Comm_size(c, &n);
  return n;
}
int comm_rank(MPI_Comm c) {
  int r = 0;
  PMPI_Comm_rank(c, &r);
  return r;
}

// Per-rank counts in the units of `type`'s TI datatype (the same conversion as ti_count).
void counts_arg(int n, const int* counts, MPI_Datatype type) {
  for (int i = 0; i < n; ++i) state().arg(counts ? ti_count(counts[i], type).count : 0);
}

// The common frame: scope, tracked communicator, line, real call. `write` appends the line's
// arguments (after the action), `start` issues the non-blocking twin.
template <class Write, class Start>
int collective(const char* call, const char* action, MPI_Comm comm, Write&& write, Start&& start) {
  CallScope scope;
  const MPI_Comm c = app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) {  // passed through (not recorded, nothing to flush)
    MPI_Request r = MPI_REQUEST_NULL;
    const int rc = start(c, &r);
    return rc == MPI_SUCCESS ? PMPI_Wait(&r, MPI_STATUS_IGNORE) : rc;
  }
  state().line(action);
  write(c);
  state().end_line(id);
  return blocking_call(call, MPI_STATUS_IGNORE, [&](MPI_Request* r) { return start(c, r); });
}

// The arguments `<scount> <rcount> <sdt> <rdt>` of allgather and alltoall (and their
// non-blocking twins): MPI_IN_PLACE sends what the rank receives.
auto pair_args(const void* sbuf, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype) {
  const auto rn = ti_count(rcount, rtype);
  const auto sn = sbuf == MPI_IN_PLACE ? rn : ti_count(scount, stype);
  return [sn, rn](MPI_Comm) { state().arg(sn.count).arg(rn.count).arg(sn.dt).arg(rn.dt); };
}

// A role that needs nothing from the others: the real call from a copy of its input, deferred.
template <class Start>
int deferred(const void* buf, int count, MPI_Datatype type, Start&& start) {
  auto copy = span_copy(buf, count, type);
  MPI_Request r = MPI_REQUEST_NULL;
  const int rc = start(copy.ptr, &r);
  if (rc == MPI_SUCCESS) state().defer(r, std::move(copy.data));
  return rc;
}

}  // namespace

extern "C" int MPI_Barrier(MPI_Comm comm) {
  return collective("MPI_Barrier", "barrier", comm, [](MPI_Comm) {},
                    [](MPI_Comm c, MPI_Request* r) { return PMPI_Ibarrier(c, r); });
}

extern "C" int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  CallScope scope;
  const MPI_Comm c = app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) return PMPI_Bcast(buf, count, type, root, c);
  const auto n = ti_count(count, type);
  state().line("bcast").arg(n.count).arg(root).arg(n.dt).end_line(id);
  if (comm_rank(c) == root)
    return deferred(buf, count, type, [&](const void* p, MPI_Request* r) {
      return PMPI_Ibcast(const_cast<void*>(p), count, type, root, c, r);
    });
  return blocking_call("MPI_Bcast", MPI_STATUS_IGNORE,
                       [&](MPI_Request* r) { return PMPI_Ibcast(buf, count, type, root, c, r); });
}

extern "C" int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                          MPI_Comm comm) {
  CallScope scope;
  const MPI_Comm c = app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) return PMPI_Reduce(sbuf, rbuf, count, type, op, root, c);
  const auto n = ti_count(count, type);
  state().line("reduce").arg(n.count).arg(0).arg(root).arg(n.dt).end_line(id);
  if (comm_rank(c) != root)
    return deferred(sbuf, count, type, [&](const void* p, MPI_Request* r) {
      return PMPI_Ireduce(p, rbuf, count, type, op, root, c, r);
    });
  return blocking_call("MPI_Reduce", MPI_STATUS_IGNORE,
                       [&](MPI_Request* r) { return PMPI_Ireduce(sbuf, rbuf, count, type, op, root, c, r); });
}

extern "C" int MPI_Allreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const auto n = ti_count(count, type);
  return collective("MPI_Allreduce", "allreduce", comm, [&](MPI_Comm) { state().arg(n.count).arg(0).arg(n.dt); },
                    [&](MPI_Comm c, MPI_Request* r) { return PMPI_Iallreduce(sbuf, rbuf, count, type, op, c, r); });
}

extern "C" int MPI_Scan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const auto n = ti_count(count, type);
  return collective("MPI_Scan", "scan", comm, [&](MPI_Comm) { state().arg(n.count).arg(0).arg(n.dt); },
                    [&](MPI_Comm c, MPI_Request* r) { return PMPI_Iscan(sbuf, rbuf, count, type, op, c, r); });
}

extern "C" int MPI_Exscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const auto n = ti_count(count, type);
  return collective("MPI_Exscan", "exscan", comm, [&](MPI_Comm) { state().arg(n.count).arg(0).arg(n.dt); },
                    [&](MPI_Comm c, MPI_Request* r) { return PMPI_Iexscan(sbuf, rbuf, count, type, op, c, r); });
}

extern "C" int MPI_Allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                             MPI_Datatype rtype, MPI_Comm comm) {
  return collective("MPI_Allgather", "allgather", comm, pair_args(sbuf, scount, stype, rcount, rtype),
                    [&](MPI_Comm c, MPI_Request* r) {
                      return PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, c, r);
                    });
}

extern "C" int MPI_Allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                              const int displs[], MPI_Datatype rtype, MPI_Comm comm) {
  return collective("MPI_Allgatherv", "allgatherv", comm,
                    [&](MPI_Comm c) {
                      const int n = comm_size(c);
                      // TI's allgatherv has one datatype: the receive type's units for every count.
                      int ssize = 0, rsize = 0;
                      PMPI_Type_size(rtype, &rsize);
                      if (sbuf != MPI_IN_PLACE) PMPI_Type_size(stype, &ssize);
                      const int64_t sbytes = sbuf == MPI_IN_PLACE ? static_cast<int64_t>(rcounts[comm_rank(c)]) * rsize
                                                                  : static_cast<int64_t>(scount) * ssize;
                      state().arg(sbytes);
                      for (int i = 0; i < n; ++i) state().arg(static_cast<int64_t>(rcounts[i]) * rsize);
                      state().arg(6);
                    },
                    [&](MPI_Comm c, MPI_Request* r) {
                      return PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, c, r);
                    });
}

extern "C" int MPI_Alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm) {
  return collective("MPI_Alltoall", "alltoall", comm, pair_args(sbuf, scount, stype, rcount, rtype),
                    [&](MPI_Comm c, MPI_Request* r) {
                      return PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, c, r);
                    });
}

extern "C" int MPI_Alltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                             void* rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  return collective("MPI_Alltoallv", "alltoallv", comm,
                    [&](MPI_Comm c) {
                      const int n = comm_size(c);
                      const bool in_place = sbuf == MPI_IN_PLACE;
                      const int* sc = in_place ? rcounts : scounts;
                      const MPI_Datatype st = in_place ? rtype : stype;
                      int64_t stotal = 0, rtotal = 0;
                      for (int i = 0; i < n; ++i) {
                        stotal += ti_count(sc[i], st).bytes;
                        rtotal += ti_count(rcounts[i], rtype).bytes;
                      }
                      state().arg(stotal);
                      for (int i = 0; i < n; ++i) state().arg(ti_count(sc[i], st).bytes);
                      state().arg(rtotal);
                      for (int i = 0; i < n; ++i) state().arg(ti_count(rcounts[i], rtype).bytes);
                      state().arg(6).arg(6);
                    },
                    [&](MPI_Comm c, MPI_Request* r) {
                      return PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, c, r);
                    });
}

extern "C" int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm) {
  CallScope scope;
  const MPI_Comm c = app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, c);
  const bool is_root = comm_rank(c) == root;
  const auto rn = is_root ? ti_count(rcount, rtype) : simfab::hybrid::TiCount{0, 6, 0};
  const auto sn = sbuf == MPI_IN_PLACE ? rn : ti_count(scount, stype);
  state().line("gather").arg(sn.count).arg(is_root ? rn.count : sn.count).arg(root).arg(sn.dt)
      .arg(is_root ? rn.dt : sn.dt).end_line(id);
  if (!is_root)
    return deferred(sbuf, scount, stype, [&](const void* p, MPI_Request* r) {
      return PMPI_Igather(p, scount, stype, rbuf, rcount, rtype, root, c, r);
    });
  return blocking_call("MPI_Gather", MPI_STATUS_IGNORE, [&](MPI_Request* r) {
    return PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, c, r);
  });
}

extern "C" int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                           const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm) {
  CallScope scope;
  const MPI_Comm c = app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, c);
  const int n = comm_size(c);
  const bool is_root = comm_rank(c) == root;
  // In bytes (datatype BYTE): the members' own counts and the root's list are in their own types.
  const int64_t sbytes = sbuf == MPI_IN_PLACE ? ti_count(rcounts[root], rtype).bytes : ti_count(scount, stype).bytes;
  state().line("gatherv").arg(sbytes);
  for (int i = 0; i < n; ++i) state().arg(is_root ? ti_count(rcounts[i], rtype).bytes : 0);
  state().arg(root).arg(6).arg(6).end_line(id);
  if (!is_root)
    return deferred(sbuf, scount, stype, [&](const void* p, MPI_Request* r) {
      return PMPI_Igatherv(p, scount, stype, rbuf, rcounts, displs, rtype, root, c, r);
    });
  return blocking_call("MPI_Gatherv", MPI_STATUS_IGNORE, [&](MPI_Request* r) {
    return PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, c, r);
  });
}

extern "C" int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                           MPI_Datatype rtype, int root, MPI_Comm comm) {
  return collective("MPI_Scatter", "scatter", comm,
                    [&](MPI_Comm c) {
                      const bool is_root = comm_rank(c) == root;
                      const auto rn = rbuf == MPI_IN_PLACE ? ti_count(scount, stype) : ti_count(rcount, rtype);
                      const auto sn = is_root ? ti_count(scount, stype) : rn;
                      state().arg(sn.bytes).arg(rn.bytes).arg(root).arg(6).arg(6);
                    },
                    [&](MPI_Comm c, MPI_Request* r) {
                      return PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, c, r);
                    });
}

extern "C" int MPI_Scatterv(const void* sbuf, const int scounts[], const int displs[], MPI_Datatype stype, void* rbuf,
                            int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  return collective("MPI_Scatterv", "scatterv", comm,
                    [&](MPI_Comm c) {
                      const int n = comm_size(c);
                      const bool is_root = comm_rank(c) == root;
                      for (int i = 0; i < n; ++i) state().arg(is_root ? ti_count(scounts[i], stype).bytes : 0);
                      const int64_t rbytes = rbuf == MPI_IN_PLACE ? ti_count(scounts[root], stype).bytes
                                                                  : ti_count(rcount, rtype).bytes;
                      state().arg(rbytes).arg(root).arg(6).arg(6);
                    },
                    [&](MPI_Comm c, MPI_Request* r) {
                      return PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, c, r);
                    });
}

extern "C" int MPI_Reduce_scatter(const void* sbuf, void* rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op,
                                  MPI_Comm comm) {
  return collective("MPI_Reduce_scatter", "reducescatter", comm,
                    [&](MPI_Comm c) {
                      counts_arg(comm_size(c), rcounts, type);
                      state().arg(0).arg(ti_count(1, type).dt);
                    },
                    [&](MPI_Comm c, MPI_Request* r) {
                      return PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, type, op, c, r);
                    });
}

extern "C" int MPI_Reduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype type, MPI_Op op,
                                        MPI_Comm comm) {
  return collective("MPI_Reduce_scatter_block", "reducescatter", comm,
                    [&](MPI_Comm c) {
                      const int n = comm_size(c);
                      for (int i = 0; i < n; ++i) state().arg(ti_count(rcount, type).count);
                      state().arg(0).arg(ti_count(1, type).dt);
                    },
                    [&](MPI_Comm c, MPI_Request* r) {
                      return PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, type, op, c, r);
                    });
}

// ---- non-blocking collectives ------------------------------------------------------------------
// The line `i<collective> ...` when called; the request's TI key is SMPI's collective wait (a tag
// below -1: the rank's oldest outstanding non-blocking collective), written by the completion
// call that finds it done. (The real call never blocks: no rule applies.)
namespace {

constexpr int32_t kTiCollectiveWait = -2;

template <class Write, class Start>
int icollective(const char* action, MPI_Comm comm, MPI_Request* request, Write&& write, Start&& start) {
  CallScope scope;
  const MPI_Comm c = app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id >= 0) {
    state().line(action);
    write(c);
    state().end_line(id);
  }
  const int rc = start(c, request);
  if (rc == MPI_SUCCESS && id >= 0) {
    simfab::hybrid::RequestKey k;
    k.tag = kTiCollectiveWait;
    k.comm = id;
    state().add_request(*request, k);
  }
  return rc;
}

}  // namespace

extern "C" int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return icollective("ibarrier", comm, request, [](MPI_Comm) {},
                     [](MPI_Comm c, MPI_Request* r) { return PMPI_Ibarrier(c, r); });
}
extern "C" int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request) {
  const auto n = ti_count(count, type);
  return icollective("ibcast", comm, request, [&](MPI_Comm) { state().arg(n.count).arg(root).arg(n.dt); },
                     [&](MPI_Comm c, MPI_Request* r) { return PMPI_Ibcast(buf, count, type, root, c, r); });
}
extern "C" int MPI_Ireduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                           MPI_Comm comm, MPI_Request* request) {
  const auto n = ti_count(count, type);
  return icollective("ireduce", comm, request, [&](MPI_Comm) { state().arg(n.count).arg(0).arg(root).arg(n.dt); },
                     [&](MPI_Comm c, MPI_Request* r) { return PMPI_Ireduce(sbuf, rbuf, count, type, op, root, c, r); });
}
extern "C" int MPI_Iallreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  const auto n = ti_count(count, type);
  return icollective("iallreduce", comm, request, [&](MPI_Comm) { state().arg(n.count).arg(0).arg(n.dt); },
                     [&](MPI_Comm c, MPI_Request* r) { return PMPI_Iallreduce(sbuf, rbuf, count, type, op, c, r); });
}
extern "C" int MPI_Iallgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                              MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  return icollective("iallgather", comm, request, pair_args(sbuf, scount, stype, rcount, rtype),
                     [&](MPI_Comm c, MPI_Request* r) {
                       return PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, c, r);
                     });
}
extern "C" int MPI_Ialltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                             MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  return icollective("ialltoall", comm, request, pair_args(sbuf, scount, stype, rcount, rtype),
                     [&](MPI_Comm c, MPI_Request* r) {
                       return PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, c, r);
                     });
}

// ---- communicators ----------------------------------------------------------------------------
// Creation is collective on the parent: the stream is flushed first (the call may wait for the
// other members), then HybridState::created agrees on the id and writes the line.

namespace {

// plan() writes the line and returns the id (HybridState::creating), before the real call.
template <class Plan, class Create>
int create(MPI_Comm comm, MPI_Comm* newcomm, Plan&& plan, Create&& call) {
  CallScope scope;
  const MPI_Comm c = app_comm(comm);
  const int32_t id = scope ? plan(c) : -1;
  if (scope) state().flush();  // the call may wait for the other members
  const int rc = call(c);
  if (scope && rc == MPI_SUCCESS) state().created(*newcomm, id);
  return rc;
}

int32_t split(MPI_Comm c, int color, int key) { return state().creating(c, color, key, false); }
int32_t dup(MPI_Comm c) { return state().creating(c, 0, 0, true); }

// A color no rank on another host shares (MPI_COMM_TYPE_SHARED groups the ranks of a host).
int host_color() {
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  PMPI_Get_processor_name(name, &len);
  unsigned h = 2166136261u;
  for (int i = 0; i < len; ++i) h = (h ^ static_cast<unsigned char>(name[i])) * 16777619u;
  return static_cast<int>(h & 0x3fffffff);
}

}  // namespace

extern "C" int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return create(comm, newcomm, dup, [&](MPI_Comm c) { return PMPI_Comm_dup(c, newcomm); });
}
extern "C" int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  return create(comm, newcomm, dup, [&](MPI_Comm c) { return PMPI_Comm_dup_with_info(c, info, newcomm); });
}
extern "C" int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return create(comm, newcomm, [&](MPI_Comm c) { return split(c, color, key); },
                [&](MPI_Comm c) { return PMPI_Comm_split(c, color, key, newcomm); });
}
extern "C" int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm* newcomm) {
  return create(comm, newcomm,
                [&](MPI_Comm c) { return split(c, type == MPI_UNDEFINED ? MPI_UNDEFINED : host_color(), key); },
                [&](MPI_Comm c) { return PMPI_Comm_split_type(c, type, key, info, newcomm); });
}
extern "C" int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  return create(comm, newcomm, [&](MPI_Comm c) { return state().creating_group(c, group); },
                [&](MPI_Comm c) { return PMPI_Comm_create(c, group, newcomm); });
}
// Topologies: the ranks keep their order (no reordering, as Open MPI's default topology
// component does); ranks outside a Cartesian grid get none.
extern "C" int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                               MPI_Comm* newcomm) {
  return create(comm, newcomm,
                [&](MPI_Comm c) {
                  int cells = 1, r = comm_rank(c);
                  for (int i = 0; i < ndims; ++i) cells *= dims[i];
                  return split(c, r < cells ? 0 : MPI_UNDEFINED, r);
                },
                [&](MPI_Comm c) { return PMPI_Cart_create(c, ndims, dims, periods, reorder, newcomm); });
}
extern "C" int MPI_Cart_sub(MPI_Comm comm, const int remain[], MPI_Comm* newcomm) {
  return create(comm, newcomm,
                [&](MPI_Comm c) {
                  // The color: this rank's coordinates along the dimensions that do not remain.
                  int ndims = 0, r = comm_rank(c);
                  PMPI_Cartdim_get(c, &ndims);
                  std::vector<int> coords(static_cast<size_t>(ndims > 0 ? ndims : 1)), dims(coords.size()),
                      periods(coords.size());
                  PMPI_Cart_get(c, ndims, dims.data(), periods.data(), coords.data());
                  int color = 0;
                  for (int i = 0; i < ndims; ++i)
                    if (!remain[i]) color = color * dims[static_cast<size_t>(i)] + coords[static_cast<size_t>(i)];
                  return split(c, color, r);
                },
                [&](MPI_Comm c) { return PMPI_Cart_sub(c, remain, newcomm); });
}
extern "C" int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                                MPI_Comm* newcomm) {
  return create(comm, newcomm,
                [&](MPI_Comm c) {
                  const int r = comm_rank(c);
                  return split(c, r < nnodes ? 0 : MPI_UNDEFINED, r);
                },
                [&](MPI_Comm c) { return PMPI_Graph_create(c, nnodes, index, edges, reorder, newcomm); });
}
extern "C" int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                              const int sourceweights[], int outdegree, const int destinations[],
                                              const int destweights[], MPI_Info info, int reorder, MPI_Comm* newcomm) {
  return create(comm, newcomm, dup, [&](MPI_Comm c) {
    return PMPI_Dist_graph_create_adjacent(c, indegree, sources, sourceweights, outdegree, destinations, destweights,
                                           info, reorder, newcomm);
  });
}
extern "C" int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                                     const int destinations[], const int weights[], MPI_Info info, int reorder,
                                     MPI_Comm* newcomm) {
  return create(comm, newcomm, dup, [&](MPI_Comm c) {
    return PMPI_Dist_graph_create(c, n, sources, degrees, destinations, weights, info, reorder, newcomm);
  });
}

extern "C" int MPI_Comm_free(MPI_Comm* comm) {
  CallScope scope;
  if (scope) state().freed(*comm);
  return PMPI_Comm_free(comm);
}
