// CaptureState: everything libsimfab-capture.so keeps for the calling rank between MPI_Init and
// MPI_Finalize, and CallScope, the guard every wrapper opens first.
//
// The library is a set of PMPI wrappers (wrap_*.cpp): each defines MPI_X, times PMPI_X with
// CLOCK_MONOTONIC and appends one record to this rank's trace (docs/capture-format.md), through
// traced() (traced.hpp). This state holds what the records need:
//   - the file: a TraceWriter on <dir>/rank-<r>.txt.part, renamed to rank-<r>.txt at MPI_Finalize
//     after its `# end` line (begin() / finish());
//   - handle numbering: MPI_Comm, MPI_Datatype and MPI_Op handles get small per-file ids in
//     first-seen order, one sequence per kind starting at 1 (MPI_COMM_WORLD is comm 1 and
//     MPI_COMM_SELF comm 2, as the header says). A communicator's rank/size and a datatype's
//     size/extent are looked up once, when first seen, and cached with the id; a handle freed
//     through MPI_Comm_free/MPI_Type_free/MPI_Op_free is forgotten, so a new object that reuses
//     the same handle value gets a new id;
//   - request numbering: MPI_Isend/Ibsend/Issend/Irsend/Irecv give the returned MPI_Request the
//     next id (1, 2, ...; never reused); the completion call that finds it done takes it out of
//     the table. MPI_Start/MPI_Startall number each persistent request they start afresh, so one
//     handle carries a new id per start (persistent_ keeps what its init said). Nonblocking
//     collectives and MPI_Imrecv number their requests too. Requests that no recorded call created
//     (generalized requests, ...) are unknown and left out of `done` lists;
//   - scratch arrays (saved request handles, statuses for callers that pass MPI_STATUS(ES)_IGNORE)
//     that grow to the largest call and are then reused: no allocation per call in a steady state.
//
// Recursion: `inside` is set while a wrapper runs, and a wrapper entered while it is set (an MPI
// library that calls MPI_X internally) passes straight through to PMPI_X unrecorded. So are the
// library's own calls (it calls PMPI_* only: the run id's PMPI_Bcast at init).
//
// Thread-safety: none. Correct for MPI_THREAD_SINGLE, FUNNELED and SERIALIZED (one thread in MPI at
// a time); under MPI_THREAD_MULTIPLE concurrent calls corrupt the trace (a warning is printed).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <ctime>
#include <string>
#include <unordered_map>
#include <vector>

#include "handle_map.hpp"
#include "trace_writer.hpp"

namespace simfab::capture {

// A CLOCK_MONOTONIC timestamp in ns, the time base of every record.
inline std::int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

struct CommInfo {
  int id = 0;
  int rank = 0;
  int size = 0;
  int remote_size = 0;   // the length of a counts list: size, or the remote size of an intercomm
  bool inter = false;
};

struct TypeInfo {
  int id = 0;
  std::int64_t size = 0;
  std::int64_t extent = 0;
};

struct RequestInfo {
  std::uint64_t id = 0;
  bool is_send = false;
};

// A persistent request (MPI_Send_init, MPI_Bsend_init, MPI_Ssend_init, MPI_Rsend_init,
// MPI_Recv_init): what each MPI_Start of it records, namely the nonblocking call it stands for and
// that call's arguments. The datatype and communicator are looked up at init, because MPI lets the
// program free both while the request lives.
struct PersistentInfo {
  const char* func = "";     // "MPI_Isend", "MPI_Ibsend", "MPI_Issend", "MPI_Irsend" or "MPI_Irecv"
  bool is_send = false;
  const void* buf = nullptr;
  int count = 0;
  TypeInfo type;             // id 0: MPI_DATATYPE_NULL (written 0,0,0)
  int peer = 0;
  int tag = 0;
  CommInfo comm;
};

class CaptureState {
 public:
  CaptureState() = default;
  CaptureState(const CaptureState&) = delete;
  CaptureState& operator=(const CaptureState&) = delete;

  // Whether a wrapper should record: between init and finalize, and not nested in another wrapper.
  bool recording() const { return active_ && !inside_; }
  bool active() const { return active_; }

  // After PMPI_Init/PMPI_Init_thread returned MPI_SUCCESS: reads the environment, creates the
  // directory and this rank's .part file, agrees on the run id, writes the header and the init
  // record (`init_func:-:-:-:<now>`). On bad input (a directory that cannot be created or written,
  // a malformed SIMFAB_CAPTURE_SPEED, a program that calls MPI functions the library does not record:
  // unrecorded_calls.hpp) the lowest failing rank prints the reason, naming the path
  // or value, to stderr and calls PMPI_Abort(MPI_COMM_WORLD, 2); the others wait to be ended.
  // `thread_level`: the provided level, -1 for MPI_Init.
  void begin(const char* init_func, int thread_level);
  // After the Fortran bindings' MPI_INIT (wrap_fortran_init.cpp), which does not go through the C
  // MPI_Init: the check of unrecorded_calls.hpp alone. A Fortran program's calls are not recorded,
  // so it is refused (exit 2, the lowest rank names the calls) unless
  // SIMFAB_CAPTURE_ALLOW_UNRECORDED=1, when rank 0 warns and nothing is captured.
  void check_fortran_program();
  // Before PMPI_Finalize: writes `MPI_Finalize:<call_ns>:-` and `# end`, closes the file and
  // renames it to rank-<r>.txt. Recording stops.
  void finish(std::int64_t call_ns);
  // After finish() on every rank, with SIMFAB_CAPTURE_FORMAT=otf2: once all ranks have closed
  // their files (a barrier), rank 0 runs `simfab convert <dir> --otf2-out <dir>/otf2` (simfab: the
  // executable SIMFAB_CAPTURE_SIMFAB names, else `simfab` beside this library) and waits; a failure
  // aborts the job with exit code 2 and simfab's message. Collective over MPI_COMM_WORLD.
  void write_otf2();
  bool wants_otf2() const { return otf2_; }
  // At process exit without MPI_Finalize: writes out what is buffered (the file stays .part);
  // nothing in a child process the application forked.
  void flush_at_exit();

