// TiProgram: replays a TiTrace on the Executor; each rank is a small state machine that reads its
// next line only when its previous action is over (streaming; format in replay/ti_trace.hpp).
//
// States of a rank and what moves it on (t = the time the executor reports):
//   kOp          a blocking op runs (compute, sleep, send, recv)   on_completed(op)  -> next line
//   kStarting    an isend/irecv op waits to start                  on_started(op)    -> next line
//   kCollective  a collective's fragment runs (FragmentRunner)     its last op done  -> next line
//   kWaitRequest `wait` on an outstanding request                  that op completes -> next line
//   kWaitAll     `waitall` with requests outstanding               the last completes -> next line
//   kSendrecv    `sendrecv`: its send and receive run              both completed    -> next line
//   kWaitAny     `waitany`/`waitsome` with none of its requests completed (they are marked)
//                                                                  one completes     -> next line
//   kCancel      `cancel`: a zero calc brings the engine to the rank's time; at its completion
//                the executor cancels the receive if it is still posted  -> next line
//   kFinalizing  `finalize` / end of trace with requests outstanding  the last completes -> kDone
//   kDone        finished
// Actions that need no op (init, location, comm_*, test, a wait on a completed request, ...) are
// consumed in a loop, not by recursion, so no stack grows with the trace. Executor callbacks only
// schedule events, so advance() is never re-entered for the same rank.
//
// Requests (isend/irecv) live in one pool with a free list, linked per rank in FIFO order and
// keyed by (src, dst, tag) as SimGrid's RequestStorage: isend on rank r to p with tag t has key
// (r, p, t), irecv from p has key (p, r, t). A completed request stays (op = kNoOp) until a wait,
// waitall, finalize or the end of the trace consumes it, like SimGrid's null request after test.
// Op::user of a point-to-point op = its request index, or kNoRequest for blocking ops; the
// FragmentRunner's ops carry its flag instead.
//
// Send modes: ssend/issend set op_flag::kSynchronousMode, bsend/ibsend kBufferedMode (the executor
// applies them), rsend/irsend are standard sends (MPI leaves a ready send without a posted receive
// undefined; OpenMPI and MPICH send it as a standard one). MPI_PROC_NULL peers need no op: the
// call completes at once (a request on it is born completed).
// MPI errors found while replaying are InputErrors naming file:line and the rank: a wait or
// cancel whose key matches no request of the rank (never started, or already waited for),
// MPI_ERR_TRUNCATE (the executor asks locate_op where each op was issued).
//
// Memory per rank: RankState (40 B) + the host id (4 B); 32 B per outstanding request; a
// collective's ops and edges only while it runs on that rank. The per-rank files of a list cost
// 12 B each in TiTrace plus the path. Nothing per trace line, no allocation per point-to-point
// action once the pools have grown.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <unordered_map>
#include <string>
#include <vector>

#include "core/slot_pool.hpp"
#include "mpi/coll/fragment.hpp"
#include "mpi/coll/fragment_runner.hpp"
#include "mpi/coll_match.hpp"
#include "mpi/comm.hpp"
#include "mpi/executor.hpp"
#include "mpi/program.hpp"
#include "platform/platform.hpp"
#include "replay/ti_action.hpp"
#include "replay/ti_trace.hpp"
#include "replay/ti_undefined_sources.hpp"

namespace simfab {

// Appends rank r's share of the collective `a` to `f`, closes it with a calc of
// `closing` (the reduction's compute time, or 0) and returns the algorithm's name (static
// storage; Schedgen's pattern, e.g. "dissemination", unless chosen). `counts` = the per-rank byte counts
// parse_ti_action filled for the v-collectives. Algorithms: see the table in ti_trace.hpp, unless
// `choice` names another for that collective (mpi/coll/registry.hpp). `smp_ready`: rank r's flag
// for this communicator (CollCall::smp_ready: SimGrid's SMP set-up has run), or nullptr.
const char* build_ti_collective(coll::Fragment& f, const TiAction& a, RankId r, int num_ranks,
                                std::span<const Bytes> counts, SimTime closing, const coll::CollChoice& choice,
                                bool* smp_ready = nullptr);
// The cost of a communicator creation (comm_dup: 8 B recursive-doubling allreduce; comm_split and
// comm_create: Bruck allgather of 8 B) as member `local` of a parent of `size` ranks, closed;
// replay/ti_comm.cpp says why.
void build_creation_fragment(coll::Fragment& f, TiKind kind, RankId local, int size);
// What the members of a TI collective must agree on (mpi/coll_match.hpp); `local` = the rank in
// the collective's communicator, `counts` = parse_ti_action's per-rank counts. Sizes a rank gives
// only as a receiver (a gather's at its root) are compared with the senders' sizes; send sizes that
// MPI_IN_PLACE may leave meaningless (allgather, alltoall, allgatherv) are not compared.
CollSignature ti_coll_signature(const TiAction& a, RankId local, std::span<const Bytes> counts);
// The configurable collective (coll::CollOp) a collective TI action is: its first-call cost's key.
coll::CollOp ti_coll_op(TiKind kind);

class TiProgram final : public Program {
 public:
  // Op::user of a blocking op; below FragmentRunner::kOpFlag like every request index.
  static constexpr uint32_t kNoRequest = coll::FragmentRunner::kOpFlag - 1;

