// OnlineProgram: runs an MPI program's ranks inside the simulation (online mode, seed 001 §2,
// seed 000's per-rank library copies). Each rank is a private copy of the program
// (ProgramImage) whose `main` runs on its own Fiber; every MPI call the program makes reaches
// this class through the C ABI (src/online/abi/), the one call point between ranks and kernel.
//
// Time. The kernel is single-threaded: a rank runs only when the engine resumes it, at the
// engine's current time, which is then the rank's clock (Rank::now). Between two MPI calls the
// rank computes for real; on the next call the CPU time it spent (thread CPU clock, measured
// mode) scaled by reference-speed / host speed becomes a calc op on its host, and the call
// proceeds once that op completes. In declared mode only simfab_compute() / smpi_execute*()
// charge time, so runs are deterministic. A blocking call issues its ops (Executor::ready) and
// yields; the executor's callbacks update the call's requests, and when the rank's wake
// condition holds the program schedules an EventKind::kFrontEnd event at that time, whose
// handler resumes the fiber. Fibers are only ever resumed from the engine loop, never from
// inside another fiber or a callback, so user code never runs nested in the executor.
//
// Data. A send packs its buffer into a payload (so the sender may reuse it, as with MPI's eager
// protocol) whose id travels in the send op's Op::user; when the executor matches a receive it
// calls on_matched, and the payload is unpacked into the receive buffer. Collectives move their
// data apart from their timing: every member deposits its input (packed) when it enters
// (CollData), the messages of the algorithm that the selector picks run on the network, and
// when a member's share of them completes its outputs are computed from the deposits (a
// member cannot finish before every input it depends on was deposited; checked).
//
// Handles (include/simfab/mpi.h): MPI_Comm 1 = world (CommTable id 0), 2 = MPI_COMM_SELF, h >= 3
// = CommTable id h - 2; MPI_Request = request index + 1; MPI_Group = group index + 2.
// Errors in the program's use of MPI are fatal (mpi_fatal: exit 2 naming rank and call).
//
// Failures. A rank that exits with a non-zero status, calls MPI_Abort, or ends without
// MPI_Finalize after MPI_Init does not stop the run at once (rank_failures.hpp): it is over, the
// engine goes on, and the other ranks run until each has ended or waits on another rank. A rank
// whose wait began after the first failure (block(), or a poll that finds nothing) is parked: never
// resumed, whatever completes. Waits begun before it may still complete, and computation goes on
// (its own time, not a wait). When the engine has nothing left (on_engine_done), the program's
// output is flushed and the failures are reported in rank order; the exit status is the lowest
// failing rank's. So a rank's explanation printed at about the point another rank exits is never
// lost to the order the host happened to run the ranks in.
//
// Memory per rank: a Fiber stack (online/stack-size; pooled beyond what guarded stacks' memory
// mappings allow), its copy of the program, Rank (~200 B);
// per outstanding request ~160 B; per message in flight its payload.
#pragma once

#include <simfab/mpi.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/function_ref.hpp"
#include "core/sim_time.hpp"
#include "mpi/coll/fragment.hpp"
#include "mpi/coll/fragment_runner.hpp"
#include "mpi/coll/registry.hpp"
#include "mpi/comm.hpp"
#include "mpi/executor.hpp"
#include "energy/greedy_lb.hpp"
#include "mpi/program.hpp"
#include "replay/ti_program.hpp"
#include "online/coll_data.hpp"
#include "online/fiber.hpp"
#include "online/fortran/fortran_support.hpp"
#include "online/libc_state.hpp"
#include "online/output_tagger.hpp"
#include "online/smpi_polls.hpp"
#include "online/program_image.hpp"
#include "online/rank_failures.hpp"
#include "mpi/coll/first_call.hpp"
#include "platform/platform.hpp"

