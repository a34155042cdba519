// Collective communication (MPI-3.1 chapter 5), blocking and non-blocking: each call describes
// itself as a CollArgs (online/coll_data.hpp) and OnlineProgram::collective times it with the
// selector's algorithm and computes its data exactly.
#include "online/abi/abi_call.hpp"

using simfab::coll::CollOp;
using simfab::online::Call;
using simfab::online::CollArgs;
using simfab::online::mpi_fatal;
using simfab::online::require_ptr;

namespace {

int run(Call& c, CollArgs a, MPI_Comm comm, MPI_Request* request) {
  a.call = c.name();
  if (a.scount < 0 || a.rcount < 0)
    mpi_fatal(c.name(), "count " + std::to_string(a.scount < 0 ? a.scount : a.rcount) + " < 0");
  if (request) {
    *request = c->collective(a, comm, true, c.name());
  } else {
    c->collective(a, comm, false, c.name());
  }
  return MPI_SUCCESS;
}

CollArgs args(CollOp op) {
  CollArgs a;
  a.op = op;
  return a;
}

// The per-member arrays a v-collective reads must exist where MPI says they are significant.
void need(const int* v, const char* what, const char* call) { require_ptr(v, what, call); }

int bcast(const char* name, void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* req) {
  Call c(name);
  CollArgs a = args(CollOp::kBcast);
  a.rbuf = buf;
  a.rcount = count;
  a.rtype = type;
  a.root = root;
  return run(c, a, comm, req);
}

int reduce(const char* name, CollOp op, const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op mop, int root,
           MPI_Comm comm, MPI_Request* req) {
  Call c(name);
  CollArgs a = args(op);
  a.sbuf = sbuf;
  a.rbuf = rbuf;
  a.scount = count;
  a.stype = type;
  a.rcount = count;
  a.rtype = type;
  a.mop = mop;
  a.root = root;
  return run(c, a, comm, req);
}

int exchange(const char* name, CollOp op, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
             MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req) {
  Call c(name);
  CollArgs a = args(op);
  a.sbuf = sbuf;
  a.scount = sbuf == MPI_IN_PLACE ? 0 : scount;
  a.stype = sbuf == MPI_IN_PLACE ? rtype : stype;
  a.rbuf = rbuf;
  a.rcount = rbuf == MPI_IN_PLACE ? 0 : rcount;
  a.rtype = rbuf == MPI_IN_PLACE ? stype : rtype;
  a.root = root;
  return run(c, a, comm, req);
}

int gatherv(const char* name, CollOp op, const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts,
            const int* displs, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req) {
  Call c(name);
  CollArgs a = args(op);
  a.sbuf = sbuf;
  a.scount = sbuf == MPI_IN_PLACE ? 0 : scount;
  a.stype = sbuf == MPI_IN_PLACE ? rtype : stype;
  a.rbuf = rbuf;
  a.rtype = rtype;
  a.rcounts = rcounts;
  a.rdispls = displs;
  a.root = root;
  const simfab::online::OnlineProgram::CommRef cr = c->comm(comm, name);
  if (op == CollOp::kAllgatherv || cr.rank == root) {
    need(rcounts, "recvcounts", name);
    need(displs, "displs", name);
  } else {
    a.rcounts = nullptr;
    a.rdispls = nullptr;
  }
  return run(c, a, comm, req);
}

int scatterv(const char* name, const void* sbuf, const int* scounts, const int* displs, MPI_Datatype stype, void* rbuf,
             int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* req) {
  Call c(name);
  CollArgs a = args(CollOp::kScatterv);
  a.sbuf = sbuf;
  a.stype = stype;
  a.scounts = scounts;
  a.sdispls = displs;
  a.rbuf = rbuf;
  a.rcount = rbuf == MPI_IN_PLACE ? 0 : rcount;
  a.rtype = rbuf == MPI_IN_PLACE ? stype : rtype;
  a.root = root;
  if (c->comm(comm, name).rank == root) {
    need(scounts, "sendcounts", name);
    need(displs, "displs", name);
  }
  return run(c, a, comm, req);
}

int alltoallv(const char* name, const void* sbuf, const int* scounts, const int* sdispls, MPI_Datatype stype, void* rbuf,
              const int* rcounts, const int* rdispls, MPI_Datatype rtype, MPI_Comm comm, MPI_Request* req) {
  Call c(name);
  CollArgs a = args(CollOp::kAlltoallv);
  a.sbuf = sbuf;
  a.stype = sbuf == MPI_IN_PLACE ? rtype : stype;
  a.scounts = scounts;
  a.sdispls = sdispls;
  if (sbuf != MPI_IN_PLACE) {
    need(scounts, "sendcounts", name);
    need(sdispls, "sdispls", name);
  }
  need(rcounts, "recvcounts", name);
  need(rdispls, "rdispls", name);
  a.rbuf = rbuf;
  a.rtype = rtype;
  a.rcounts = rcounts;
  a.rdispls = rdispls;
  return run(c, a, comm, req);
}

int reduce_scatter(const char* name, bool block, const void* sbuf, void* rbuf, const int* rcounts, int rcount,
                   MPI_Datatype type, MPI_Op mop, MPI_Comm comm, MPI_Request* req) {
  Call c(name);
  CollArgs a = args(CollOp::kReduceScatter);
  a.block = block;
  a.sbuf = sbuf;
  a.rbuf = rbuf;
  a.stype = a.rtype = type;
  a.rcounts = rcounts;
  a.rcount = rcount;
  a.mop = mop;
  if (!block) need(rcounts, "recvcounts", name);
  return run(c, a, comm, req);
}

}  // namespace

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  Call c("MPI_Barrier");
  return run(c, args(CollOp::kBarrier), comm, nullptr);
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  Call c("MPI_Ibarrier");
  require_ptr(request, "request", c.name());
  return run(c, args(CollOp::kBarrier), comm, request);
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return bcast("MPI_Bcast", buf, count, type, root, comm, nullptr);
}
int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Ibcast");
  return bcast("MPI_Ibcast", buf, count, type, root, comm, request);
}

