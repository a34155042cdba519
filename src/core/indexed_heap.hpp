// IndexedHeap: a binary min-heap of (time, id) whose entries can be updated or removed by id,
// for models that keep one due time per entity that changes often (FlowNetwork's completion
// times: every rate change moves a flow's due time).
//
// Why not the engine's queue: it has no cancellation, so a moved due time leaves a stale event
// behind, and when rates keep changing stale events pile up (O(N^2) for N flows finishing one by
// one). With this heap a model keeps one entry per entity and asks the engine for one wake-up at
// the earliest due time.
//
// Order: (time, id), so ties between equal times break by id and the order is deterministic.
// Ids are small dense integers (slot indices); the position table grows to the largest id seen.
// Complexity: set/erase O(log n); top O(1). Memory: 16 B per entry + 4 B per id ever used.
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/sim_time.hpp"

namespace simfab {

class IndexedHeap {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  bool contains(uint32_t id) const { return id < pos_.size() && pos_[id] != kAbsent; }
  // REQUIRES: !empty().
  SimTime top_time() const { return heap_.front().time; }
  uint32_t top_id() const { return heap_.front().id; }

  // Inserts id with `time`, or moves it there.
  void set(uint32_t id, SimTime time) {
    if (id >= pos_.size()) pos_.resize(id + 1, kAbsent);
    if (pos_[id] == kAbsent) {
      pos_[id] = static_cast<uint32_t>(heap_.size());
      heap_.push_back({time, id});
      up(pos_[id]);
      return;
    }
    const uint32_t i = pos_[id];
    const SimTime old = heap_[i].time;
    heap_[i].time = time;
    if (time < old) up(i);
    else down(i);
  }

  // REQUIRES: contains(id).
  void erase(uint32_t id) {
    SIMFAB_CHECK(contains(id), "IndexedHeap::erase of an absent id");
    const uint32_t i = pos_[id];
    pos_[id] = kAbsent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    heap_[i] = last;
    pos_[last.id] = i;
    up(i);
    down(pos_[last.id]);
  }

 private:
  struct Entry {
    SimTime time;
    uint32_t id;
  };
  static bool less(const Entry& a, const Entry& b) { return a.time < b.time || (a.time == b.time && a.id < b.id); }
  void place(uint32_t i, const Entry& e) {
    heap_[i] = e;
    pos_[e.id] = i;
  }
  void up(uint32_t i) {
    const Entry e = heap_[i];
    while (i > 0) {
      const uint32_t parent = (i - 1) / 2;
      if (!less(e, heap_[parent])) break;
      place(i, heap_[parent]);
      i = parent;
    }
    place(i, e);
  }
  void down(uint32_t i) {
    const Entry e = heap_[i];
    const uint32_t n = static_cast<uint32_t>(heap_.size());
    while (true) {
      uint32_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && less(heap_[child + 1], heap_[child])) ++child;
      if (!less(heap_[child], e)) break;
      place(i, heap_[child]);
      i = child;
    }
    place(i, e);
  }

  std::vector<Entry> heap_;
  std::vector<uint32_t> pos_;  // per id: index in heap_, or kAbsent
};

}  // namespace simfab
