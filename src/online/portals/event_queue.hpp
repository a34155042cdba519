// A Portals event queue (EQ; Portals 4.1 spec §3.13, seed 000 §2.4): the full events (type,
// initiator, lengths, offsets, match bits, user pointer, fail type, ...) that PTs and MDs attached
// to it record, consumed in order by PtlEQGet / PtlEQWait / PtlEQPoll.
//
// Time. Each event carries the simulated time at which the host sees it (the NIC's write plus
// its latency); a reader at time t only gets events visible at t, in visibility order (ties in
// posting order). Capacity: the `count` of PtlEQAlloc. The spec's EQ is circular: when it is full
// the oldest event is overwritten, and the next event read reports PTL_EQ_DROPPED.
#pragma once

#include <simfab/portals4.h>

#include <cstdint>
#include <deque>

#include "core/sim_time.hpp"

namespace simfab::online::portals {

class EventQueue {
 public:
  explicit EventQueue(uint64_t capacity = 1) : capacity_(capacity < 1 ? 1 : capacity) {}

  void push(SimTime visible, const ptl_event_t& e);
  // The first event visible at t, removed: PTL_OK, PTL_EQ_DROPPED (an older one was lost), or
  // PTL_EQ_EMPTY (nothing visible at t; *out untouched).
  int pop(SimTime t, ptl_event_t* out);
  bool has_visible(SimTime t) const { return !events_.empty() && events_.front().visible <= t; }
  // When the first pending event becomes visible (SimTime::never() when empty).
  SimTime next_visible() const { return events_.empty() ? SimTime::never() : events_.front().visible; }
  size_t size() const { return events_.size(); }

 private:
  struct Timed {
    SimTime visible;
    uint64_t seq = 0;
    ptl_event_t event;
  };
  uint64_t capacity_;
  uint64_t seq_ = 0;
  bool dropped_ = false;
  std::deque<Timed> events_;  // sorted by (visible, seq)
};

}  // namespace simfab::online::portals