int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  return reduce("MPI_Reduce", CollOp::kReduce, sbuf, rbuf, count, type, op, root, comm, nullptr);
}
int MPI_Ireduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request* request) {
  require_ptr(request, "request", "MPI_Ireduce");
  return reduce("MPI_Ireduce", CollOp::kReduce, sbuf, rbuf, count, type, op, root, comm, request);
}
int MPI_Allreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce("MPI_Allreduce", CollOp::kAllreduce, sbuf, rbuf, count, type, op, 0, comm, nullptr);
}
int MPI_Iallreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  require_ptr(request, "request", "MPI_Iallreduce");
  return reduce("MPI_Iallreduce", CollOp::kAllreduce, sbuf, rbuf, count, type, op, 0, comm, request);
}
int MPI_Scan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce("MPI_Scan", CollOp::kScan, sbuf, rbuf, count, type, op, 0, comm, nullptr);
}
int MPI_Iscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Iscan");
  return reduce("MPI_Iscan", CollOp::kScan, sbuf, rbuf, count, type, op, 0, comm, request);
}
int MPI_Exscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce("MPI_Exscan", CollOp::kExscan, sbuf, rbuf, count, type, op, 0, comm, nullptr);
}
int MPI_Iexscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* request) {
  require_ptr(request, "request", "MPI_Iexscan");
  return reduce("MPI_Iexscan", CollOp::kExscan, sbuf, rbuf, count, type, op, 0, comm, request);
}

