// Host power as a function of load and pstate (seed 001 §2.13, §4.1; spec digest §6 A test 1).
//
// A host of N cores runs n computations at pstate p; u = min(n, N) / N. With the pstate's triple
// (Idle, Middle, AllCores) the power is affine in the number of busy cores once any core works:
//     P(n) = Idle                                  n = 0  (the static power is not drawn: C-states)
//     P(n) = base + per_core * min(n, N)           n >= 1
// The thesis (and SimGrid until 3.2x) reads Middle as "exactly one core busy" (kOneCore):
//     per_core = (AllCores - OneCore) / (N - 1),   base = OneCore - per_core   (N = 1: per_core = 0,
//     base = OneCore), so P(1) = OneCore and P(N) = AllCores; as a function of u this is
//     P(u) = OneCore + (u - 1/N) * (AllCores - OneCore) / (1 - 1/N).
// SimGrid 3.32 reads it as "Epsilon", the power at an infinitesimal load (kEpsilon):
//     P(u) = Epsilon + u * (AllCores - Epsilon):  base = Epsilon, per_core = (AllCores - Epsilon) / N.
// Energy over an interval of constant (n, p) is P * duration: the meter (energy_meter.hpp)
// integrates it exactly, piecewise. O(1) per evaluation.
#pragma once

#include <algorithm>

#include "platform/cpu_profile.hpp"

namespace simfab::energy {

enum class MiddleValue { kOneCore, kEpsilon };

struct PowerLine {
  double idle_w = 0;
  double base_w = 0;
  double per_core_w = 0;
  int cores = 1;

  double watts(int busy) const {
    return busy <= 0 ? idle_w : base_w + per_core_w * std::min(busy, cores);
  }
};

inline PowerLine power_line(const PstatePower& w, int cores, MiddleValue middle) {
  PowerLine l;
  l.idle_w = w.idle_w;
  l.cores = std::max(1, cores);
  if (middle == MiddleValue::kEpsilon) {
    l.base_w = w.one_core_w;
    l.per_core_w = (w.all_cores_w - w.one_core_w) / l.cores;
  } else {
    l.per_core_w = l.cores == 1 ? 0.0 : (w.all_cores_w - w.one_core_w) / (l.cores - 1);
    l.base_w = w.one_core_w - l.per_core_w;
  }
  return l;
}

}  // namespace simfab::energy
