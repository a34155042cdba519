// SlotPool<T>: a vector of T addressed by 32-bit ids, with released ids recycled (LIFO).
//
// The kernel's way to keep per-entity payloads (operations, messages in flight, collective runs,
// requests) out of the heap: one contiguous vector per kind, ids instead of pointers (so event
// payloads are plain integers), and no allocation in steady state. acquire() does not reset a
// recycled slot: callers assign what they need, and slots that own vectors keep their capacity.
// Ids are handed out deterministically (the most recently released first).
// Storage is chunked (kChunk slots per chunk, never moved): growing never copies the pool and
// never reserves twice what it holds, which is what bounds peak memory at a million ranks (a
// doubling vector of 40 M operations touches 2.5 GB while it copies itself), and references to
// slots stay valid as the pool grows.
// Complexity: O(1) per acquire/release and access (one extra indirection through a small chunk
// table that stays in cache). Memory: sizeof(T) per slot ever used at once, rounded up to a
// chunk, plus 4 B per free slot. Thread-safety: none.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/error.hpp"

namespace simfab {

template <class T>
class SlotPool {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint32_t kChunkBits = 12;
  static constexpr uint32_t kChunk = 1u << kChunkBits;

  uint32_t acquire() {
    if (!free_.empty()) {
      const uint32_t id = free_.back();
      free_.pop_back();
      return id;
    }
    SIMFAB_CHECK(slots_ < kNone, "more than 2^32-1 live slots in a pool");
    if ((slots_ & (kChunk - 1)) == 0) chunks_.push_back(std::make_unique<T[]>(kChunk));
    return slots_++;
  }
  void release(uint32_t id) { free_.push_back(id); }

  T& operator[](uint32_t id) { return chunks_[id >> kChunkBits][id & (kChunk - 1)]; }
  const T& operator[](uint32_t id) const { return chunks_[id >> kChunkBits][id & (kChunk - 1)]; }
  // Slots ever created (ids are below this); live() of them are in use.
  size_t slots() const { return slots_; }
  size_t live() const { return slots_ - free_.size(); }
  size_t memory_bytes() const {
    return chunks_.size() * kChunk * sizeof(T) + free_.capacity() * sizeof(uint32_t);
  }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  uint32_t slots_ = 0;
  std::vector<uint32_t> free_;
};

}  // namespace simfab