namespace simfab::online {

struct OnlineOptions {
  std::vector<std::string> argv;  // argv[0] = the program's path
  size_t stack_bytes = 256 * 1024;
  bool pooled_stacks = false;     // all ranks' stacks in one mapping (memory_maps.hpp)
  bool measured = true;           // online/compute=measured (else declared)
  double reference_speed = 0;     // flop/s of this machine's core; 0: as fast as each simulated host
  SimTime poll_cost = SimTime::ps(100'000);  // charged by a test/iprobe that finds nothing
  double cpu_threshold_s = 1e-6;  // measured bursts shorter than this are not charged
  bool virtual_clocks = true;     // online/virtual-clocks: libc's clocks read simulated time
  SmpiPolls smpi_polls;           // network/model=smpi: SMPI's injected poll times (smpi_polls.hpp)
  bool tag_output = false;        // --tag-output: each rank's output lines tagged (output_tagger.hpp)
  energy::LbOptions lb;           // lb/*: what simfab_migrate does
  coll::FirstCallCosts first_call;  // mpi/first-call: a blocking collective's first call per rank
};

inline constexpr int kTagUpperBound = 2147483647;  // MPI_TAG_UB

// A generalized request's callbacks (MPI_Grequest_start).
struct GrequestFns {
  MPI_Grequest_query_function* query = nullptr;
  MPI_Grequest_free_function* free = nullptr;
  MPI_Grequest_cancel_function* cancel = nullptr;
  void* extra = nullptr;
};

class OnlineProgram final : public Program, private EventHandler {
 public:
  OnlineProgram(ProgramImage& image, OpPool& ops, const Platform& platform, std::vector<HostId> rank_host,
                coll::CollChoice choice, OnlineOptions options);
  ~OnlineProgram() override;

  // The program whose rank is running (the ABI's entry point); nullptr outside online runs.
  static OnlineProgram* active();

  // Program
  int num_ranks() const override { return static_cast<int>(ranks_.size()); }
  void start(Executor& ex) override;
  void on_started(OpId op, SimTime t) override;
  void on_completed(OpId op, SimTime t) override;
  void on_matched(OpId recv, uint32_t send_user) override;
  bool rank_finished(RankId r) const override { return ranks_[static_cast<size_t>(r)].done; }
  SimTime end_time(RankId r) const override {
    const Rank& R = ranks_[static_cast<size_t>(r)];
    return R.done ? R.now : SimTime::zero();
  }
  std::string describe_blocked(RankId r) const override;
  std::string locate_op(OpId id) const override;  // "rank 1: MPI_Recv" (MPI_ERR_TRUNCATE)
  void on_engine_done() override;  // a run that failures stop ends here (see Failures above)

  // ---- the services the C ABI calls (always from inside the running rank's fiber) ----
  RankId me() const { return current_; }
  bool virtual_clocks() const { return options_.virtual_clocks; }
  // The running rank's Fortran sentinels (MPI_IN_PLACE, MPI_STATUS_IGNORE, ...).
  const FortranSentinels& fortran_sentinels() const { return rank().fortran; }
  SimTime now() const;
  // Every MPI call starts with enter(): checks the call is allowed now (after MPI_Init, before
  // MPI_Finalize, unless `any_time`), notes its site (`caller`: its return address; a Fortran
  // binding's caller instead, FortranCallSite) when that lies in the rank's copy of the program,
  // then charges the computation since the previous call as the task between the two sites.
  void enter(const char* call, bool any_time = false, const void* caller = nullptr);
  void leave();  // the call's own CPU time is not the program's computation
  // For the outputs (mpi/activity.hpp; online_activity.cpp): the calls that may take simulated
  // time are reported when they start, and the program's own computation when they return; a
  // collective's call is re-reported at the same instant with the algorithm that runs it.
  void report_enter(const char* call);
  void report_leave();
  void report_algorithm(const char* call, const char* algorithm);
  void init(const char* call);
  void finalize();
  bool initialized() const;
  bool finalized() const;
  void compute_flops(double flops);     // simfab_compute / smpi_execute_flops
  void compute_seconds(double seconds); // simfab_sleep / smpi_execute
  // simfab_set_pstate / simfab_get_pstate / simfab_pstate_count: the pstate of the rank's host
  // (seed 001 §2.3). A set takes effect at the rank's current time, for every computation on
  // that host; an index the host does not have is an MPI usage error.
  void set_pstate(int pstate);
  // simfab_host_off / simfab_host_on (cpu/host_power.hpp) at the rank's current time; a host that
  // cannot be switched (unknown, a rank of it unfinished, not in the state) is a usage error.
  void switch_host(const char* host, bool on, const char* call);
  // simfab_migrate (AMPI's MPI_Migrate; seed 001 §2.17): with lb/balancer=greedy, every
  // lb/every-th call of a rank is a point where all ranks meet; the last to arrive runs GreedyLB
  // on the flops each charged since the previous balancing, and each rank goes on after its
  // migration time. Otherwise it does nothing.
  void migrate_point();
  // simfab_switch / MPI_Pcontrol (sim/model_switch.hpp): a logical model switch of the running
  // rank at its time; Pcontrol levels without a --pcontrol mapping do nothing.
  void switch_model(const char* changes);
  void pcontrol(int level);
  uint64_t migrations() const override { return migrations_; }
  int pstate() const;
  int pstate_count() const;
  // MPI_Abort and exit() in the program (simfab-cc's --wrap=exit): the running rank is over; a
  // failure unless exit(0) after MPI_Finalize (or without MPI_Init).
  [[noreturn]] void abort_run(int code);
  [[noreturn]] void exit_rank(int status);
  int sample_begin(const char* file, int line, int max_runs);
  void sample_end(const char* file, int line);
  void* shared_malloc(size_t bytes);
  void shared_free(void* p);
  const std::string& host_name() const;

