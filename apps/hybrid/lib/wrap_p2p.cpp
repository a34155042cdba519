// Point-to-point wrappers of a hybrid run: the send modes, blocking and non-blocking, receives,
// sendrecv, probes and persistent requests. Each writes its TI line (ti_trace.hpp) and runs the
// real call under the two rules of hybrid_state.hpp:
//   - a blocking call starts non-blocking and flushes the stream before it really waits
//     (blocking_call);
//   - a standard, ready or buffered send of copy_above < bytes <= copy_max goes from a copy, its
//     real request deferred; MPI_Isend then returns a generalized request completed at once.
// A receive's line is written when it completes, with the source and tag the real MPI matched
// (wildcards resolved as in the real run); an MPI_Irecv's when it is posted (its wildcard stays
// one for the simulation: a program whose wildcard receives race may match differently there).
// Calls on communicators the library does not track pass through unrecorded.
#include <mpi.h>

#include <cstring>

#include "hybrid_state.hpp"
#include "span_copy.hpp"

namespace {

using simfab::hybrid::blocking_call;
using simfab::hybrid::CallScope;
using simfab::hybrid::RequestKey;
using simfab::hybrid::span_copy;
using simfab::hybrid::state;
using simfab::hybrid::ti_count;

constexpr int kTiProcNull = -666;
constexpr int kTiAnySource = -555;
constexpr int kTiAnyTag = -1;

int ti_peer(int peer) { return peer == MPI_PROC_NULL ? kTiProcNull : peer == MPI_ANY_SOURCE ? kTiAnySource : peer; }
int ti_tag(int tag) { return tag == MPI_ANY_TAG ? kTiAnyTag : tag; }

int comm_rank(MPI_Comm c) {
  int r = 0;
  PMPI_Comm_rank(c, &r);
  return r;
}

// The TI key of a request of `c` (TI id `id`): (this rank, peer, tag) for a send, (peer, this
// rank, tag) for a receive (replay/ti_trace.hpp).
RequestKey key_of(bool send, int peer, int tag, MPI_Comm c, int32_t id) {
  RequestKey k;
  k.src = send ? comm_rank(c) : ti_peer(peer);
  k.dst = send ? ti_peer(peer) : comm_rank(c);
  k.tag = send ? tag : ti_tag(tag);
  k.comm = id;
  k.send = send;
  return k;
}

// A persistent request's key, with the envelope each MPI_Start writes.
RequestKey persistent_key(bool send, char mode, int peer, int tag, int count, MPI_Datatype type, MPI_Comm c,
                          int32_t id) {
  RequestKey k = key_of(send, peer, tag, c, id);
  const auto n = ti_count(count, type);
  k.persistent = true;
  k.peer = ti_peer(peer);
  k.count = n.count;
  k.dt = n.dt;
  k.mode = mode;
  return k;
}

// A generalized request that is already complete: what MPI_Isend returns for a send from a copy.
int query_done(void*, MPI_Status* s) {
  PMPI_Status_set_elements(s, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(s, 0);
  s->MPI_SOURCE = MPI_UNDEFINED;
  s->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}
int free_done(void*) { return MPI_SUCCESS; }
int cancel_done(void*, int) { return MPI_SUCCESS; }

int completed_request(MPI_Request* request) {
  const int rc = PMPI_Grequest_start(query_done, free_done, cancel_done, nullptr, request);
  if (rc == MPI_SUCCESS) PMPI_Grequest_complete(*request);
  return rc;
}

using IsendFn = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);

// The real send from a copy (deferred); *request, when given, gets a completed request.
int send_from_copy(IsendFn isend, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c,
                   MPI_Request* request) {
  auto copy = span_copy(buf, count, type);
  MPI_Request real = MPI_REQUEST_NULL;
  int rc = isend(copy.ptr, count, type, dest, tag, c, &real);
  if (rc != MPI_SUCCESS) return rc;
  state().defer(real, std::move(copy.data));
  return request ? completed_request(request) : MPI_SUCCESS;
}

// The blocking sends. `action`: the TI action; `copyable`: whether the mode may complete before
// the receiver comes (not synchronous sends).
int send(const char* call, const char* action, IsendFn isend, bool copyable, const void* buf, int count,
         MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  CallScope scope;
  const MPI_Comm c = simfab::hybrid::app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) {
    MPI_Request r = MPI_REQUEST_NULL;
    const int rc = isend(buf, count, type, dest, tag, c, &r);
    return rc == MPI_SUCCESS ? PMPI_Wait(&r, MPI_STATUS_IGNORE) : rc;
  }
  const auto n = ti_count(count, type);
  state().line(action).arg(ti_peer(dest)).arg(tag).arg(n.count).arg(n.dt).end_line(id);
  if (dest != MPI_PROC_NULL && copyable && state().copy_send(n.bytes))
    return send_from_copy(isend, buf, count, type, dest, tag, c, nullptr);
  return blocking_call(call, MPI_STATUS_IGNORE,
                       [&](MPI_Request* r) { return isend(buf, count, type, dest, tag, c, r); });
}

