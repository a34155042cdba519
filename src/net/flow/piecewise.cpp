#include "net/flow/piecewise.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace simfab::flow {

namespace {

std::optional<double> number(std::string_view s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

std::optional<Bytes> size(std::string_view s) {
  Bytes v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<PiecewiseLinear> PiecewiseLinear::parse(std::string_view text, bool with_slope, std::string& error,
                                                      Dialect dialect) {
  const bool simgrid = dialect == Dialect::kSimGrid;
  const char* layout = with_slope ? "min_size:seconds:seconds_per_byte" : "min_size:factor";
  std::vector<Section> sections;
  size_t index = 0;
  while (!text.empty()) {
    const size_t semi = text.find(';');
    std::string_view part = text.substr(0, semi);
    text = semi == std::string_view::npos ? std::string_view{} : text.substr(semi + 1);
    ++index;
    std::vector<std::string_view> fields;
    for (size_t colon; (colon = part.find(':')) != std::string_view::npos; part.remove_prefix(colon + 1))
      fields.push_back(part.substr(0, colon));
    fields.push_back(part);
    const size_t want = with_slope ? 3 : 2;
    if (fields.size() < want || (fields.size() > want && !simgrid)) {
      error = "section " + std::to_string(index) + " has " + std::to_string(fields.size()) +
              " fields; expected " + layout;
      return std::nullopt;
    }
    Section s;
    auto min = size(fields[0]);
    auto a = number(fields[1]);
    auto b = with_slope ? number(fields[2]) : std::optional<double>(0.0);
    if (!min || !a || !b) {
      error = "section " + std::to_string(index) + ": expected " + layout +
              " with a whole min_size and finite non-negative numbers";
      return std::nullopt;
    }
    s.min_size = *min;
    s.a = *a;
    s.b = *b;
    if (simgrid) {  // any order: sorted below
      sections.push_back(s);
      continue;
    }
    if (sections.empty() && s.min_size != 0) {
      error = "the first section must start at size 0 (found " + std::to_string(s.min_size) + ")";
      return std::nullopt;
    }
    if (!sections.empty() && s.min_size <= sections.back().min_size) {
      error = "section " + std::to_string(index) + " starts at " + std::to_string(s.min_size) +
              ", not after the previous one (" + std::to_string(sections.back().min_size) +
              "): sections must be sorted by size, without overlap";
      return std::nullopt;
    }
    sections.push_back(s);
  }
  if (sections.empty()) {
    error = std::string("empty table; expected sections ") + layout + " separated by ';'";
    return std::nullopt;
  }
  std::sort(sections.begin(), sections.end(), [](const Section& a, const Section& b) { return a.min_size < b.min_size; });
  for (size_t k = 1; k < sections.size(); ++k) {
    if (sections[k].min_size == sections[k - 1].min_size) {
      error = "two sections start at " + std::to_string(sections[k].min_size);
      return std::nullopt;
    }
  }
  return PiecewiseLinear(std::move(sections), simgrid);
}

size_t PiecewiseLinear::segment(Bytes k) const {
  if (exclusive_) {  // the last section whose threshold is below k, else the first
    auto it = std::lower_bound(sections_.begin(), sections_.end(), k,
                               [](const Section& s, Bytes v) { return s.min_size < v; });
    return it == sections_.begin() ? 0 : static_cast<size_t>(it - sections_.begin()) - 1;
  }
  auto it = std::upper_bound(sections_.begin(), sections_.end(), k,
                             [](Bytes v, const Section& s) { return v < s.min_size; });
  return static_cast<size_t>(it - sections_.begin()) - 1;
}

}  // namespace simfab::flow
