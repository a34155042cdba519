// Engine: the discrete-event kernel. It owns the clock and the event queue and dispatches each
// event to the handler registered for its kind.
//
// An event's payload word packs (kind, index): kind in the top 8 bits selects the handler (the
// executor's operation and delivery events, a network model's internal events, ...), the low 56
// bits are an index into that handler's own pool. Handlers are registered once, before run();
// dispatch is one indirect call per event (virtual dispatch at message granularity, never per
// byte or hop: style guide rule 13).
//
// Invariant: the clock never goes backwards; scheduling in the past is a bug (SIMFAB_CHECK).
// Actors (replayed ranks) are state machines driven by these events; no fibers are needed for
// replay, so a million ranks cost a million small structs, not a million stacks.
#pragma once

#include <array>
#include <cstdint>

#include "core/event_queue.hpp"

namespace simfab {

enum class EventKind : uint8_t {
  kOpReady = 0,   // an operation whose dependencies are met tries to start (mpi/executor)
  kDelivery = 1,  // the last byte of a message reached its destination (mpi/executor)
  kNetwork = 2,   // a network model's internal event (net/*)
  kFrontEnd = 3,  // a front-end's own event (online mode: a rank's fiber resumes)
  kCpu = 4,       // a computation on a shared or DVFS host ends (cpu/host_cpus)
  kGovernor = 5,  // a DVFS governor samples its hosts (energy/governor)
  kNic = 6,           // the NIC model's own events (nic/)
  kWire = 7,          // the internal events of the network model under the NIC (its wire)
  kWireDelivery = 8,  // the wire model's deliveries, to the NIC
  kPcie = 9,          // the internal events of the NIC's PCIe model (a flow model of its own)
  kPcieDelivery = 10, // PCIe transfers that ended, to the NIC
  kModel1 = 11,       // the own events of the 2nd to 8th network models of a run that switches
  kModel7 = 17,       //   models (sim/model_switch.hpp): kModel1 + i - 1 for model i
  kFailure = 18,      // a host with a state profile turns off (sim/host_failures)
  kCount = 19,
};

class EventHandler {
 public:
  virtual ~EventHandler() = default;
  virtual void handle(SimTime now, uint64_t index) = 0;
};

class Engine {
 public:
  static constexpr uint64_t kIndexMask = (uint64_t{1} << 56) - 1;

  void set_handler(EventKind kind, EventHandler* h) { handlers_[static_cast<size_t>(kind)] = h; }

  // REQUIRES: time >= now(); index < 2^56.
  void schedule(SimTime time, EventKind kind, uint64_t index, uint8_t priority = 0) {
    SIMFAB_CHECK(time >= now_, "event scheduled in the past");
    queue_.push(time, priority, (uint64_t{static_cast<uint8_t>(kind)} << 56) | index);
  }

  // Watches a long run (progress output): poll() is called every `every` events, with the clock
  // and the events processed so far. It must not schedule events.
  class Monitor {
   public:
    virtual ~Monitor() = default;
    virtual void poll(SimTime now, uint64_t events) = 0;
  };

  // Processes events until none is left. Returns the number processed by this call.
  uint64_t run() {
    const uint64_t start = events_;
    while (!queue_.empty()) {
      Event e = queue_.pop();
      now_ = e.time;
      ++events_;
      handlers_[e.payload >> 56]->handle(e.time, e.payload & kIndexMask);
    }
    return events_ - start;
  }
  // run(), polling `monitor` every `every` events (a power of two); the loop without a monitor
  // stays the one above, so a run that shows no progress pays nothing for it.
  uint64_t run(Monitor& monitor, uint64_t every = uint64_t{1} << 16) {
    const uint64_t start = events_;
    const uint64_t mask = every - 1;
    while (!queue_.empty()) {
      Event e = queue_.pop();
      now_ = e.time;
      ++events_;
      handlers_[e.payload >> 56]->handle(e.time, e.payload & kIndexMask);
      if (((events_ - start) & mask) == 0) monitor.poll(now_, events_);
    }
    return events_ - start;
  }

  SimTime now() const { return now_; }
  // When the next event happens; never() when none is pending.
  SimTime next_time() const { return queue_.empty() ? SimTime::never() : queue_.next_time(); }
  uint64_t events_processed() const { return events_; }  // so far, the one running included
  size_t pending() const { return queue_.size(); }

 private:
  EventQueue queue_;
  std::array<EventHandler*, static_cast<size_t>(EventKind::kCount)> handlers_{};
  SimTime now_ = SimTime::zero();
  uint64_t events_ = 0;
};

}  // namespace simfab
