// HybridState: what libsimfab-hybrid.so keeps for the calling rank of a hybrid run (seed 002,
// issue 25; src/hybrid/hybrid_protocol.hpp says what the ranks and the simulator exchange).
//
// The library is a set of PMPI wrappers (wrap_*.cpp). Each wrapped call runs the real PMPI_X, so
// data really moves and results stay exact, and appends TI lines (replay/ti_trace.hpp) to the
// rank's stream, which the simulator process replays while the program runs:
//   - compute: the CPU time the rank's thread used since the previous wrapper returned, times
//     Setup::flops_per_s, as `compute <flops>` before the call's own line. Time inside wrappers (the real transfers,
//     the stream's messages, waiting for the simulator) never reaches it: intrusion-free.
//   - MPI_Wtime: flushes the stream with a `wtime` line and waits for the simulator's answer: the
//     rank's virtual time there. Nothing else ever waits for the simulator.
//   - communicators: MPI_COMM_WORLD is the application's world (app_comm: the real world minus
//     the simulator); a communicator the rank creates gets an id every member computes alike
//     (creating) and its calls carry `comm=<id>`; calls on a communicator the library did not
//     see created (inter-communicators, MPI_Comm_create_group) are not recorded.
//   - requests: the TI key (source, destination, tag, communicator) of every request from an
//     isend/irecv (or a persistent request's start) until a completion call finds it done and
//     writes `wait` for it.
//
// NEVER WAIT WHERE THE SIMULATION DOES NOT (deadlock freedom; docs/architecture.md). The simulator
// replays a rank's calls in virtual-time order and blocks when it needs a rank's next line. A rank
// waits only in MPI_Wtime (for the simulator) and in real MPI calls. Two rules keep these waits
// from closing a cycle:
//   (1) before a rank waits in a real call, the simulator has every line up to and including that
//       call's: a call that may block is started non-blocking (PMPI_I*) and tested; only if it is
//       not done does the rank write the call's line (if it was to be written after the call,
//       with what the call returned: a receive's real source, the request a wait-any found),
//       send its pending lines with a kBlocked notice (one message) and wait
//       (blocking_call);
//   (2) a call that completes at once in the simulation completes at once in the real run too:
//       sends of copy_above < bytes <= copy_max go from a copy (the caller's request, if any, is a
//       generalized request completed at once), and the collective roles that need nothing from
//       the others (bcast's root, reduce's and gather's other ranks, scatter's root) run
//       non-blocking from a copy, completed later (deferred).
// What the library cannot rule out (a real collective algorithm that waits on a rank its
// simulated counterpart does not) the simulator detects and reports (exit 2), never hangs on.
//
// Recursion: a wrapper entered while another runs (an MPI library calling MPI_X itself) passes
// straight to PMPI_X. Thread-safety: none (MPI_THREAD_SINGLE, FUNNELED, SERIALIZED).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hybrid/hybrid_protocol.hpp"

namespace simfab::hybrid {

// The rank's computation clock: the calling thread's CPU time (as simfab exec's measured mode),
// so that a rank descheduled on a shared core, or waiting outside MPI, is not charged for it.
inline int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// The TI key of a request, and whether its line still has to be written when it completes.
struct RequestKey {
  int32_t src = 0, dst = 0, tag = 0;
  int32_t comm = 0;     // TI id; -1: a communicator the library does not track (nothing written)
  bool persistent = false;
  bool send = false;
  // Persistent requests: the envelope each MPI_Start writes.
  int32_t peer = 0;
  int32_t dt = 6;      // TI datatype id, and `count` in its units
  int64_t count = 0;
  char mode = 0;       // sends: 0 standard, 's' synchronous, 'b' buffered
};

class HybridState {
 public:
  bool active() const { return active_; }
  int rank() const { return rank_; }
  MPI_Comm app() const { return app_; }

  // After PMPI_Init: splits the world, meets the simulator (Setup), writes `init`. The simulator
  // process never gets here (exec_simulator.cpp).
  void begin();
  // MPI_Finalize: writes `finalize`, ends the stream, completes what was deferred.
  void finish();

  // The stream. line() starts `<rank> <action>`; the caller appends arguments with arg()/argd()
  // and ends it with end_line(comm) (adds ` comm=<id>` for a communicator other than the world).
  HybridState& line(std::string_view action);
  HybridState& arg(int64_t v);
  HybridState& argd(double v);
  void end_line(int32_t comm = 0);
  // Sends the pending lines (kLines) if there are any.
  void flush();
  // Before a real call blocks: the pending lines and the call's name in one kBlocked message.
  void about_to_block(const char* call);
  // MPI_Wtime: the rank's virtual time.
  double wtime();

  // Communicators: the TI id (0: the application's world; -1: not tracked).
  int32_t comm_id(MPI_Comm c) const;
  // Communicator creation, in two steps around the real call, whose line must be in the stream
  // before the call may block (rule 1): creating() writes `comm_split <color> <key> <id>` on
  // `parent` (or `comm_dup <id>` when dup; color MPI_UNDEFINED: the rank gets none) and returns
  // the id; created() binds the new communicator to it. Every member computes the same id without
  // talking to the others: a hash of the parent's id, the parent's creation count (the members
  // create on a parent in the same order) and the color, in [1, 2^30). Two live communicators
  // with the same id (about 1 in 10^5 for 100 at once) stop the run with the simulator's error.
  // Untracked parent: -1, nothing written.
  int32_t creating(MPI_Comm parent, int color, int key, bool dup);
  void created(MPI_Comm newcomm, int32_t id);
  // comm_create: the group's ranks in the parent (-1 for a rank not in it).
  int32_t creating_group(MPI_Comm parent, MPI_Group group);
  void freed(MPI_Comm c);

