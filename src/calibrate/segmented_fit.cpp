#include "calibrate/segmented_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace simfab::calibrate {

namespace {

// The sums of one regression t = a u + c v (see the header), in long double: the relative
// weights make Suu span twelve decades between a 1 us and a 0.1 s segment.
struct Sums {
  long double n = 0, uu = 0, uv = 0, vv = 0, ut = 0, vt = 0, tt = 0;

  void add(const Sums& o) {
    n += o.n, uu += o.uu, uv += o.uv, vv += o.vv, ut += o.ut, vt += o.vt, tt += o.tt;
  }
};

struct Scale {
  double x = 1, y = 1;
};

Sums sums_of(const Point& p, Weighting w, Scale s) {
  const long double x = p.x / s.x;
  long double u = 1, v = x, t = p.y / s.y;
  if (w == Weighting::kRelative) u = 1 / t, v = x / t, t = 1;
  return Sums{1, u * u, u * v, v * v, u * t, v * t, t * t};
}

struct Solved {
  long double a = 0, c = 0, rss = 0, tss = 0;
};

Solved solve(const Sums& s) {
  Solved r;
  const long double det = s.uu * s.vv - s.uv * s.uv;
  if (s.uu <= 0) return r;
  if (det <= 1e-12L * s.uu * s.vv) {  // one size: no slope, the weighted mean
    r.a = s.ut / s.uu;
  } else {
    r.a = (s.ut * s.vv - s.vt * s.uv) / det;
    r.c = (s.vt * s.uu - s.ut * s.uv) / det;
  }
  r.rss = std::max(0.0L, s.tt - r.a * s.ut - r.c * s.vt);
  r.tss = std::max(0.0L, s.tt - s.ut * s.ut / s.uu);
  return r;
}

LineFit line_fit(const Sums& s, Scale scale) {
  const Solved r = solve(s);
  LineFit f;
  f.line.intercept = static_cast<double>(r.a) * scale.y;
  f.line.slope = static_cast<double>(r.c) * scale.y / scale.x;
  f.rss = static_cast<double>(r.rss);
  f.r2 = r.tss > 0 ? static_cast<double>(1 - r.rss / r.tss) : 1.0;
  f.count = static_cast<size_t>(s.n);
  return f;
}

Scale scale_of(std::span<const Point> points) {
  Scale s{0, 0};
  for (const Point& p : points) s.x = std::max(s.x, p.x), s.y = std::max(s.y, std::abs(p.y));
  if (s.x <= 0) s.x = 1;
  if (s.y <= 0) s.y = 1;
  return s;
}

std::string size_range(Bytes first, Bytes last) {
  return std::to_string(first) + ".." + (last == UINT64_MAX ? std::string("inf") : std::to_string(last)) + " B";
}

// Significant decimal digits of v (1200 -> 2, 1024 -> 4).
int significant_digits(Bytes v) {
  if (v == 0) return 1;
  while (v % 10 == 0) v /= 10;
  int d = 0;
  for (; v; v /= 10) ++d;
  return d;
}

// Per series, per distinct size group: the sums of its samples there, in both weightings.
struct Grouped {
  std::vector<double> sizes;                // u_0 < ... < u_{m-1}
  std::vector<std::vector<Sums>> search;    // [series][group]
  std::vector<std::vector<Sums>> final;     // [series][group]
  std::vector<std::vector<uint32_t>> count; // [series][group]
  std::vector<Scale> search_scale, final_scale;
};

Grouped group(std::span<const Series> series, const SegmentedFitOptions& o) {
  Grouped g;
  for (const Series& s : series)
    for (const Point& p : s.points) g.sizes.push_back(p.x);
  std::sort(g.sizes.begin(), g.sizes.end());
  g.sizes.erase(std::unique(g.sizes.begin(), g.sizes.end()), g.sizes.end());
  const size_t m = g.sizes.size();
  for (const Series& s : series) {
    const Scale sc = scale_of(s.points);
    g.search_scale.push_back(sc);
    g.final_scale.push_back(sc);
    g.search.emplace_back(m);
    g.final.emplace_back(m);
    g.count.emplace_back(m, 0);
    for (const Point& p : s.points) {
      const size_t i = static_cast<size_t>(std::lower_bound(g.sizes.begin(), g.sizes.end(), p.x) - g.sizes.begin());
      g.search.back()[i].add(sums_of(p, o.search, sc));
      g.final.back()[i].add(sums_of(p, o.final, sc));
      ++g.count.back()[i];
    }
  }
  return g;
}

}  // namespace

