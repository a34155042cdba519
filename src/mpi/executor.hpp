// Executor: runs operations on ranks under MPI point-to-point semantics and a network model,
// with LogGOPSim's exact event rules (seed 004 §2.2, §2.6, §4.1), generalised to any Network.
//
// State per rank r (one rank per host slot): CPU timers nexto[r][cpu], NIC timers nextgs[r][nic]
// (send) and nextgr[r][nic] (receive): the times until which each resource is busy. Two queues
// per rank, both FIFO and intrusive (no per-rank heap objects):
//   RQ  posted receives not yet matched       UQ  messages that arrived before their receive
// Events (through the Engine, ordered by (time, priority, sequence)):
//   OP(t, op)     calc: runs when the CPU is free: nexto = t + duration.
//                 send: runs when CPU and NIC are free: nexto = t + send_overhead,
//                       nextgs = t + send_gap; the network carries it; eager sends complete now,
//                       rendezvous sends when the receiver matches them.
//                 recv: searches UQ first; if nothing matches it is posted to RQ.
//   DELIVERY(t, m) when CPU and NIC of the receiver are free: nexto = t + recv_overhead,
//                 nextgr = t + recv_gap; then searches RQ; if nothing matches, m joins UQ.
//                 Arrivals that find the receiver busy (or older arrivals still waiting) queue
//                 per receiver in arrival order and are processed one by one as it frees up.
//   An op whose resources are busy waits in a FIFO per resource set (calcs: the rank's CPU; sends:
//   its CPU and NIC); only the FIFO's head has an event, at the time they free up, and when it
//   runs the next head gets one. LogGOPSim re-queues every waiting op as a new event instead:
//   the order in which they run is the same (they all wait for the same resources, so they run
//   in arrival order, and an op whose event comes first at a free-up time still goes first), but
//   k ops waiting at once cost O(k) events here, not O(k^2) (a linear alltoall, thousands of
//   pending non-blocking collectives). LogGOPSim re-queues waiting messages the same way, which
//   lets an arrival that coincides with the receiver's wake-up overtake an older message of the
//   same pair; simfab's waiting queue keeps arrival order instead (MPI's non-overtaking rule).
// Protocols (net/network.hpp): eager and rendezvous messages carry their data from the send on;
// a rendezvous send completes when the receiver matches it at time t, and the sender's nexto and
// nextgs are raised to at least t. Detached and synchronous sends first send an envelope
// (Network::control); the envelope is matched like a message but charges no receive overhead;
// once it is matched (on arrival against a posted receive, or later when the receive is posted)
// the data transfer starts, and its arrival charges the receive overhead and completes the
// receive (and, for a synchronous send, the send).
// Matching: (context, source, tag) with kAnySource/kAnyTag on the receive side; the first match
// in FIFO order wins; with messages processed in arrival order and a network that delivers each
// pair in order, that is MPI's non-overtaking rule. At the match the receive becomes its status
// (Op::peer/tag/amount = the message's source, tag and size); a message larger than the receive
// is MPI_ERR_TRUNCATE, reported as an InputError naming both calls (Program::locate_op).
// Send modes (op_flag): synchronous (MPI_Ssend) turns an eager protocol into rendezvous and a
// detached one into synchronous, so the send never completes before its match; buffered
// (MPI_Bsend) turns rendezvous into eager and synchronous into detached, so it completes locally.
// Probes: a kProbe op completes as soon as a matching message or envelope is in the unexpected
// queue (at once, or when one is appended there: PQ, a third FIFO per rank); it consumes nothing.
// iprobe() answers the same question at the current time without an op, and cancel() removes a
// posted receive that has not matched (MPI_Cancel; sends cannot be cancelled, as in MPI-4).
//
// Finish time of a rank = the latest of its CPU timers (LogGOPSim prints the same).
// Deadlock: if the queue empties while some rank is unfinished, run() returns the blocked ranks
// and what each waits for. Complexity: O(log E) per event for the queue, plus the queue scans
// (linear in the number of unmatched entries of that rank; short in practice).
#pragma once

#include <string>
#include <vector>

#include "core/slot_pool.hpp"

#include "core/engine.hpp"
#include "cpu/host_cpus.hpp"
#include "cpu/host_power.hpp"
#include "mpi/activity.hpp"
#include "mpi/call_sites.hpp"
#include "mpi/region_times.hpp"
#include "mpi/op.hpp"
#include "mpi/program.hpp"
#include "mpi/model_selector.hpp"
#include "net/network.hpp"

