#include "report/collective_stats.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

namespace simfab {

size_t CollectiveStats::KeyHash::operator()(const Key& k) const {
  const size_t a = std::hash<const char*>{}(k.name);
  return a ^ (std::hash<const char*>{}(k.algorithm) + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
}

void CollectiveStats::add(const CallInfo& c, SimTime length) {
  Acc& a = calls_[Key{c.name, c.algorithm}];
  ++a.calls;
  a.time_ps += length.ps();
  a.max_ps = std::max(a.max_ps, length.ps());
}

std::vector<CollectiveRow> CollectiveStats::rows() const {
  std::map<std::pair<std::string, std::optional<std::string>>, Acc> merged;
  for (const auto& [k, a] : calls_) {
    std::optional<std::string> algorithm;
    if (k.algorithm) algorithm = k.algorithm;
    Acc& m = merged[{k.name ? k.name : "", std::move(algorithm)}];
    m.calls += a.calls;
    m.time_ps += a.time_ps;
    m.max_ps = std::max(m.max_ps, a.max_ps);
  }
  std::vector<CollectiveRow> out;
  out.reserve(merged.size());
  for (const auto& [k, a] : merged)
    out.push_back({k.first, k.second, a.calls, SimTime::ps(a.time_ps), SimTime::ps(a.max_ps)});
  return out;
}

}  // namespace simfab
