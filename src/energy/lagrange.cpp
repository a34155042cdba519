#include "energy/lagrange.hpp"

#include <algorithm>

namespace simfab::energy {

int lagrange_step(const std::vector<double>& time_at, const std::vector<double>& busy_w,
                  const std::vector<double>& idle_w, int lo, int hi, double s, const LagrangeParams& params,
                  LagrangeState* st) {
  int best = lo;
  double best_value = 0;
  for (int p = lo; p <= hi; ++p) {
    const auto i = static_cast<size_t>(p);
    const double T = time_at[i];
    const double idle = params.printed_idle ? std::min(s, T) : std::max(0.0, s - T);
    const double gap = T - st->t - st->lambda;
    const double value = T * busy_w[i] + idle * idle_w[i] + 0.5 * params.rho * gap * gap;
    if (p == lo || value < best_value) {
      best = p;
      best_value = value;
    }
  }
  const double T = time_at[static_cast<size_t>(best)];
  st->t = std::min(T - st->lambda, s);
  st->lambda += params.printed_dual ? T - st->t : -(T - st->t);
  return best;
}

}  // namespace simfab::energy