namespace simfab {

namespace noise {
class NoiseModel;
}

// What MPI_Iprobe / a completed probe or receive reports (MPI_Status).
struct MsgStatus {
  RankId source = 0;
  int32_t tag = 0;
  Bytes size = 0;
};

struct BlockedRank {
  RankId rank;
  std::string waits_for;
};

struct ExecutionResult {
  std::vector<SimTime> finish;  // per rank
  SimTime makespan;
  uint64_t messages = 0;
  uint64_t bytes = 0;
  uint64_t events = 0;
  uint64_t unmatched_messages = 0;  // sent, delivered, never received
  std::vector<BlockedRank> blocked;  // non-empty: deadlock
  std::string network_stuck;         // non-empty: the network itself deadlocked (Network::stuck)
};

class Executor : private cpu::CpuClient {
 public:
  // rank_host[r] is the platform host of rank r.
  Executor(Engine& engine, Network& net, OpPool& ops, Program& program, std::vector<HostId> rank_host);

  // The front-end's op `id` has its dependencies met from time t on.
  void ready(OpId id, SimTime t);

  // Runs to the end; `monitor` (may be null) watches the event loop (Engine::Monitor).
  ExecutionResult run(Engine::Monitor* monitor = nullptr);

  // MPI_Iprobe at the current simulated time: the oldest message or envelope in rank r's
  // unexpected queue matching (source, tag, context), wildcards allowed. Front-ends call it at a
  // point where their rank's time is the engine's (e.g. on the completion of a zero calc).
  bool iprobe(RankId r, int32_t source, int32_t tag, uint32_t context, MsgStatus* status) const;
  // MPI_Cancel of receive `id`: if it is posted and unmatched, it leaves the posted queue, gets
  // op_flag::kCancelled and completes now (on_completed is called before this returns); returns
  // false (and does nothing) when it has already matched or has not started.
  bool cancel(OpId id);

  OpPool& ops() { return ops_; }
  Engine& engine() { return engine_; }
  Network& network() const { return net_; }
  // Several network models (issue 24): each message goes through the model `selector` names for
  // its sender when the send starts, and keeps it to its end (mpi/model_selector.hpp); model 0 is
  // the constructor's network. At most 128 models. Call before run().
  void set_model_selector(ModelSelector* selector) { selector_ = selector; }
  // The front-ends' logical switch points and MPI_Pcontrol calls (ModelSelector); without a
  // selector (a run outside simfab run/exec) a switch point is an input error.
  void switch_point(RankId r, SimTime t, std::string_view changes, SwitchWhere where);
  void pcontrol(RankId r, SimTime t, int level, SwitchWhere where);
  // The collective choice rank r is under at t (ModelSelector::collective_choice; 0 without a
  // selector), and that choice: `own` (the front-end's, from the run's configuration) for 0.
  uint8_t collective_choice(RankId r, SimTime t) { return selector_ ? selector_->collective_choice(r, t) : 0; }
  const coll::CollChoice& coll_choice(uint8_t i, const coll::CollChoice& own) const {
    return i == 0 ? own : selector_->coll_choice(i);
  }
  void collective_done(RankId r, SimTime t, std::string_view name) {
    if (selector_) selector_->collective_done(r, t, name);
  }
  HostId host_of(RankId r) const { return rank_host_[static_cast<size_t>(r)]; }
  const std::vector<HostId>& rank_hosts() const { return rank_host_; }
  // Rank r runs on host h from now on (load balancing). REQUIRES: r computes nothing right now.
  void migrate(RankId r, HostId h) { rank_host_[static_cast<size_t>(r)] = h; }

  // Computations on the hosts `cpus` makes dynamic (shared cores, pstates) run through it: the
  // rank's CPU timer reads SimTime::never() ("busy until the computation ends") meanwhile, and
  // what waits for that CPU is parked until then instead of being scheduled. Computations on the
  // other hosts keep the timer semantics and are reported to cpus' observers. Call before run().
  void set_cpus(cpu::HostCpus* cpus);
  cpu::HostCpus* cpus() const { return cpus_; }
  // The program's MPI call sites (mpi/call_sites.hpp); the front-ends feed it. set_task: rank r's
  // next computation belongs to `task` (told to the CPUs' observers when it starts on a dynamic
  // host: per-task governors).
  CallSites& call_sites() { return sites_; }
  // Hosts switched off and on (cpu/host_power.hpp), the trace's host_off/host_on and the online
  // calls; null: the run cannot switch hosts. switch_host returns "" or why not (a rank of the
  // host has not finished, the host is not in the state the switch needs).
  void set_host_power(cpu::HostPower* p) { host_power_ = p; }
  cpu::HostPower* host_power() const { return host_power_; }
  std::string switch_host(HostId h, bool on, SimTime t);
  void set_task(RankId r, uint32_t task) { task_[static_cast<size_t>(r)] = task; }
  // The work (ps) a computation of rank r's current task charges: `given_ps` times its region's
  // factor (mpi/region_times.hpp); counted per region. The front-ends call it for computations,
  // never for sleeps or delays.
  uint64_t computation(RankId r, uint64_t given_ps) {
    return regions_.charge(sites_, task_[static_cast<size_t>(r)], given_ps);
  }
  RegionTimes& regions() { return regions_; }
  // Tells `sink` what each rank's CPU does and every message (mpi/activity.hpp); null: nothing is
  // reported and nothing is kept for it. Call before run().
  void set_activity(ActivitySink* sink);
  ActivitySink* activity() const { return sink_; }
  // OS noise (noise/noise_model.hpp): every CPU interval a rank spends (a calc, a send or receive
  // overhead) is stretched by the detours that hit it; null: none. Computations on dynamic hosts
  // (set_cpus) are not stretched (their end is the CPU model's). Call before run().
  void set_noise(noise::NoiseModel* n) { noise_ = n; }

