#include "energy/adagio.hpp"

#include <algorithm>

namespace simfab::energy {

int adagio_next(double t_comp, double t_lib, int cur, const std::vector<double>& speeds, int lo, int hi) {
  // t_copy (the MPI time spent copying, not waiting) is part of t_lib: 1 % of the elapsed time,
  // as SimGrid approximates it, but never more than t_lib.
  const double target = t_comp + t_lib - std::min(0.01 * (t_comp + t_lib), t_lib);
  // The ratio first: at f = cur it is exactly 1, so the current pstate always fits (the flaw).
  for (int f = hi; f >= lo; --f)
    if (t_comp * (speeds[static_cast<size_t>(cur)] / speeds[static_cast<size_t>(f)]) <= target) return f;
  return lo;
}

double TminWindow::t_min() const { return *std::min_element(ring_.begin(), ring_.end()); }

void TminWindow::push(double t_lib) {
  ++seen_;
  if (window_ == 0) {
    if (ring_.empty()) ring_.push_back(t_lib); else ring_[0] = std::min(ring_[0], t_lib);
    return;
  }
  if (ring_.size() < window_) ring_.push_back(t_lib); else ring_[(seen_ - 1) % window_] = t_lib;
}

void TminWindow::restart(double t_lib) {
  ring_.clear();
  seen_ = 0;
  push(t_lib);
}

int adagio_improved_next(double t_comp, double t_lib, int cur, const std::vector<double>& speeds, int lo, int hi,
                         double factor, TminWindow* history) {
  // No MPI time seen yet: slack is all there is to judge by, so Adagio's rule.
  if (history->empty() || t_lib > history->t_min() * factor) {
    history->push(t_lib);
    return adagio_next(t_comp, t_lib, cur, speeds, lo, hi);
  }
  history->restart(t_lib);
  return std::clamp(cur / 2, lo, hi);
}

}  // namespace simfab::energy
