// EventQueue: the future event set. Events pop in strictly increasing (time, priority, sequence).
//
// Order: the sequence number is a 64-bit counter stamped at push, so ties are broken by insertion
// order, never by address: the same inputs give the same order on every machine
// (ARCHITECTURE.md, "Decisions"). Priority and sequence share one 64-bit key: priority in the top
// 8 bits, sequence in the low 56 (7.2e16 pushes before wrap, checked).
//
// Structure: a radix heap on the time (Ahuja, Mehlhorn, Orlin, Tarjan 1990), which a discrete-event
// simulation may use because its clock never goes back: every push is at or after the time of the
// last pop, `last_` (checked). Bucket 0 holds the events at time last_; bucket i >= 1 the events
// whose time first differs from last_ at bit i - 1 (i = 64 - clz(time ^ last_)), unordered. A push
// is O(1): one bit scan, an append and a minimum (each bucket keeps its least time, so next_time()
// is O(1) and moves nothing). When bucket 0 runs dry, the lowest non-empty bucket's least time
// becomes last_, and its events move to lower buckets: an
// event only ever moves down, so each costs O(64) moves over its life, in practice 1-3, all on
// contiguous vectors (issue 29: the 4-ary heap this replaces spent its time in cache misses once
// a million events were pending, and 20-25 % of a packet-model run in pop).
// Bucket 0 keeps (time, priority, sequence) order with a FIFO of keys in increasing order (the
// events that moved in, sorted once, then later pushes at that time with a larger key: the common
// case, a million ranks entering a collective at one instant) and a small binary heap for the
// rest (a lower priority pushed after a higher one at the same time); pop takes the smaller head.
// So the pop order is exactly that of one heap over every event (tests/unit/kernel_test.cpp
// checks it against the previous implementation on random workloads).
//
// Payloads are not stored here: an event is (time, key, payload word), and the payload word is an
// index into a pool owned by whoever scheduled it.
//
// Complexity: push O(1); pop O(1) amortised plus the moves above (each event at most 64, and a
// sort of each group of same-time events when it reaches bucket 0). Memory: 24 B per event.
// Thread-safety: none (single-threaded).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
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
    const uint64_t t = static_cast<uint64_t>(time.ps());
    SIMFAB_CHECK(time >= SimTime::zero() && t >= last_, "event pushed before the last popped time");
    const uint64_t key = (uint64_t{priority} << kSeqBits) | seq_++;
    ++size_;
    if (t == last_) {
      push_now(Event{time, key, payload});
      return;
    }
    add(Event{time, key, payload}, t);
  }

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // The time of the next pop. REQUIRES: !empty(). It moves nothing: a caller may still push at
  // the current time afterwards.
  SimTime next_time() const {
    if (!now_empty()) return SimTime::ps(static_cast<int64_t>(last_));
    return SimTime::ps(static_cast<int64_t>(least_[static_cast<size_t>(std::countr_zero(nonempty_)) + 1]));
  }

  // REQUIRES: !empty().
  Event pop() {
    if (now_empty()) refill();
    --size_;
    const bool from_fifo = fifo_head_ < fifo_.size() && (heap_.empty() || fifo_[fifo_head_].key < heap_.front().key);
    Event e;
    if (from_fifo) {
      e = fifo_[fifo_head_++];
      if (fifo_head_ == fifo_.size()) {
        fifo_.clear();
        fifo_head_ = 0;
        if (fifo_.capacity() > kKeepCapacity) fifo_.shrink_to_fit();
      }
    } else {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      e = heap_.back();
      heap_.pop_back();
    }
    return e;
  }

 private:
  // Buckets larger than this give their memory back once drained instead of keeping it.
  static constexpr size_t kKeepCapacity = size_t{1} << 16;

  static bool later(const Event& a, const Event& b) { return a.key > b.key; }  // min-heap order
  static bool key_less(const Event& a, const Event& b) { return a.key < b.key; }
  static std::array<uint64_t, 65> filled(uint64_t v) {
    std::array<uint64_t, 65> a;
    a.fill(v);
    return a;
  }

  // 1..64: the bucket of a time after last_.
  int bucket_of(uint64_t t) const { return 64 - std::countl_zero(t ^ last_); }
  bool now_empty() const { return fifo_head_ == fifo_.size() && heap_.empty(); }

  // Into bucket 1..64 (t > last_).
  void add(const Event& e, uint64_t t) {
    const size_t b = static_cast<size_t>(bucket_of(t));
    buckets_[b].push_back(e);
    least_[b] = std::min(least_[b], t);
    nonempty_ |= uint64_t{1} << (b - 1);
  }

  // An event at last_: appended to the FIFO when its key follows the FIFO's last one (a drained
  // FIFO is empty), else into the heap; pop() compares the two heads.
  void push_now(const Event& e) {
    if (fifo_.empty() || fifo_.back().key < e.key) {
      fifo_.push_back(e);
    } else {
      heap_.push_back(e);
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
  }

  // Bucket 0 is empty and events are pending: the lowest non-empty bucket's least time becomes
  // last_, and its events move down: the others to lower buckets, those at last_ to the front of
  // the bucket's own vector, which then becomes the FIFO (swapped, not copied: a million events
  // of one instant are never held twice), sorted by key if they are not already.
  void refill() {
    SIMFAB_CHECK(nonempty_ != 0, "pop from an empty event queue");
    const size_t b = static_cast<size_t>(std::countr_zero(nonempty_)) + 1;
    std::vector<Event>& src = buckets_[b];
    const uint64_t least = least_[b];
    last_ = least;
    least_[b] = UINT64_MAX;
    nonempty_ &= ~(uint64_t{1} << (b - 1));
    size_t keep = 0;
    for (size_t i = 0; i < src.size(); ++i) {
      const Event e = src[i];
      const uint64_t t = static_cast<uint64_t>(e.time.ps());
      if (t == least) src[keep++] = e;
      else add(e, t);  // into a bucket below b (never src): t and least agree above bit b - 1
    }
    src.resize(keep);
    fifo_.clear();
    fifo_head_ = 0;
    fifo_.swap(src);
    if (src.capacity() > kKeepCapacity) src.shrink_to_fit();
    if (!std::is_sorted(fifo_.begin(), fifo_.end(), key_less)) std::sort(fifo_.begin(), fifo_.end(), key_less);
  }

  std::array<std::vector<Event>, 65> buckets_;  // [0] unused: bucket 0 is fifo_ + heap_
  std::array<uint64_t, 65> least_ = filled(UINT64_MAX);  // per bucket: its least time
  uint64_t nonempty_ = 0;                       // bit i - 1: bucket i holds events
  std::vector<Event> fifo_;                     // bucket 0, increasing keys from fifo_head_
  size_t fifo_head_ = 0;
  std::vector<Event> heap_;                     // bucket 0, keys out of FIFO order (min-heap)
  uint64_t last_ = 0;                           // the time of bucket 0: the last popped time
  size_t size_ = 0;
  uint64_t seq_ = 0;
};

}  // namespace simfab
