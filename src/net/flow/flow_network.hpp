// FlowNetwork: the flow-level network models (seed 003 §IV, "hybrid" model; SimGrid's SMPI model
// family), built on MaxMinSystem and PiecewiseLinear: network/model=flow, and network/model=smpi
// (SimGrid 3.32's SMPI model). What differs between the two is in FlowParams (flow_params.hpp:
// penalty weights, cross traffic, the 16-byte envelope, factors scaling progress, loopback,
// SimGrid's thresholds); this header describes the flow model's values.
//
// A message of k bytes from host a to host b whose send overhead ends at t_d:
//   1. latency phase: lat_factor(k) * (sum of the route's link latencies);
//   2. sharing phase: a flow over the route's links, each link one max-min constraint (a shared
//      link is shared by its flows, a fatpipe link only caps each flow, a split-duplex link is
//      two shared links, one per direction: platform/platform.hpp). The flow's rate is its
//      max-min fair share, bounded by
//        bw_factor(k) * (slowest link bandwidth)            when bw_factor(k) < 1, and by
//        tcp_gamma / (2 * sum of the route's latencies)     when flow/tcp-gamma > 0 (TCP window)
//      and changes whenever another flow starts or ends;
//   3. delivery when the last byte is through, in issue order per stream (below); the
//      receiver's CPU is then busy for or(k).
// One flow alone therefore takes  lat * lat_factor(k) + k / (bw * bw_factor(k))  (the closed form
// of the issue); two equal flows on one shared link each get half of it. Seed 003's limiter
// links make two opposite 4 MiB flows between two hosts with limiter factor 1.5 each get 0.75 B:
// 4 MiB / (0.75 * 125 MB/s) = 44.74 ms instead of 33.55 ms one way.
//
// Protocols by size (seed 003 §IV-A; S_a = flow/async-threshold, S_d = flow/detached-threshold):
//   k <= S_a          asynchronous (eager): the data leaves at t_d, the send completes at t_d.
//   S_a < k <= S_d    detached: the send completes at t_d; the data leaves when the receive is
//                     matched (its envelope, control(), reaches the receiver at t_d).
//   k > S_d           synchronous (rendezvous): as detached, but the send completes when the data
//                     has arrived.
// Overheads: os(k) for blocking sends, ois(k) for non-blocking ones (MPI_Isend), or(k) at the
// receiver, all piecewise-linear tables (flow/os, flow/ois, flow/or). No NIC gaps: bandwidth is
// shared in the network instead.
//
// Order: transfers and envelopes of one stream (a rank pair) are delivered in the order they were
// issued (a TCP connection): one that finishes early waits for its predecessors (Network's
// contract; it keeps MPI's non-overtaking rule when a small message follows a large one).
// Messages from a host to itself use its loopback link when the platform gives one, else they
// are delivered after the sender's overhead (no route, no sharing).
//
// Rate changes: flow starts and ends only mark the max-min system; one solve event per simulated
// instant (lowest priority, after every other event of that instant) re-solves what they touched
// (MaxMinSystem recomputes the saturated closure of the changes). Each recomputed transfer whose
// rate changed is advanced to now at its old rate and its due time moves in an IndexedHeap of
// completion times (core/indexed_heap.hpp); the model keeps one engine wake-up at the earliest
// due time, so moved due times leave no stale events behind (a wake-up superseded by an earlier
// one is recognised by its time and ignored).
// Cost per start/end: O(route + log flows) plus the solve of the closure; no scan of all flows.
//
// Availability profiles (platform/availability.hpp; SimGrid's bandwidth_file / latency_file): a
// message takes each link's latency and bandwidth in force when it departs (its latency phase,
// the smpi penalty weight and its rate bound, as SimGrid fixes them when the communication
// starts), and a link's capacity in the max-min system follows its bandwidth profile: while a
// flow crosses the link, an event at each change of the profile sets the new capacity and
// re-solves; an idle link is brought up to date when a flow next starts on it, so a periodic
// profile does not keep the run alive. Checked against SimGrid 3.32 (tests/unit and
// validation/simgrid: 10 MB over a 10 MBps link that drops to 5 MBps at 0.5 s and rises to
// 20 MBps at 1.5 s ends at 1.610777 s in both).
// Link failures (state profiles, value <= 0 = off; flow_availability.cpp). A message whose route
// crosses a link that is off when it departs takes a route that avoids every link off then, if
// the platform has one (SimGrid Floyd and Dijkstra zones: the shortest path over the declared
// routes that avoid them, RouteRequest::avoid); a message on its way over a link when it turns
// off is rerouted the same way: in its latency phase it keeps its start time, in its sharing
// phase the bytes not yet through leave the old links and, after the new route's latency, share
// the new route's (no bytes are lost or sent twice: a transport's retransmission is not modelled).
// With no such route (any other topology, or no way around), the message fails: a
// PlatformFailure (sim/host_failures.hpp) ends the run, as MPI aborts a job whose communication
// fails (SimGrid 3.32 fails it in every case). One event per link with a state profile while
// transfers are routed over it, at its next off time; the event scans the transfers in flight
// (O(transfers), once per failure). Statistics count the rerouted messages.
//
// Statistics (statistics()): per used link, the bytes that crossed it, its busy time (at least
// one flow in the sharing phase), its peak number of concurrent flows; per model, flows, peak
// concurrent flows, solves and recomputed flows.
// Carried bytes over time (NetworkStats::carried, net/link_bytes_timeline.hpp): a flow's rate is
// constant between two solves that change it, so each constant-rate segment [since, now) is
// recorded when it closes (a rate change, or completion) as the bytes it moved,
//     remaining(since) - remaining(now)      (at completion: all that remained),
// on every link of the flow's route (not the reverse route's links, which only carry cross
// traffic's share). A flow's segments thus sum to its bytes (payload plus envelope), exactly as
// LinkUsage::bytes counts them: the bytes actually moved, with no uniform spread over the message's
// life. A split-duplex link is two links, one per direction, each with its own series.
// What utilisation (carried / (bandwidth x bin)) means:
//   shared link   <= 100 %, up to the rounding of completion times to the picosecond (a flow
//                 moves its last bytes up to 0.5 ps early: at most 0.5 ps / bin width per flow
//                 ending in the bin; measured 1.9e-8 over 100 % on a 64-rank all-to-all with 8.4 us
//                 bins, none in the two-flow case): the max-min constraint holds at
//                 every instant, and cross traffic and a second crossing of the same link take
//                 capacity but are not drawn.
//                 Exception: smpi's rate is the max-min share x bw_factor(k), and SimGrid's
//                 default table has 1.08739 for 5776 B <= k < 9376 B: those flows move more bytes
//                 than their share, and a bin can reach 108.7 %, as they did in the model.
//   fatpipe link  the bandwidth caps each flow, not their sum (SimGrid's FATPIPE: a backbone
//                 modelled as never congested), so n flows at full rate draw n x 100 %: the series
//                 is still bytes carried, in units of one flow's cap; the report marks such links.
// Cost: O(route) per closed segment (the flows whose rate a solve changed), plus the bins crossed.
// Memory: about 600 B per message in flight, all layers included (measured: a 256-rank isend
// all-to-all, 65,280 messages at once, peaks at 48 MiB against 10 MiB under LogGOPS, which sends
// them one by one), most of it the Transfer's and the max-min flow's route vectors and the stream
// queue's hash entry; plus 4 B per platform link and ~64 B per link that carried traffic. Engine
// events: O(1) per message plus at most one wake-up per solve.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "core/indexed_heap.hpp"
#include "net/flow/flow_params.hpp"
#include "net/flow/maxmin.hpp"
#include "net/flow/piecewise.hpp"
#include "net/network.hpp"
#include "platform/platform.hpp"