  TiProgram(TiTrace& trace, OpPool& ops, const Platform& platform, std::vector<HostId> rank_host,
            coll::CollChoice choice = {}, energy::LbOptions lb = {}, coll::FirstCallCosts first_call = {});
  uint64_t migrations() const override { return migrations_; }

  int num_ranks() const override { return trace_.num_ranks(); }
  void start(Executor& ex) override;
  void on_started(OpId op, SimTime t) override;
  void on_completed(OpId op, SimTime t) override;
  bool rank_finished(RankId r) const override { return rank(r).state == State::kDone; }
  std::string describe_blocked(RankId r) const override;
  // Bytes of the trace read so far over its size (finished ranks count whole). O(ranks).
  double progress() const override;

  // A `wtime` line (hybrid execution, src/hybrid/): rank r read the clock at its time t.
  void set_wtime_hook(std::function<void(RankId, SimTime)> hook) { wtime_ = std::move(hook); }

  // Bytes of per-rank and pooled state (tests check the footprint).
  size_t memory_bytes() const;
  static size_t rank_state_bytes() { return sizeof(RankState); }

 private:
  enum class State : uint8_t {
    kReady, kOp, kStarting, kCollective, kWaitRequest, kWaitAll, kSendrecv, kWaitAny, kCancel, kFinalizing, kDone,
    kMigrating,  // at a balancing `migrate` point, waiting for every rank (ti_migrate.cpp)
  };
  static constexpr uint8_t kDefaultDouble = 1;  // RankState::flags: `init` had an argument
  static constexpr uint32_t kNone = UINT32_MAX;

  struct RankState {
    uint64_t pos = 0;           // cursor: the next unread byte of this rank's trace file
    uint64_t line = 0;          // offset of the line of the action in progress (messages)
    uint32_t wait = kNone;      // the op (kOp, kStarting), run (kCollective) or request waited for
    uint32_t req_head = kNone;  // this rank's requests, oldest first
    uint32_t req_tail = kNone;
    uint32_t open_reqs = 0;     // requests whose op has not completed
    uint32_t colls = 0;         // world collectives started so far: the next one's tag
    State state = State::kReady;
    uint8_t flags = 0;
    TiKind coll = TiKind::kCount;  // the blocking collective in progress (kCollective), for switches
  };
  static_assert(sizeof(RankState) == 40, "RankState is documented as 40 bytes");
  struct Request {
    uint64_t line = 0;  // offset of the isend/irecv line (error messages)
    OpId op = kNoOp;    // kNoOp once completed
    int32_t src = 0;
    int32_t dst = 0;
    int32_t tag = 0;
    uint32_t next = kNone;  // next request of the same rank, or the pool's free list
    int32_t comm = 0;       // its communicator (src, dst: world ranks)
    bool marked = false;    // one of the requests a pending waitany/waitsome waits for
    bool coll = false;      // a non-blocking collective's: `op` is its FragmentRunner run
    bool undefined_source = false;  // an irecv -333 left a wildcard: maybe MPI_PROC_NULL (deadlock hint)
  };
  static_assert(sizeof(Request) == 40, "Request is documented as 40 bytes");
  // Op::user of the ops that are not requests' (below FragmentRunner::kOpFlag, like kNoRequest).
  static constexpr uint32_t kSendrecvOp = kNoRequest - 1;
  static constexpr uint32_t kSyncOp = kNoRequest - 2;
  static constexpr int32_t kCollectiveKey = INT32_MIN;  // src/dst of a non-blocking collective's request

  const RankState& rank(RankId r) const { return ranks_[static_cast<size_t>(r)]; }
  RankState& rank(RankId r) { return ranks_[static_cast<size_t>(r)]; }

