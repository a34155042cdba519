// DetourTrace: OS noise as a periodic list of detours (intervals during which the OS, not the
// application, holds a rank's CPU), and the time algebra the noise rules need.
//
// One period of the trace covers trace time [0, P). It holds n detours [s_i, e_i), e_i = s_i + d_i,
// with
//   0 <= s_0,  s_i + d_i <= s_{i+1} (sorted, non-overlapping; touching is allowed),
//   e_{n-1} <= P,  d_i > 0,  D = sum d_i < P (some time is left for the application).
// The trace repeats: detour i of period k is [s_i + kP, e_i + kP), for every k >= 0 (LogGOPSim
// wraps around its trace the same way).
//
// Prefix sums, for i = 0..n:  cum_i = d_0 + ... + d_{i-1}   (cum_n = D)
//                             Fs_i  = s_i - cum_i            (free time before detour i; Fs_n = P - D,
//                                                             with the sentinel s_n = P)
// Queries (x, u in ps of trace time; every one O(log n), no allocation):
//   remainder(u), u in [0, P)    e_i - u for the detour with s_i <= u < e_i, else 0
//   starts_before(x), x >= 0     the detours of the periodic extension with start < x:
//                                count = floor(x/P) n + #{i : s_i < x mod P},
//                                time  = floor(x/P) D + cum_{#{i : s_i < x mod P}}
//   free_time(u), u in [0, P)    F(u) = time in [0, u) outside detours:
//                                Fs_{j-1} if u is inside detour j-1 (j = #{i : s_i <= u}), else u - cum_j
//   free_end(u, c), c > 0        the smallest y > u with F(y) - F(u) = c over the periodic extension:
//                                the end of an interval that starts at u and needs c of free time.
//                                With T = F(u) + c, Phi = P - D, k = (T - 1) div Phi, r = T - k Phi
//                                (so 1 <= r <= Phi): y = kP + s_j - (Fs_j - r) for the smallest j in
//                                0..n with Fs_j >= r (y lands at the end of free time, never after
//                                a detour that starts exactly when the work is done).
// Arithmetic is in 128 bits where periods multiply; callers bound the results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simfab::noise {

struct Detour {
  int64_t start_ps = 0;
  int64_t duration_ps = 0;
};

// A count and a total duration of detours.
struct DetourSum {
  __int128 count = 0;
  __int128 time_ps = 0;
};

class DetourTrace {
 public:
  // REQUIRES (SIMFAB_CHECK): the invariants above. Readers (noise_trace_file.hpp, the synthetic
  // keys) check them first and report bad input.
  DetourTrace(std::vector<Detour> detours, int64_t period_ps);

  int64_t period_ps() const { return period_; }
  size_t size() const { return detours_.size(); }
  int64_t busy_ps() const { return cum_.back(); }  // D
  const std::vector<Detour>& detours() const { return detours_; }

  int64_t remainder(int64_t u) const;
  DetourSum starts_before(__int128 x) const;
  int64_t free_time(int64_t u) const;
  __int128 free_end(int64_t u, int64_t c) const;

 private:
  // #{i : s_i < x} for x in [0, P].
  size_t starts_below(int64_t x) const;
  std::vector<Detour> detours_;
  std::vector<int64_t> starts_;  // s_i, and the sentinel s_n = P
  std::vector<int64_t> cum_;     // cum_0..cum_n
  int64_t period_;
};

}  // namespace simfab::noise
