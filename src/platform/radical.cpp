#include "platform/radical.hpp"

#include <algorithm>
#include <charconv>

#include "core/trim.hpp"

namespace simfab {

namespace {

// A decimal index in [0, kMaxRadicalIndex], digits only.
bool parse_index(std::string_view s, int64_t& out) {
  s = trim_blanks(s);
  if (s.empty() || s.front() < '0' || s.front() > '9') return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && out <= kMaxRadicalIndex;
}

}  // namespace

std::variant<Radical, std::string> parse_radical(std::string_view text, int64_t max_count) {
  const std::string expected =
      "; expected indices or ranges separated by commas, like \"0-15\" or \"0-3,8-11\"";
  Radical r;
  if (trim_blanks(text).empty()) return "empty radical" + expected;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t comma = std::min(text.find(',', begin), text.size());
    std::string_view item = trim_blanks(text.substr(begin, comma - begin));
    std::string quoted = "'" + std::string(item) + "'";
    if (item.empty()) return "empty item in radical '" + std::string(text) + "'" + expected;
    IndexRange range;
    size_t dash = item.find('-');
    bool ok = false;
    if (dash == std::string_view::npos) {
      ok = parse_index(item, range.first);
      range.last = range.first;
    } else {
      ok = parse_index(item.substr(0, dash), range.first) && parse_index(item.substr(dash + 1), range.last);
    }
    if (!ok)
      return "bad radical item " + quoted + " (indices are whole numbers from 0 to " +
             std::to_string(kMaxRadicalIndex) + ")" + expected;
    if (range.last < range.first) return "radical range " + quoted + " is reversed; write it low-high";
    r.count += range.last - range.first + 1;
    if (r.count > max_count)
      return "radical '" + std::string(text) + "' names more than " + std::to_string(max_count) +
             " hosts, the most a cluster may have";
    r.ranges.push_back(range);
    begin = comma + 1;
  }
  std::vector<IndexRange> sorted = r.ranges;
  std::sort(sorted.begin(), sorted.end(),
            [](const IndexRange& a, const IndexRange& b) { return a.first < b.first; });
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i].first <= sorted[i - 1].last)
      return "index " + std::to_string(sorted[i].first) + " appears twice in radical '" + std::string(text) +
             "'";
  return r;
}

}  // namespace simfab
