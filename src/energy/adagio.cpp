#include "energy/adagio.hpp"

#include <algorithm>

namespace simfab::energy {

int adagio_next(double t_comp, double t_lib, int cur, const std::vector<double>& speeds, int lo, int hi) {
  // t_copy (the MPI time spent copying, not waiting) is part of t_lib: 1 % of the elapsed time,
  // as SimGrid approximates it, but never more than t_lib.
  const double target = t_comp + t_lib - std::min(0.01 * (t_comp + t_lib), t_lib);
  for (int f = hi; f >= lo; --f)
    if (t_comp * speeds[static_cast<size_t>(cur)] / speeds[static_cast<size_t>(f)] <= target) return f;
  return lo;
}

int adagio_improved_next(double t_comp, double t_lib, int cur, const std::vector<double>& speeds, int lo, int hi,
                         double factor, double* t_min) {
  // No MPI time seen yet: slack is all there is to judge by, so Adagio's rule.
  if (*t_min < 0 || t_lib > *t_min * factor) {
    *t_min = *t_min < 0 ? t_lib : std::min(*t_min, t_lib);
    return adagio_next(t_comp, t_lib, cur, speeds, lo, hi);
  }
  *t_min = t_lib;
  return std::clamp(cur / 2, lo, hi);
}

}  // namespace simfab::energy
