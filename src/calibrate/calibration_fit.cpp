#include "calibrate/calibration_fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "core/error.hpp"

namespace simfab::calibrate {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kDetachedRatio = 0.8;
constexpr double kLimiterMin = 0.5;  // the limiter factor's floor (calibration_fit.hpp step 6)

double median(std::vector<double> v) {
  SIMFAB_CHECK(!v.empty(), "median of nothing");
  const size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h), v.end());
  const double upper = v[h];
  if (v.size() % 2) return upper;
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h)) + upper) / 2;
}

std::map<Bytes, std::vector<double>> by_size(const std::vector<Point>& points) {
  std::map<Bytes, std::vector<double>> out;
  for (const Point& p : points) out[static_cast<Bytes>(p.x)].push_back(p.y);
  return out;
}

std::map<Bytes, double> medians(const std::vector<Point>& points) {
  std::map<Bytes, double> out;
  for (auto& [k, v] : by_size(points)) out[k] = median(std::move(v));
  return out;
}

std::string range_text(Bytes first, Bytes last) {
  return std::to_string(first) + ".." + (last == UINT64_MAX ? std::string("inf") : std::to_string(last)) + " B";
}

// The boundary b splitting sizes (sorted, with a label each: false below, true above) with the
// fewest misclassified (the first such split); none_above when the best split puts every size
// below, all_above when it puts every size above.
struct Split {
  bool none_above = false;  // all false
  bool all_above = false;   // all true
  Bytes boundary = 0;
};
Split best_split(const std::vector<std::pair<Bytes, bool>>& labels) {
  const size_t n = labels.size();
  size_t best = 0, best_errors = SIZE_MAX;
  size_t above_false = 0;  // false labels at >= t
  for (const auto& l : labels) above_false += l.second ? 0 : 1;
  size_t below_true = 0;
  for (size_t t = 0; t <= n; ++t) {
    const size_t errors = below_true + above_false;
    if (errors < best_errors) best_errors = errors, best = t;
    if (t == n) break;
    if (labels[t].second) ++below_true;
    else --above_false;
  }
  Split s;
  if (best == n) s.none_above = true;
  else if (best == 0) s.all_above = true;
  else s.boundary = round_boundary(labels[best - 1].first, labels[best].first);
  return s;
}

size_t count_in(const std::vector<Point>& points, double lo_exclusive, double hi_inclusive) {
  size_t n = 0;
  for (const Point& p : points) n += p.x > lo_exclusive && p.x <= hi_inclusive ? 1 : 0;
  return n;
}

std::string g4(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

Line clamp_line(Line line, const SegmentParams& s, const char* what, std::vector<std::string>& notes) {
  const Line out = non_negative(line, s.lo, s.hi);
  if (out.intercept != line.intercept || out.slope != line.slope)
    notes.push_back(std::string(what) + " of segment " + range_text(s.first, s.last) + " (" + g4(line.intercept) +
                    " s + " + g4(line.slope) + " s/B) has a negative term; made non-negative over its sizes: " +
                    g4(out.intercept) + " s + " + g4(out.slope) + " s/B");
  return out;
}

}  // namespace

const char* protocol_name(Protocol p) {
  switch (p) {
    case Protocol::kAsynchronous: return "asynchronous";
    case Protocol::kDetached: return "detached";
    case Protocol::kSynchronous: return "synchronous";
  }
  return "?";
}

const SegmentParams& CalibrationFit::segment_of(Bytes k) const {
  SIMFAB_CHECK(!segments.empty(), "a fit has segments");
  for (const SegmentParams& s : segments)
    if (k <= s.last) return s;
  return segments.back();
}

