#include "core/spelling.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace simfab {

namespace {

// Edit distance in half-edits: substituting a letter by the same letter in another case costs 1,
// every other edit 2.
size_t half_edits(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = 2 * j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = 2 * i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const char x = a[i - 1], y = b[j - 1];
      size_t sub = x == y ? 0 : (std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y)) ? 1 : 2);
      cur[j] = std::min({prev[j] + 2, cur[j - 1] + 2, prev[j - 1] + sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string nearest_name(std::string_view name, std::span<const std::string_view> candidates) {
  std::string_view best;
  size_t best_d = SIZE_MAX;
  for (std::string_view c : candidates) {
    size_t d = half_edits(name, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  if (best_d == 0 || best_d == SIZE_MAX) return {};
  const size_t edits = (best_d + 1) / 2;
  const size_t limit = std::max<size_t>(2, name.size() / 3);
  if (edits > limit || edits >= name.size()) return {};
  return std::string(best);
}

}  // namespace simfab
