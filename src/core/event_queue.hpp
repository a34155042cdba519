// EventQueue: the future event set, a 4-ary min-heap over a flat vector of 24-byte PODs.
//
// Order: events pop in strictly increasing (time, priority, sequence). The sequence number is a
// 64-bit counter stamped at push, so ties are broken by insertion order, never by address: the
// same inputs give the same order on every machine (ARCHITECTURE.md, "Decisions"). Priority and
// sequence share one 64-bit key: priority in the top 8 bits, sequence in the low 56 (7.2e16
// pushes before wrap, checked).
//
// Payloads are not stored here: an event is (time, key, payload word), and the payload word is an
// index into a pool owned by whoever scheduled it (a message, an operation). "Per event 0 bytes"
// beyond the entry itself, as ns-3's HeapScheduler.
//
// Complexity: push O(log4 n), pop O(4 log4 n); memory 24 B per pending event. A 4-ary heap halves
// the depth of a binary heap and keeps the four children in one or two cache lines.
// Thread-safety: none; the kernel is single-threaded.
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/sim_time.hpp"

namespace simfab {

struct Event {
  SimTime time;
  uint64_t key;      // priority << 56 | sequence
  uint64_t payload;  // owner-defined; see Engine for the (kind, index) packing
};

class EventQueue {
 public:
  static constexpr uint64_t kSeqBits = 56;

  void push(SimTime time, uint8_t priority, uint64_t payload) {
    SIMFAB_CHECK(seq_ < (uint64_t{1} << kSeqBits), "event sequence counter exhausted");
    heap_.push_back(Event{time, (uint64_t{priority} << kSeqBits) | seq_++, payload});
    sift_up(heap_.size() - 1);
  }

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }

  // REQUIRES: !empty().
  Event pop() {
    Event out = heap_.front();
    Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(last);
    return out;
  }

  void reserve(size_t n) { heap_.reserve(n); }

 private:
  static bool before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.key < b.key);
  }
  void sift_up(size_t i) {
    Event e = heap_[i];
    while (i > 0) {
      size_t parent = (i - 1) / 4;
      if (!before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }
  // Places `e` (the former last element) starting from the root.
  void sift_down(Event e) {
    size_t i = 0;
    const size_t n = heap_.size();
    for (;;) {
      size_t first = 4 * i + 1;
      if (first >= n) break;
      size_t best = first;
      size_t end = first + 4 < n ? first + 4 : n;
      for (size_t c = first + 1; c < end; ++c)
        if (before(heap_[c], heap_[best])) best = c;
      if (!before(heap_[best], e)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
  uint64_t seq_ = 0;
};

}  // namespace simfab