std::array<std::vector<Point>, kExperimentCount> kept_points(const CalibrationSamples& samples, double outlier_factor,
                                                             size_t* dropped, bool keep_best) {
  std::array<std::vector<Point>, kExperimentCount> out;
  size_t n_dropped = 0;
  for (size_t e = 0; e < kExperimentCount; ++e) {
    std::map<Bytes, std::vector<double>> groups;
    for (const Sample& s : samples.by_experiment[e]) groups[s.bytes].push_back(s.seconds);
    std::map<Bytes, double> limit;
    for (auto& [k, v] : groups)
      limit[k] = outlier_factor > 0 && v.size() >= 3 ? outlier_factor * median(v) : kInf;
    std::map<Bytes, double> best;  // keep_best: the fastest kept repetition per size
    for (const Sample& s : samples.by_experiment[e]) {
      if (s.seconds > limit[s.bytes]) {
        ++n_dropped;
        continue;
      }
      if (!keep_best) {
        out[e].push_back(Point{static_cast<double>(s.bytes), s.seconds});
        continue;
      }
      auto [it, added] = best.try_emplace(s.bytes, s.seconds);
      if (!added) it->second = std::min(it->second, s.seconds);
    }
    for (const auto& [k, t] : best) out[e].push_back(Point{static_cast<double>(k), t});
  }
  if (dropped) *dropped = n_dropped;
  return out;
}

std::vector<Spread> measurement_spread(const CalibrationSamples& samples, double outlier_factor) {
  const auto pts = kept_points(samples, outlier_factor);
  std::vector<Spread> out;
  for (size_t e = 0; e < kExperimentCount; ++e) {
    std::vector<double> per_size;
    for (auto& [k, v] : by_size(pts[e])) {
      if (v.size() < 2) continue;
      const double best = *std::min_element(v.begin(), v.end());
      if (best > 0) per_size.push_back((median(v) - best) / best);
    }
    if (per_size.empty()) continue;
    out.push_back(Spread{static_cast<Experiment>(e), median(per_size),
                         *std::max_element(per_size.begin(), per_size.end()), per_size.size()});
  }
  return out;
}

