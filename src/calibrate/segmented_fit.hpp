// Piecewise-linear regression on raw samples, with the breakpoints found from the data: the
// regression behind SMPI's calibration (seed 003 §IV-A: "piece-wise linear regression" on "all
// raw measurements", "without any a priori assumptions on where switching may occur") and
// LogGOPSim's o/O fits (seed 004 §5.3, one line per protocol).
//
// Model. Samples (x_i, y_i) of one or more series (say the times of MPI_Send and MPI_Recv at
// message size x). The sizes are cut into K segments by boundaries b_1 < ... < b_{K-1}, segment j
// covering b_{j-1} < x <= b_j (closed on the right, as seed 003 writes its thresholds; b_0 = -inf,
// b_K = +inf), and within segment j every series s follows its own line
//   y = a_{s,j} + c_{s,j} x.
// All series share the boundaries (SimGrid's tables share theirs: taurus's os, or, ois, bw- and
// lat-factor all break at 1420, 33500, 65536, 320000).
//
// Least squares. With weights w_i, a line's cost over its samples is
//   RSS = sum_i w_i (y_i - a - c x_i)^2.
// Weighting::kRelative uses w_i = 1 / y_i^2, i.e. squared relative residuals: MPI times span six
// decades (0.1 us to 0.1 s), and an unweighted fit over a wide segment is ruled by its largest
// times (the intercept of a 300 KB..64 MB segment would carry milliseconds of noise).
// Weighting::kOrdinary uses w_i = 1 (plain OLS, what seed 004's Table 5.3 fits are: the large-
// message table gives exactly o = 32 us, O = 0.000065 us/B). For numerical range the fit runs on
// x / X and y / Y (X, Y: the series' largest size and time), as the regression without intercept
//   t_i = a u_i + c v_i,   relative: u = 1/y, v = x/y, t = 1;   ordinary: u = 1, v = x, t = y,
// whose normal equations [Suu Suv; Suv Svv] (a, c) = (Sut, Svt) give
//   RSS = Stt - a Sut - c Svt,     R^2 = 1 - RSS / (Stt - Sut^2 / Suu).
// A segment whose samples all have one size gets slope 0 and the (weighted) mean.
//
// Breakpoints. The candidate boundaries lie between consecutive distinct sizes u_0 < ... < u_{m-1}
// (of all series together). For each K, dynamic programming finds the cut minimising the total
//   RSS_K = min over cuts of  sum_segments sum_series RSS_{s,j}
//   D[k][j] = min_{i<j} D[k-1][i] + cost(u_i .. u_{j-1}),    D[0][0] = 0,
// where a segment is allowed only with at least min_samples samples of every series and two
// distinct sizes, and never across a forced boundary. K is then chosen by the Bayesian
// information criterion over the N samples,
//   BIC(K) = N ln(RSS_K / N) + p_K ln N,    p_K = 2 S K + (K - R)
// (S series with 2 coefficients per segment, plus each free boundary; R = the segments the forced
// boundaries alone make), K from R to max(max_segments, R); ties go to the smaller K. The search
// uses options.search's weighting, the final coefficients options.final's, both on the raw samples.
// A boundary found between sizes u_{i-1} < u_i is reported as b in [u_{i-1}, u_i): a power of two
// if the gap holds one, else its roundest decimal (fewest significant digits), the one nearest the
// gap's geometric middle; any b in the gap splits the samples the same way.
//
// Cost: for each K, each segment end j accumulates the sums leftwards from j (no subtraction of
// prefix sums, which loses digits when the weights span twelve decades): O(K m^2 S) time, O(m S)
// memory (plus O(K m) back pointers). 1000 distinct sizes, 4 series, K <= 6: 24e6 steps.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab::calibrate {

struct Point {
  double x = 0;  // message size, bytes (>= 0)
  double y = 0;  // time, seconds (> 0 for relative weighting)
};

enum class Weighting : uint8_t { kRelative, kOrdinary };

struct Line {
  double intercept = 0;
  double slope = 0;
  double at(double x) const { return intercept + slope * x; }
};
inline Line operator+(Line p, Line q) { return {p.intercept + q.intercept, p.slope + q.slope}; }
inline Line operator-(Line p, Line q) { return {p.intercept - q.intercept, p.slope - q.slope}; }

struct LineFit {
  Line line;
  double rss = 0;  // in the fit's weighting, on the scaled values (relative: a sum of squared
                   // relative residuals)
  double r2 = 1;   // 1 when the samples do not vary
  size_t count = 0;
};

// The least-squares line through `points`. REQUIRES: points non-empty; y > 0 for kRelative.
LineFit fit_line(std::span<const Point> points, Weighting weighting);

struct Series {
  std::string name;  // for error messages ("send")
  std::vector<Point> points;
};

struct SegmentedFitOptions {
  size_t max_segments = 6;
  size_t min_samples = 6;  // per series and segment (at least 2 are always required)
  Weighting search = Weighting::kRelative;
  Weighting final = Weighting::kRelative;
  // Boundaries every fit must have (sizes <= b and > b fall in different segments); those outside
  // the samples' range are dropped. With automatic = false the segments are exactly these.
  std::vector<Bytes> forced;
  bool automatic = true;
  std::string source;  // names the input in errors
};

struct FitSegment {
  Bytes first = 0;         // sizes first..last; first = 0 for the first segment
  Bytes last = UINT64_MAX; // UINT64_MAX for the last segment
  double lo = 0, hi = 0;   // the smallest and largest sample size in it
  std::vector<LineFit> fits;  // one per series, in the order given
};

struct SegmentedFit {
  std::vector<Bytes> boundaries;     // b_1 < ... < b_{K-1}
  std::vector<FitSegment> segments;  // K >= 1
  double bic = 0;
  size_t samples = 0;                // N
};

// Fits the series jointly. Throws InputError (at options.source) when a series has no samples or
// a segment the forced boundaries make has fewer than min_samples samples of some series or a
// single size; the message names the segment, the series and the counts.
SegmentedFit fit_segmented(std::span<const Series> series, const SegmentedFitOptions& options);

// The boundary reported for a break between sizes below < above: b with below <= b < above, as
// described above. REQUIRES: below < above.
Bytes round_boundary(Bytes below, Bytes above);

// The non-negative line closest to `line` over [lo, hi] (flow tables take no negative values): its
// values at lo and hi clamped at 0 and joined; a falling line becomes their mean; a line then
// negative at 0 is taken through 0 and its value at hi. Unchanged when already >= 0 with
// intercept >= 0 and slope >= 0. REQUIRES: 0 <= lo <= hi.
Line non_negative(Line line, double lo, double hi);

}  // namespace simfab::calibrate