int isend(const char* action, IsendFn fn, bool copyable, const void* buf, int count, MPI_Datatype type, int dest,
          int tag, MPI_Comm comm, MPI_Request* request) {
  CallScope scope;
  const MPI_Comm c = simfab::hybrid::app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) return fn(buf, count, type, dest, tag, c, request);
  const auto n = ti_count(count, type);
  state().line(action).arg(ti_peer(dest)).arg(tag).arg(n.count).arg(n.dt).end_line(id);
  const int rc = dest != MPI_PROC_NULL && copyable && state().copy_send(n.bytes)
                     ? send_from_copy(fn, buf, count, type, dest, tag, c, request)
                     : fn(buf, count, type, dest, tag, c, request);
  if (rc == MPI_SUCCESS) state().add_request(*request, key_of(true, dest, tag, c, id));
  return rc;
}

// Writes a completed receive's line from its status.
void write_recv(const char* action, int source, const MPI_Status& st, int32_t id) {
  int bytes = 0;
  if (source != MPI_PROC_NULL) PMPI_Get_count(&st, MPI_BYTE, &bytes);
  state().line(action)
      .arg(source == MPI_PROC_NULL ? kTiProcNull : st.MPI_SOURCE)
      .arg(source == MPI_PROC_NULL ? 0 : st.MPI_TAG)
      .arg(bytes)
      .arg(6)
      .end_line(id);
}

}  // namespace

extern "C" int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Send", "send", PMPI_Isend, true, buf, count, type, dest, tag, comm);
}
extern "C" int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Rsend", "rsend", PMPI_Irsend, true, buf, count, type, dest, tag, comm);
}
extern "C" int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Bsend", "bsend", PMPI_Ibsend, false, buf, count, type, dest, tag, comm);
}
extern "C" int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Ssend", "ssend", PMPI_Issend, false, buf, count, type, dest, tag, comm);
}

extern "C" int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  return isend("isend", PMPI_Isend, true, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  return isend("irsend", PMPI_Irsend, true, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  return isend("ibsend", PMPI_Ibsend, false, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  return isend("issend", PMPI_Issend, false, buf, count, type, dest, tag, comm, request);
}

extern "C" int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                        MPI_Status* status) {
  CallScope scope;
  const MPI_Comm c = simfab::hybrid::app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) return PMPI_Recv(buf, count, type, source, tag, c, status);
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  bool waited = false;
  const int rc = blocking_call(
      "MPI_Recv", st, [&](MPI_Request* r) { return PMPI_Irecv(buf, count, type, source, tag, c, r); },
      [&] {  // the rank waits: the line now, as posted (a wildcard stays one for the simulation)
        const auto n = ti_count(count, type);
        state().line("recv").arg(ti_peer(source)).arg(ti_tag(tag)).arg(n.count).arg(n.dt).end_line(id);
      },
      &waited);
  if (rc == MPI_SUCCESS && !waited) write_recv("recv", source, *st, id);
  return rc;
}

extern "C" int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  CallScope scope;
  const MPI_Comm c = simfab::hybrid::app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) return PMPI_Irecv(buf, count, type, source, tag, c, request);
  const auto n = ti_count(count, type);
  state().line("irecv").arg(ti_peer(source)).arg(ti_tag(tag)).arg(n.count).arg(n.dt).end_line(id);
  const int rc = PMPI_Irecv(buf, count, type, source, tag, c, request);
  if (rc == MPI_SUCCESS) state().add_request(*request, key_of(false, source, tag, c, id));
  return rc;
}

namespace {

// MPI_Sendrecv of a tracked communicator `c` (TI id `id`), inside the caller's scope.
int sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf, int rcount,
             MPI_Datatype rtype, int source, int rtag, MPI_Comm c, int32_t id, MPI_Status* status) {
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  const auto sn = ti_count(scount, stype);
  MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int rc = PMPI_Irecv(rbuf, rcount, rtype, source, rtag, c, &reqs[0]);
  if (rc != MPI_SUCCESS) return rc;
  rc = dest != MPI_PROC_NULL && state().copy_send(sn.bytes)
           ? send_from_copy(PMPI_Isend, sbuf, scount, stype, dest, stag, c, nullptr)
           : PMPI_Isend(sbuf, scount, stype, dest, stag, c, &reqs[1]);
  if (rc != MPI_SUCCESS) return rc;
  const auto write = [&](int src, int tg, int64_t bytes) {
    state().line("sendrecv").arg(ti_peer(dest)).arg(stag).arg(sn.bytes).arg(src).arg(tg).arg(bytes).arg(6).arg(6)
        .end_line(id);
  };
  MPI_Status sts[2];
  int done = 0;
  rc = PMPI_Testall(2, reqs, &done, sts);
  if (rc == MPI_SUCCESS && !done) {  // the rank waits: the line now, the receive as posted
    write(ti_peer(source), ti_tag(rtag), ti_count(rcount, rtype).bytes);
    state().about_to_block("MPI_Sendrecv");
    rc = PMPI_Waitall(2, reqs, sts);
    if (rc != MPI_SUCCESS) return rc;
    *st = sts[0];
    return MPI_SUCCESS;
  }
  if (rc != MPI_SUCCESS) return rc;
  *st = sts[0];
  int bytes = 0;
  if (source != MPI_PROC_NULL) PMPI_Get_count(st, MPI_BYTE, &bytes);
  write(source == MPI_PROC_NULL ? kTiProcNull : st->MPI_SOURCE, source == MPI_PROC_NULL ? 0 : st->MPI_TAG, bytes);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                            int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status) {
  CallScope scope;
  const MPI_Comm c = simfab::hybrid::app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, c, status);
  return sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, c, id, status);
}

