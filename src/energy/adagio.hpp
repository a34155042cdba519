// Adagio and AdagioImproved (seed 001 §4.5, §4.6, Listings 4 and 5; [Rou+09]): application-level
// DVFS. A host's computation is a task; the MPI time after it, t_lib, is slack that a slower
// pstate can fill. When the next task starts, the last one is judged:
//     t_target = t_comp + t_lib - t_copy,  t_copy = min(1 % of t_comp + t_lib, t_lib)
//                                                   (SimGrid's 1 %; t_copy is part of t_lib)
//     time at f' = t_comp * speed(f) / speed(f')    (the worst case: fully compute-bound; the
//                                                   thesis prints the ratio inverted, erratum 3)
//     next pstate = the slowest f' whose time fits t_target, else the fastest allowed.
// The flaw the thesis proves (§9.3): t_target >= t_comp at the current pstate, so Adagio never
// picks a faster pstate than the current one: under temporal imbalance it ratchets down to the
// slowest pstate everywhere.
// AdagioImproved fixes it: with t_min the least MPI time seen so far on the host,
//     t_lib > t_min * factor   -> Adagio's rule (others keep us waiting: slow down)
//     otherwise                -> pstate i / 2 (halfway to the fastest), t_min = t_lib
// factor = energy/adagio-factor (the thesis does not give its value).
// Simplification: every computation of a host is the same task (simfab has no iteration or
// call-site markers yet), which is exact for one computation per iteration per rank.
#pragma once

#include <vector>

namespace simfab::energy {

// Adagio's choice for the next task: the last task took t_comp at pstate `cur` and was followed by
// t_lib of MPI time; speeds[p] per pstate; allowed pstates [lo, hi] (lo = fastest).
int adagio_next(double t_comp, double t_lib, int cur, const std::vector<double>& speeds, int lo, int hi);

// AdagioImproved's choice; *t_min is the host's least MPI time so far (negative: none yet).
int adagio_improved_next(double t_comp, double t_lib, int cur, const std::vector<double>& speeds, int lo, int hi,
                         double factor, double* t_min);

}  // namespace simfab::energy
