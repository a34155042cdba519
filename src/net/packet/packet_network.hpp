// PacketNetwork: the packet-level InfiniBand-style model, network/model=packet (seed 004 §2.7 and
// §6 tests 12-15; seed 000 ch. 7 for flow control's effects). It runs in simfab's event queue, as
// one more implementation of the Network contract (net/network.hpp): no coupling error.
//
// Elements. Every direction of a platform link that is a hop (platform/platform.hpp) is a channel
// (a half-duplex link crossed both ways is two, as a full-duplex cable is): an output port at its
// upstream node, a cable of latency lat and rate r (packet/link-rate, else the
// link's bandwidth), and an input buffer of packet/vl-buffer bytes per VL at its `to` node.
// Links internal to a node (limiters, backbones, loopbacks) are crossbars here: not modelled.
// A message follows the platform's route (topology routing; adaptive routings read each link's
// load, LinkLoad: the 64-B blocks of packets routed over it that have not yet crossed it, queued
// in its upstream buffers or not yet injected) as a source route of channels; nodes need no identity, since
// arbitration is per output channel and the "one packet at a time" rule per input channel.
//
// Packetisation (seed 004 §2.7 "gen"). A message of s bytes is ceil(s / (MTU - H)) packets (at
// least one), each of min(MTU, H + remaining) bytes; a packet of b bytes is ceil(b / F) flits
// and needs as many credits (F = packet/flit, one IBA credit = 64 B). The source HCA packetises
// lazily, one packet per arbitration win, round robin over its active messages (queue pairs).
//
// Timing of one packet hop (virtual cut-through with exact flit timing, one event per hop, not
// per flit). Let ser(x) = ceil(x / r) on the channel, h = min(b, F) its head flit and f_last its
// last flit's bytes. A packet chosen at time s on channel c:
//   output busy until      e = max(s + ser(b), T_tail + t_sw + ser(f_last))  (tail cannot overtake)
//   head ready downstream  s + lat + ser(h) + t_sw        (t_sw only when downstream is a switch)
//   tail arrives           T_tail' = e + lat
// where T_tail is the packet's tail arrival at the upstream node (inputs from the HCA: none).
// Closed form, one packet of b bytes over n hops of equal r and latencies lat_i, no contention:
//   head at the destination   d + sum_i lat_i + n ser(h) + (n-1) t_sw
//   tail at the destination   d + sum_i lat_i + (n-1) (ser(h) + t_sw) + ser(b)
// with d the send's departure (issued + o + (s-1)O).
//
// Availability profiles (platform/availability.hpp; SimGrid's bandwidth_file, latency_file): a
// link's two channels take the bandwidth (r) and latency in force, changed at each step of its
// profile while messages are in the network (one kProfile event per step; an idle network
// schedules none and catches up at its next transfer). A packet already being serialised keeps
// the rate it started with: the model follows the profile at packet granularity. With
// packet/link-rate set, only latency profiles apply.
//
// Credit-based flow control, per VL (IBA §7.9; seed 004 §2.7 ibuf/obuf). A packet may start on c
// only if c's downstream buffer for its VL has credits for the whole packet. The credits come back
// when the packet's tail leaves that buffer (at the next output's e, or when the sink has consumed
// it), after the reverse cable's latency (rounded up to a packet/credit-period multiple first).
// Invariant (checked after every event with packet/check-credits): for every channel and VL,
//   credits at the sender + blocks held in the buffer + blocks in returning credit updates
//   = packet/vl-buffer / F,
// so no packet is ever dropped. A switch forwards a packet of an input port only when its previous
// one has left (the "ibuf busy" rule); a buffered packet is eligible once its head flit is ready.
//
// Arbitration per output channel, when it is free: among the input lanes (input port, VL) whose
// head packet wants it, whose input port is free and which have credits downstream, CNPs first,
// then the VL by VlArbiter (packet/vls > 1), then round robin over input ports within the VL.
//
// Sink (seed 004 §2.7 "sink"). The destination HCA drains its input buffer at the PCIe rate, one
// packet at a time in arrival order: a packet whose head arrived at t_h (and whose tail arrives at
// T) is consumed at max(start + b x sink-rate, T + f_last x sink-rate) + sink-packet-overhead,
// start = max(t_h, the previous packet's end).
//
// Flit-exact mode (packet/flit-exact, for validation): the same hops computed flit by flit
// (flit_hop), O(flits) per hop instead of O(1); tests/packet checks both give identical results. Slow sinks hold credits and back-pressure the fabric. A message is
// delivered when its last packet is consumed, in issue order per stream (Network's contract).
//
// Congestion control (packet/cc): congestion_control.hpp. CNPs are one-packet messages of H
// bytes, sent back through the fabric.
//
// Deadlock. If the event queue drains with packets still in the fabric, stuck() finds the cycle of
// full buffers (each head waits for credits of the next channel of its route) and names its links.
//
// Carried bytes over time (NetworkStats::carried, net/link_bytes_timeline.hpp): each packet hop
// records its b bytes over its serialisation [s, e) on its port, e - s >= ceil(b x ps-per-byte):
// a port sends one packet at a time, so the bytes per bin never exceed the port's bandwidth
// (utilisation <= 100 %), and they sum to the port's bytes.
//
// Events: one per packet hop (head ready), one per output busy period, one per credit update batch
// and one per sink packet; all on EventKind::kNetwork, with no virtual call per flit.
// Memory: ~48 B per packet in flight, ~90 B per message in flight plus its route, and per link
// ~100 B + 24 B per VL.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "core/slot_pool.hpp"
#include "net/loggops/loggops_network.hpp"
#include "net/network.hpp"
#include "net/packet/congestion_control.hpp"
#include "net/packet/packet_params.hpp"
#include "net/packet/queue_timeline.hpp"
#include "net/packet/vl_arbiter.hpp"
#include "platform/platform.hpp"

