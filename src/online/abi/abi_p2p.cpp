// Point-to-point communication (MPI-3.1 chapter 3): blocking, non-blocking and persistent
// sends and receives in every mode, completion calls, probes and cancellation. Each function
// validates its pointers and delegates to OnlineProgram (online_program.hpp).
#include <vector>

#include "mpi/op.hpp"
#include "online/abi/abi_call.hpp"

using simfab::online::Call;
using simfab::online::mpi_fatal;
using simfab::online::require_ptr;
namespace op_flag = simfab::op_flag;

namespace {

constexpr uint8_t kStandard = 0;

int send(const char* name, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
         uint8_t flags) {
  Call c(name);
  MPI_Request r = c->isend(buf, count, type, dest, tag, comm, flags, name);
  c->wait(&r, MPI_STATUS_IGNORE, name);
  return MPI_SUCCESS;
}

int isend(const char* name, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
          uint8_t flags, MPI_Request* request) {
  Call c(name);
  require_ptr(request, "request", name);
  *request = c->isend(buf, count, type, dest, tag, comm, flags | op_flag::kImmediate, name);
  return MPI_SUCCESS;
}

int send_init(const char* name, const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              uint8_t flags, MPI_Request* request) {
  Call c(name);
  require_ptr(request, "request", name);
  *request = c->send_init(buf, count, type, dest, tag, comm, flags | op_flag::kImmediate, name);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Send", buf, count, type, dest, tag, comm, kStandard);
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Rsend", buf, count, type, dest, tag, comm, kStandard);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Ssend", buf, count, type, dest, tag, comm, op_flag::kSynchronousMode);
}
int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send("MPI_Bsend", buf, count, type, dest, tag, comm, op_flag::kBufferedMode);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return isend("MPI_Isend", buf, count, type, dest, tag, comm, kStandard, request);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return isend("MPI_Irsend", buf, count, type, dest, tag, comm, kStandard, request);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return isend("MPI_Issend", buf, count, type, dest, tag, comm, op_flag::kSynchronousMode, request);
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return isend("MPI_Ibsend", buf, count, type, dest, tag, comm, op_flag::kBufferedMode, request);
}
int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Send_init", buf, count, type, dest, tag, comm, kStandard, request);
}
int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Rsend_init", buf, count, type, dest, tag, comm, kStandard, request);
}
int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Ssend_init", buf, count, type, dest, tag, comm, op_flag::kSynchronousMode, request);
}
int MPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return send_init("MPI_Bsend_init", buf, count, type, dest, tag, comm, op_flag::kBufferedMode, request);
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  Call c("MPI_Recv");
  MPI_Request r = c->irecv(buf, count, type, source, tag, comm, c.name());
  c->wait(&r, status, c.name());
  return MPI_SUCCESS;
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  Call c("MPI_Irecv");
  require_ptr(request, "request", c.name());
  *request = c->irecv(buf, count, type, source, tag, comm, c.name());
  return MPI_SUCCESS;
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  Call c("MPI_Recv_init");
  require_ptr(request, "request", c.name());
  *request = c->recv_init(buf, count, type, source, tag, comm, c.name());
  return MPI_SUCCESS;
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  Call c("MPI_Sendrecv");
  MPI_Request r[2];
  r[1] = c->irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, c.name());
  r[0] = c->isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, op_flag::kImmediate, c.name());
  MPI_Status st[2];
  c->wait_all(2, r, st, c.name());
  if (status != MPI_STATUS_IGNORE) *status = st[1];
  return MPI_SUCCESS;
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  Call c("MPI_Sendrecv_replace");
  // The send packs buf at once (online_program.hpp), so the receive may reuse it.
  MPI_Request r[2];
  r[0] = c->isend(buf, count, type, dest, sendtag, comm, op_flag::kImmediate, c.name());
  r[1] = c->irecv(buf, count, type, source, recvtag, comm, c.name());
  MPI_Status st[2];
  c->wait_all(2, r, st, c.name());
  if (status != MPI_STATUS_IGNORE) *status = st[1];
  return MPI_SUCCESS;
}

int MPI_Start(MPI_Request* request) {
  Call c("MPI_Start");
  require_ptr(request, "request", c.name());
  c->start(request, c.name());
  return MPI_SUCCESS;
}

int MPI_Startall(int count, MPI_Request* requests) {
  Call c("MPI_Startall");
  if (count < 0) mpi_fatal(c.name(), "count " + std::to_string(count) + " < 0");
  if (count > 0) require_ptr(requests, "requests", c.name());
  for (int i = 0; i < count; ++i) c->start(&requests[i], c.name());
  return MPI_SUCCESS;
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  Call c("MPI_Wait");
  require_ptr(request, "request", c.name());
  c->wait(request, status, c.name());
  return MPI_SUCCESS;
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  Call c("MPI_Test");
  require_ptr(request, "request", c.name());
  require_ptr(flag, "flag", c.name());
  *flag = c->test(request, status, c.name());
  return MPI_SUCCESS;
}

