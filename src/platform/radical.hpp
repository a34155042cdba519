// Radical: the host indices of a cluster, written as in SimGrid's <cluster radical="...">:
// comma-separated items, each an index ("7") or an inclusive range ("0-15"), e.g. "0-3,8-11".
//
// Blanks around items and around '-' are ignored. The ranges keep their written order, which is
// the order of the cluster's hosts (and so of the ranks mapped onto them). Invariants of a parsed
// Radical: every range has 0 <= first <= last <= kMaxRadicalIndex, no index appears twice, and
// count (the number of indices) is in [1, max_count].
//
// Cost: O(r log r) for r items; indices are never expanded here.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace simfab {

inline constexpr int64_t kMaxRadicalIndex = 2'147'483'647;

struct IndexRange {
  int64_t first = 0;
  int64_t last = 0;  // inclusive
};

struct Radical {
  std::vector<IndexRange> ranges;
  int64_t count = 0;
};

// The radical written in `text`, or why it is not one (a message that quotes the bad item).
std::variant<Radical, std::string> parse_radical(std::string_view text, int64_t max_count);

}  // namespace simfab