LineFit fit_line(std::span<const Point> points, Weighting weighting) {
  SIMFAB_CHECK(!points.empty(), "fit_line needs samples");
  const Scale sc = scale_of(points);
  Sums s;
  for (const Point& p : points) s.add(sums_of(p, weighting, sc));
  return line_fit(s, sc);
}

Bytes round_boundary(Bytes below, Bytes above) {
  SIMFAB_CHECK(below < above, "round_boundary needs below < above");
  const double middle = std::sqrt(static_cast<double>(below) * static_cast<double>(above));
  const auto nearer = [&](Bytes a, Bytes b) {  // is a nearer the middle than b (in log terms)?
    const auto dist = [&](Bytes v) { return std::abs(std::log((static_cast<double>(v) + 0.5) / (middle + 0.5))); };
    return dist(a) < dist(b);
  };
  bool found = false;
  Bytes best = below;
  for (Bytes p = 1; p != 0 && p < above; p <<= 1)
    if (p >= below && (!found || nearer(p, best))) best = p, found = true;
  if (found) return best;
  // The roundest decimal in [below, above): for each power of ten, the multiples of it there.
  int best_digits = 100;
  for (Bytes step = 1;; step *= 10) {
    const Bytes start = (below + step - 1) / step * step;
    if (start >= above) break;
    for (Bytes v = start; v < above && v - start < 10 * step; v += step) {
      const int d = significant_digits(v);
      if (d < best_digits || (d == best_digits && nearer(v, best))) best = v, best_digits = d;
    }
    if (step > UINT64_MAX / 10) break;
  }
  return best;
}

Line non_negative(Line line, double lo, double hi) {
  if (line.intercept >= 0 && line.slope >= 0) return line;
  const double v_lo = std::max(0.0, line.at(lo)), v_hi = std::max(0.0, line.at(hi));
  Line out;
  out.slope = hi > lo ? (v_hi - v_lo) / (hi - lo) : 0;
  if (out.slope < 0) return Line{(v_lo + v_hi) / 2, 0};
  out.intercept = v_lo - out.slope * lo;
  if (out.intercept < 0) out = Line{0, hi > 0 ? v_hi / hi : 0};
  return out;
}