  // Handle ids (first seen -> next id of its kind). REQUIRES: a valid, non-null handle.
  CommInfo comm(MPI_Comm comm);
  void forget_comm(MPI_Comm comm) { comms_.erase(comms_.key_of(comm)); }
  TypeInfo type(MPI_Datatype type);
  void forget_type(MPI_Datatype type) { types_.erase(types_.key_of(type)); }
  int op(MPI_Op op);
  void forget_op(MPI_Op op) { ops_.erase(ops_.key_of(op)); }

  // Numbers the request a nonblocking call just returned (0 for MPI_REQUEST_NULL).
  std::uint64_t new_request(MPI_Request request, bool is_send);
  // Removes a completed request; false if it is unknown (not created by a recorded call).
  bool take_request(MPI_Request request, RequestInfo* info) {
    return requests_.erase(requests_.key_of(request), info);
  }

  // Persistent requests, from their init to MPI_Request_free. A started persistent request is also
  // in the request table under a new number from each MPI_Start (new_request) until a completion
  // call takes it out; the handle itself stays valid (MPI sets it inactive, not MPI_REQUEST_NULL).
  void add_persistent(MPI_Request request, const PersistentInfo& info) {
    persistent_.insert(persistent_.key_of(request), info);
  }
  const PersistentInfo* persistent(MPI_Request request) { return persistent_.find(persistent_.key_of(request)); }
  void forget_persistent(MPI_Request request) { persistent_.erase(persistent_.key_of(request)); }
  // Whether a completion call that returned `after` for the request `before` completed it: MPI sets a
  // completed request to MPI_REQUEST_NULL, except a persistent one, which it only makes inactive
  // (`finished`: the call reports this request complete, e.g. MPI_Wait returned MPI_SUCCESS).
  bool completed(MPI_Request before, MPI_Request after, bool finished) {
    return after == MPI_REQUEST_NULL || (finished && persistent(before) != nullptr);
  }

  // Scratch: a copy of requests[0..n), and n statuses (both valid until the next call).
  MPI_Request* save_requests(const MPI_Request* requests, int n);
  MPI_Status* scratch_statuses(int n);

  TraceWriter& writer() { return writer_; }
  // Ends a record: writes the buffer out once it is full (aborts the job if that fails).
  void end_record();

  void set_inside(bool inside) { inside_ = inside; }
  // The call site of the call being recorded (its wrapper's return address: CallScope), and the
  // `@<object>+0x<offset>` line naming it, written before its record when it is not the site of
  // the previous record (docs/capture-format.md; the converter's TI `location` lines).
  void set_site(const void* site) { site_ = site; }
  void write_site();

 private:
  [[noreturn]] void fail(const std::string& message);
  std::string configure();   // returns an error message, empty on success
  // The MPI calls of the program that are not recorded (unrecorded_calls.hpp): an error message,
  // or (with SIMFAB_CAPTURE_ALLOW_UNRECORDED=1) empty and the same text in `warning`.
  std::string check_calls(std::string& warning);
  // Collective over MPI_COMM_WORLD: when `error` is not empty on some rank, the lowest such rank
  // prints it and aborts the job with exit code 2 (the others wait to be ended).
  void agree_or_abort(const std::string& error);
  void write_header(std::uint64_t run_id);

  bool active_ = false;
  bool inside_ = false;
  int rank_ = 0;
  int size_ = 1;
  int pid_ = 0;              // the rank's process (not a child forked by the application)
  std::string dir_;          // absolute
  std::string part_path_;
  std::string final_path_;
  std::string speed_;        // normalised SIMFAB_CAPTURE_SPEED, empty if unset
  bool otf2_ = false;      // SIMFAB_CAPTURE_FORMAT=otf2
  TraceWriter writer_;

  HandleMap<CommInfo> comms_;
  HandleMap<TypeInfo> types_;
  HandleMap<int> ops_;
  HandleMap<RequestInfo> requests_;
  HandleMap<PersistentInfo> persistent_;
  int next_comm_id_ = 1;
  int next_type_id_ = 1;
  int next_op_id_ = 1;
  std::uint64_t next_request_id_ = 1;

  const void* site_ = nullptr;
  const void* written_site_ = nullptr;
  std::unordered_map<const void*, std::string> site_names_;  // dladdr() once per site

  std::vector<MPI_Request> saved_requests_;
  std::vector<MPI_Status> statuses_;
};

// The process's state (created on first use, never destroyed, so MPI calls made from static
// destructors still find it).
CaptureState& capture_state();

// Opened first by every wrapper: tells whether to record and, if so, marks the library as inside
// a wrapper until the scope ends.
class CallScope {
 public:
  // Inlined into the wrapper, so that the return address is the program's call site.
  [[gnu::always_inline]] CallScope() : state_(capture_state()), recording_(state_.recording()) {
    if (recording_) {
      state_.set_inside(true);
      state_.set_site(__builtin_return_address(0));
    }
  }
  ~CallScope() {
    if (recording_) state_.set_inside(false);
  }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  explicit operator bool() const { return recording_; }
  CaptureState& state() { return state_; }

 private:
  CaptureState& state_;
  bool recording_;
};

}  // namespace simfab::capture