  // Communicators.
  struct CommRef {
    const mpi::Comm* comm = nullptr;  // nullptr: MPI_COMM_SELF
    RankId self = 0;                  // MPI_COMM_SELF: the caller's world rank
    int32_t size = 1;
    int32_t rank = 0;  // the caller's rank in it
    uint32_t p2p_context = 0;
    uint32_t coll_context = 0;
    RankId world(int32_t local) const;  // wildcards and MPI_PROC_NULL unchanged
    int32_t local(RankId world) const;
  };
  CommRef comm(MPI_Comm c, const char* call) const;
  // With `request` (MPI_Comm_idup): returns the new communicator's handle at once, usable once the
  // request completes (its agreement collective needs every member, so completion implies that
  // every member has called).
  MPI_Comm comm_create(MPI_Comm parent, mpi::CreationKind kind, int color, int key, std::span<const int32_t> group,
                       const char* call, MPI_Request* request = nullptr);
  // MPI_Comm_create_group: collective over the group's members only; their n-th call with one
  // (parent, tag, group) makes one communicator (CommTable::adopt), costing a creation's agreement
  // among them.
  MPI_Comm comm_create_group(MPI_Comm parent, const mpi::Group& group, int tag, const char* call);
  void comm_free(MPI_Comm* c, const char* call);
  int comm_compare(MPI_Comm a, MPI_Comm b, const char* call) const;
  MPI_Group group_of(MPI_Comm c, const char* call);
  const mpi::Group& group(MPI_Group g, const char* call) const;
  MPI_Group add_group(mpi::Group g);
  void free_group(MPI_Group* g, const char* call);
  void set_comm_name(MPI_Comm c, std::string name, const char* call);
  std::string comm_name(MPI_Comm c, const char* call) const;
  // Cartesian topology attached to a communicator (MPI_Cart_create).
  struct Cart {
    std::vector<int> dims, periods;
  };
  void set_cart(MPI_Comm c, Cart cart);
  const Cart& cart(MPI_Comm c, const char* call) const;