  // Whether rank r has ended by t (a front-end may read a rank to its end ahead of the engine,
  // under CPU timers: its last computation can still end after t).
  bool finished_by(RankId r, SimTime t) const;

 private:
  enum class MsgPhase : uint8_t {
    kData,      // eager or rendezvous: the message carries its data
    kEnvelope,  // detached or synchronous, not matched yet: no data moved
    kMatched,   // detached or synchronous, matched to recv_op: its data is in flight
  };
  struct Msg {
    Bytes size;
    RankId src;
    RankId dst;
    int32_t tag;
    OpId send_op;  // kNoOp once the sender has completed (eager, detached)
    uint32_t next;  // intrusive link: the receiver's waiting queue, then its unexpected queue
    OpId recv_op;   // kMatched: the receive its data completes
    uint32_t context;
    uint8_t cpu;
    uint8_t nic;
    uint8_t waiting : 1;  // 1 while queued behind the receiver's busy CPU/NIC
    uint8_t model : 7;    // the network model it goes through (set_models)
    MsgPhase phase;
    uint32_t send_user;  // the send op's Op::user when it was sent (Program::on_matched)
  };
  static_assert(sizeof(Msg) == 48, "Msg is documented as 48 bytes");
  struct Queue {
    uint32_t head = kNoOp;
    uint32_t tail = kNoOp;
  };
  void append_msg(Queue& q, uint32_t m);
  SimTime receiver_free(const Msg& m);
  struct OpHandler : EventHandler {
    Executor* ex;
    void handle(SimTime now, uint64_t index) override { ex->on_op(now, static_cast<OpId>(index)); }
  };
  struct DeliveryHandler : EventHandler {
    Executor* ex;
    void handle(SimTime now, uint64_t index) override { ex->on_delivery(now, static_cast<uint32_t>(index)); }
  };

