// FlowNetwork: the flow-level network model (seed 003 §IV; SimGrid's SMPI model family), a first
// version of issue 3 built on MaxMinSystem and PiecewiseLinear.
//
// A message of k bytes from host a to host b, sent at t:
//   1. the sender's CPU is busy for os(k) (`flow/os` table): the data leaves at t + os(k);
//   2. latency phase: lat_factor(k) * (sum of the route's link latencies);
//   3. sharing phase: a flow over the route's links (each link one shared max-min constraint)
//      whose rate is the max-min fair share, bounded by bw_factor(k) * (slowest link bandwidth)
//      when bw_factor(k) < 1; its rate changes whenever another flow starts or ends;
//   4. delivery when the last byte is through; the receiver's CPU is then busy for or(k).
// One flow alone therefore takes  latency * lat_factor + k / (bw * bw_factor)  (the closed form
// of the issue), two equal flows on one link each get half of it.
// Protocol: eager up to `flow/rendezvous-threshold` bytes, rendezvous above (as LogGOPS). No NIC
// gaps: bandwidth is shared in the network instead.
//
// Rate changes: every start/end re-solves the touched max-min component; each transfer whose rate
// changed is advanced to now at its old rate and gets a new completion event; the old event is
// recognised as stale by a per-transfer version number (the event queue has no cancellation).
// Cost: O(active flows) per start/end to find changed rates, plus the solve.
// NOT YET (issue 3): detached mode (S_a < k <= S_d), limiter links, TCP window bound, loopback
// link, per-link statistics, cross-traffic coefficients. Messages between ranks on one host are
// delivered after the latency phase only (no route, no sharing).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "net/flow/maxmin.hpp"
#include "net/flow/piecewise.hpp"
#include "net/network.hpp"
#include "platform/platform.hpp"

namespace simfab::flow {

class FlowNetwork final : public Network, private EventHandler {
 public:
  // Reads flow/* keys; throws InputError naming a key whose table is malformed.
  FlowNetwork(Engine& engine, const Platform& platform, const Config& cfg);

  const char* name() const override { return "flow"; }
  Protocol protocol(Bytes size) const override {
    return size <= rendezvous_threshold_ ? Protocol::kEager : Protocol::kRendezvous;
  }
  SimTime send_overhead(HostId, HostId, Bytes size) const override;
  SimTime recv_overhead(HostId, HostId, Bytes size) const override;
  SimTime send_gap(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  SimTime recv_gap(HostId, HostId, Bytes) const override { return SimTime::zero(); }
  void transfer(SimTime issued, HostId src, HostId dst, Bytes size, uint64_t token) override;

  size_t active_flows() const { return active_.size(); }

 private:
  struct Transfer {
    uint64_t token = 0;
    double remaining = 0;  // bytes still to move
    double rate = 0;       // bytes/s
    SimTime since;         // time `remaining` was last brought up to date
    FlowId flow{};
    uint32_t version = 0;  // bumped whenever a pending completion event becomes stale
    uint32_t active_pos = 0;
    std::vector<ConstraintId> route;
    double bound = 0;
  };
  // Event index: transfer id (32 bits) | phase (1 bit: 0 start of sharing, 1 completion) | version.
  void handle(SimTime now, uint64_t index) override;
  void start_sharing(SimTime now, uint32_t id);
  void complete(SimTime now, uint32_t id);
  void resolve(SimTime now);
  void schedule_completion(SimTime now, uint32_t id);
  ConstraintId constraint_of(LinkId l);

  Engine& engine_;
  const Platform& platform_;
  MaxMinSystem system_;
  std::map<LinkId, ConstraintId> link_constraint_;
  SlotPool<Transfer> transfers_;
  std::vector<uint32_t> active_;  // transfers in the sharing phase
  PiecewiseLinear os_, or_, lat_factor_, bw_factor_;
  Bytes rendezvous_threshold_;
};

void register_flow_keys(Config& cfg);

}  // namespace simfab::flow