int MPI_Waitall(int count, MPI_Request* requests, MPI_Status* statuses) {
  Call c("MPI_Waitall");
  if (count < 0) mpi_fatal(c.name(), "count " + std::to_string(count) + " < 0");
  if (count > 0) require_ptr(requests, "requests", c.name());
  c->wait_all(count, requests, statuses, c.name());
  return MPI_SUCCESS;
}

int MPI_Testall(int count, MPI_Request* requests, int* flag, MPI_Status* statuses) {
  Call c("MPI_Testall");
  if (count < 0) mpi_fatal(c.name(), "count " + std::to_string(count) + " < 0");
  require_ptr(flag, "flag", c.name());
  *flag = c->test_all(count, requests, statuses, c.name());
  return MPI_SUCCESS;
}

int MPI_Waitany(int count, MPI_Request* requests, int* index, MPI_Status* status) {
  Call c("MPI_Waitany");
  require_ptr(index, "index", c.name());
  c->wait_any(count, requests, index, status, true, c.name());
  return MPI_SUCCESS;
}

int MPI_Testany(int count, MPI_Request* requests, int* index, int* flag, MPI_Status* status) {
  Call c("MPI_Testany");
  require_ptr(index, "index", c.name());
  require_ptr(flag, "flag", c.name());
  *flag = c->wait_any(count, requests, index, status, false, c.name());
  return MPI_SUCCESS;
}

int MPI_Waitsome(int incount, MPI_Request* requests, int* outcount, int* indices, MPI_Status* statuses) {
  Call c("MPI_Waitsome");
  require_ptr(outcount, "outcount", c.name());
  *outcount = c->wait_some(incount, requests, indices, statuses, true, c.name());
  return MPI_SUCCESS;
}

int MPI_Testsome(int incount, MPI_Request* requests, int* outcount, int* indices, MPI_Status* statuses) {
  Call c("MPI_Testsome");
  require_ptr(outcount, "outcount", c.name());
  *outcount = c->wait_some(incount, requests, indices, statuses, false, c.name());
  return MPI_SUCCESS;
}

int MPI_Request_free(MPI_Request* request) {
  Call c("MPI_Request_free");
  require_ptr(request, "request", c.name());
  c->request_free(request, c.name());
  return MPI_SUCCESS;
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  Call c("MPI_Request_get_status");
  require_ptr(flag, "flag", c.name());
  *flag = c->request_status(request, status, c.name());
  return MPI_SUCCESS;
}

int MPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                       MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request) {
  Call c("MPI_Grequest_start");
  require_ptr(request, "request", c.name());
  *request = c->grequest_start({query_fn, free_fn, cancel_fn, extra_state});
  return MPI_SUCCESS;
}

int MPI_Grequest_complete(MPI_Request request) {
  Call c("MPI_Grequest_complete");
  c->grequest_complete(request, c.name());
  return MPI_SUCCESS;
}

int MPI_Cancel(MPI_Request* request) {
  Call c("MPI_Cancel");
  require_ptr(request, "request", c.name());
  c->cancel(request, c.name());
  return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status* status, int* flag) {
  require_ptr(status, "status", "MPI_Test_cancelled");
  *flag = status->simfab_cancelled;
  return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  Call c("MPI_Probe");
  c->probe(source, tag, comm, status, c.name());
  return MPI_SUCCESS;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  Call c("MPI_Iprobe");
  require_ptr(flag, "flag", c.name());
  *flag = c->iprobe(source, tag, comm, status, c.name());
  return MPI_SUCCESS;
}

// Buffered sends need no user buffer in simfab (every send's data is copied at once), but the
// calls are honoured so that programs written for MPI_Bsend run unchanged.
int MPI_Buffer_attach(void* buffer, int size) {
  Call c("MPI_Buffer_attach");
  if (size < 0) mpi_fatal(c.name(), "size " + std::to_string(size) + " < 0");
  if (size > 0) require_ptr(buffer, "buffer", c.name());
  return MPI_SUCCESS;
}

int MPI_Buffer_detach(void* buffer_addr, int* size) {
  Call c("MPI_Buffer_detach");
  if (buffer_addr) *static_cast<void**>(buffer_addr) = nullptr;
  if (size) *size = 0;
  return MPI_SUCCESS;
}

}  // extern "C"