  // When rank r ends: the later of its CPU timers and the front-end's end_time (never() while a
  // dynamic computation holds a CPU).
  SimTime rank_end(RankId r) const;
  void on_op(SimTime t, OpId id);
  void run_calc(SimTime t, OpId id);
  void computation_done(uint32_t token, SimTime t) override;
  // A CPU timer that reads never(): its rank computes on a dynamic host until further notice.
  static bool busy_until_done(SimTime c) { return c == SimTime::never(); }
  // When something of rank r that needs CPU c may happen, seen at time t: max(t, c), or t while
  // a dynamic computation holds the CPU (completions reported meanwhile are stamped t).
  SimTime cpu_or(RankId r, uint8_t c, SimTime t) {
    const SimTime x = cpu(r, c);
    return busy_until_done(x) ? t : max(t, x);
  }
  // Schedules an op-queue head or a waiting delivery at `avail`, or parks it (flag) when avail is
  // never(): computation_done schedules it.
  void schedule_or_park(SimTime avail, EventKind kind, uint64_t index, uint8_t& parked);
  void on_delivery(SimTime t, uint32_t msg_id);
  void process_message(SimTime t, uint32_t msg_id);
  void run_send(SimTime t, OpId id);
  void start_send(SimTime t, OpId id);  // run_send once the CPU and NIC are free
  // Whether op `id` must wait for resources free from `avail` on (t = now): it joins FIFO q, or,
  // as q's head, retries at `avail`. When it may run and was q's head, it leaves q.
  // `parked` is q's parked flag (see schedule_or_park).
  bool must_wait(Queue& q, OpId id, SimTime avail, SimTime t, uint8_t& parked);
  // After q's head ran: the new head (if any) retries when the resources free up (`avail`).
  void wake_next(const Queue& q, SimTime avail, uint8_t& parked);
  size_t calc_slot(RankId r, uint8_t c) const { return static_cast<size_t>(r) * ncpus_ + c; }
  size_t send_slot(RankId r, uint8_t c, uint8_t n) const { return calc_slot(r, c) * nnics_ + n; }
  uint8_t& parked(std::vector<uint8_t>& v, size_t i) { return v.empty() ? scratch_parked_ : v[i]; }
  void run_recv(SimTime t, OpId id);
  void run_probe(SimTime t, OpId id);
  // Completes the probes of rank r that match message m (just appended to its unexpected queue).
  void wake_probes(SimTime t, uint32_t msg_id);
  // The receive `recv` matches message m: MPI_ERR_TRUNCATE check, then recv becomes its status.
  void match(OpId recv, const Msg& m);
  void append_op(Queue& q, OpId id);
  void complete_rendezvous_sender(const Msg& m, SimTime t);
  // A matched envelope: the data starts moving at t towards the receive `recv`.
  void start_matched_data(SimTime t, uint32_t msg_id, OpId recv);
  // Unlinks the first message of r's unexpected queue matching `recv`; kNoOp if none.
  uint32_t take_unexpected(RankId r, const Op& recv);
  static bool matches(int32_t source, int32_t tag, uint32_t context, const Msg& m) {
    return context == m.context && (source == kAnySource || source == m.src) && (tag == kAnyTag || tag == m.tag);
  }
  static bool matches(const Op& recv, const Msg& m) { return matches(recv.peer, recv.tag, recv.context, m); }
  SimTime& cpu(RankId r, uint8_t c) { return nexto_[static_cast<size_t>(r) * ncpus_ + c]; }
  SimTime& nic_send(RankId r, uint8_t n) { return nextgs_[static_cast<size_t>(r) * nnics_ + n]; }
  SimTime& nic_recv(RankId r, uint8_t n) { return nextgr_[static_cast<size_t>(r) * nnics_ + n]; }
  std::string describe_rq(RankId r) const;
  std::string describe_uq(RankId r) const;
  // t + d; throws InputError when simulated time would overflow (a corrupt or absurd input).
  SimTime later(SimTime t, SimTime d, RankId rank) const;
  // The end of a CPU interval of rank `rank` that starts at t and needs d: later(t, d), or later
  // with d stretched by the OS noise. Every CPU busy time the executor charges passes here.
  // `collective`: the interval belongs to a collective (its op's or message's context is odd,
  // mpi/op.hpp), for noise on collectives only (noise/collectives).
  SimTime cpu_end(SimTime t, SimTime d, RankId rank, bool collective);
  noise::NoiseModel* noise_ = nullptr;
  // The delivery-order stream of a message: its (sender, receiver) rank pair.
  static uint64_t stream(RankId src, RankId dst) {
    return (uint64_t{static_cast<uint32_t>(src)} << 32) | static_cast<uint32_t>(dst);
  }

  Engine& engine_;
  Network& net_;
  ModelSelector* selector_ = nullptr;
  Network& net(uint8_t model) { return model == 0 ? net_ : selector_->network(model); }
  OpPool& ops_;
  Program& program_;
  std::vector<HostId> rank_host_;
  CallSites sites_;
  RegionTimes regions_;
  cpu::HostPower* host_power_ = nullptr;
  std::vector<uint32_t> task_;  // per rank: the task of its next computation (set_task)
  size_t ncpus_;
  size_t nnics_;
  std::vector<SimTime> nexto_, nextgs_, nextgr_;

  std::vector<Queue> rq_, uq_, pq_;  // posted receives, unexpected messages, waiting probes
  std::vector<Queue> calc_wait_;      // per (rank, cpu): calcs waiting for the CPU
  std::vector<Queue> send_wait_;      // per (rank, cpu, nic): sends waiting for CPU and NIC
  std::vector<Queue> waiting_;  // per receiver: arrived messages waiting for its CPU/NIC, FIFO
  cpu::HostCpus* cpus_ = nullptr;
  // Parked queue heads (only with cpus_): per (rank, cpu) calc queue, per (rank, cpu, nic) send
  // queue, per rank waiting deliveries; 1 = its head has no event and waits for computation_done.
  std::vector<uint8_t> parked_calc_, parked_send_, parked_wait_;
  uint8_t scratch_parked_ = 0;  // the flag of every queue when there is no cpus_ (never set)
  SlotPool<Msg> msgs_;
  uint64_t messages_ = 0;
  uint64_t bytes_ = 0;
  // Only with a sink: when each message's data started moving and the phase its send started in
  // (by message slot), and when each (rank, cpu)'s dynamic computation started.
  ActivitySink* sink_ = nullptr;
  std::vector<SimTime> msg_sent_;
  std::vector<uint32_t> msg_phase_;
  std::vector<SimTime> calc_begin_;
  void note_sent(uint32_t msg_id, SimTime t);
  void note_phase(uint32_t msg_id, uint32_t phase);
  void report_message(const Msg& m, uint32_t msg_id, SimTime arrived);
  OpHandler op_handler_;
  DeliveryHandler delivery_handler_;
};

}  // namespace simfab
