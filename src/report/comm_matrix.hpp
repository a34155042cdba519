// CommMatrix: messages and bytes per (source rank, destination rank), sparse (seed 002 §2.5's
// "per node-pair tables of message count and bytes", pair_count[src][dst]++, pair_bytes += s).
// A hash map keyed by the pair holds only the pairs that exchanged messages: memory is
// O(communicating pairs), never P x P (a 100k-rank nearest-neighbour run has ~600k pairs, not
// 10^10). O(1) expected per message; entries() sorts once, O(n log n).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "report/stats_report.hpp"

namespace simfab {

class CommMatrix {
 public:
  void add(RankId src, RankId dst, uint64_t bytes);
  // Every pair that exchanged a message, sorted by (src, dst).
  std::vector<MatrixEntry> entries() const;

 private:
  struct Cell {
    uint64_t messages = 0, bytes = 0;
  };
  // key = src << 32 | dst (ranks are non-negative 32-bit), so key order is (src, dst) order.
  std::unordered_map<uint64_t, Cell> cells_;
};

}  // namespace simfab
