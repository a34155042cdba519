#include "online/rank_failures.hpp"

#include <vector>

#include "core/error.hpp"

namespace simfab::online {

void RankFailures::add(RankId r, Kind kind, int code) {
  const bool fresh = by_rank_.emplace(r, Failure{kind, kind == Kind::kNoFinalize ? 0 : code}).second;
  SIMFAB_CHECK(fresh, "RankFailures: a rank failed twice");
}

int RankFailures::exit_status() const {
  SIMFAB_CHECK(any(), "RankFailures: no failure");
  const Failure& f = by_rank_.begin()->second;
  switch (f.kind) {
    case Kind::kExit: return f.code & 0xff;
    case Kind::kAbort: return f.code == 0 ? 1 : f.code & 0xff;
    case Kind::kNoFinalize: break;
  }
  return 1;
}

std::string RankFailures::report() const {
  SIMFAB_CHECK(any(), "RankFailures: no failure");
  // The groups of equal failures, in the order of their lowest ranks (by_rank_ is in rank order).
  std::vector<std::pair<Failure, std::vector<RankId>>> groups;
  for (const auto& [r, f] : by_rank_) {
    auto it = groups.begin();
    while (it != groups.end() && !(it->first == f)) ++it;
    if (it == groups.end()) groups.push_back({f, {r}});
    else it->second.push_back(r);
  }
  std::string out = "simfab: ";
  for (const auto& [f, ranks] : groups) {
    out += ranks.size() == 1 ? "rank " : "ranks ";
    size_t shown = 0;
    for (size_t i = 0; i < ranks.size();) {
      size_t j = i;
      while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
      if (shown == kMaxRanges) {
        out += ", ... (" + std::to_string(ranks.size()) + " ranks)";
        break;
      }
      out += (shown ? ", " : "") + std::to_string(ranks[i]);
      if (j > i) out += "-" + std::to_string(ranks[j]);
      ++shown;
      i = j + 1;
    }
    switch (f.kind) {
      case Kind::kExit: out += " exited with status " + std::to_string(f.code); break;
      case Kind::kAbort: out += " called MPI_Abort with error code " + std::to_string(f.code); break;
      case Kind::kNoFinalize: out += " called MPI_Init but ended without calling MPI_Finalize"; break;
    }
    out += "; ";
  }
  return out + "the run stops";
}

}  // namespace simfab::online