  // Requests.
  void add_request(MPI_Request r, const RequestKey& k) { requests_[r] = k; }
  RequestKey* request(MPI_Request r);
  void forget_request(MPI_Request r) { requests_.erase(r); }
  // A completion call found request `r` (its value before the call) done: writes `wait` for it
  // (`waitany` over the floating requests if it is one of them).
  void completed(MPI_Request r);
  // MPI_Waitany / MPI_Waitsome must block on `reqs`: the simulation cannot know which will
  // complete first, so the known ones float: each real completion of a floating request writes
  // `waitany` over every floating key (the simulation completes whichever comes first there and
  // skips keys it already completed: ti_program.cpp), so both runs complete one of the group per
  // line and the group's keys stay listed until the real run has completed them all. Writes that
  // `waitany` now; after the real call, consumed(r) for the request its line stood for.
  void waiting_any(const MPI_Request* reqs, int n);
  void consumed(MPI_Request r);

  // Sends from a copy (rule 2): the real request (and the copy) are kept until done.
  bool copy_send(int64_t bytes) const { return static_cast<uint64_t>(bytes) > setup_.copy_above &&
                                               static_cast<uint64_t>(bytes) <= setup_.copy_max; }
  void defer(MPI_Request real, std::vector<char> copy);
  void progress_deferred();  // tests the deferred requests, frees the finished ones

  // Compute accounting: enter() at a wrapper's start writes the compute since the last leave().
  void enter();
  void leave() { last_exit_ns_ = now_ns(); }
  int depth_ = 0;  // wrappers running (recursion guard; CallScope)

 private:
  void send_stream(int tag);
  template <class T>
  HybridState& number(T v);
  bool active_ = false;
  long test_pauses_ = 0;  // SIMFAB_HYBRID_TEST_DELAY_US pauses made (tests only)
  int rank_ = 0, size_ = 0, sim_ = 0;
  MPI_Comm app_ = MPI_COMM_NULL, chan_ = MPI_COMM_NULL;
  Setup setup_;
  int64_t last_exit_ns_ = 0;
  std::string buf_;
  std::string rank_prefix_;
  std::unordered_map<MPI_Comm, int32_t> comms_;
  std::unordered_map<MPI_Request, RequestKey> requests_;
  struct Floating {
    MPI_Request req;
    RequestKey key;
    bool done = false;  // completed in the real run
  };
  std::vector<Floating> floating_;
  bool is_floating(MPI_Request r) const;
  void write_waitany();
  struct Deferred {
    MPI_Request req;
    std::vector<char> copy;
  };
  std::vector<Deferred> deferred_;
  std::unordered_map<int32_t, uint32_t> creations_;  // per parent id: creations so far
  uint32_t next_creation(int32_t parent) { return creations_[parent]++; }
};

HybridState& state();

// MPI_COMM_WORLD as the application sees it.
inline MPI_Comm app_comm(MPI_Comm c) {
  return c == MPI_COMM_WORLD && state().active() ? state().app() : c;
}

// Fortran bindings (wrap_fortran.cpp, the generated forwarders): `p` points to a Fortran
// communicator handle; MPI_COMM_WORLD's becomes the application world's.
void* fortran_comm(void* p);
// Open MPI's own Fortran binding `name` (the next definition after this library).
void* fortran_next(const char* name);

// The guard every recording wrapper opens: the outermost one accounts the computation before it
// and restarts the clock when it returns; `on` is false when the call must pass straight through.
class CallScope {
 public:
  CallScope() : on_(state().active() && state().depth_ == 0) {
    ++state().depth_;
    if (on_) state().enter();
  }
  ~CallScope() {
    if (on_) state().leave();
    --state().depth_;
  }
  explicit operator bool() const { return on_; }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  bool on_;
};

// TI datatype id and count for `count` elements of `type` (ti_trace.hpp's ids by element size:
// 1 BYTE, 2 SHORT, 4 INT, 8 DOUBLE, 16 LONG_DOUBLE; any other size is counted in bytes).
struct TiCount {
  int64_t count;
  int32_t dt;
  int64_t bytes;
};
TiCount ti_count(int count, MPI_Datatype type);

// Runs a call that may block (rule 1): start(&req) issues it non-blocking; if a test does not
// find it done, the stream is flushed and the rank waits. `blocks()` runs first then: it writes
// the call's line if it was not written yet (the simulation needs it before the rank waits).
// Returns whether the rank had to wait through `waited`.
template <class Start, class Blocks>
int blocking_call(const char* call, MPI_Status* status, Start&& start, Blocks&& blocks, bool* waited = nullptr) {
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = start(&req);
  if (rc != MPI_SUCCESS) return rc;
  int done = 0;
  rc = PMPI_Test(&req, &done, status);
  if (waited) *waited = rc == MPI_SUCCESS && !done;
  if (rc != MPI_SUCCESS || done) return rc;
  blocks();
  state().about_to_block(call);
  return PMPI_Wait(&req, status);
}
template <class Start>
int blocking_call(const char* call, MPI_Status* status, Start&& start) {
  return blocking_call(call, status, start, [] {});
}

}  // namespace simfab::hybrid
