// CollectiveStats: per collective and algorithm, the rank-level calls, their summed time and the
// longest single call (seed 002 §2.5's "separate counts for each collective operation", with
// times). A call is a call interval of class CallClass::kCollective (communicator creation
// included); its time is the interval's length on that rank.
//
// CallInfo's name and algorithm are static strings, so calls are keyed by the two pointers (no
// string built per call: O(1) expected); rows() merges keys whose strings are equal and sorts by
// (name, algorithm), no algorithm first, so the output does not depend on pointer values.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "mpi/activity.hpp"
#include "report/stats_report.hpp"

namespace simfab {

class CollectiveStats {
 public:
  void add(const CallInfo& c, SimTime length);
  std::vector<CollectiveRow> rows() const;

 private:
  struct Key {
    const char* name;
    const char* algorithm;  // may be null
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  struct Acc {
    uint64_t calls = 0;
    int64_t time_ps = 0, max_ps = 0;
  };
  std::unordered_map<Key, Acc, KeyHash> calls_;
};

}  // namespace simfab
