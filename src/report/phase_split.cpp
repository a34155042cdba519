#include "report/phase_split.hpp"

namespace simfab {

void PhaseSplit::start(const Platform* platform) {
  platform_ = platform;
  routes_ = RouteCache{};
  parts_.clear();
  names_.clear();
}

void PhaseSplit::add(HostId src, HostId dst, const MessageRecord& m) {
  if (m.phase == 0) return;
  Part& p = parts_[m.phase];
  p.matrix.add(m.src, m.dst, m.bytes);
  if (!platform_) return;
  for (LinkId l : routes_.route(*platform_, src, dst)) {
    p.link_bytes[l] += m.bytes;
    if (!names_.contains(l)) names_.emplace(l, platform_->link(l).name);
  }
}

void PhaseSplit::finish(const std::vector<LinkRow>& route_links, StatsReport& s) const {
  s.phase_matrix.clear();
  s.phase_links.clear();
  if (s.phases.empty()) return;
  // Phase 0's share: the whole run's, less every other phase's.
  std::map<std::pair<RankId, RankId>, MatrixEntry> first;
  for (const MatrixEntry& e : s.matrix) first[{e.src, e.dst}] = e;
  std::map<std::string, uint64_t> first_links;
  for (const LinkRow& l : route_links) first_links[l.name] = l.bytes;
  std::map<uint32_t, std::vector<MatrixEntry>> matrices;
  for (const auto& [id, part] : parts_) {
    matrices[id] = part.matrix.entries();
    for (const MatrixEntry& e : matrices[id]) {
      MatrixEntry& f = first[{e.src, e.dst}];
      f.messages -= e.messages;
      f.bytes -= e.bytes;
    }
    for (const auto& [link, bytes] : part.link_bytes) first_links[names_.at(link)] -= bytes;
  }
  for (size_t i = 0; i < s.phases.size(); ++i) {
    const uint32_t id = s.phases[i].id;
    if (id == 0) {
      for (const MatrixEntry& e : s.matrix)
        if (const MatrixEntry& f = first[{e.src, e.dst}]; f.messages > 0) s.phase_matrix.push_back({i, f});
      for (const LinkRow& l : route_links)
        if (const uint64_t b = first_links[l.name]; b > 0) s.phase_links.push_back({i, l.name, b});
      continue;
    }
    const auto part = parts_.find(id);
    if (part == parts_.end()) continue;
    for (const MatrixEntry& e : matrices[id]) s.phase_matrix.push_back({i, e});
    for (const auto& [link, bytes] : part->second.link_bytes) s.phase_links.push_back({i, names_.at(link), bytes});
  }
}

}  // namespace simfab
