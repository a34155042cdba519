// Completion wrappers: MPI_Wait/Waitall/Waitany/Waitsome, MPI_Test/Testall/Testany/Testsome, and
// MPI_Request_free (unrecorded; it only drops the request from the table).
//
// A completion call sets the requests it completes to MPI_REQUEST_NULL, so each wrapper first
// saves the handles (CaptureState::save_requests), then calls PMPI, then writes a `done` list of
// `id/src/tag/bytes` for the requests that completed, looked up by their saved handles:
//   - Wait, Test (flag set), Waitany/Testany: the one request PMPI names (index != MPI_UNDEFINED);
//   - Waitsome/Testsome: indices[0..outcount), in that order, status k for indices[k];
//   - Waitall/Testall (flag set): every request that was active and is now MPI_REQUEST_NULL, in
//     array order, status i for request i (so a Waitall that failed with MPI_ERR_IN_STATUS lists
//     only those that did complete).
// A send request is written `id/-2/-1/0`; a request no recorded call created (persistent,
// nonblocking collective, generalized) is left out. Callers' MPI_STATUS(ES)_IGNORE is replaced by
// scratch statuses for PMPI. These calls are recorded even when PMPI returns an error, so the
// requests they completed are not lost.
#include <mpi.h>

#include "capture_state.hpp"
#include "record.hpp"

using simfab::capture::CallScope;
using simfab::capture::now_ns;
using simfab::capture::Record;

extern "C" int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  CallScope scope;
  if (!scope) return PMPI_Wait(request, status);
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  const MPI_Request before = *request;
  const auto t0 = now_ns();
  const int rc = PMPI_Wait(request, st);
  const auto t1 = now_ns();
  Record r(scope.state(), "MPI_Wait", t0);
  r.done_begin();
  if (*request == MPI_REQUEST_NULL) r.done_take(before, *st);
  r.done_end().end(t1);
  return rc;
}

extern "C" int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  CallScope scope;
  if (!scope) return PMPI_Test(request, flag, status);
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  const MPI_Request before = *request;
  const auto t0 = now_ns();
  const int rc = PMPI_Test(request, flag, st);
  const auto t1 = now_ns();
  Record r(scope.state(), "MPI_Test", t0);
  r.num(*flag ? 1 : 0).done_begin();
  if (*flag && *request == MPI_REQUEST_NULL) r.done_take(before, *st);
  r.done_end().end(t1);
  return rc;
}

extern "C" int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  CallScope scope;
  if (!scope) return PMPI_Waitall(count, requests, statuses);
  auto& state = scope.state();
  const MPI_Request* before = state.save_requests(requests, count);
  MPI_Status* sts = statuses == MPI_STATUSES_IGNORE ? state.scratch_statuses(count) : statuses;
  const auto t0 = now_ns();
  const int rc = PMPI_Waitall(count, requests, sts);
  const auto t1 = now_ns();
  Record r(state, "MPI_Waitall", t0);
  r.num(count).done_begin();
  for (int i = 0; i < count; ++i) {
    if (before[i] != MPI_REQUEST_NULL && requests[i] == MPI_REQUEST_NULL) r.done_take(before[i], sts[i]);
  }
  r.done_end().end(t1);
  return rc;
}

extern "C" int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  CallScope scope;
  if (!scope) return PMPI_Testall(count, requests, flag, statuses);
  auto& state = scope.state();
  const MPI_Request* before = state.save_requests(requests, count);
  MPI_Status* sts = statuses == MPI_STATUSES_IGNORE ? state.scratch_statuses(count) : statuses;
  const auto t0 = now_ns();
  const int rc = PMPI_Testall(count, requests, flag, sts);
  const auto t1 = now_ns();
  Record r(state, "MPI_Testall", t0);
  r.num(count).num(*flag ? 1 : 0).done_begin();
  for (int i = 0; *flag && i < count; ++i) {
    if (before[i] != MPI_REQUEST_NULL && requests[i] == MPI_REQUEST_NULL) r.done_take(before[i], sts[i]);
  }
  r.done_end().end(t1);
  return rc;
}

extern "C" int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  CallScope scope;
  if (!scope) return PMPI_Waitany(count, requests, index, status);
  auto& state = scope.state();
  const MPI_Request* before = state.save_requests(requests, count);
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  const auto t0 = now_ns();
  const int rc = PMPI_Waitany(count, requests, index, st);
  const auto t1 = now_ns();
  Record r(state, "MPI_Waitany", t0);
  r.num(count).done_begin();
  if (*index != MPI_UNDEFINED && *index >= 0 && *index < count) r.done_take(before[*index], *st);
  r.done_end().end(t1);
  return rc;
}

extern "C" int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  CallScope scope;
  if (!scope) return PMPI_Testany(count, requests, index, flag, status);
  auto& state = scope.state();
  const MPI_Request* before = state.save_requests(requests, count);
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  const auto t0 = now_ns();
  const int rc = PMPI_Testany(count, requests, index, flag, st);
  const auto t1 = now_ns();
  Record r(state, "MPI_Testany", t0);
  r.num(count).num(*flag ? 1 : 0).done_begin();
  if (*flag && *index != MPI_UNDEFINED && *index >= 0 && *index < count) r.done_take(before[*index], *st);
  r.done_end().end(t1);
  return rc;
}

namespace {

// Waitsome and Testsome: PMPI_X(incount, requests, outcount, indices, statuses).
using SomeFn = int (*)(int, MPI_Request[], int*, int[], MPI_Status[]);

int some(const char* name, SomeFn pmpi, bool with_flag, int incount, MPI_Request requests[], int* outcount,
         int indices[], MPI_Status statuses[]) {
  CallScope scope;
  if (!scope) return pmpi(incount, requests, outcount, indices, statuses);
  auto& state = scope.state();
  const MPI_Request* before = state.save_requests(requests, incount);
  MPI_Status* sts = statuses == MPI_STATUSES_IGNORE ? state.scratch_statuses(incount) : statuses;
  const auto t0 = now_ns();
  const int rc = pmpi(incount, requests, outcount, indices, sts);
  const auto t1 = now_ns();
  const int done = *outcount == MPI_UNDEFINED ? 0 : *outcount;
  Record r(state, name, t0);
  r.num(incount);
  // Testsome's `flag` field: whether it completed any request.
  if (with_flag) r.num(done > 0 ? 1 : 0);
  r.done_begin();
  for (int k = 0; k < done; ++k) {
    const int i = indices[k];
    if (i >= 0 && i < incount) r.done_take(before[i], sts[k]);
  }
  r.done_end().end(t1);
  return rc;
}

}  // namespace

extern "C" int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses[]) {
  return some("MPI_Waitsome", PMPI_Waitsome, false, incount, requests, outcount, indices, statuses);
}

extern "C" int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses[]) {
  return some("MPI_Testsome", PMPI_Testsome, true, incount, requests, outcount, indices, statuses);
}

// Unrecorded: a freed request completes unseen, so drop it from the table (a later request that
// reuses the handle value is numbered afresh at its own Isend/Irecv anyway).
extern "C" int MPI_Request_free(MPI_Request* request) {
  CallScope scope;
  if (scope) {
    simfab::capture::RequestInfo ignored;
    scope.state().take_request(*request, &ignored);
  }
  return PMPI_Request_free(request);
}
