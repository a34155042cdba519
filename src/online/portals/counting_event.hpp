// A Portals counting event (CT; Portals 4.1 spec §3.14, seed 000 §2.4 and §5.2): two counters,
// success and failure, that MEs/LEs (PTL_ME_EVENT_CT_COMM/_OVERFLOW) and MDs (PTL_MD_EVENT_CT_SEND/
// _REPLY/_ACK) increment by 1 per operation, or by its bytes with *_EVENT_CT_BYTES (failures
// always count 1):  success += bytes_mode ? mlength : 1.
//
// Time. The NIC writes a counter at a simulated time the host sees later (its event latency), and
// the program reads it at its own simulated time; so an update is kept with the time it becomes
// visible, and value(t) folds, in (time, order) order, the updates visible at t. PtlCTSet and
// PtlCTInc are updates at the caller's time (a set replaces what came before it). Updates that
// every reader has passed are folded into the base (prune), so the pending list stays short.
#pragma once

#include <simfab/portals4.h>

#include <cstdint>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab::online::portals {

class CountingEvent {
 public:
  void add(SimTime visible, uint64_t success, uint64_t failure) { push({visible, seq_++, false, {success, failure}}); }
  void set(SimTime at, ptl_ct_event_t value) { push({at, seq_++, true, value}); }
  // The value a reader at time t sees.
  ptl_ct_event_t value(SimTime t) const;
  // The earliest time after `t` at which the value changes (SimTime::never() if none pending).
  SimTime next_change(SimTime t) const;
  // Folds the updates visible at or before t (no reader will look earlier).
  void prune(SimTime t);

 private:
  struct Update {
    SimTime at;
    uint64_t seq = 0;
    bool is_set = false;
    ptl_ct_event_t v{0, 0};
  };
  void push(const Update& u);
  static void apply(ptl_ct_event_t& v, const Update& u);
  ptl_ct_event_t base_{0, 0};
  std::vector<Update> pending_;  // sorted by (at, seq)
  uint64_t seq_ = 0;
};

}  // namespace simfab::online::portals
