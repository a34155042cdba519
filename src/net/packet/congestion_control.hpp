// CongestionControl: InfiniBand congestion control (IBA vol. 1 Annex A10; seed 004 §2.7 "ccmgr")
// at the sources, as a table of per-flow injection delays.
//
//   switch     an output VL whose queue (bytes waiting for it in the switch's input buffers) is
//              above the threshold is congested; packets it forwards get FECN, one in every
//              Marking_Rate + 1 (a deterministic counter per output, where the IBA allows a
//              random choice: runs stay reproducible);
//   receiver   a data packet consumed with FECN makes the receiving HCA send a congestion
//              notification packet (CNP, BECN set) back to the source, ahead of its other traffic;
//   source     a BECN raises the flow's CCT index (CCTI) by CCTI_Increase, up to the table's end;
//              every packet of the flow is then followed by an injection delay CCT[CCTI]
//              (= CCTI x cct-step here); the CCTI_Timer lowers CCTI by one per period.
// A flow is a (source host, destination host) pair, the queue pair of the IBA's QP-level CC.
//
// The timer is applied lazily: a flow remembers when it was last updated and loses
// floor(now / T) - floor(then / T) index steps when next read, which is what a free-running
// timer of period T would have done, with no timer events (complexity O(1) per packet; memory
// one map entry per flow that sent a packet while CC was on).
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "core/sim_time.hpp"
#include "net/packet/packet_params.hpp"

namespace simfab::packet {

struct CcFlow {
  int32_t ccti = 0;
  SimTime updated;
  SimTime next_allowed;  // the flow's next packet may not start before this
};

class CongestionControl {
 public:
  explicit CongestionControl(const PacketParams& p) : p_(p) {}

  // The flow's state, created at CCTI 0 when first asked for.
  CcFlow& flow(HostId src, HostId dst) {
    return flows_[static_cast<uint64_t>(static_cast<uint32_t>(src)) << 32 | static_cast<uint32_t>(dst)];
  }
  // The injection delay after a packet of `f` sent at `now`.
  SimTime delay(CcFlow& f, SimTime now) {
    decay(f, now);
    return SimTime::ps(f.ccti * p_.cc_cct_step.ps());
  }
  void becn(CcFlow& f, SimTime now) {
    decay(f, now);
    f.ccti = std::min(f.ccti + p_.cc_increase, p_.cc_cct_size - 1);
    ++becns_;
  }
  // Whether the next packet through an output whose counter is `counter` gets FECN (Marking_Rate).
  bool mark(uint32_t& counter) {
    if (counter >= static_cast<uint32_t>(p_.cc_marking_rate)) {
      counter = 0;
      ++fecns_;
      return true;
    }
    ++counter;
    return false;
  }
  uint64_t fecns() const { return fecns_; }
  uint64_t becns() const { return becns_; }
  size_t flows() const { return flows_.size(); }

 private:
  void decay(CcFlow& f, SimTime now) {
    const int64_t t = p_.cc_timer.ps();
    const int64_t ticks = now.ps() / t - f.updated.ps() / t;
    f.ccti = static_cast<int32_t>(std::max<int64_t>(0, f.ccti - ticks));
    f.updated = now;
  }

  const PacketParams& p_;
  std::unordered_map<uint64_t, CcFlow> flows_;  // looked up, never iterated: order cannot leak
  uint64_t fecns_ = 0;
  uint64_t becns_ = 0;
};

}  // namespace simfab::packet