CalibrationFit fit_calibration(const CalibrationSamples& samples, const CalibrationOptions& options) {
  CalibrationFit fit;
  fit.source = samples.source;
  const SourceLoc where{samples.source, 0, 0};
  const auto pts = kept_points(samples, options.outlier_factor, &fit.outliers_dropped, options.keep_best);
  fit.best_of = options.keep_best;
  fit.spread = measurement_spread(samples, options.outlier_factor);
  for (const Spread& s : fit.spread) {
    const bool required = s.experiment == Experiment::kSend || s.experiment == Experiment::kRecv ||
                          s.experiment == Experiment::kPingpong;
    if (required && options.max_spread > 0 && s.median > options.max_spread)
      throw InputError(where, std::string("the measurements vary too much to fit: ") + experiment_name(s.experiment) +
                                  "'s repetitions spread " + g4(100 * s.median) +
                                  " % above their best (median over " + std::to_string(s.sizes) +
                                  " sizes), more than --max-spread " + g4(100 * options.max_spread) +
                                  " %; the machine was busy while calibrating: rerun the calibration on a quiet "
                                  "machine, or accept this spread with a larger --max-spread (0: never refuse)");
  }
  const auto& of = [&](Experiment e) -> const std::vector<Point>& { return pts[static_cast<size_t>(e)]; };
  for (Experiment e : {Experiment::kSend, Experiment::kRecv, Experiment::kPingpong})
    if (of(e).empty())
      throw InputError(where, std::string("no '") + experiment_name(e) +
                                  "' measurements; the fit needs send, recv and pingpong (simfab_calibrate writes "
                                  "them all)");
  if (fit.outliers_dropped)
    fit.notes.push_back("dropped " + std::to_string(fit.outliers_dropped) + " outliers (more than " +
                        g4(options.outlier_factor) + "x the median of their experiment and size)");
  double max_size = 0;
  for (Experiment e : {Experiment::kSend, Experiment::kRecv, Experiment::kPingpong, Experiment::kIsend})
    for (const Point& p : of(e)) max_size = std::max(max_size, p.x);
  const Bytes largest = static_cast<Bytes>(max_size);

  // 2. Protocol thresholds.
  const auto send_med = medians(of(Experiment::kSend)), recv_med = medians(of(Experiment::kRecv)),
             pp_med = medians(of(Experiment::kPingpong));
  const double delay = samples.late_delay_s;
  if (of(Experiment::kLateRecv).empty()) {
    fit.detached_threshold = largest;
    fit.notes.push_back("no late_recv measurements: every measured size taken as asynchronous");
  } else {
    std::vector<std::pair<Bytes, bool>> labels;  // true: the send waited for the receiver
    for (const auto& [k, late] : medians(of(Experiment::kLateRecv))) {
      const auto s = send_med.find(k);
      const double send = s == send_med.end() ? 0 : s->second;
      if (late - send >= delay / 2) labels.emplace_back(k, true);
      else if (late < delay / 2) labels.emplace_back(k, false);
    }
    const Split sd = best_split(labels);
    fit.detached_threshold = sd.none_above ? largest : sd.all_above ? 0 : sd.boundary;
  }
  {
    std::vector<std::pair<Bytes, bool>> labels;  // true: the data waited for the receive
    for (const auto& [k, send] : send_med) {
      if (k > fit.detached_threshold) break;
      const auto r = recv_med.find(k);
      const auto p = pp_med.find(k);
      if (r == recv_med.end() || p == pp_med.end()) continue;
      const double without_os = p->second / 2 - send;
      if (without_os > 0) labels.emplace_back(k, r->second / without_os >= kDetachedRatio);
    }
    const Split sa = best_split(labels);
    fit.async_threshold = sa.none_above ? fit.detached_threshold : sa.all_above ? 0 : sa.boundary;
  }
  // Ranges too thin to fit merge into their neighbour.
  const auto& sends = of(Experiment::kSend);
  const double sa = static_cast<double>(fit.async_threshold), sd = static_cast<double>(fit.detached_threshold);
  const size_t need = std::max<size_t>(2, options.min_samples);
  if (fit.async_threshold < fit.detached_threshold && count_in(sends, sa, sd) < need) {
    fit.notes.push_back("the detached range " + range_text(fit.async_threshold + 1, fit.detached_threshold) +
                        " holds too few measurements to fit; merged into the asynchronous one");
    fit.async_threshold = fit.detached_threshold;
  }
  if (fit.async_threshold > 0 && count_in(sends, -1, static_cast<double>(fit.async_threshold)) < need) {
    fit.notes.push_back("the asynchronous range 0.." + std::to_string(fit.async_threshold) +
                        " B holds too few measurements to fit; merged into the next one");
    fit.async_threshold = 0;
  }
  if (fit.detached_threshold < largest && count_in(sends, static_cast<double>(fit.detached_threshold), kInf) < need) {
    fit.notes.push_back("the synchronous range above " + std::to_string(fit.detached_threshold) +
                        " B holds too few measurements to fit; merged into the one below");
    fit.detached_threshold = largest;
  }
  fit.async_threshold = std::min(fit.async_threshold, fit.detached_threshold);

  // 3. The joint segmented fit.
  const bool have_isend = !of(Experiment::kIsend).empty();
  std::vector<Series> series{{"send", of(Experiment::kSend)}, {"recv", of(Experiment::kRecv)}};
  if (have_isend) series.push_back({"isend", of(Experiment::kIsend)});
  Series half{"pingpong", of(Experiment::kPingpong)};
  for (Point& p : half.points) p.y /= 2;
  series.push_back(std::move(half));
  if (!have_isend) fit.notes.push_back("no isend measurements: ois taken equal to os");
  SegmentedFitOptions so;
  so.max_segments = options.max_segments;
  so.min_samples = options.min_samples;
  so.search = so.final = options.weighting;
  so.automatic = options.automatic;
  so.forced = options.breakpoints;
  so.forced.push_back(fit.async_threshold);
  so.forced.push_back(fit.detached_threshold);
  so.source = samples.source;
  const SegmentedFit seg = fit_segmented(series, so);
  fit.boundaries = seg.boundaries;
  fit.samples_used = seg.samples;

  // 4. Per segment.
  const size_t pp = series.size() - 1;
  Line last_async_or{};
  for (const FitSegment& fs : seg.segments) {
    SegmentParams s;
    s.first = fs.first, s.last = fs.last, s.lo = fs.lo, s.hi = fs.hi;
    s.protocol = fs.hi <= sa ? Protocol::kAsynchronous : fs.hi <= sd ? Protocol::kDetached : Protocol::kSynchronous;
    s.send = fs.fits[0].line, s.recv = fs.fits[1].line, s.half_pingpong = fs.fits[pp].line;
    s.isend = have_isend ? fs.fits[2].line : s.send;
    for (size_t i = 0; i < 4; ++i) {
      const size_t idx = i == 3 ? pp : i;
      if (i == 2 && !have_isend) continue;
      s.r2[i] = fs.fits[idx].r2;
      s.count[i] = fs.fits[idx].count;
    }
    Line os, orr, transfer;
    switch (s.protocol) {
      case Protocol::kAsynchronous:
        os = s.send, orr = s.recv, transfer = s.half_pingpong - s.send - s.recv;
        break;
      case Protocol::kDetached:
        os = s.send, orr = last_async_or, transfer = s.recv - last_async_or;
        break;
      case Protocol::kSynchronous:
        os = s.half_pingpong - s.recv, orr = s.half_pingpong - s.send, transfer = s.send + s.recv - s.half_pingpong;
        if (transfer.at(s.lo) < 0 || transfer.at(s.hi) < 0) {
          fit.notes.push_back("segment " + range_text(s.first, s.last) +
                              ": send + recv < pingpong/2, which no os, or, T >= 0 reproduce; SimGrid's convention "
                              "used instead: os = or = 0, T = pingpong/2");
          os = orr = Line{}, transfer = s.half_pingpong;
        }
        break;
    }
    s.os = clamp_line(os, s, "os", fit.notes);
    s.orr = clamp_line(orr, s, "or", fit.notes);
    s.ois = clamp_line(s.isend, s, "ois", fit.notes);
    s.transfer = clamp_line(transfer, s, "the transfer time", fit.notes);
    if (s.protocol == Protocol::kAsynchronous) last_async_or = s.orr;
    s.latency_s = s.transfer.intercept;
    s.bandwidth_Bps = s.transfer.slope > 0 ? 1 / s.transfer.slope : kInf;
    fit.segments.push_back(s);
  }

  // 5. The platform link and the factors.
  fit.link_latency_s = fit.segments.front().latency_s;
  if (fit.link_latency_s <= 0) {
    fit.link_latency_s = kInf;
    for (const SegmentParams& s : fit.segments)
      if (s.latency_s > 0) fit.link_latency_s = std::min(fit.link_latency_s, s.latency_s);
    if (fit.link_latency_s == kInf) fit.link_latency_s = 0;
    fit.notes.push_back("the first segment's latency is 0: the link latency is the smallest positive one");
  }
  for (const SegmentParams& s : fit.segments)
    if (s.bandwidth_Bps < kInf) fit.link_bandwidth_Bps = std::max(fit.link_bandwidth_Bps, s.bandwidth_Bps);
  if (fit.link_bandwidth_Bps == 0) {
    fit.link_bandwidth_Bps = 1e12;
    fit.notes.push_back("no segment's transfer time grows with size: link bandwidth set to 1 TB/s");
  }
  for (SegmentParams& s : fit.segments) {
    s.lat_factor = fit.link_latency_s > 0 ? s.latency_s / fit.link_latency_s : 1;
    s.bw_factor = s.bandwidth_Bps < kInf ? s.bandwidth_Bps / fit.link_bandwidth_Bps : 1;
  }

  // 6. The limiter.
  if (!of(Experiment::kOneway).empty() && !of(Experiment::kBidir).empty()) {
    const double k = of(Experiment::kOneway).front().x;
    std::vector<double> one, bi;
    for (const Point& p : of(Experiment::kOneway)) one.push_back(p.y);
    for (const Point& p : of(Experiment::kBidir)) bi.push_back(p.y);
    const double t_one = median(one), t_bi = median(bi);
    const SegmentParams& s = fit.segment_of(static_cast<Bytes>(k));
    const double c = s.bandwidth_Bps < kInf ? std::max(0.0, t_one - k / s.bandwidth_Bps) : 0;
    if (t_bi > c && t_one > c) {
      const double b_one = k / (t_one - c), r_b = k / (t_bi - c);
      fit.bidir_ratio = 2 * r_b / b_one;
      const double lf = *fit.bidir_ratio * s.bw_factor;
      fit.limiter_factor = std::clamp(lf, kLimiterMin, 2.0);
      if (lf != *fit.limiter_factor)
        fit.notes.push_back("limiter factor " + g4(lf) + " clamped to " + g4(*fit.limiter_factor) + " (the model covers " +
                            g4(kLimiterMin) + ": both directions together at half speed .. 2: both at full speed)");
    } else {
      fit.notes.push_back("oneway/bidir times are not above their fixed cost: no limiter");
    }
  } else {
    fit.notes.push_back("no oneway/bidir measurements: no limiter link");
  }

  // 7. LogGOPS.
  const SegmentParams& first = fit.segments.front();
  fit.loggops_o_ps = first.os.intercept * 1e12;
  fit.loggops_O_ps_per_byte = first.os.slope * 1e12;
  fit.loggops_L_ps = first.transfer.intercept * 1e12;
  fit.loggops_G_ps_per_byte = fit.segments.back().transfer.slope * 1e12;
  fit.loggops_S = fit.detached_threshold;
  if (!of(Experiment::kGap).empty()) {
    std::vector<double> g;
    for (const Point& p : of(Experiment::kGap)) g.push_back(p.y);
    fit.loggops_g_ps = median(g) * 1e12;
  } else {
    fit.loggops_g_ps = first.ois.at(1) * 1e12;
    fit.notes.push_back("no gap measurements: LogGOPS g taken as ois(1)");
  }

  // 8. Host speed, and the contention summary.
  if (!of(Experiment::kCompute).empty()) {
    std::vector<double> rates;
    for (const Point& p : of(Experiment::kCompute)) rates.push_back(p.x / p.y);
    fit.host_speed_flops = median(rates);
  } else {
    fit.notes.push_back("no compute measurements: no host speed (the platform gets 1 Gf)");
  }
  if (fit.host_speed_flops && !of(Experiment::kReduce).empty()) {
    std::vector<double> per_element;
    for (const Point& p : of(Experiment::kReduce)) per_element.push_back(p.y / p.x);
    fit.reduce_flops_per_element = *fit.host_speed_flops * median(per_element);
  }
  const auto next_calls = medians(of(Experiment::kNextCall));
  for (const auto& [op, first] : medians(of(Experiment::kFirstCall))) {
    const auto next = next_calls.find(op);
    if (next != next_calls.end()) fit.first_call_s.emplace_back(op, std::max(0.0, first - next->second));
  }
  for (const auto& [bytes, times] : by_size(of(Experiment::kContention))) {
    const double pairs = std::round(static_cast<double>(bytes) / 4194304.0);
    fit.contention.push_back(ContentionPoint{static_cast<int>(pairs), static_cast<double>(bytes) / median(times)});
  }
  return fit;
}

}  // namespace simfab::calibrate