  // Point-to-point. `flags`: op_flag send modes. Returns the request handle.
  MPI_Request isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c, uint8_t flags,
                    const char* call);
  MPI_Request irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm c, const char* call);
  MPI_Request send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm c, uint8_t flags,
                        const char* call);
  MPI_Request recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm c, const char* call);
  void start(MPI_Request* r, const char* call);
  void probe(int source, int tag, MPI_Comm c, MPI_Status* status, const char* call);
  bool iprobe(int source, int tag, MPI_Comm c, MPI_Status* status, const char* call);

  // Requests: wait until `done(i)` says so for the given set; the requests are then consumed
  // (freed, or made inactive when persistent) and statuses written.
  void wait(MPI_Request* r, MPI_Status* status, const char* call);
  bool test(MPI_Request* r, MPI_Status* status, const char* call);
  void wait_all(int n, MPI_Request* rs, MPI_Status* statuses, const char* call);
  bool test_all(int n, MPI_Request* rs, MPI_Status* statuses, const char* call);
  // Waits for (or tests) at least one; *index = MPI_UNDEFINED when none is active.
  bool wait_any(int n, MPI_Request* rs, int* index, MPI_Status* status, bool blocking, const char* call);
  int wait_some(int n, MPI_Request* rs, int* indices, MPI_Status* statuses, bool blocking, const char* call);
  void request_free(MPI_Request* r, const char* call);
  bool request_status(MPI_Request r, MPI_Status* status, const char* call);
  void cancel(MPI_Request* r, const char* call);
  // Runs `fn` once, when the wait or test that completes request r consumes it, before its status
  // is written (MPI_Imrecv unpacks its claimed message then). Not run if r is freed instead.
  void on_consume(MPI_Request r, std::function<void()> fn, const char* call);
  // Generalized requests (MPI_Grequest_start / MPI_Grequest_complete).
  MPI_Request grequest_start(const GrequestFns& gen);
  void grequest_complete(MPI_Request r, const char* call);

  // Collectives: the call's description (coll_data.hpp) on communicator c; blocking ones wait,
  // non-blocking ones return a request.
  MPI_Request collective(const CollArgs& a, MPI_Comm c, bool nonblocking, const char* call);

  // One-sided communication (rma.hpp): a transfer of `bytes` from world rank `from` to world rank
  // `to`, issued now by the running rank on simfab's RMA context (it never matches a program's
  // receive); its request (owned by the running rank) completes once both ends have completed.
  MPI_Request rma_transfer(RankId from, RankId to, Bytes bytes);
  // Blocks the running rank until `cond` holds; recheck_blocked() re-evaluates every blocked
  // rank's condition after a state change the executor does not see (RMA locks, PSCW).
  void wait_for(std::function<bool()> cond, std::string what);
  void recheck_blocked();

  size_t memory_bytes() const;

  // For online mode's other APIs (the Portals 4 API, online/portals/): the executor (its engine
  // and network), a rank's host, and waking rank r, blocked in wait_for, at time t (>= the
  // engine's now) when its condition holds then.
  Executor& executor() const { return *ex_; }
  HostId host_of(RankId r) const { return rank_host_[static_cast<size_t>(r)]; }
  void wake(RankId r, SimTime t) { poke(r, t); }
  // A polling delay of the running rank (Portals' growing delay, seed 000 §5.7): its clock moves
  // on by d without a context switch when no engine event comes before the delay is over (then
  // nothing can reach the rank meanwhile: the engine is its only source of news); otherwise it
  // sleeps until then. Not charged as computation. Cost: O(1) in the common case.
  void poll_sleep(SimTime d);

 private:
  static constexpr uint32_t kSelfContext = 0xFFFFFFF0u;  // MPI_COMM_SELF's matching contexts
  static constexpr uint32_t kRmaContext = 0xFFFFFFF4u;   // one-sided transfers
  struct Sample {
    int runs = 0;
    SimTime total = SimTime::zero();  // simulated time of the runs so far
    SimTime start = SimTime::zero();
  };
  struct SharedBlock {
    void* ptr = nullptr;
    size_t bytes = 0;
  };
  struct Rank {
    std::unique_ptr<Fiber> fiber;
    HostId host = 0;
    SimTime now = SimTime::zero();
    double cpu_mark = 0;  // thread CPU seconds when the current computation burst began
    bool in_reported_call = false;  // outputs: a reported MPI call is in progress (report_leave)
    bool reported_any = false;      // outputs: the rank's computation from 0 on has been reported
    enum class Mpi : uint8_t { kBefore, kInitialized, kFinalized } mpi = Mpi::kBefore;
    bool done = false;
    bool parked = false;  // a wait begun after a failure: never resumed (see Failures above)
    bool wake_scheduled = false;
    bool calc_done = false;
    uint32_t spins = 0;        // failed polls in a row (test/iprobe with no computation between)
    uint32_t lb_points = 0;    // simfab_migrate calls so far
    double lb_flops = 0;       // flops charged since the last balancing
    SimTime lb_delay;          // its migration time at the last balancing
    uint32_t spin_streak = 0;  // spins before the current call
    int exit_status = 0;
    OpId calc = kNoOp;  // the computation being charged
    SimTime calc_end = SimTime::zero();
    std::function<bool()> until;  // set while blocked: the wake condition
    std::string blocked_in;       // the call it is blocked in (deadlock reports)
    std::vector<uint32_t> colls;  // its requests of running collectives
    std::map<MPI_Comm, uint32_t> creations;  // communicator creations called on each parent
    std::map<std::string, Sample> samples;    // SIMFAB_SAMPLE call sites
    uint32_t shared_calls = 0;                // simfab_shared_malloc calls so far
    std::vector<std::string> args;
    std::vector<char*> argv;
    LibcState libc;  // getopt's globals and errno while another rank runs (libc_state.hpp)
    FortranSentinels fortran;  // where its copy keeps mpif.h's COMMON blocks (fortran_support.hpp)
  };
  struct Request {
    enum class Kind : uint8_t { kFree, kSend, kRecv, kColl, kGeneralized } kind = Kind::kFree;
    RankId owner = 0;
    bool persistent = false;
    bool active = false;     // persistent: started and not yet completed-and-waited
    bool started = false;    // its op has started (an isend may return)
    bool complete = false;
    bool freed = false;      // MPI_Request_free before completion: recycle when complete
    uint8_t parts = 1;       // ops still to complete (an RMA transfer has two: both ends)
    OpId op = kNoOp;
    uint32_t run = UINT32_MAX;  // kColl: the FragmentRunner run
    SimTime started_at = SimTime::zero();
    SimTime done = SimTime::zero();
    // point-to-point parameters
    const void* sbuf = nullptr;
    void* rbuf = nullptr;
    int64_t count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    int32_t peer = 0;  // world rank, kAnySource or kProcNull
    int32_t tag = 0;
    uint32_t context = 0;
    uint8_t flags = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    GrequestFns gen;  // kGeneralized: the program's callbacks
    std::function<void()> finish;  // on_consume's
    std::shared_ptr<const mpi::Group> group;  // its communicator's (not world), alive after MPI_Comm_free
    const char* call = nullptr;               // the MPI function that created it
    MPI_Status status{};
    // collectives
    CollArgs coll_args;
    int32_t coll_local = 0;
    std::pair<mpi::CommId, uint32_t> coll_key{};
    std::shared_ptr<CollInstance> coll;
    uint32_t next_free = UINT32_MAX;
  };

  void handle(SimTime now, uint64_t rank) override;  // EventKind::kFrontEnd: resume a rank
  void resume(RankId r, SimTime t);
  void run_rank(RankId r);  // the fiber's body
  // The running rank ends with `status` (main returned it, or exit()): a non-zero status, or an
  // MPI_Init without MPI_Finalize, is a failure (see Failures above).
  void end_rank(int status);
  // The running rank, done or parked, never runs again (its stack is abandoned, not unwound).
  [[noreturn]] void leave_rank();
  // Flushes the program's output, reports failures_ and ends the process with their status.
  [[noreturn]] void stop_failed_run();
  Rank& rank() { return ranks_[static_cast<size_t>(current_)]; }
  const Rank& rank() const { return ranks_[static_cast<size_t>(current_)]; }
  // Blocks the running rank until `until()` holds (checked after each of its events). kOnOthers:
  // a wait for other ranks or the network, which after a failure parks the rank; kOwnWork: its
  // own computation, which goes on.
  enum class Wait : uint8_t { kOnOthers, kOwnWork };
  void block(std::function<bool()> until, std::string what, Wait wait = Wait::kOnOthers);
  // A communicator creation's cost: the agreement collective over `over`, started as the caller's
  // collective request (index returned); finish_creation waits for it and for `created`.
  uint32_t start_creation_cost(const CommRef& over, mpi::CommId over_id, TiKind kind, const char* call);
  void finish_creation(uint32_t request, std::function<bool()> created, std::string blocked_in);
  void poke(RankId r, SimTime t);  // re-checks r's wake condition after an event at t
  // A calc op of `duration` on the running rank, waited for; flags op_flag::kDelay: a sleep.
  // The program's own code is charged through its region's factor (mpi/region_times.hpp);
  // charge_mpi: MPI's own CPU time (polls), which is not.
  void charge(SimTime duration, uint8_t flags = 0, bool program_code = true);
  void charge_mpi(SimTime duration) { charge(duration, 0, false); }
  // Runs `work` on the kernel's (main) stack: the simulator's deep call chains (collective
  // algorithms, network models) never touch a rank's stack, so ranks' stacks stay small. Two
  // context switches.
  void on_kernel_stack(FunctionRef<void()> work);
  void advance_to(SimTime t);      // the running rank sleeps until t (no-op when t <= now)
  // A failed poll (MPI_Test*, MPI_Iprobe) of the running rank: true once kSpinLimit of them came in
  // a row with nothing else in between, or any one once a rank has failed. The poll then waits for
  // what it tests, so a program that only spins advances to the event it waits for, and a poll
  // that can never succeed ends in a deadlock report (or, after a failure, parks the rank) instead
  // of spinning forever.
  bool spinning();
  static constexpr uint32_t kSpinLimit = 64;
  // Under SMPI's poll times: charges the poll of `kind` (options_.smpi_polls), then looks.
  bool smpi_poll(SmpiPolls::Kind kind, FunctionRef<bool()> look);
  // Under SMPI's poll times, whether a failed poll of `kind` turns into a wait (as spinning()):
  // after SmpiPolls' runaway count, or once a rank has failed.
  bool smpi_polls_wait(SmpiPolls::Kind kind) const;
  uint32_t p2p_request(Request::Kind kind, const void* buf, int count, MPI_Datatype type, int peer, int tag,
                       MPI_Comm c, uint8_t flags, const char* call);
  std::string describe_request(uint32_t index, const char* call) const;
  OpId issue(OpKind kind, uint64_t amount, int32_t peer, int32_t tag, uint32_t context, uint32_t user,
             uint8_t flags);
  uint32_t new_request(Request::Kind kind);
  Request& request_of(MPI_Request r, const char* call);
  void start_request(uint32_t index, const char* call);
  void complete_request(uint32_t index, SimTime t);
  // A collective request whose messages completed at t: outputs and completion, or, when an
  // input it needs is not deposited yet, a wait in awaiting_data_ until release_awaiting.
  void finish_collective(uint32_t q, SimTime t);
  void release_awaiting(const std::pair<mpi::CommId, uint32_t>& key, SimTime t);
  // Consumes completed request `index` (its handle *r): status out, then freed or made inactive.
  void consume(MPI_Request* r, MPI_Status* status);
  bool done(MPI_Request r) const;  // MPI_REQUEST_NULL and inactive persistent ones count as done
  void release_request(uint32_t index);
  uint32_t new_payload(const void* buf, int64_t count, MPI_Datatype type, int64_t bytes);
  void fill_status(MPI_Status* st, const Request& q) const;
  double cpu_seconds() const;
  SimTime scaled(double cpu_seconds) const;
  std::string describe_comm(MPI_Comm c) const;

  ProgramImage& image_;
  std::string program_name_;  // the program file's name, for its call sites
  OpPool& ops_;
  const Platform& platform_;
  std::vector<HostId> rank_host_;
  coll::CollChoice choice_;
  OnlineOptions options_;
  Executor* ex_ = nullptr;
  std::unique_ptr<StackPool> stacks_;  // options_.pooled_stacks: every rank's stack
  std::vector<Rank> ranks_;
  RankId current_ = -1;
  int lb_arrived_ = 0;         // ranks at the current balancing point
  uint64_t lb_generation_ = 0;  // balancings done: a waiting rank wakes when it changes
  uint64_t migrations_ = 0;
  void rebalance();
  void sync_engine();  // the engine's clock catches up with the running rank's (a wake)
  double clock_cost_s_ = 0;  // CPU seconds one reading of the thread CPU clock costs
  std::unique_ptr<OutputTagger> tagger_;  // --tag-output
  RankFailures failures_;
  std::optional<FunctionRef<void()>> kernel_work_;  // set by on_kernel_stack for resume()
  std::vector<Request> requests_;
  uint32_t free_requests_ = UINT32_MAX;
  std::vector<uint32_t> op_request_;  // OpId -> request index (point-to-point ops)
  std::vector<std::vector<std::byte>> payloads_;
  std::vector<uint32_t> free_payloads_;
  coll::FragmentRunner runner_;
  mpi::CommTable comms_;
  std::map<std::tuple<mpi::CommId, uint32_t, int>, mpi::CommId> creation_ids_;  // (parent, k, colour)
  // MPI_Comm_create_group: calls so far by (rank, parent, tag, group), ids by (parent, tag, group, n).
  std::map<std::tuple<RankId, mpi::CommId, int, std::vector<int32_t>>, uint32_t> group_creation_calls_;
  std::map<std::tuple<mpi::CommId, int, std::vector<int32_t>, uint32_t>, mpi::CommId> group_creation_ids_;
  mpi::CommId next_comm_id_ = 1;
  std::vector<std::unique_ptr<mpi::Group>> groups_;  // MPI_Group handle - 2
  std::map<MPI_Comm, Cart> carts_;
  std::map<MPI_Comm, std::string> comm_names_;
  std::map<std::pair<mpi::CommId, uint32_t>, std::shared_ptr<CollInstance>> colls_;  // (comm, tag)
  std::map<std::pair<MPI_Comm, RankId>, bool> smp_ready_;
  std::map<std::pair<mpi::CommId, uint32_t>, std::vector<uint32_t>> awaiting_data_;  // (comm, tag) -> requests
  std::map<uint32_t, std::pair<SharedBlock, int>> shared_blocks_;  // k-th call -> (block, users)
  coll::Fragment frag_;
  std::vector<Bytes> counts_;  // scratch: a v-collective's per-rank bytes
  uint32_t rma_tag_ = 0;       // the next RMA transfer's tag (unique: transfers never cross-match)
};

}  // namespace simfab::online
