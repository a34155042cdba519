// Point-to-point wrappers: the four send modes, blocking and nonblocking, MPI_Recv, MPI_Irecv,
// MPI_Sendrecv(_replace), MPI_Probe and MPI_Iprobe.
//
// Each wrapper hands traced() (traced.hpp) its PMPI_X call and its fields, in the field order of
// the table in docs/capture-format.md. Nonblocking calls number the request PMPI returned
// (CaptureState::new_request); its completion is recorded by wrap_completion.cpp. When the caller
// passes MPI_STATUS_IGNORE, PMPI gets a local status so the record still has src/tag/bytes; the
// caller's argument is left as it was.
//
// Persistent requests are in wrap_persistent.cpp, matched probes in wrap_matched_probe.cpp. A call
// that returns an error code is not recorded (its time counts as computation).
#include <mpi.h>

#include "capture_state.hpp"
#include "record.hpp"
#include "traced.hpp"

namespace {

using simfab::capture::CallScope;
using simfab::capture::Record;
using simfab::capture::status_arg;
using simfab::capture::traced;

using SendFn = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm);
using IsendFn = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);

[[gnu::always_inline]] inline int blocking_send(const char* name, SendFn pmpi, const void* buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm) {
  return traced(name, [&] { return pmpi(buf, count, type, dest, tag, comm); },
                [&](Record& r) { r.buf(buf).num(count).dt(type).rank(dest).tag(tag).comm(comm); });
}

[[gnu::always_inline]] inline int nonblocking_send(const char* name, IsendFn pmpi, const void* buf, int count, MPI_Datatype type, int dest,
                     int tag, MPI_Comm comm, MPI_Request* request) {
  return traced(name, [&] { return pmpi(buf, count, type, dest, tag, comm, request); }, [&](Record& r) {
    const auto id = r.state().new_request(*request, true);
    r.buf(buf).num(count).dt(type).rank(dest).tag(tag).comm(comm).req(id);
  });
}

}  // namespace

extern "C" int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Send", PMPI_Send, buf, count, type, dest, tag, comm);
}
extern "C" int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Bsend", PMPI_Bsend, buf, count, type, dest, tag, comm);
}
extern "C" int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Ssend", PMPI_Ssend, buf, count, type, dest, tag, comm);
}
extern "C" int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("MPI_Rsend", PMPI_Rsend, buf, count, type, dest, tag, comm);
}

extern "C" int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  return nonblocking_send("MPI_Isend", PMPI_Isend, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  return nonblocking_send("MPI_Ibsend", PMPI_Ibsend, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  return nonblocking_send("MPI_Issend", PMPI_Issend, buf, count, type, dest, tag, comm, request);
}
extern "C" int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  return nonblocking_send("MPI_Irsend", PMPI_Irsend, buf, count, type, dest, tag, comm, request);
}

extern "C" int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                        MPI_Status* status) {
  CallScope scope;
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  return traced(scope, "MPI_Recv", [&] { return PMPI_Recv(buf, count, type, source, tag, comm, st); },
                [&](Record& r) { r.buf(buf).num(count).dt(type).rank(source).tag(tag).comm(comm).status(*st); });
}

extern "C" int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  return traced("MPI_Irecv", [&] { return PMPI_Irecv(buf, count, type, source, tag, comm, request); },
                [&](Record& r) {
                  const auto id = r.state().new_request(*request, false);
                  r.buf(buf).num(count).dt(type).rank(source).tag(tag).comm(comm).req(id);
                });
}

extern "C" int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                            int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status) {
  CallScope scope;
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  return traced(
      scope, "MPI_Sendrecv",
      [&] { return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st); },
      [&](Record& r) {
        r.buf(sbuf).num(scount).dt(stype).rank(dest).tag(stag)
            .buf(rbuf).num(rcount).dt(rtype).rank(source).tag(rtag)
            .comm(comm).status(*st);
      });
}

extern "C" int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int stag, int source,
                                    int rtag, MPI_Comm comm, MPI_Status* status) {
  CallScope scope;
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  return traced(
      scope, "MPI_Sendrecv_replace",
      [&] { return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, st); },
      [&](Record& r) {
        r.buf(buf).num(count).dt(type).rank(dest).tag(stag).rank(source).tag(rtag).comm(comm).status(*st);
      });
}

extern "C" int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  CallScope scope;
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  return traced(scope, "MPI_Probe", [&] { return PMPI_Probe(source, tag, comm, st); },
                [&](Record& r) { r.rank(source).tag(tag).comm(comm).status(*st); });
}

extern "C" int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  CallScope scope;
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  return traced(scope, "MPI_Iprobe", [&] { return PMPI_Iprobe(source, tag, comm, flag, st); }, [&](Record& r) {
    r.rank(source).tag(tag).comm(comm).num(*flag ? 1 : 0);
    if (*flag) {
      r.status(*st);
    } else {
      r.absent();
    }
  });
}
