// Adagio and AdagioImproved (seed 001 §4.5, §4.6, Listings 4 and 5; [Rou+09]): application-level
// DVFS, one decision per task (the code between two MPI calls: mpi/call_sites.hpp). When a task
// has run and the MPI time after it, t_lib, is known (the host's next task starts), the pstate of
// the task's next execution is chosen:
//     t_target = t_comp + t_lib - t_copy,  t_copy = min(1 % of t_comp + t_lib, t_lib)
//                                                   (SimGrid's 1 %; t_copy is part of t_lib)
//     time at f' = t_comp * speed(f) / speed(f')    (the worst case: fully compute-bound; the
//                                                   thesis prints the ratio inverted, erratum 3)
//     next pstate = the slowest f' whose time fits t_target, else the fastest allowed.
// The flaw the thesis proves (§9.3): t_target >= t_comp at the current pstate, so Adagio never
// picks a faster pstate than the current one: under temporal imbalance it ratchets down to the
// slowest pstate everywhere.
// AdagioImproved fixes it: with t_min the least MPI time after this task over its last executions,
//     t_lib > t_min * factor   -> Adagio's rule (others keep us waiting: slow down)
//     otherwise                -> pstate i / 2 (halfway to the fastest), t_min = t_lib
// The thesis leaves two choices open, both keys: factor (energy/adagio-factor, "a specific factor
// to counter inevitable variation caused by noise") and how far back t_min looks
// (energy/adagio-window: the last W executions of the task, "over the last iterations"; 0 = all).
// "t_min = t_lib" on the speed-up branch (Listing 5) restarts the window with that one value.
#pragma once

#include <cstddef>
#include <vector>

namespace simfab::energy {

// Adagio's choice for the next task: the last task took t_comp at pstate `cur` and was followed by
// t_lib of MPI time; speeds[p] per pstate; allowed pstates [lo, hi] (lo = fastest).
int adagio_next(double t_comp, double t_lib, int cur, const std::vector<double>& speeds, int lo, int hi);

// The MPI times after a task's last `window` executions (0: all of them, then only their least is
// kept). O(window) per update.
class TminWindow {
 public:
  explicit TminWindow(size_t window = 0) : window_(window) {}
  bool empty() const { return seen_ == 0; }
  double t_min() const;  // REQUIRES: !empty()
  void push(double t_lib);
  void restart(double t_lib);  // Listing 5's t_min = t_lib

 private:
  size_t window_;
  size_t seen_ = 0;
  std::vector<double> ring_;  // the last min(seen_, window_) values; window 0: one, the least
};

// AdagioImproved's choice; `history` holds the task's past MPI times and is updated.
int adagio_improved_next(double t_comp, double t_lib, int cur, const std::vector<double>& speeds, int lo, int hi,
                         double factor, TminWindow* history);

}  // namespace simfab::energy
