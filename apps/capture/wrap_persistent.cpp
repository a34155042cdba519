// Persistent request wrappers: MPI_Send_init, MPI_Bsend_init, MPI_Ssend_init, MPI_Rsend_init and
// MPI_Recv_init (unrecorded: they only remember their arguments), MPI_Start and MPI_Startall.
//
// A persistent request is an Isend/Irecv the program starts again and again. The trace says what
// each start did in the form simfab convert already knows: MPI_Start writes, for the request it
// starts, the nonblocking call the request stands for (Send_init -> MPI_Isend, Bsend_init ->
// MPI_Ibsend, Ssend_init -> MPI_Issend, Rsend_init -> MPI_Irsend, Recv_init -> MPI_Irecv) with the
// arguments given at init and a NEW request number, so the same handle carries one number per
// start and the completion call that finds it done lists that number (wrap_completion.cpp). The
// record's times are MPI_Start's. MPI_Startall of n requests writes n such records, in array
// order, splitting its duration evenly between them (record k from t0 + k(t1-t0)/n to
// t0 + (k+1)(t1-t0)/n), so the records stay in time order. A start that returns an error code is
// not recorded; a handle the library did not see being initialised (made before MPI_Init) is
// started unrecorded.
#include <mpi.h>

#include <cstdint>

#include "capture_state.hpp"
#include "record.hpp"
#include "traced.hpp"

namespace {

using simfab::capture::CallScope;
using simfab::capture::CaptureState;
using simfab::capture::PersistentInfo;
using simfab::capture::Record;

using InitFn = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);

// Runs PMPI_X_init and, when recording and it succeeded, remembers what MPI_Start will record.
[[gnu::always_inline]] inline int persistent_init(const char* started_as, bool is_send, InitFn pmpi, const void* buf,
                                                  int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                                                  MPI_Request* request) {
  CallScope scope;
  const int rc = pmpi(buf, count, type, peer, tag, comm, request);
  if (!scope || rc != MPI_SUCCESS || *request == MPI_REQUEST_NULL) return rc;
  CaptureState& state = scope.state();
  PersistentInfo info;
  info.func = started_as;
  info.is_send = is_send;
  info.buf = buf;
  info.count = count;
  if (type != MPI_DATATYPE_NULL) info.type = state.type(type);
  info.peer = peer;
  info.tag = tag;
  info.comm = state.comm(comm);
  state.add_persistent(*request, info);
  return rc;
}

// PMPI_Recv_init's buffer is not const: the same call through InitFn's signature.
int pmpi_recv_init(const void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return PMPI_Recv_init(const_cast<void*>(buf), count, type, source, tag, comm, request);
}

// Runs `call` (PMPI_Start or PMPI_Startall) and records each of requests[0..n) it started.
template <class Call>
int started(CallScope& scope, int n, MPI_Request* requests, Call&& call) {
  if (!scope) return call();
  const std::int64_t t0 = simfab::capture::now_ns();
  const int rc = call();
  const std::int64_t t1 = simfab::capture::now_ns();
  if (rc != MPI_SUCCESS) return rc;
  CaptureState& state = scope.state();
  for (int k = 0; k < n; ++k) {
    const PersistentInfo* info = state.persistent(requests[k]);
    if (info == nullptr) continue;
    const PersistentInfo p = *info;  // new_request may grow a table: copy first
    Record r(state, p.func, t0 + (t1 - t0) * k / n);
    const std::uint64_t id = state.new_request(requests[k], p.is_send);
    r.buf(p.buf).num(p.count).dt(p.type).rank(p.peer).tag(p.tag).comm(p.comm).req(id);
    r.end(t0 + (t1 - t0) * (k + 1) / n);
  }
  return rc;
}

}  // namespace

extern "C" int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                             MPI_Request* request) {
  return persistent_init("MPI_Isend", true, PMPI_Send_init, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  return persistent_init("MPI_Ibsend", true, PMPI_Bsend_init, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  return persistent_init("MPI_Issend", true, PMPI_Ssend_init, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  return persistent_init("MPI_Irsend", true, PMPI_Rsend_init, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                             MPI_Request* request) {
  return persistent_init("MPI_Irecv", false, pmpi_recv_init, buf, count, type, source, tag, comm, request);
}

extern "C" int MPI_Start(MPI_Request* request) {
  CallScope scope;
  return started(scope, 1, request, [&] { return PMPI_Start(request); });
}

extern "C" int MPI_Startall(int count, MPI_Request requests[]) {
  CallScope scope;
  return started(scope, count, requests, [&] { return PMPI_Startall(count, requests); });
}
