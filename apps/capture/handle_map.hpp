// HandleMap<V>: a small open-addressing hash map from an MPI handle to a value, used by the capture
// library to number communicators, datatypes, ops and requests (capture_state.hpp).
//
// MPI handles are opaque: pointers in Open MPI, ints in MPICH. key_of() turns either into an
// unsigned integer, so one map serves both. The table is a power-of-two array of slots probed
// linearly from a Fibonacci hash of the key; erase() shifts the following entries back (no
// tombstones), so lookups stay short however many requests come and go.
//
// Invariants: at most half of the slots are used (the table doubles before it would be more);
// every used slot is reachable from its home slot without crossing an empty one.
// Cost: find/insert/erase O(1) expected; memory 2x the peak number of entries, allocated only when
// the table grows (never per call in a steady state).
// Thread-safety: none (the capture library supports MPI_THREAD_SINGLE/FUNNELED/SERIALIZED only).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace simfab::capture {

template <class V>
class HandleMap {
 public:
  using Key = std::uintptr_t;

  template <class H>
  static Key key_of(H handle) {
    if constexpr (std::is_pointer_v<H>) {
      return reinterpret_cast<Key>(handle);
    } else {
      return static_cast<Key>(handle);
    }
  }

  // The value stored for `key`, or nullptr. The pointer is valid until the next insert or erase.
  V* find(Key key) {
    if (used_ == 0) return nullptr;
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }

  // Stores `value` for `key`, replacing a previous value.
  void insert(Key key, V value) {
    if (V* v = find(key)) {
      *v = std::move(value);
      return;
    }
    if ((used_ + 1) * 2 > slots_.size()) grow();
    std::size_t i = home(key);
    while (slots_[i].used) i = (i + 1) & mask_;
    slots_[i] = Slot{key, std::move(value), true};
    ++used_;
  }

  // Removes `key`; returns whether it was there (its value moved to *out when out is not null).
  bool erase(Key key, V* out = nullptr) {
    if (used_ == 0) return false;
    std::size_t i = home(key);
    while (true) {
      if (!slots_[i].used) return false;
      if (slots_[i].key == key) break;
      i = (i + 1) & mask_;
    }
    if (out != nullptr) *out = std::move(slots_[i].value);
    // Backward-shift deletion: move every later entry of the run whose home slot is not in
    // (i, j] into the hole, so no lookup meets a gap before its key.
    std::size_t j = i;
    while (true) {
      j = (j + 1) & mask_;
      if (!slots_[j].used) break;
      const std::size_t k = home(slots_[j].key);
      const bool stays = (i <= j) ? (i < k && k <= j) : (i < k || k <= j);
      if (stays) continue;
      slots_[i] = std::move(slots_[j]);
      i = j;
    }
    slots_[i].used = false;
    --used_;
    return true;
  }

  std::size_t size() const { return used_; }

 private:
  struct Slot {
    Key key = 0;
    V value{};
    bool used = false;
  };

  std::size_t home(Key key) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const std::size_t capacity = old.empty() ? 64 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
    used_ = 0;
    for (Slot& s : old) {
      if (s.used) insert(s.key, std::move(s.value));
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
  std::size_t used_ = 0;
};

}  // namespace simfab::capture
