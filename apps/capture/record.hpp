// Record: writes one trace line, `FUNC:calltime:field:...:field:returntime`, field by field into
// the rank's TraceWriter, in the field kinds of docs/capture-format.md:
//
//   Record(st, "MPI_Send", t0).buf(buf).num(count).dt(type).rank(dest).tag(tag).comm(comm).end(t1);
//
// gives `MPI_Send:5000:140735615211488:100000:1,4,4:1:0:1,0,2:9000`. A wrapper builds its record
// after PMPI_X returned (request ids, statuses and new communicators are known only then), from
// the arguments and the two timestamps it took around the call; traced() (traced.hpp) does the
// Record(...) and end() and leaves the fields in between to the wrapper.
//
// Portable values: MPI_ANY_SOURCE/MPI_ANY_TAG are written -1, MPI_PROC_NULL -2, MPI_ROOT -3,
// MPI_UNDEFINED -32766, MPI_IN_PLACE -1, whatever the MPI library's own constants are. An argument
// MPI ignores at this rank (the root-only ones elsewhere, the send side of MPI_IN_PLACE) has its
// datatype written `0,0,0` and its counts list `-`, so a handle that may be garbage or
// MPI_DATATYPE_NULL is never queried.
//
// Cost: O(length of the line); no allocation (the writer's buffer is amortised).
// Thread-safety: none.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "capture_state.hpp"

namespace simfab::capture {

// The number of bytes a status reports (MPI_Get_elements_x in MPI_BYTE).
inline std::int64_t status_bytes(const MPI_Status& status) {
  MPI_Count bytes = 0;
  PMPI_Get_elements_x(&status, MPI_BYTE, &bytes);
  return bytes == MPI_UNDEFINED ? -1 : static_cast<std::int64_t>(bytes);
}

inline int portable_rank(int rank) {
  if (rank == MPI_ANY_SOURCE) return -1;
  if (rank == MPI_PROC_NULL) return -2;
  if (rank == MPI_ROOT) return -3;
  return rank;
}

inline int portable_tag(int tag) { return tag == MPI_ANY_TAG ? -1 : tag; }

class Record {
 public:
  static constexpr std::int64_t kNoTime = -1;   // written `-`

  Record(CaptureState& state, const char* func, std::int64_t call_ns) : state_(state), w_(state.writer()) {
    state.write_site();
    w_.put(func);
    w_.put(':');
    time(call_ns);
  }
  Record(const Record&) = delete;
  Record& operator=(const Record&) = delete;

  Record& absent() {
    w_.put(":-");
    return *this;
  }
  Record& buf(const void* p) {
    w_.put(':');
    if (p == MPI_IN_PLACE) {
      w_.put_int(-1);
    } else {
      w_.put_uint(reinterpret_cast<std::uintptr_t>(p));
    }
    return *this;
  }
  Record& num(std::int64_t v) {
    w_.put(':');
    w_.put_int(v);
    return *this;
  }
  Record& rank(int r) { return num(portable_rank(r)); }
  Record& tag(int t) { return num(portable_tag(t)); }
  Record& color(int c) { return num(c == MPI_UNDEFINED ? -32766 : c); }
  // `id,size,extent`; `0,0,0` (no datatype, nothing moves) for MPI_DATATYPE_NULL.
  Record& dt(MPI_Datatype type) {
    if (type == MPI_DATATYPE_NULL) return no_dt();
    const TypeInfo t = state_.type(type);
    return triple(t.id, t.size, t.extent);
  }
  // A datatype looked up earlier (a persistent request's); id 0 is MPI_DATATYPE_NULL.
  Record& dt(const TypeInfo& t) { return t.id == 0 ? no_dt() : triple(t.id, t.size, t.extent); }
  // The datatype if MPI uses it at this rank, else `0,0,0` (the handle is not looked at).
  Record& dt_if(bool used, MPI_Datatype type) { return used ? dt(type) : no_dt(); }
  Record& no_dt() {
    w_.put(":0,0,0");
    return *this;
  }
  Record& op(MPI_Op op) {
    if (op == MPI_OP_NULL) return num(0);
    return num(state_.op(op));
  }
  Record& comm(const CommInfo& c) { return triple(c.id, c.rank, c.size); }
  Record& comm(MPI_Comm c) { return comm(state_.comm(c)); }
  // A communicator a call created: `-` for MPI_COMM_NULL.
  Record& newcomm(MPI_Comm c) { return c == MPI_COMM_NULL ? absent() : comm(c); }
  Record& status(const MPI_Status& s) {
    w_.put(':');
    status_parts(',', s);
    return *this;
  }
  // `c0,...,c{n-1}`, or `-` when `counts` is null (MPI ignores it here).
  Record& counts(const int* counts, int n) {
    if (counts == nullptr) return absent();
    w_.put(':');
    for (int i = 0; i < n; ++i) {
      if (i > 0) w_.put(',');
      w_.put_int(counts[i]);
    }
    return *this;
  }
  Record& req(std::uint64_t id) {
    w_.put(':');
    w_.put_uint(id);
    return *this;
  }

  // A `done` field: done_begin(), then done_take() for each request the call completed (unknown
  // requests are left out), then done_end() (`-` if nothing was listed).
  Record& done_begin() {
    w_.put(':');
    done_entries_ = 0;
    return *this;
  }
  // `request` is the handle as it was before the call; `status` what the call reported for it.
  void done_take(MPI_Request request, const MPI_Status& status) {
    RequestInfo info;
    if (request == MPI_REQUEST_NULL || !state_.take_request(request, &info)) return;
    if (done_entries_++ > 0) w_.put(',');
    w_.put_uint(info.id);
    int cancelled = 0;
    PMPI_Test_cancelled(&status, &cancelled);
    if (cancelled) {
      w_.put("/-3/-1/0");
      return;
    }
    if (info.is_send) {
      w_.put("/-2/-1/0");
      return;
    }
    w_.put('/');
    status_parts('/', status);
  }
  Record& done_end() {
    if (done_entries_ == 0) w_.put('-');
    return *this;
  }

  // Writes the return time and the end of line; flushes the file when its buffer is full.
  void end(std::int64_t ret_ns) {
    w_.put(':');
    time(ret_ns);
    w_.put('\n');
    state_.end_record();
  }

  // The rank's state, for the fields lambda of traced() (request numbering, handle lookups).
  CaptureState& state() { return state_; }

 private:
  // `:a,b,c`: the datatype and communicator fields.
  Record& triple(std::int64_t a, std::int64_t b, std::int64_t c) {
    w_.put(':');
    w_.put_int(a);
    w_.put(',');
    w_.put_int(b);
    w_.put(',');
    w_.put_int(c);
    return *this;
  }
  // `src<sep>tag<sep>bytes` of a status (`,` in a status field, `/` in a `done` entry).
  void status_parts(char sep, const MPI_Status& s) {
    w_.put_int(portable_rank(s.MPI_SOURCE));
    w_.put(sep);
    w_.put_int(portable_tag(s.MPI_TAG));
    w_.put(sep);
    w_.put_int(status_bytes(s));
  }
  void time(std::int64_t ns) {
    if (ns == kNoTime) {
      w_.put('-');
    } else {
      w_.put_int(ns);
    }
  }

  CaptureState& state_;
  TraceWriter& w_;
  int done_entries_ = 0;
};

}  // namespace simfab::capture
