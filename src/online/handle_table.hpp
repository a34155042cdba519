// HandleTable<T>: the objects of one kind that a program creates through the MPI interface
// (derived datatypes, user reduction operations, info objects), addressed by int handles.
//
// Handles are first, first + 1, ... in creation order and are never reused, so that a handle
// used after MPI_*_free is reported as freed instead of silently naming a newer object (and so
// that handle numbers are deterministic for a deterministic program). The objects of all ranks
// share one table (simfab runs the ranks in one thread).
// Complexity: O(1) insert, find and erase. Memory: 8 B per handle ever created plus the live
// objects. Thread-safety: none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/error.hpp"

namespace simfab::online {

template <class T>
class HandleTable {
 public:
  explicit HandleTable(int first) : first_(first) {}

  int insert(T value) {
    SIMFAB_CHECK(slots_.size() < static_cast<size_t>(INT32_MAX - first_), "MPI handles exhausted");
    slots_.push_back(std::make_unique<T>(std::move(value)));
    ++live_;
    return first_ + static_cast<int>(slots_.size() - 1);
  }
  // nullptr when h was never handed out or was erased.
  T* find(int h) const {
    if (h < first_ || static_cast<size_t>(h - first_) >= slots_.size()) return nullptr;
    return slots_[static_cast<size_t>(h - first_)].get();
  }
  void erase(int h) {
    if (find(h) == nullptr) return;
    slots_[static_cast<size_t>(h - first_)].reset();
    --live_;
  }
  size_t live() const { return live_; }
  int first() const { return first_; }

 private:
  int first_;
  std::vector<std::unique_ptr<T>> slots_;
  size_t live_ = 0;
};

}  // namespace simfab::online
