#include "net/packet/vl_arbiter.hpp"

namespace simfab::packet {

// Walks at most one full turn of the table from the current entry (plus the current one again,
// whose weight is restored when the turn comes back to it).
// A walk that finds nothing leaves the table's turn where it was (the current entry keeps its
// weight for when its VL has a packet again).
int VlArbiter::pick(const std::vector<VlArbEntry>& t, uint8_t& at, int32_t& left, uint32_t eligible) {
  if (t.empty()) return -1;
  if (left == ArbState::kUnloaded) left = t[at].weight;
  const uint8_t at0 = at;
  const int32_t left0 = left;
  for (size_t step = 0; step <= t.size(); ++step) {
    const VlArbEntry& e = t[at];
    if (left > 0 && (eligible >> e.vl & 1u)) return e.vl;
    at = static_cast<uint8_t>((at + 1) % t.size());
    left = t[at].weight;
  }
  at = at0;
  left = left0;
  return -1;
}

ArbChoice VlArbiter::choose(ArbState& s, uint32_t eligible) const {
  if (eligible == 0) return {};
  if (high_allowed(s))
    if (const int v = pick(high_, s.high_at, s.high_left, eligible); v >= 0) return {v, true};
  if (const int v = pick(low_, s.low_at, s.low_left, eligible); v >= 0) return {v, false};
  if (const int v = pick(high_, s.high_at, s.high_left, eligible); v >= 0) return {v, true};
  return {};
}

void VlArbiter::charge(ArbState& s, ArbChoice c, uint32_t bytes) const {
  const int32_t blocks = static_cast<int32_t>((bytes + 63) / 64);
  if (c.high) {
    s.high_left -= blocks;
    s.high_bytes += bytes;
  } else {
    s.low_left -= blocks;
    s.high_bytes = 0;
  }
}

}  // namespace simfab::packet
