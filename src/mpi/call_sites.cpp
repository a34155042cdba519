#include "mpi/call_sites.hpp"

#include <cstdio>

namespace simfab {

uint32_t CallSites::site(std::string_view file, int line) {
  if (file.empty()) return kUnknown;
  scratch_.assign(file);  // reused: no allocation once the sites are known
  scratch_ += ':';
  scratch_ += std::to_string(line);
  if (auto it = by_name_.find(scratch_); it != by_name_.end()) return it->second;
  const auto id = static_cast<uint32_t>(names_.size());
  names_.push_back(scratch_);
  by_name_.emplace(scratch_, id);
  return id;
}

uint32_t CallSites::site_at(std::string_view object, uint64_t offset) {
  if (auto it = by_offset_.find(offset); it != by_offset_.end()) return it->second;
  char hex[24];
  std::snprintf(hex, sizeof hex, "+0x%llx", static_cast<unsigned long long>(offset));
  const auto id = static_cast<uint32_t>(names_.size());
  names_.push_back(std::string(object) + hex);
  by_offset_.emplace(offset, id);
  return id;
}

uint32_t CallSites::task(uint32_t previous, uint32_t next) {
  const uint64_t key = uint64_t{previous} << 32 | next;
  auto [it, added] = by_pair_.try_emplace(key, static_cast<uint32_t>(tasks_.size()));
  if (added) tasks_.emplace_back(previous, next);
  return it->second;
}

CallSites::RankSites& CallSites::rank(RankId r) {
  if (static_cast<size_t>(r) >= ranks_.size()) ranks_.resize(static_cast<size_t>(r) + 1);
  return ranks_[static_cast<size_t>(r)];
}

void CallSites::at_site(RankId r, uint32_t s) { rank(r).next = s; }

uint32_t CallSites::task_before(RankId r) {
  const RankSites& s = rank(r);
  const uint32_t t = task(s.previous, s.next);
  unknown_task_used_ |= t == 0;
  return t;
}

void CallSites::called(RankId r) {
  RankSites& s = rank(r);
  s.previous = s.next;
}

std::string CallSites::task_name(uint32_t t) const {
  return names_[tasks_[t].first] + " -> " + names_[tasks_[t].second];
}

}  // namespace simfab