namespace simfab::packet {

// A FIFO of small values over a vector (no per-queue allocation until used).
template <class T>
class Fifo {
 public:
  bool empty() const { return head_ == v_.size(); }
  size_t size() const { return v_.size() - head_; }
  const T& front() const { return v_[head_]; }
  T& at(size_t i) { return v_[head_ + i]; }
  void push(const T& x) { v_.push_back(x); }
  void pop() {
    if (++head_ == v_.size()) {
      v_.clear();
      head_ = 0;
    }
  }
  void erase(size_t i) { v_.erase(v_.begin() + static_cast<ptrdiff_t>(head_ + i)); }

 private:
  std::vector<T> v_;
  size_t head_ = 0;
};

class PacketNetwork final : public Network, private EventHandler, private LinkLoad {
 public:
  PacketNetwork(Engine& engine, const Platform& platform, PacketParams params, EventKinds kinds = {});

  const char* name() const override { return "packet"; }
  Protocol protocol(Bytes size) const override { return host_.protocol(size); }
  SimTime send_overhead(HostId s, HostId d, Bytes size) const override { return host_.send_overhead(s, d, size); }
  SimTime recv_overhead(HostId s, HostId d, Bytes size) const override { return host_.recv_overhead(s, d, size); }
  SimTime send_gap(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  SimTime recv_gap(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  void transfer(const NetMessage& m) override;
  NetworkStats statistics() const override;
  std::string stuck() const override;

  const PacketParams& params() const { return p_; }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  enum Ev : uint64_t { kStart = 0, kHead = 1, kOutFree = 2, kCredit = 3, kSink = 4, kWake = 5, kProfile = 6 };
  static constexpr int kEvShift = 52;

  struct Packet {
    uint32_t msg = 0;
    uint32_t next = kNone;  // FIFO link within a buffer lane
    uint16_t hop = 0;       // index in the route of the channel it is on (or about to take)
    uint16_t bytes = 0;
    uint16_t blocks = 0;
    uint8_t vl = 0;
    bool fecn = false;
    SimTime head_ready;  // head flit ready at the node after channel route[hop]
    SimTime tail_at;     // tail arrival at that node
  };
  struct Msg {
    NetMessage m;
    std::vector<LinkId> route;  // hop links (channels), source to destination
    Bytes left = 0;             // payload bytes not yet packetised
    uint32_t packets = 0;       // packets in all
    uint32_t consumed = 0;      // packets consumed by the sink
    uint64_t seq = 0;           // issue order within its stream
    uint8_t vl = 0;
    bool cnp = false;
  };
  struct CreditReturn {
    SimTime at;
    uint32_t lane;
    uint32_t blocks;
  };
  struct Chan {
    double ps_per_byte = 0;
    SimTime latency;
    bool out_busy = false;
    bool credit_event = false;
    bool stalled = false;
    uint32_t sending_input = 0;
    uint32_t sending_packet = 0;
    uint32_t rr = 0;
    uint32_t mark_counter = 0;
    ArbState arb;
    std::vector<uint32_t> requests;  // input lanes whose head packet wants this output
    Fifo<CreditReturn> returns;      // credit updates on their way back to this output
    // statistics
    uint64_t packets = 0;
    uint64_t bytes = 0;
    SimTime busy;
    SimTime stall;
    SimTime stall_since;
    uint64_t fecn = 0;
    uint64_t occ_bytes = 0;  // bytes in its downstream buffer (all VLs)
    uint64_t peak_occ = 0;
    double occ_integral = 0;  // byte-picoseconds
    SimTime occ_changed;
    QueueTimeline timeline;
  };
  struct Sink {
    Fifo<uint32_t> queue;  // packets whose head reached the host, in arrival order
    bool busy = false;
  };
  struct Stream {
    uint64_t issued = 0;
    uint64_t delivered = 0;
    std::vector<std::pair<uint64_t, uint64_t>> done;  // (seq, token) finished out of order
  };

  void handle(SimTime now, uint64_t index) override;
  double load(LinkId l) const override;

  void start(uint32_t msg, SimTime now);
  // Bandwidth and latency profiles: every profiled link's channels take the values in force at
  // `now`; arm_profiles schedules the next step of any of them (kProfile).
  void apply_profiles(SimTime now);
  void arm_profiles(SimTime now);
  void head_ready(uint32_t pkt, uint16_t hop, SimTime now);
  void output_free(LinkId c, SimTime now);
  void credit_update(LinkId c, SimTime now);
  void sink_done(HostId h, SimTime now);
  void arbitrate(LinkId o, SimTime now);
  void send(LinkId o, size_t request, int vl_choice_high, SimTime now);
  // The message an injector lane would packetise next at `now`, as its position in the queue, or
  // kNone when every one is throttled by congestion control (then *wake is the earliest time).
  uint32_t injectable(uint32_t lane, SimTime now, SimTime* wake);
  uint32_t make_packet(uint32_t msg_id);
  void free_buffer(LinkId c, uint32_t lane, uint32_t blocks, uint32_t bytes, SimTime now);
  void occupancy(LinkId c, int64_t delta_bytes, SimTime now);
  void enlist(uint32_t lane, LinkId out);
  void delist(uint32_t lane, LinkId out);
  void register_head(uint32_t lane, SimTime now);
  void sink_push(HostId h, uint32_t pkt, SimTime now);
  void sink_start(HostId h, SimTime now);
  void complete(uint32_t msg, SimTime now);
  void send_cnp(const Msg& data, SimTime now);
  uint32_t new_msg(const NetMessage& m, bool cnp);
  SimTime ser(const Chan& c, uint32_t bytes) const;
  SimTime sink_time(uint32_t bytes) const;
  SimTime flit_hop(const Chan& c, uint32_t pid, SimTime start, bool from_switch);
  void check_credits() const;
  void queue_series(NetworkStats& st, SimTime end) const;
  double nominal_bandwidth(size_t port) const;  // packet/link-ps-per-byte, else the link's
  // Channel c is direction c % 2 of platform link c / 2 (1: a half-duplex link crossed backwards).
  std::string link_name(LinkId c) const { return platform_.link(c / 2).name + (c % 2 ? " (reverse)" : ""); }
  uint32_t inputs() const { return static_cast<uint32_t>(chans_.size()); }
  bool is_injector(uint32_t input) const { return input >= inputs(); }
  LinkId out_of_input(uint32_t input) const { return static_cast<LinkId>(input % inputs()); }

  Engine& engine_;
  const Platform& platform_;
  PacketParams p_;
  LogGOPSNetwork host_;  // o, O, S (its L, g, G are unused)
  VlArbiter arbiter_;
  CongestionControl cc_;
  uint32_t nvl_;
  uint32_t cap_blocks_;
  uint32_t cc_threshold_blocks_;

  std::vector<Chan> chans_;  // two per platform link, 2l and 2l+1 (unused ones stay idle)
  // Per lane = input * nvl + vl. Inputs 0..L-1 are channel c's downstream buffer; inputs L..2L-1
  // are the injector of the HCA whose output is channel c (input L + c).
  std::vector<uint32_t> fifo_head_;  // channel lanes: buffered packets, oldest first
  std::vector<uint32_t> fifo_tail_;
  std::vector<uint8_t> enlisted_;
  std::vector<LinkId> wants_;        // the output a enlisted lane is waiting for
  std::vector<uint8_t> in_busy_;     // per input: a packet of it is being sent
  // Per output lane = channel * nvl + vl (the sender's view of channel c's downstream buffer).
  std::vector<int32_t> credits_;
  std::vector<uint32_t> held_;       // blocks in the buffer
  std::vector<uint32_t> draining_;   // blocks of the packet leaving the buffer (already off its FIFO)
  std::vector<uint32_t> returning_;  // blocks in credit updates on their way back
  std::vector<uint32_t> queued_for_;  // blocks waiting in the upstream switch for this output
  std::unordered_map<uint32_t, Fifo<uint32_t>> inject_;  // injector lane -> messages, round robin
  std::unordered_map<uint32_t, Fifo<uint32_t>> cnps_;    // injector lane -> CNPs, sent first
  std::vector<SimTime> wake_at_;  // per channel: pending congestion-control wake-up, or never
  std::vector<uint64_t> pending_;  // per channel: blocks routed over it not yet sent on it (load())

  std::vector<std::vector<SimTime>> flit_at_;  // packet/flit-exact: per packet, its flits' arrivals
  std::vector<Sink> sinks_;
  SlotPool<Packet> packets_;
  SlotPool<Msg> msgs_;
  std::unordered_map<uint64_t, Stream> streams_;  // looked up, never iterated
  std::vector<LinkId> route_buf_;
  uint64_t salt_ = 0;
  uint64_t live_msgs_ = 0;
  std::vector<LinkId> profiled_;  // links with a bandwidth or latency profile
  bool profile_armed_ = false;    // a kProfile event is pending
  uint64_t npackets_ = 0;
  uint64_t packet_hops_ = 0;
  LinkBytesTimeline carried_;  // per port (channel): bytes serialised per bin (one packet at a time)
};

}  // namespace simfab::packet
