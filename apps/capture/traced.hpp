// traced(): the body every recording wrapper shares. A wrapper says which PMPI function it calls (a
// lambda that writes the argument list once) and which fields it records (a lambda given the
// started Record); traced() opens the CallScope, times the call and writes the line:
//
//   extern "C" int MPI_Barrier(MPI_Comm comm) {
//     return traced("MPI_Barrier", [&] { return PMPI_Barrier(comm); }, [&](Record& r) { r.comm(comm); });
//   }
//
//   - not recording (before MPI_Init, after MPI_Finalize, or nested in another wrapper): returns
//     call() and does nothing else;
//   - recording: t0 = now_ns(), rc = call(), t1 = now_ns(); if rc is MPI_SUCCESS, writes
//     `FUNC:t0:<fields>:t1` (Record(state, func, t0), fields(record), end(t1)) and returns rc. A
//     call that failed is not recorded: its time counts as computation.
//     traced_even_on_error() records whatever rc is (the completion calls, so that the requests
//     they did complete are not lost).
//
// The fields lambda runs after PMPI_X returned, so request ids, statuses and new communicators are
// known; it reaches the CaptureState through Record::state(). Work a recorded call must do before
// PMPI_X (saving request handles that PMPI sets to MPI_REQUEST_NULL, a status in place of
// MPI_STATUS_IGNORE, looking up a communicator that is about to be freed) goes between opening a
// CallScope and traced(scope, ...), guarded by the scope, so a pass-through call hands PMPI exactly
// the caller's arguments; status_arg() is the common case.
//
// Cost: two clock reads plus the record; the lambdas are inlined, nothing is allocated.
// Thread-safety: none (see CaptureState).
#pragma once

#include <mpi.h>

#include <cstdint>

#include "capture_state.hpp"
#include "record.hpp"

namespace simfab::capture {

namespace detail {

template <bool kEvenOnError, class Call, class Fields>
int traced(CallScope& scope, const char* func, Call&& call, Fields&& fields) {
  if (!scope) return call();
  const std::int64_t t0 = now_ns();
  const int rc = call();
  const std::int64_t t1 = now_ns();
  if (kEvenOnError || rc == MPI_SUCCESS) {
    Record record(scope.state(), func, t0);
    fields(record);
    record.end(t1);
  }
  return rc;
}

}  // namespace detail

// Records `func` if call() returns MPI_SUCCESS, in the scope the wrapper opened.
template <class Call, class Fields>
int traced(CallScope& scope, const char* func, Call&& call, Fields&& fields) {
  return detail::traced<false>(scope, func, call, fields);
}

// The same in a scope of its own, for a wrapper with nothing to do before PMPI_X (inlined, so that
// the scope sees the wrapper's return address).
template <class Call, class Fields>
[[gnu::always_inline]] inline int traced(const char* func, Call&& call, Fields&& fields) {
  CallScope scope;
  return detail::traced<false>(scope, func, call, fields);
}

// Records `func` whatever call() returns.
template <class Call, class Fields>
int traced_even_on_error(CallScope& scope, const char* func, Call&& call, Fields&& fields) {
  return detail::traced<true>(scope, func, call, fields);
}

// The status PMPI_X gets: the caller's, or `local` when the call is recorded and the caller passed
// MPI_STATUS_IGNORE (the record needs src/tag/bytes; the caller's argument is left as it was).
inline MPI_Status* status_arg(const CallScope& scope, MPI_Status* status, MPI_Status& local) {
  return scope && status == MPI_STATUS_IGNORE ? &local : status;
}

}  // namespace simfab::capture
