// SlotTable: the objects of one kind of one NI (MDs, EQs, CTs, MEs/LEs), addressed by handle
// (handles.hpp): a slot index plus a generation, so a freed slot that is reused never answers
// to an old handle (PtlMDRelease then PtlPut on the old handle is PTL_ARG_INVALID, not a write
// through a dangling pointer). Freed slots are reused in LIFO order; storage is a vector, so a
// pointer from get() is valid only until the next alloc().
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "online/portals/handles.hpp"

namespace simfab::online::portals {

template <typename T>
class SlotTable {
 public:
  struct Id {
    uint32_t index = 0;
    uint32_t generation = 0;
  };

  // nullopt when the table already holds kMaxSlots objects.
  std::optional<Id> alloc(T value) {
    uint32_t i;
    if (!free_.empty()) {
      i = free_.back();
      free_.pop_back();
    } else {
      if (slots_.size() >= kMaxSlots) return std::nullopt;
      i = static_cast<uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    Slot& s = slots_[i];
    s.value = std::move(value);
    s.live = true;
    ++live_;
    return Id{i, s.generation};
  }
  T* get(uint32_t index, uint32_t generation) {
    if (index >= slots_.size()) return nullptr;
    Slot& s = slots_[index];
    return s.live && s.generation == generation ? &s.value : nullptr;
  }
  T* at(uint32_t index) { return index < slots_.size() && slots_[index].live ? &slots_[index].value : nullptr; }
  uint32_t generation(uint32_t index) const { return slots_[index].generation; }
  void release(uint32_t index) {
    Slot& s = slots_[index];
    if (!s.live) return;
    s.live = false;
    s.value = T{};
    s.generation = (s.generation + 1) & kGenerationMask;
    free_.push_back(index);
    --live_;
  }
  void clear() {
    for (uint32_t i = 0; i < slots_.size(); ++i) release(i);
  }
  uint32_t live() const { return live_; }

 private:
  struct Slot {
    T value{};
    uint32_t generation = 0;
    bool live = false;
  };
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;
  uint32_t live_ = 0;
};

}  // namespace simfab::online::portals