int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
               MPI_Comm comm) {
  return exchange("MPI_Gather", CollOp::kGather, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, nullptr);
}
int MPI_Igather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Igather");
  return exchange("MPI_Igather", CollOp::kGather, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, request);
}
int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm) {
  return exchange("MPI_Scatter", CollOp::kScatter, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, nullptr);
}
int MPI_Iscatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Iscatter");
  return exchange("MPI_Iscatter", CollOp::kScatter, sbuf, scount, stype, rbuf, rcount, rtype, root, comm, request);
}
int MPI_Allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm) {
  return exchange("MPI_Allgather", CollOp::kAllgather, sbuf, scount, stype, rbuf, rcount, rtype, 0, comm, nullptr);
}
int MPI_Iallgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Iallgather");
  return exchange("MPI_Iallgather", CollOp::kAllgather, sbuf, scount, stype, rbuf, rcount, rtype, 0, comm, request);
}
int MPI_Alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm) {
  return exchange("MPI_Alltoall", CollOp::kAlltoall, sbuf, scount, stype, rbuf, rcount, rtype, 0, comm, nullptr);
}
int MPI_Ialltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Ialltoall");
  return exchange("MPI_Ialltoall", CollOp::kAlltoall, sbuf, scount, stype, rbuf, rcount, rtype, 0, comm, request);
}

int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts, const int* displs,
                MPI_Datatype rtype, int root, MPI_Comm comm) {
  return gatherv("MPI_Gatherv", CollOp::kGatherv, sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, nullptr);
}
int MPI_Igatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts, const int* displs,
                 MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Igatherv");
  return gatherv("MPI_Igatherv", CollOp::kGatherv, sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, request);
}
int MPI_Allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts, const int* displs,
                   MPI_Datatype rtype, MPI_Comm comm) {
  return gatherv("MPI_Allgatherv", CollOp::kAllgatherv, sbuf, scount, stype, rbuf, rcounts, displs, rtype, 0, comm,
                 nullptr);
}
int MPI_Iallgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int* rcounts, const int* displs,
                    MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Iallgatherv");
  return gatherv("MPI_Iallgatherv", CollOp::kAllgatherv, sbuf, scount, stype, rbuf, rcounts, displs, rtype, 0, comm,
                 request);
}
int MPI_Scatterv(const void* sbuf, const int* scounts, const int* displs, MPI_Datatype stype, void* rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm) {
  return scatterv("MPI_Scatterv", sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, nullptr);
}
int MPI_Iscatterv(const void* sbuf, const int* scounts, const int* displs, MPI_Datatype stype, void* rbuf, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Iscatterv");
  return scatterv("MPI_Iscatterv", sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, request);
}
int MPI_Alltoallv(const void* sbuf, const int* scounts, const int* sdispls, MPI_Datatype stype, void* rbuf,
                  const int* rcounts, const int* rdispls, MPI_Datatype rtype, MPI_Comm comm) {
  return alltoallv("MPI_Alltoallv", sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, nullptr);
}
int MPI_Ialltoallv(const void* sbuf, const int* scounts, const int* sdispls, MPI_Datatype stype, void* rbuf,
                   const int* rcounts, const int* rdispls, MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Ialltoallv");
  return alltoallv("MPI_Ialltoallv", sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, request);
}

int MPI_Reduce_scatter(const void* sbuf, void* rbuf, const int* rcounts, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter("MPI_Reduce_scatter", false, sbuf, rbuf, rcounts, 0, type, op, comm, nullptr);
}
int MPI_Ireduce_scatter(const void* sbuf, void* rbuf, const int* rcounts, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                        MPI_Request* request) {
  require_ptr(request, "request", "MPI_Ireduce_scatter");
  return reduce_scatter("MPI_Ireduce_scatter", false, sbuf, rbuf, rcounts, 0, type, op, comm, request);
}
int MPI_Reduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter("MPI_Reduce_scatter_block", true, sbuf, rbuf, nullptr, rcount, type, op, comm, nullptr);
}
int MPI_Ireduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  require_ptr(request, "request", "MPI_Ireduce_scatter_block");
  return reduce_scatter("MPI_Ireduce_scatter_block", true, sbuf, rbuf, nullptr, rcount, type, op, comm, request);
}

}  // extern "C"