extern "C" int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int stag, int source, int rtag,
                                    MPI_Comm comm, MPI_Status* status) {
  CallScope scope;
  const MPI_Comm c = simfab::hybrid::app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, c, status);
  // The outgoing data from a copy, the incoming into the buffer: what MPI_Sendrecv_replace does.
  auto copy = span_copy(buf, count, type);
  return sendrecv(copy.ptr, count, type, dest, stag, buf, count, type, source, rtag, c, id, status);
}

extern "C" int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  CallScope scope;
  const MPI_Comm c = simfab::hybrid::app_comm(comm);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (id < 0) return PMPI_Probe(source, tag, c, status);
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int flag = 0;
  int rc = PMPI_Iprobe(source, tag, c, &flag, st);
  if (rc != MPI_SUCCESS || source == MPI_PROC_NULL) return rc;
  if (flag) {
    state().line("probe").arg(st->MPI_SOURCE).arg(st->MPI_TAG).end_line(id);
    return rc;
  }
  state().line("probe").arg(ti_peer(source)).arg(ti_tag(tag)).end_line(id);  // the rank waits: as posted
  state().about_to_block("MPI_Probe");
  return PMPI_Probe(source, tag, c, st);
}

extern "C" int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  CallScope scope;
  const MPI_Comm c = simfab::hybrid::app_comm(comm);
  const int rc = PMPI_Iprobe(source, tag, c, flag, status);
  // A probe that finds nothing is polling: the rank waits for something, so its stream must
  // reach the simulator (what it found needs no line: the calls that follow say it).
  if (scope && rc == MPI_SUCCESS && !*flag) state().flush();
  return rc;
}

// Persistent requests: the envelope is kept; each MPI_Start writes the isend/irecv line.
namespace {

using InitFn = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);

int send_init(char mode, InitFn fn, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  CallScope scope;
  const MPI_Comm c = simfab::hybrid::app_comm(comm);
  const int rc = fn(buf, count, type, dest, tag, c, request);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (rc == MPI_SUCCESS && id >= 0) state().add_request(*request, persistent_key(true, mode, dest, tag, count, type, c, id));
  return rc;
}

void write_start(MPI_Request r) {
  const RequestKey* k = state().request(r);
  if (!k || k->comm < 0) return;
  const char* action = !k->send ? "irecv" : k->mode == 's' ? "issend" : k->mode == 'b' ? "ibsend" : "isend";
  state().line(action).arg(k->peer).arg(k->tag).arg(k->count).arg(k->dt).end_line(k->comm);
}

}  // namespace

extern "C" int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                             MPI_Request* request) {
  return send_init(0, PMPI_Send_init, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  return send_init(0, PMPI_Rsend_init, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  return send_init('s', PMPI_Ssend_init, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                              MPI_Request* request) {
  return send_init('b', PMPI_Bsend_init, buf, count, type, dest, tag, comm, request);
}

extern "C" int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                             MPI_Request* request) {
  CallScope scope;
  const MPI_Comm c = simfab::hybrid::app_comm(comm);
  const int rc = PMPI_Recv_init(buf, count, type, source, tag, c, request);
  const int32_t id = scope ? state().comm_id(c) : -1;
  if (rc == MPI_SUCCESS && id >= 0)
    state().add_request(*request, persistent_key(false, 0, source, tag, count, type, c, id));
  return rc;
}

extern "C" int MPI_Start(MPI_Request* request) {
  CallScope scope;
  if (scope) write_start(*request);
  return PMPI_Start(request);
}

extern "C" int MPI_Startall(int count, MPI_Request requests[]) {
  CallScope scope;
  if (scope)
    for (int i = 0; i < count; ++i) write_start(requests[i]);
  return PMPI_Startall(count, requests);
}

extern "C" int MPI_Request_free(MPI_Request* request) {
  CallScope scope;
  if (scope) state().forget_request(*request);  // an active one stays outstanding in the simulation
  return PMPI_Request_free(request);
}
