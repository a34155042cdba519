// EventQueue: the future event set. Events pop in strictly increasing (time, priority, sequence).
//
// Order: the sequence number is a 64-bit counter stamped at push, so ties are broken by insertion
// order, never by address: the same inputs give the same order on every machine
// (ARCHITECTURE.md, "Decisions"). Priority and sequence share one 64-bit key: priority in the top
// 8 bits, sequence in the low 56 (7.2e16 pushes before wrap, checked).
//
// Structure: a 4-ary min-heap over a flat vector of 24-byte PODs, plus same-time buckets. When
// priority-0 events keep arriving for one time (a million ranks entering a collective at the
// same instant, every receive of a round posted together), the second one opens a bucket: a FIFO
// of (key, payload) represented in the heap by ONE entry whose key is the key of the bucket's
// oldest event. Events appended to a bucket already arrive in key order (same time and priority,
// increasing sequence), so the heap entry stays correct; popping from a bucket advances it and
// re-sifts its single entry. The pop order is therefore exactly that of one heap holding every
// event; only the cost changes: O(1) push, and the heap holds one entry per distinct pending time
// instead of one per event (performance-notes.md: "processing all ranks that become ready at the
// same time together"). Buckets are found through the most recent bucket's time, so a stream of
// pushes to one time costs no lookup; pushes that alternate between times may open several
// buckets for one time, which is still correct (each is sorted; the heap orders their heads).
//
// Payloads are not stored here: an event is (time, key, payload word), and the payload word is an
// index into a pool owned by whoever scheduled it. Payload bit 63 is reserved (bucket marker).
//
// Complexity: push O(1) into a bucket, else O(log4 n); pop O(4 log4 n) over heap entries.
// Memory: 24 B per heap entry, 16 B per bucketed event. Thread-safety: none (single-threaded).
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/sim_time.hpp"

namespace simfab {

struct Event {
  SimTime time;
  uint64_t key;      // priority << 56 | sequence
  uint64_t payload;  // owner-defined; see Engine for the (kind, index) packing; bit 63 reserved
};

class EventQueue {
 public:
  static constexpr uint64_t kSeqBits = 56;
  static constexpr uint64_t kBucketFlag = uint64_t{1} << 63;

  void push(SimTime time, uint8_t priority, uint64_t payload) {
    SIMFAB_CHECK(seq_ < (uint64_t{1} << kSeqBits), "event sequence counter exhausted");
    SIMFAB_CHECK((payload & kBucketFlag) == 0, "event payload uses the reserved bit 63");
    const uint64_t key = (uint64_t{priority} << kSeqBits) | seq_++;
    ++size_;
    if (priority == 0) {
      if (recent_bucket_ != kNone && time == buckets_[recent_bucket_].time) {
        buckets_[recent_bucket_].entries.push_back(Entry{key, payload});
        return;
      }
      if (time == last_plain_time_) {
        open_bucket(time, key, payload);
        return;
      }
      last_plain_time_ = time;
    }
    heap_push(Event{time, key, payload});
  }

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // The time of the next pop. REQUIRES: !empty().
  SimTime next_time() const { return heap_.front().time; }

  // REQUIRES: !empty().
  Event pop() {
    --size_;
    Event top = heap_.front();
    if ((top.payload & kBucketFlag) == 0) {
      heap_pop();
      return top;
    }
    const uint32_t b = static_cast<uint32_t>(top.payload & ~kBucketFlag);
    Bucket& bucket = buckets_[b];
    const Entry e = bucket.entries[bucket.head++];
    if (bucket.head < bucket.entries.size()) {
      top.key = bucket.entries[bucket.head].key;
      sift_down(top);
    } else {
      heap_pop();
      close_bucket(b);
    }
    return Event{top.time, e.key, e.payload};
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  // Drained buckets larger than this give their memory back instead of keeping it for reuse.
  static constexpr size_t kKeepCapacity = size_t{1} << 16;

  struct Entry {
    uint64_t key;
    uint64_t payload;
  };
  struct Bucket {
    SimTime time;
    size_t head = 0;
    std::vector<Entry> entries;
  };

  void open_bucket(SimTime time, uint64_t key, uint64_t payload) {
    uint32_t b;
    if (!free_buckets_.empty()) {
      b = free_buckets_.back();
      free_buckets_.pop_back();
    } else {
      b = static_cast<uint32_t>(buckets_.size());
      buckets_.emplace_back();
    }
    Bucket& bucket = buckets_[b];
    bucket.time = time;
    bucket.head = 0;
    bucket.entries.push_back(Entry{key, payload});
    recent_bucket_ = b;
    heap_push(Event{time, key, kBucketFlag | b});
  }
  void close_bucket(uint32_t b) {
    Bucket& bucket = buckets_[b];
    bucket.entries.clear();
    if (bucket.entries.capacity() > kKeepCapacity) bucket.entries.shrink_to_fit();
    bucket.head = 0;
    free_buckets_.push_back(b);
    if (recent_bucket_ == b) recent_bucket_ = kNone;
  }

  static bool before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.key < b.key);
  }
  void heap_push(Event e) {
    heap_.push_back(e);
    size_t i = heap_.size() - 1;
    while (i > 0) {
      size_t parent = (i - 1) / 4;
      if (!before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }
  void heap_pop() {
    Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(last);
  }
  // Places `e` at the root's slot and sifts it down.
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
  std::vector<Bucket> buckets_;
  std::vector<uint32_t> free_buckets_;
  uint32_t recent_bucket_ = kNone;
  SimTime last_plain_time_ = SimTime::never();
  size_t size_ = 0;
  uint64_t seq_ = 0;
};

}  // namespace simfab