namespace simfab::flow {

// Adaptive routing (topo/topology.hpp, e.g. dragonfly UGAL) sees each link's load as the number
// of transfers routed over it that have not finished crossing it (in their latency phase or
// sharing it): the analogue of a router's queue occupancy, which, unlike the active flow count,
// also sees messages sent at the same instant. Each transfer's route request carries the
// transfer's sequence number as salt, so a randomised routing (Valiant) draws per message.
class FlowNetwork final : public Network, private EventHandler, private LinkLoad, private LinkFilter {
 public:
  FlowNetwork(Engine& engine, const Platform& platform, FlowParams params, EventKinds kinds = {});
  // network/model=flow from the flow/* keys; throws InputError naming a malformed key.
  FlowNetwork(Engine& engine, const Platform& platform, const Config& cfg)
      : FlowNetwork(engine, platform, flow_params(cfg)) {}

  const char* name() const override { return p_.model; }
  Protocol protocol(Bytes size) const override {
    if (size < p_.eager_below) return Protocol::kEager;
    return size < p_.detached_below ? Protocol::kDetached : Protocol::kSynchronous;
  }
  SimTime send_overhead(HostId, HostId, Bytes size) const override;
  SimTime isend_overhead(HostId, HostId, Bytes size) const override;
  SimTime recv_overhead(HostId, HostId, Bytes size) const override;
  SimTime send_gap(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  SimTime recv_gap(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  void transfer(const NetMessage& m) override;
  void control(const NetMessage& m) override;
  NetworkStats statistics() const override;

  size_t active_flows() const { return system_.num_flows(); }

 private:
  // Where a transfer slot is in its life (link_off finds the transfers on a link by this).
  enum class Stage : uint8_t { kFree, kLatency, kSharing, kArrived };
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Transfer {
    uint64_t token = 0;
    double payload = 0;    // bytes: the message and its envelope
    double remaining = 0;  // bytes still to move
    double rate = 0;       // bytes/s: the max-min share times `factor`
    double bound = 0;      // on the max-min share; 0 = none
    double weight = 1;     // max-min weight (smpi: 1 / penalty)
    double factor = 1;     // bytes moved per unit of max-min share (smpi: bw_factor)
    SimTime since;         // time `remaining` was last brought up to date
    SimTime started;       // start of the sharing phase
    uint64_t stream = 0;   // NetMessage::stream
    FlowId flow{};
    uint32_t next_in_pair = 0;
    bool arrived = false;  // done, waiting for an earlier transfer of its pair
    bool ordered = true;   // in its stream's delivery order
    bool rerouted = false;  // back in its latency phase on a new route (link_off)
    Stage stage = Stage::kFree;
    HostId src = 0, dst = 0;    uint32_t forward = 0;  // route[0, forward) is the route; the rest the reverse route's links
    std::vector<ConstraintId> route;
    std::vector<double> usage;  // per route entry; empty = all 1
  };
  struct PairQueue {
    uint32_t head = 0;
    uint32_t tail = 0;
  };
  struct LinkState {  // one per constraint, i.e. per link that carried traffic
    LinkId link = -1;
    uint32_t active = 0;
    uint32_t routed = 0;  // transfers routed over it, not yet completed (the LinkLoad)
    uint32_t peak = 0;
    uint64_t flows = 0;
    double bytes = 0;
    SimTime since;  // start of the current busy period
    SimTime busy;
    SimTime profile_event = SimTime::never();  // the pending bandwidth-profile event, if any
    SimTime off_event = SimTime::never();      // the pending state-profile (link off) event, if any
  };
  enum class Phase : uint8_t { kStart = 0, kWake = 1, kArrive = 2, kSolve = 3, kProfile = 4, kLinkOff = 5 };

  void handle(SimTime now, uint64_t index) override;
  uint32_t enqueue(uint64_t stream, uint64_t token, bool ordered);
  void use(Transfer& t, ConstraintId c, double amount);
  void add_reverse_route(Transfer& t, SimTime at);
  double take_route(Transfer& t, SimTime at);
  static SimTime seconds(double s);  // never() beyond ~106 days
  ConstraintId loopback_constraint();
  void start_sharing(SimTime now, uint32_t id);
  void complete(SimTime now, uint32_t id);
  void arrive(SimTime now, uint32_t id);
  void request_solve(SimTime now);
  void solve(SimTime now);
  void wake(SimTime now);
  void schedule_completion(SimTime now, uint32_t id);
  // Transfer t moved `bytes` at a constant rate over [t.since, now): into carried_ per route link.
  void record_segment(const Transfer& t, double bytes, SimTime now);
  void ensure_wakeup();
  void schedule(SimTime t, Phase phase, uint32_t id, uint8_t priority = 0);
  ConstraintId constraint_of(LinkId l);
  // Bandwidth profiles: constraint c's capacity from now on, and its next change while busy.
  void refresh_capacity(SimTime now, ConstraintId c);
  void profile_change(SimTime now, ConstraintId c);
  // State profiles (flow_availability.cpp). off_at: link l is off at t. arm_off_event: l's next
  // off time at or after `at` gets an event (one per link: the earliest). try_route_around: makes
  // route_scratch_ (src -> dst) avoid the links off at `at`, if the platform has such a route
  // (*moved: it had to);
  // route_around_off_links does it for a departing message or fails the run. link_off reroutes
  // the transfers routed over c, or fails the run.
  bool off_at(LinkId l, SimTime t) const;
  void arm_off_event(LinkId l, ConstraintId c, SimTime at);
  bool try_route_around(HostId src, HostId dst, SimTime at, bool* moved = nullptr);
  void route_around_off_links(HostId src, HostId dst, SimTime departs);
  void link_off(SimTime now, ConstraintId c);
  void reroute(SimTime now, uint32_t id, ConstraintId c);
  bool avoid(LinkId l) const override { return off_at(l, avoid_at_); }
  void find_route(HostId src, HostId dst);
  double load(LinkId l) const override;

  Engine& engine_;
  const Platform& platform_;
  MaxMinSystem system_;
  std::vector<ConstraintId> link_constraint_;  // per platform link; kNoConstraint until used
  std::vector<LinkState> link_state_;          // per constraint
  uint64_t routed_ = 0;                        // transfers routed so far: the next route's salt
  SlotPool<Transfer> transfers_;
  std::vector<uint32_t> flow_owner_;           // per FlowId: its transfer
  std::vector<LinkId> route_scratch_;
  std::unordered_map<uint64_t, PairQueue> pairs_;  // per stream with transfers in flight
  IndexedHeap completions_;                        // due time per transfer in the sharing phase
  SimTime wakeup_ = SimTime::never();              // the engine wake-up that is current
  FlowParams p_;
  ConstraintId loopback_;  // the model's loopback (smpi), made on first use
  bool solve_pending_ = false;
  const bool bandwidth_profiles_;  // some link has one: flow starts refresh their capacities
  const bool state_profiles_;      // some link has one: routes avoid links that are off
  SimTime avoid_at_;               // the time avoid() asks about
  uint64_t reroutes_ = 0;
  uint64_t flows_ = 0, solves_ = 0, recomputed_ = 0;
  double flow_seconds_ = 0;
  uint32_t peak_flows_ = 0;
  LinkBytesTimeline carried_;  // per platform link, keyed by LinkId
};

void register_flow_keys(Config& cfg);

}  // namespace simfab::flow
