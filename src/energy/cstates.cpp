#include "energy/cstates.hpp"

#include <algorithm>

namespace simfab::energy {

int choose_cstate(const std::vector<CState>& states, double predicted_s, double residency) {
  int k = -1;
  for (size_t i = 0; i < states.size(); ++i)
    if (residency * states[i].latency_s <= predicted_s) k = static_cast<int>(i);
  return k;
}

double cstate_energy_change(const std::vector<CState>& states, int k, double length_s, double idle_w) {
  if (k < 0) return 0;
  const CState& s = states[static_cast<size_t>(k)];
  return (s.power_w - idle_w) * std::max(0.0, length_s - s.latency_s);
}

double CStateIdle::idle_period(size_t h, const std::vector<CState>& states, double length_s, double idle_w) {
  if (!on() || states.empty() || length_s <= 0) return 0;
  const double predicted = rule_ == CStateRule::kOracle ? length_s : last_[h];
  last_[h] = length_s;
  return cstate_energy_change(states, choose_cstate(states, predicted, residency_), length_s, idle_w);
}

}  // namespace simfab::energy
