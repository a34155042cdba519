#include "report/noise_report.hpp"

#include <algorithm>

#include "report/plural.hpp"
#include "report/summary.hpp"

namespace simfab {

void print_noise(std::ostream& os, const noise::NoiseResult& n) {
  if (!n.present) return;
  os << "noise: " << human_time(SimTime::ps(n.total_ps())) << " injected in " << counted(n.total_detours(), "detour")
     << " (rule " << n.rule << ", " << n.offsets << " offsets" << (n.collectives_only ? ", collectives only" : "")
     << (n.classes.empty() ? "" : ", " + counted(n.classes.size(), "host class")) << ")";
  if (!n.noise_ps.empty()) {
    const auto most = std::max_element(n.noise_ps.begin(), n.noise_ps.end());
    if (*most > 0)
      os << ", most on rank " << (most - n.noise_ps.begin()) << ": " << human_time(SimTime::ps(*most));
  }
  os << "\n";
}

nlohmann::ordered_json noise_json(const noise::NoiseResult& n) {
  const bool classes = !n.classes.empty();
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (size_t r = 0; r < n.noise_ps.size(); ++r) {
    nlohmann::ordered_json rank = {{"rank", r}};
    if (classes) {
      const int32_t c = r < n.rank_class.size() ? n.rank_class[r] : -1;
      rank["class"] = c < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(n.classes[static_cast<size_t>(c)].name);
    }
    rank["offset_ps"] = n.offset_ps[r];
    rank["noise_ps"] = n.noise_ps[r];
    rank["detours"] = n.detours[r];
    ranks.push_back(std::move(rank));
  }
  nlohmann::ordered_json j = {{"source", n.source},
                              {"rule", n.rule},
                              {"offsets", n.offsets},
                              {"period_ps", n.period_ps},
                              {"detours_per_period", n.detours_per_period}};
  if (n.collectives_only) j["collectives_only"] = true;
  if (classes) {
    nlohmann::ordered_json cs = nlohmann::ordered_json::array();
    for (const auto& c : n.classes)
      cs.push_back({{"name", c.name}, {"source", c.source}, {"period_ps", c.period_ps},
                    {"detours_per_period", c.detours_per_period}});
    j["classes"] = std::move(cs);
  }
  j["total_ps"] = n.total_ps();
  j["detours"] = n.total_detours();
  j["ranks"] = std::move(ranks);
  return j;
}

}  // namespace simfab
