// Completion wrappers: MPI_Wait/Waitall/Waitany/Waitsome, MPI_Test/Testall/Testany/Testsome, and
// MPI_Request_free (unrecorded; it only drops the request from the table).
//
// A completion call sets the requests it completes to MPI_REQUEST_NULL, so each wrapper first
// saves the handles (CaptureState::save_requests), then has traced_even_on_error() (traced.hpp)
// call PMPI and write the record, whose last field is a `done` list of `id/src/tag/bytes` for the
// requests that completed, looked up by their saved handles:
//   - Wait, Test (flag set), Waitany/Testany: the one request PMPI names (index != MPI_UNDEFINED);
//   - Waitsome/Testsome: indices[0..outcount), in that order, status k for indices[k];
//   - Waitall/Testall (flag set): every request that was active and is now MPI_REQUEST_NULL, in
//     array order, status i for request i (so a Waitall that failed with MPI_ERR_IN_STATUS lists
//     only those that did complete).
// A persistent request is not set to MPI_REQUEST_NULL but made inactive: it counts as completed
// when the call reports it done (CaptureState::completed); an inactive one is not in the request
// table, so a Wait on it lists nothing. A send request (and a nonblocking collective's) is written
// `id/-2/-1/0`; a request no recorded call created (generalized) is left out. Callers' MPI_STATUS(ES)_IGNORE is replaced by
// scratch statuses for PMPI. These calls are recorded even when PMPI returns an error, so the
// requests they completed are not lost.
#include <mpi.h>

#include "capture_state.hpp"
#include "record.hpp"
#include "traced.hpp"

namespace {

using simfab::capture::CallScope;
using simfab::capture::Record;
using simfab::capture::status_arg;
using simfab::capture::traced_even_on_error;

// The handles requests[0..n) as they were before the call, when it is recorded (else null).
const MPI_Request* saved_requests(CallScope& scope, const MPI_Request* requests, int n) {
  return scope ? scope.state().save_requests(requests, n) : nullptr;
}

// The n statuses PMPI_X gets: the caller's, or scratch ones when the call is recorded and the
// caller passed MPI_STATUSES_IGNORE.
MPI_Status* statuses_arg(CallScope& scope, MPI_Status* statuses, int n) {
  return scope && statuses == MPI_STATUSES_IGNORE ? scope.state().scratch_statuses(n) : statuses;
}

// Waitall and Testall's `done` entries: every request that was active and is now MPI_REQUEST_NULL,
// and every persistent one the call finished (rc MPI_SUCCESS: all of them; MPI_ERR_IN_STATUS: those
// whose status says MPI_SUCCESS).
void take_all_completed(Record& r, int rc, int count, const MPI_Request* before, const MPI_Request* requests,
                        const MPI_Status* statuses) {
  for (int i = 0; i < count; ++i) {
    const bool finished = rc == MPI_SUCCESS || (rc == MPI_ERR_IN_STATUS && statuses[i].MPI_ERROR == MPI_SUCCESS);
    if (before[i] != MPI_REQUEST_NULL && r.state().completed(before[i], requests[i], finished))
      r.done_take(before[i], statuses[i]);
  }
}

}  // namespace

extern "C" int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  CallScope scope;
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  const MPI_Request before = scope ? *request : MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS;
  return traced_even_on_error(scope, "MPI_Wait", [&] { return rc = PMPI_Wait(request, st); }, [&](Record& r) {
    r.done_begin();
    if (r.state().completed(before, *request, rc == MPI_SUCCESS)) r.done_take(before, *st);
    r.done_end();
  });
}

extern "C" int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  CallScope scope;
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  const MPI_Request before = scope ? *request : MPI_REQUEST_NULL;
  return traced_even_on_error(scope, "MPI_Test", [&] { return PMPI_Test(request, flag, st); }, [&](Record& r) {
    r.num(*flag ? 1 : 0).done_begin();
    if (*flag && r.state().completed(before, *request, true)) r.done_take(before, *st);
    r.done_end();
  });
}

extern "C" int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  CallScope scope;
  const MPI_Request* before = saved_requests(scope, requests, count);
  MPI_Status* sts = statuses_arg(scope, statuses, count);
  int rc = MPI_SUCCESS;
  return traced_even_on_error(
      scope, "MPI_Waitall", [&] { return rc = PMPI_Waitall(count, requests, sts); },
      [&](Record& r) {
        r.num(count).done_begin();
        take_all_completed(r, rc, count, before, requests, sts);
        r.done_end();
      });
}

extern "C" int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  CallScope scope;
  const MPI_Request* before = saved_requests(scope, requests, count);
  MPI_Status* sts = statuses_arg(scope, statuses, count);
  int rc = MPI_SUCCESS;
  return traced_even_on_error(
      scope, "MPI_Testall", [&] { return rc = PMPI_Testall(count, requests, flag, sts); },
      [&](Record& r) {
        r.num(count).num(*flag ? 1 : 0).done_begin();
        if (*flag) take_all_completed(r, rc, count, before, requests, sts);
        r.done_end();
      });
}

extern "C" int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  CallScope scope;
  const MPI_Request* before = saved_requests(scope, requests, count);
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  return traced_even_on_error(
      scope, "MPI_Waitany", [&] { return PMPI_Waitany(count, requests, index, st); },
      [&](Record& r) {
        r.num(count).done_begin();
        if (*index != MPI_UNDEFINED && *index >= 0 && *index < count) r.done_take(before[*index], *st);
        r.done_end();
      });
}

extern "C" int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  CallScope scope;
  const MPI_Request* before = saved_requests(scope, requests, count);
  MPI_Status local;
  MPI_Status* st = status_arg(scope, status, local);
  return traced_even_on_error(
      scope, "MPI_Testany", [&] { return PMPI_Testany(count, requests, index, flag, st); },
      [&](Record& r) {
        r.num(count).num(*flag ? 1 : 0).done_begin();
        if (*flag && *index != MPI_UNDEFINED && *index >= 0 && *index < count) r.done_take(before[*index], *st);
        r.done_end();
      });
}

namespace {

// Waitsome and Testsome: PMPI_X(incount, requests, outcount, indices, statuses).
using SomeFn = int (*)(int, MPI_Request[], int*, int[], MPI_Status[]);

[[gnu::always_inline]] inline int some(const char* name, SomeFn pmpi, bool with_flag, int incount, MPI_Request requests[], int* outcount,
         int indices[], MPI_Status statuses[]) {
  CallScope scope;
  const MPI_Request* before = saved_requests(scope, requests, incount);
  MPI_Status* sts = statuses_arg(scope, statuses, incount);
  return traced_even_on_error(
      scope, name, [&] { return pmpi(incount, requests, outcount, indices, sts); },
      [&](Record& r) {
        const int done = *outcount == MPI_UNDEFINED ? 0 : *outcount;
        r.num(incount);
        // Testsome's `flag` field: whether it completed any request.
        if (with_flag) r.num(done > 0 ? 1 : 0);
        r.done_begin();
        for (int k = 0; k < done; ++k) {
          const int i = indices[k];
          if (i >= 0 && i < incount) r.done_take(before[i], sts[k]);
        }
        r.done_end();
      });
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
// reuses the handle value is numbered afresh at its own Isend/Irecv/Start anyway), and a persistent
// one from the persistent table.
extern "C" int MPI_Request_free(MPI_Request* request) {
  CallScope scope;
  if (scope) {
    simfab::capture::RequestInfo ignored;
    scope.state().take_request(*request, &ignored);
    scope.state().forget_persistent(*request);
  }
  return PMPI_Request_free(request);
}
