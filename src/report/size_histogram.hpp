// SizeHistogram: messages and bytes per size bucket, point-to-point and collective traffic apart.
//
// Buckets (seed 002 §2.5: "the simulator counts all messages of size <= 16 bytes, <= 64B,
// <= 256B, and so on"; spec A.4: bucket(s) = smallest k >= 0 with s <= 16 * 4^k):
//   k = 0 .. 13 hold sizes s <= 16 * 4^k: <= 16 B, <= 64 B, <= 256 B, <= 1 KiB, ... <= 1 GiB
//   k = 14 holds everything larger (no upper bound).
// So 16 B is in the first bucket, 17 B in the second; a 0-byte message is in the first.
// Collective traffic = messages a collective algorithm generated (MessageRecord::collective()).
// Fixed memory (15 buckets), O(log s) per message.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "report/stats_report.hpp"

namespace simfab {

class SizeHistogram {
 public:
  static constexpr int kBoundedBuckets = 14;  // 16 B .. 1 GiB
  static constexpr int kBuckets = kBoundedBuckets + 1;

  // The bucket of a message of `bytes`: smallest k with bytes <= 16 * 4^k, or kBoundedBuckets.
  static int bucket_of(uint64_t bytes);
  // 16 * 4^k. REQUIRES: 0 <= k < kBoundedBuckets.
  static uint64_t upper_bytes(int k) { return uint64_t{16} << (2 * k); }

  void add(uint64_t bytes, bool collective);
  std::vector<SizeBucket> buckets() const;  // all kBuckets, smallest first
  MessageTotals totals() const;

 private:
  struct Count {
    uint64_t messages = 0, bytes = 0;
  };
  std::array<std::array<Count, 2>, kBuckets> counts_{};  // [bucket][collective]
};

}  // namespace simfab
