// SlotPool<T>: a vector of T addressed by 32-bit ids, with released ids recycled (LIFO).
//
// The kernel's way to keep per-entity payloads (operations, messages in flight, collective runs,
// requests) out of the heap: one contiguous vector per kind, ids instead of pointers (so event
// payloads are plain integers), and no allocation in steady state. acquire() does not reset a
// recycled slot: callers assign what they need, and slots that own vectors keep their capacity.
// Ids are handed out deterministically (the most recently released first).
// Complexity: O(1) amortised per acquire/release. Memory: sizeof(T) per slot ever used at once,
// plus 4 B per free slot. Thread-safety: none.
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.hpp"

namespace simfab {

template <class T>
class SlotPool {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  uint32_t acquire() {
    if (!free_.empty()) {
      const uint32_t id = free_.back();
      free_.pop_back();
      return id;
    }
    SIMFAB_CHECK(items_.size() < kNone, "more than 2^32-1 live slots in a pool");
    items_.emplace_back();
    return static_cast<uint32_t>(items_.size() - 1);
  }
  void release(uint32_t id) { free_.push_back(id); }

  T& operator[](uint32_t id) { return items_[id]; }
  const T& operator[](uint32_t id) const { return items_[id]; }
  // Slots ever created (ids are below this); live() of them are in use.
  size_t slots() const { return items_.size(); }
  size_t live() const { return items_.size() - free_.size(); }
  void reserve(size_t n) { items_.reserve(n); }
  size_t memory_bytes() const { return items_.capacity() * sizeof(T) + free_.capacity() * sizeof(uint32_t); }

 private:
  std::vector<T> items_;
  std::vector<uint32_t> free_;
};

}  // namespace simfab
