// Completion wrappers of a hybrid run: every Wait and Test variant. A request the real call found
// done gets its `wait <src> <dst> <tag>` line (HybridState::completed), in the order the call
// lists them, so the simulation waits for exactly the requests the real run completed: a real
// test that succeeds becomes a wait there (in virtual time the rank cannot have the data before
// it arrives). A wait that would block flushes the stream first (hybrid_state.hpp, rule 1); a
// test that finds nothing flushes it too (the rank is polling for something).
#include <mpi.h>

#include <vector>

#include "hybrid_state.hpp"

namespace {

using simfab::hybrid::CallScope;
using simfab::hybrid::state;

// The handles before the call (PMPI sets completed ones to MPI_REQUEST_NULL).
std::vector<MPI_Request>& saved(int count, const MPI_Request* requests) {
  static std::vector<MPI_Request> v;
  v.assign(requests, requests + count);
  return v;
}

}  // namespace

extern "C" int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  CallScope scope;
  if (!scope) return PMPI_Wait(request, status);
  const MPI_Request before = *request;
  int done = 0;
  int rc = PMPI_Test(request, &done, status);
  if (rc == MPI_SUCCESS && !done) {  // its line before the rank waits (rule 1)
    state().completed(before);
    state().about_to_block("MPI_Wait");
    return PMPI_Wait(request, status);
  }
  if (rc == MPI_SUCCESS) state().completed(before);
  return rc;
}

extern "C" int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses_out[]) {
  CallScope scope;
  if (!scope) return PMPI_Waitall(count, requests, statuses_out);
  std::vector<MPI_Request>& before = saved(count, requests);
  int done = 0;
  int rc = PMPI_Testall(count, requests, &done, statuses_out);
  if (rc != MPI_SUCCESS) return rc;
  for (MPI_Request r : before) state().completed(r);  // before the rank waits, if it does (rule 1)
  if (done) return rc;
  state().about_to_block("MPI_Waitall");
  return PMPI_Waitall(count, requests, statuses_out);
}

extern "C" int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  CallScope scope;
  if (!scope) return PMPI_Waitany(count, requests, index, status);
  std::vector<MPI_Request>& before = saved(count, requests);
  int done = 0;
  int rc = PMPI_Testany(count, requests, index, &done, status);
  if (rc != MPI_SUCCESS) return rc;
  if (done) {
    if (*index != MPI_UNDEFINED) state().completed(before[static_cast<size_t>(*index)]);
    return rc;
  }
  state().waiting_any(requests, count);
  state().about_to_block("MPI_Waitany");
  rc = PMPI_Waitany(count, requests, index, status);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED) state().consumed(before[static_cast<size_t>(*index)]);
  return rc;
}

extern "C" int MPI_Waitsome(int count, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses_out[]) {
  CallScope scope;
  if (!scope) return PMPI_Waitsome(count, requests, outcount, indices, statuses_out);
  std::vector<MPI_Request>& before = saved(count, requests);
  int rc = PMPI_Testsome(count, requests, outcount, indices, statuses_out);
  if (rc != MPI_SUCCESS) return rc;
  if (*outcount != 0) {
    if (*outcount != MPI_UNDEFINED)
      for (int i = 0; i < *outcount; ++i) state().completed(before[static_cast<size_t>(indices[i])]);
    return rc;
  }
  // The rank waits: one `waitany` now for the first to complete; the others found with it after.
  state().waiting_any(requests, count);
  state().about_to_block("MPI_Waitsome");
  rc = PMPI_Waitsome(count, requests, outcount, indices, statuses_out);
  if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED)
    for (int i = 0; i < *outcount; ++i) {
      const MPI_Request r = before[static_cast<size_t>(indices[i])];
      if (i == 0) state().consumed(r);
      else state().completed(r);
    }
  return rc;
}

extern "C" int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  CallScope scope;
  if (!scope) return PMPI_Test(request, flag, status);
  const MPI_Request before = *request;
  const int rc = PMPI_Test(request, flag, status);
  if (rc != MPI_SUCCESS) return rc;
  if (*flag) state().completed(before);
  else state().flush();
  return rc;
}

extern "C" int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses_out[]) {
  CallScope scope;
  if (!scope) return PMPI_Testall(count, requests, flag, statuses_out);
  std::vector<MPI_Request>& before = saved(count, requests);
  const int rc = PMPI_Testall(count, requests, flag, statuses_out);
  if (rc != MPI_SUCCESS) return rc;
  if (*flag)
    for (MPI_Request r : before) state().completed(r);
  else
    state().flush();
  return rc;
}

extern "C" int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  CallScope scope;
  if (!scope) return PMPI_Testany(count, requests, index, flag, status);
  std::vector<MPI_Request>& before = saved(count, requests);
  const int rc = PMPI_Testany(count, requests, index, flag, status);
  if (rc != MPI_SUCCESS) return rc;
  if (*flag && *index != MPI_UNDEFINED) state().completed(before[static_cast<size_t>(*index)]);
  else if (!*flag) state().flush();
  return rc;
}

extern "C" int MPI_Testsome(int count, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses_out[]) {
  CallScope scope;
  if (!scope) return PMPI_Testsome(count, requests, outcount, indices, statuses_out);
  std::vector<MPI_Request>& before = saved(count, requests);
  const int rc = PMPI_Testsome(count, requests, outcount, indices, statuses_out);
  if (rc != MPI_SUCCESS) return rc;
  if (*outcount == 0) state().flush();
  else if (*outcount != MPI_UNDEFINED)
    for (int i = 0; i < *outcount; ++i) state().completed(before[static_cast<size_t>(indices[i])]);
  return rc;
}

// A receive cancelled in the real run is cancelled in the simulation too (TI `cancel`: if it has
// not matched there either); its completion call then writes its `wait` as for any request.
extern "C" int MPI_Cancel(MPI_Request* request) {
  CallScope scope;
  if (scope)
    if (const simfab::hybrid::RequestKey* k = state().request(*request); k && !k->send && k->comm >= 0)
      state().line("cancel").arg(k->src).arg(k->dst).arg(k->tag).end_line(k->comm);
  return PMPI_Cancel(request);
}
