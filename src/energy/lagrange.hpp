// The Lagrange governor (seed 001 §4.7, thesis §9.3.2): per host i, per task, one step of the
// alternating direction method of multipliers (ADMM) on
//     minimise  sum_i [ f_i W_i (E^i(f_i) - E^i_idle) + s E^i_idle ]   s.t.  f_i W_i = t_i,  t_i <= s
// (f_i = the inverse speed, W_i the work, so f_i W_i is the compute time; s the iteration's
// compute bound; A = diag(W), B = -I, c = 0, and the augmented term (rho/2)(f W - t - lambda)^2
// separates per host). Each time the host's task has run, with T(f) = its compute time at pstate f
// (the measured time scaled by the speed ratio, fully compute-bound as Adagio assumes):
//   1. frequency:  f <- argmin over the allowed pstates of  g(f) + (rho/2)(T(f) - t - lambda)^2
//                  g(f) = T(f) E(f) + max(0, s - T(f)) E_idle      (busy energy, then idle until s)
//                  The thesis prints g(f) = T(f) E(f) + min(s, T(f)) E_idle; the form above is the
//                  physically consistent one (seed 001 §4.7, INFERRED) and the default;
//                  energy/lagrange-idle=printed selects the printed one. Ties: the faster pstate.
//   2. time:       t <- min(T(f) - lambda, s)
//   3. dual:       lambda <- lambda - (T(f) - t)
//                  The thesis prints lambda <- lambda + (T(f) - t). With its own penalty
//                  (f W - t - lambda)^2 the scaled dual variable is u = -lambda, and ADMM's update
//                  u <- u + (A x + B z - c) gives the sign above: lambda then integrates how far
//                  T exceeds s and steers back (it returns to 0 once t = T - lambda). The printed
//                  sign doubles lambda at every step once T - lambda <= s, and on a host whose
//                  compute time exceeds s (the critical path) drives it to the slowest pstate
//                  within a few iterations; energy/lagrange-dual=printed selects it (to see that).
// s is not global: s = overlay * the task's last span (its compute plus the MPI time after it,
// until the host's next task starts), overlay = energy/lagrange-overlay (the thesis's
// "overlayable_iteration_time", 0.95); rho = energy/lagrange-rho (10; J/s^2, so the penalty is in
// joules like g). First execution of a task: t = its measured time, lambda = 0. Units: seconds,
// watts, joules. Cost: O(pstates) per step.
#pragma once

#include <vector>

namespace simfab::energy {

struct LagrangeParams {
  double rho = 10;
  double overlay = 0.95;
  bool printed_idle = false;  // g's idle term as printed: min(s, T) E_idle
  bool printed_dual = false;  // lambda <- lambda + (T - t), as printed
};

struct LagrangeState {
  double t = 0;
  double lambda = 0;
};

// One step. time_at[p]: the task's compute time at pstate p (s); busy_w[p], idle_w[p]: the host's
// power computing it and idle at p (W); allowed pstates [lo, hi]; s: the compute bound. Returns
// the pstate; updates *st (t, lambda).
int lagrange_step(const std::vector<double>& time_at, const std::vector<double>& busy_w,
                  const std::vector<double>& idle_w, int lo, int hi, double s, const LagrangeParams& params,
                  LagrangeState* st);

}  // namespace simfab::energy
