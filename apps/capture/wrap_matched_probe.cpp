// Matched probe wrappers: MPI_Mprobe, MPI_Improbe, MPI_Mrecv and MPI_Imrecv.
//
// A matched probe takes the message it finds out of the matching queue; only the MPI_Mrecv or
// MPI_Imrecv of its MPI_Message handle receives it. The records (docs/capture-format.md):
//   MPI_Mprobe   peer:tag:comm:status            as MPI_Probe
//   MPI_Improbe  peer:tag:comm:flag:status       as MPI_Iprobe (status `-` when flag is 0)
//   MPI_Mrecv    buf:count:dt:status             the message's status (MPI_PROC_NULL's for
//                                                MPI_MESSAGE_NO_PROC)
//   MPI_Imrecv   buf:count:dt:req                a request like MPI_Irecv's
// simfab convert turns the probe that matched into the receive (the match happens there, so no
// later receive can take that message in the replay) and the Mrecv into nothing. When the caller
// passes MPI_STATUS_IGNORE, PMPI gets a local status. A call that returns an error code is not
// recorded.
#include <mpi.h>

#include "capture_state.hpp"
#include "record.hpp"
#include "traced.hpp"

using simfab::capture::CallScope;
using simfab::capture::Record;
using simfab::capture::status_arg;
using simfab::capture::traced;

extern "C" int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  CallScope scope;
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  return traced(scope, "MPI_Mprobe", [&] { return PMPI_Mprobe(source, tag, comm, message, st); },
                [&](Record& r) { r.rank(source).tag(tag).comm(comm).status(*st); });
}

extern "C" int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                           MPI_Status* status) {
  CallScope scope;
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  return traced(scope, "MPI_Improbe", [&] { return PMPI_Improbe(source, tag, comm, flag, message, st); },
                [&](Record& r) {
                  r.rank(source).tag(tag).comm(comm).num(*flag ? 1 : 0);
                  if (*flag) {
                    r.status(*st);
                  } else {
                    r.absent();
                  }
                });
}

extern "C" int MPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  CallScope scope;
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  return traced(scope, "MPI_Mrecv", [&] { return PMPI_Mrecv(buf, count, type, message, st); },
                [&](Record& r) { r.buf(buf).num(count).dt(type).status(*st); });
}

extern "C" int MPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request) {
  return traced("MPI_Imrecv", [&] { return PMPI_Imrecv(buf, count, type, message, request); }, [&](Record& r) {
    const auto id = r.state().new_request(*request, false);
    r.buf(buf).num(count).dt(type).req(id);
  });
}