SegmentedFit fit_segmented(std::span<const Series> series, const SegmentedFitOptions& o) {
  const SourceLoc where{o.source, 0, 0};
  if (series.empty()) throw InputError(where, "nothing to fit");
  for (const Series& s : series)
    if (s.points.empty()) throw InputError(where, "no '" + s.name + "' samples to fit");
  const size_t min_samples = std::max<size_t>(2, o.min_samples);
  const Grouped g = group(series, o);
  const size_t m = g.sizes.size(), ns = series.size();

  // Forced boundaries inside the samples' range, and the region (between them) of each group.
  std::vector<Bytes> forced;
  for (Bytes b : o.forced)
    if (static_cast<double>(b) >= g.sizes.front() && static_cast<double>(b) < g.sizes.back()) forced.push_back(b);
  std::sort(forced.begin(), forced.end());
  forced.erase(std::unique(forced.begin(), forced.end()), forced.end());
  std::vector<uint32_t> region(m);
  for (size_t i = 0; i < m; ++i)
    region[i] = static_cast<uint32_t>(std::lower_bound(forced.begin(), forced.end(), g.sizes[i]) - forced.begin());

  // Each region must be fittable on its own (else no cut is).
  {
    std::vector<size_t> starts{0};
    for (size_t i = 1; i < m; ++i)
      if (region[i] != region[i - 1]) starts.push_back(i);
    starts.push_back(m);
    const size_t expected = forced.size() + 1;
    for (size_t r = 0; r < expected; ++r) {
      const Bytes first = r == 0 ? 0 : forced[r - 1] + 1, last = r == forced.size() ? UINT64_MAX : forced[r];
      const auto it = std::find_if(region.begin(), region.end(), [&](uint32_t v) { return v == r; });
      size_t lo = static_cast<size_t>(it - region.begin()), hi = lo;
      while (hi < m && region[hi] == r) ++hi;
      for (size_t s = 0; s < ns; ++s) {
        size_t n = 0, sizes = 0;
        for (size_t i = lo; i < hi; ++i) n += g.count[s][i], sizes += g.count[s][i] ? 1 : 0;
        if (n < min_samples || sizes < 2)
          throw InputError(where, "segment " + std::to_string(r + 1) + " (" + size_range(first, last) + ") has " +
                                      std::to_string(n) + " '" + series[s].name + "' samples at " +
                                      std::to_string(sizes) + " distinct sizes; at least " +
                                      std::to_string(min_samples) +
                                      " samples at 2 sizes are needed (move or drop the breakpoint, or measure more "
                                      "sizes there)");
      }
    }
  }
  const size_t regions = forced.size() + 1;
  const size_t max_k = o.automatic ? std::max(o.max_segments, regions) : regions;

  // Dynamic programming over K: D[k][j] for groups [0, j) cut into k segments.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> dp(max_k + 1, std::vector<double>(m + 1, kInf));
  std::vector<std::vector<uint32_t>> back(max_k + 1, std::vector<uint32_t>(m + 1, 0));
  dp[0][0] = 0;
  std::vector<Sums> acc(ns);
  std::vector<size_t> counts(ns);
  for (size_t k = 1; k <= max_k; ++k) {
    for (size_t j = 1; j <= m; ++j) {
      std::fill(acc.begin(), acc.end(), Sums{});
      std::fill(counts.begin(), counts.end(), 0);
      double best = kInf;
      uint32_t arg = 0;
      for (size_t i = j; i-- > 0;) {
        if (region[i] != region[j - 1]) break;
        bool enough = j - i >= 2;
        for (size_t s = 0; s < ns; ++s) {
          acc[s].add(g.search[s][i]);
          counts[s] += g.count[s][i];
          enough = enough && counts[s] >= min_samples;
        }
        if (!enough || dp[k - 1][i] == kInf) continue;
        double cost = dp[k - 1][i];
        for (size_t s = 0; s < ns; ++s) cost += static_cast<double>(solve(acc[s]).rss);
        if (cost < best) best = cost, arg = static_cast<uint32_t>(i);
      }
      dp[k][j] = best;
      back[k][j] = arg;
    }
  }

  size_t n_total = 0;
  for (const Series& s : series) n_total += s.points.size();
  const double n = static_cast<double>(n_total);
  size_t best_k = 0;
  double best_bic = kInf;
  for (size_t k = regions; k <= max_k; ++k) {
    if (dp[k][m] == kInf) continue;
    const double rss = std::max(dp[k][m], 1e-18 * n);
    const double params = static_cast<double>(2 * ns * k + (k - regions));
    const double bic = n * std::log(rss / n) + params * std::log(n);
    if (bic < best_bic) best_bic = bic, best_k = k;
  }
  SIMFAB_CHECK(best_k > 0, "every region was checked fittable");

  // Back to the cut, then the final coefficients on each segment's raw samples.
  std::vector<size_t> starts(best_k + 1);
  starts[best_k] = m;
  for (size_t k = best_k, j = m; k > 0; --k) j = starts[k - 1] = back[k][j];
  SegmentedFit out;
  out.bic = best_bic;
  out.samples = n_total;
  for (size_t k = 0; k < best_k; ++k) {
    FitSegment seg;
    const size_t lo = starts[k], hi = starts[k + 1];
    seg.lo = g.sizes[lo];
    seg.hi = g.sizes[hi - 1];
    if (k > 0) {
      const Bytes below = static_cast<Bytes>(g.sizes[lo - 1]), above = static_cast<Bytes>(g.sizes[lo]);
      // A forced boundary stays as given; a found one is rounded within its gap.
      const auto f = std::find_if(forced.begin(), forced.end(), [&](Bytes b) { return b >= below && b < above; });
      out.boundaries.push_back(f != forced.end() ? *f : round_boundary(below, above));
      seg.first = out.boundaries.back() + 1;
      out.segments.back().last = out.boundaries.back();
    }
    for (size_t s = 0; s < ns; ++s) {
      Sums sum;
      for (size_t i = lo; i < hi; ++i) sum.add(g.final[s][i]);
      seg.fits.push_back(line_fit(sum, g.final_scale[s]));
    }
    out.segments.push_back(std::move(seg));
  }
  return out;
}

}  // namespace simfab::calibrate
