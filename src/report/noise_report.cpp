#include "report/noise_report.hpp"

#include <algorithm>

#include "report/plural.hpp"
#include "report/summary.hpp"

namespace simfab {

void print_noise(std::ostream& os, const noise::NoiseResult& n) {
  if (!n.present) return;
  os << "noise: " << human_time(SimTime::ps(n.total_ps())) << " injected in " << counted(n.total_detours(), "detour")
     << " (rule " << n.rule << ", " << n.offsets << " offsets)";
  if (!n.noise_ps.empty()) {
    const auto most = std::max_element(n.noise_ps.begin(), n.noise_ps.end());
    if (*most > 0)
      os << ", most on rank " << (most - n.noise_ps.begin()) << ": " << human_time(SimTime::ps(*most));
  }
  os << "\n";
}

nlohmann::ordered_json noise_json(const noise::NoiseResult& n) {
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (size_t r = 0; r < n.noise_ps.size(); ++r)
    ranks.push_back({{"rank", r}, {"offset_ps", n.offset_ps[r]}, {"noise_ps", n.noise_ps[r]}, {"detours", n.detours[r]}});
  return {{"source", n.source},
          {"rule", n.rule},
          {"offsets", n.offsets},
          {"period_ps", n.period_ps},
          {"detours_per_period", n.detours_per_period},
          {"total_ps", n.total_ps()},
          {"detours", n.total_detours()},
          {"ranks", std::move(ranks)}};
}

}  // namespace simfab