  void advance(RankId r, SimTime t);
  // Tells the executor's activity sink that rank r starts action `a` at t (ti_activity.cpp).
  void report_call(RankId r, SimTime t, const TiAction& a, const mpi::Comm& comm, const char* algorithm) const;
  void finish(RankId r);
  void check_nothing_after_finalize(RankId r, const TiLine& finalize_line);
  OpId issue(RankId r, OpKind kind, uint64_t amount, int32_t peer, int32_t tag, uint32_t user, SimTime t,
             uint8_t flags = 0, uint32_t context = 0);
  SimTime compute_time(RankId r, double flops, const TiLine& line) const;
  uint32_t add_request(RankId r, int32_t src, int32_t dst, int32_t tag);
  uint32_t find_request(RankId r, int32_t src, int32_t dst, int32_t tag, int32_t comm) const;
  // find_request, or an InputError naming the call when no request has that key.
  uint32_t require_request(RankId r, const TiAction& a, const TiLine& line) const;
  // SMPI's wait for a non-blocking collective (TiAction::coll_request): the rank's oldest
  // outstanding one on the action's communicator, or an InputError.
  uint32_t require_collective_request(RankId r, const TiAction& a, const TiLine& line) const;
  // The point-to-point actions (send modes, receives, sendrecv, probe); false: nothing to wait for.
  bool start_p2p(RankId r, const TiAction& a, const mpi::Comm& comm, SimTime t);
  // Communicators (ti_comm.cpp): the communicator `id` of which r is a member, or an InputError
  // at `line`; a comm-local rank as a world rank (wildcards and MPI_PROC_NULL unchanged).
  const mpi::Comm& member_comm(RankId r, int32_t id, const TiLine& line) const;
  static RankId to_world(const mpi::Comm& comm, RankId local) {
    return local < 0 || comm.id() == mpi::kCommWorld ? local : comm.group().world_rank(local);
  }
  // r enters its next collective on `comm` at t: `sig` is checked against the other members'; the
  // collective's number and the collective choice it runs (its first member's, model switches).
  struct CollEntry {
    uint32_t seq = 0;
    uint8_t choice = 0;
  };
  CollEntry enter_collective(RankId r, const CollSignature& sig, const mpi::Comm& comm, SimTime t);
  // Starts frag_ as r's collective `seq` on `comm`; blocking: the rank waits in kCollective;
  // non-blocking: a request owns the run and the rank goes on (returns false then).
  bool start_collective(RankId r, uint32_t seq, const mpi::Comm& comm, SimTime t, bool nonblocking = false);
  // comm_split / comm_dup / comm_create: the rendezvous, then its cost as a collective on `parent`.
  void start_creation(RankId r, const TiAction& a, const mpi::Comm& parent, SimTime t);
  void free_comm(RankId r, const TiAction& a, const TiLine& line);
  // waitany / waitsome: true when a completed request was consumed (or none was outstanding).
  bool wait_any(RankId r, const TiAction& a, const TiLine& line, bool some);
  void complete_request(RankId r, uint32_t req, SimTime t);
  // The FragmentRunner run of rank r that op `id` belongs to: its blocking collective's or a
  // non-blocking one's (a request); O(requests of r).
  uint32_t run_of(RankId r, OpId id) const;
  void remove_request(RankId r, uint32_t req);
  void clear_requests(RankId r);
  [[noreturn]] void fail(const TiLine& line, size_t pos, std::string what) const;
  std::string where(RankId r) const;  // "file:line" of the action in progress
  std::string where(RankId r, uint64_t position) const;  // "file:line" of r's line at `position`
  std::string describe_op(OpId id) const;
  std::string describe_request(uint32_t req) const;
  std::string locate_op(OpId id) const override;

  TiTrace& trace_;
  OpPool& ops_;
  const Platform& platform_;
  std::vector<HostId> rank_host_;
  Executor* ex_ = nullptr;
  std::unordered_map<OpId, int> pstate_ops_;  // set_pstate's zero calcs: the pstate to set at their end
  struct PowerSwitch {
    HostId host;
    bool on;
    uint32_t file;  // the line, for errors found at the switch's time
    uint64_t pos;
  };
  std::unordered_map<OpId, PowerSwitch> power_ops_;  // host_off/host_on's zero calcs
  // Load balancing (ti_migrate.cpp): flops per rank since the last balancing, migrate points
  // seen per rank, the zero calcs that bring a rank to its balancing point, ranks arrived there.
  energy::LbOptions lb_;
  std::vector<double> lb_flops_;
  std::vector<uint32_t> lb_points_;
  std::unordered_map<OpId, bool> migrate_ops_;
  int lb_arrived_ = 0;
  uint64_t migrations_ = 0;
  // A `migrate` action of rank r: false when it does nothing (go on reading).
  bool start_migrate(RankId r, SimTime t);
  void arrive_migrate(RankId r);
  void rebalance();
  std::vector<RankState> ranks_;
  SlotPool<Request> requests_;
  coll::FragmentRunner runner_;
  coll::CollChoice choice_;  // the algorithm of each configurable collective
  coll::FirstCallCosts first_call_;  // set-up of each rank's first call of a collective (mpi/first-call)
  std::function<void(RankId, SimTime)> wtime_;
  mpi::CommTable comms_;
  const mpi::Comm& world_;  // comms_'s MPI_COMM_WORLD (never freed)
  CollectiveMatcher matcher_;
  std::vector<int32_t> group_;  // scratch: comm_create's group
  size_t done_ = 0;             // ranks finished (the last one checks no collective is left half-called)
  coll::Fragment frag_;        // scratch: the collective being started
  TiUndefinedSources undefined_;  // what the trace's irecvs -333 stand for (scanned at construction)
  std::vector<Bytes> counts_;  // scratch: per-rank counts of the v-collective being parsed
  // CollCall::smp_ready per smp_key(communicator id, rank): SimGrid's init_smp has run. Kept only
  // when the collective choice can run it (CollChoice::uses_smp_setup: smpi-mpich).
  static uint64_t smp_key(int32_t comm, RankId r) {
    return static_cast<uint64_t>(static_cast<uint32_t>(comm)) << 32 | static_cast<uint32_t>(r);
  }
  std::unordered_map<uint64_t, bool> smp_ready_;
};

}  // namespace simfab
