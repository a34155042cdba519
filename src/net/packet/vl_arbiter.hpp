// VlArbiter: InfiniBand virtual-lane arbitration at one output port (IBA vol. 1 §7.6.9; seed 004
// §2.7 "VL arbitrator", Figure 3.2.3).
//
// Two tables of (VL, weight) entries, weights in 64-byte units. The arbiter walks the current
// table from its current entry: an entry whose VL has a packet that may go (the caller's
// `eligible` mask: credits downstream, input port free) and weight left sends one packet, and
// the packet's 64-B blocks are taken from the weight (a packet may overdraw it: the IBA lets a
// packet start while any weight is left); an entry with no weight left, or whose VL has nothing
// eligible, passes the turn to the next entry, whose weight is restored.
//
// High before low, bounded by LimitOfHighPriority (high_limit, 4-KiB units): high-priority
// packets go while fewer than high_limit x 4096 bytes of them were sent since the last
// low-priority packet (always at least one packet; 255 = no limit). Once the limit is reached a
// low-priority packet goes if one is eligible, which restores the limit; if none is, high-priority
// traffic continues (the arbiter never idles a link that has an eligible packet).
// With one data VL and no tables, the caller skips the arbiter: round robin over input ports only
// (seed 004 §2.7).
//
// Complexity: O(table entries) per choice, O(1) memory per port (ArbState).
#pragma once

#include <cstdint>
#include <vector>

#include "net/packet/packet_params.hpp"

namespace simfab::packet {

struct ArbState {
  uint8_t high_at = 0;
  uint8_t low_at = 0;
  // Weight left of the current entry, in 64-B blocks (negative after an overdraw); kUnloaded
  // before the first choice.
  static constexpr int32_t kUnloaded = INT32_MIN;
  int32_t high_left = kUnloaded;
  int32_t low_left = kUnloaded;
  uint32_t high_bytes = 0;  // high-priority bytes since the last low-priority packet
};

struct ArbChoice {
  int vl = -1;  // -1: nothing may go
  bool high = false;
};

class VlArbiter {
 public:
  VlArbiter(const std::vector<VlArbEntry>& high, const std::vector<VlArbEntry>& low, int high_limit)
      : high_(high), low_(low), high_limit_(high_limit) {}

  // The VL to serve among those set in `eligible` (bit v: VL v).
  ArbChoice choose(ArbState& s, uint32_t eligible) const;
  // Charges a packet of `bytes` sent on `c` (the value choose() returned).
  void charge(ArbState& s, ArbChoice c, uint32_t bytes) const;

 private:
  static int pick(const std::vector<VlArbEntry>& t, uint8_t& at, int32_t& left, uint32_t eligible);
  bool high_allowed(const ArbState& s) const {
    return s.high_bytes == 0 || high_limit_ == 255 || s.high_bytes < static_cast<uint32_t>(high_limit_) * 4096u;
  }

  std::vector<VlArbEntry> high_;
  std::vector<VlArbEntry> low_;
  int high_limit_;
};

}  // namespace simfab::packet
