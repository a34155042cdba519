#include "calibrate/calibration_output.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include <nlohmann/json.hpp>

#include "mpi/coll/registry.hpp"

namespace simfab::calibrate {

namespace {

using Json = nlohmann::ordered_json;

std::string g9(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string g4(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string range_text(Bytes first, Bytes last) {
  return std::to_string(first) + ".." + (last == UINT64_MAX ? std::string("inf") : std::to_string(last)) + " B";
}

// "0.0512 us + 1.23 ps/B"
std::string line_text(Line l) { return g4(l.intercept * 1e6) + " us + " + g4(l.slope * 1e12) + " ps/B"; }

std::string bandwidth_text(double bps) {
  return std::isfinite(bps) ? g4(bps / 1e9) + " GB/s" : std::string("unbounded");
}

Json line_json(Line l) { return Json{{"intercept_s", l.intercept}, {"slope_s_per_byte", l.slope}}; }

Json finite_or_null(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

std::vector<Point> curve(const SegmentParams& s, bool first, bool last, Line line, double scale) {
  double x0 = first ? s.lo : static_cast<double>(s.first), x1 = last ? s.hi : static_cast<double>(s.last);
  if (x0 <= 0) x0 = std::max(1.0, s.lo);
  if (x1 < x0) x1 = x0;
  std::vector<Point> out;
  constexpr int kSteps = 24;
  for (int i = 0; i <= kSteps; ++i) {
    const double x = x0 * std::pow(x1 / x0, i / static_cast<double>(kSteps));
    out.push_back(Point{x, scale * line.at(x)});
  }
  return out;
}

// "fitted the best repetition per size; spread pingpong 30 %, send 11 %, ..." (calibration_fit.hpp).
std::string spread_text(const CalibrationFit& fit) {
  std::string out = fit.best_of ? "fitted the best repetition per size" : "fitted every repetition";
  for (size_t i = 0; i < fit.spread.size(); ++i)
    out += std::string(i ? ", " : "; repetitions spread above their best: ") + experiment_name(fit.spread[i].experiment) +
           " " + g4(100 * fit.spread[i].median) + " %";
  return out;
}

// mpi/first-call's table: "allreduce=1.2e-05;bcast=7e-06" (collective names of coll::CollOp).
std::string first_call_table(const CalibrationFit& fit) {
  std::string out;
  for (const auto& [op, seconds] : fit.first_call_s)
    out += (out.empty() ? "" : ";") + std::string(coll::coll_op_name(static_cast<coll::CollOp>(op))) + "=" + g4(seconds);
  return out;
}

}  // namespace

std::string overhead_table(const CalibrationFit& fit, Line SegmentParams::*line) {
  std::string out;
  for (const SegmentParams& s : fit.segments) {
    const Line l = s.*line;
    out += (out.empty() ? "" : ";") + std::to_string(s.first) + ":" + g9(l.intercept) + ":" + g9(l.slope);
  }
  return out;
}

std::string factor_table(const CalibrationFit& fit, double SegmentParams::*factor) {
  std::string out;
  for (const SegmentParams& s : fit.segments)
    out += (out.empty() ? "" : ";") + std::to_string(s.first) + ":" + g9(s.*factor);
  return out;
}

void write_platform_yaml(std::ostream& out, const CalibrationFit& fit, const CalibrationSamples& samples, int hosts) {
  const auto header = [&](const char* key) {
    const std::string v = samples.header_value(key);
    return v.empty() ? std::string("?") : v;
  };
  out << "# simfab platform, version 1: calibrated by `simfab calibrate fit " << samples.source << "`\n"
      << "# measured on " << header("hostname") << ", " << header("np") << " ranks, " << header("date") << "\n"
      << "# MPI: " << header("library") << "\n"
      << "# " << spread_text(fit) << " (median over sizes)\n"
      << "# segments (sizes; protocol; transfer T = L + k/B):\n";
  for (const SegmentParams& s : fit.segments)
    out << "#   " << range_text(s.first, s.last) << "  " << protocol_name(s.protocol) << "  L " << g4(s.latency_s * 1e6)
        << " us, B " << bandwidth_text(s.bandwidth_Bps) << "\n";
  out << "# Run it with: simfab run --platform THIS.yaml --trace ... (LogGOPS: --cfg network/model=loggops)\n"
      << "version: 1\n"
      << "config:\n"
      << "  network/model: flow\n";
  // The calibrated library's collective algorithms (issue 28): replays and simfab exec on this
  // platform run its decision rules unless they choose a selector themselves.
  if (const char* selector = coll::library_coll_selector(samples.header_value("library")))
    out << "  mpi/coll-selector: " << selector << "      # the collectives of " << header("library") << "\n";
  // What was calibrated (sim/calibration_check.hpp): a trace from another setup is refused.
  if (std::string lib = samples.header_value("library"); !lib.empty()) {
    std::erase(lib, '"');
    out << "  calibration/library: \"" << lib << "\"\n";
  }
  if (const std::string nodes = samples.header_value("nodes");
      !nodes.empty() && nodes.find_first_not_of("0123456789") == std::string::npos)
    out << "  calibration/nodes: " << nodes << "\n";
  if (!fit.first_call_s.empty())
    out << "  mpi/first-call: \"" << first_call_table(fit) << "\"      # a collective's first call in a process\n";
  out
      << "  flow/os: \"" << overhead_table(fit, &SegmentParams::os) << "\"\n"
      << "  flow/or: \"" << overhead_table(fit, &SegmentParams::orr) << "\"\n"
      << "  flow/ois: \"" << overhead_table(fit, &SegmentParams::ois) << "\"\n"
      << "  flow/lat-factor: \"" << factor_table(fit, &SegmentParams::lat_factor) << "\"\n"
      << "  flow/bw-factor: \"" << factor_table(fit, &SegmentParams::bw_factor) << "\"\n"
      << "  flow/async-threshold: " << fit.async_threshold << "\n"
      << "  flow/detached-threshold: " << fit.detached_threshold << "\n"
      << "  loggops/L: " << std::llround(fit.loggops_L_ps) << "      # ps\n"
      << "  loggops/o: " << std::llround(fit.loggops_o_ps) << "      # ps\n"
      << "  loggops/g: " << std::llround(fit.loggops_g_ps) << "      # ps\n"
      << "  loggops/G: " << g9(fit.loggops_G_ps_per_byte) << "      # ps/B\n"
      << "  loggops/O: " << g9(fit.loggops_O_ps_per_byte) << "      # ps/B\n"
      << "  loggops/S: " << fit.loggops_S << "\n"
      << "clusters:\n"
      << "  - name: calibrated\n"
      << "    prefix: node\n"
      << "    count: " << hosts << "\n"
      << "    speed: " << g9(fit.host_speed_flops.value_or(1e9)) << "      # flop/s"
      << (fit.host_speed_flops ? " (measured)" : " (not measured)") << "\n"
      << "    cores: 1              # set to the hosts' core count\n"
      << "    bandwidth: " << g9(fit.link_bandwidth_Bps) << "Bps\n"
      << "    latency: " << std::llround(fit.link_latency_s * 1e12 / 2) << "ps      # half the route latency\n"
      << "    sharing: splitduplex\n";
  if (fit.limiter_factor) out << "    limiter_factor: " << g9(*fit.limiter_factor) << "\n";
}

std::string fit_json(const CalibrationFit& fit, const CalibrationSamples& samples) {
  Json j;
  j["source"] = samples.source;
  Json header = Json::object();
  for (const auto& [k, v] : samples.header) header[k] = v;
  j["header"] = header;
  j["samples_used"] = fit.samples_used;
  j["outliers_dropped"] = fit.outliers_dropped;
  j["keep"] = fit.best_of ? "best" : "all";
  Json spread = Json::object();
  for (const Spread& s : fit.spread)
    spread[experiment_name(s.experiment)] = Json{{"median", s.median}, {"worst", s.worst}, {"sizes", s.sizes}};
  j["spread"] = spread;
  j["boundaries"] = fit.boundaries;
  j["async_threshold"] = fit.async_threshold;
  j["detached_threshold"] = fit.detached_threshold;
  Json segs = Json::array();
  static const char* kFits[] = {"send", "recv", "isend", "pingpong"};
  for (const SegmentParams& s : fit.segments) {
    Json fits = Json::object();
    const Line lines[] = {s.send, s.recv, s.isend, s.half_pingpong};
    for (size_t i = 0; i < 4; ++i) {
      Json f = line_json(lines[i]);
      f["r2"] = s.r2[i];
      f["count"] = s.count[i];
      fits[kFits[i]] = f;
    }
    fits["pingpong"]["note"] = "fitted to half the round trip";
    segs.push_back(Json{{"first", s.first},
                        {"last", s.last == UINT64_MAX ? Json(nullptr) : Json(s.last)},
                        {"protocol", protocol_name(s.protocol)},
                        {"os", line_json(s.os)},
                        {"or", line_json(s.orr)},
                        {"ois", line_json(s.ois)},
                        {"transfer", line_json(s.transfer)},
                        {"latency_s", s.latency_s},
                        {"bandwidth_Bps", finite_or_null(s.bandwidth_Bps)},
                        {"lat_factor", s.lat_factor},
                        {"bw_factor", s.bw_factor},
                        {"fits", fits}});
  }
  j["segments"] = segs;
  j["link"] = Json{{"latency_s", fit.link_latency_s}, {"bandwidth_Bps", fit.link_bandwidth_Bps}};
  j["bidir_ratio"] = fit.bidir_ratio ? Json(*fit.bidir_ratio) : Json(nullptr);
  j["limiter_factor"] = fit.limiter_factor ? Json(*fit.limiter_factor) : Json(nullptr);
  j["host_speed_flops"] = fit.host_speed_flops ? Json(*fit.host_speed_flops) : Json(nullptr);
  j["reduce_flops_per_element"] = fit.reduce_flops_per_element ? Json(*fit.reduce_flops_per_element) : Json(nullptr);
  j["loggops"] = Json{{"L_ps", fit.loggops_L_ps}, {"o_ps", fit.loggops_o_ps},   {"g_ps", fit.loggops_g_ps},
                      {"G_ps_per_byte", fit.loggops_G_ps_per_byte}, {"O_ps_per_byte", fit.loggops_O_ps_per_byte},
                      {"S", fit.loggops_S}};
  Json cont = Json::array();
  for (const ContentionPoint& c : fit.contention) cont.push_back(Json{{"pairs", c.pairs}, {"aggregate_Bps", c.aggregate_Bps}});
  j["contention"] = cont;
  Json first = Json::object();
  for (const auto& [op, seconds] : fit.first_call_s) first[coll::coll_op_name(static_cast<coll::CollOp>(op))] = seconds;
  j["first_call_s"] = first;
  j["notes"] = fit.notes;
  j["config"] = Json{{"flow/os", overhead_table(fit, &SegmentParams::os)},
                     {"flow/or", overhead_table(fit, &SegmentParams::orr)},
                     {"flow/ois", overhead_table(fit, &SegmentParams::ois)},
                     {"flow/lat-factor", factor_table(fit, &SegmentParams::lat_factor)},
                     {"flow/bw-factor", factor_table(fit, &SegmentParams::bw_factor)}};
  return j.dump(2) + "\n";
}

void print_fit_summary(std::ostream& out, const CalibrationFit& fit, const CalibrationSamples& samples) {
  out << "calibration: " << samples.source << ": " << fit.samples_used << " measurements fitted";
  for (const char* key : {"hostname", "np", "library", "date"}) {
    const std::string v = samples.header_value(key);
    if (!v.empty()) out << (std::string(key) == "hostname" ? " (" : ", ") << (std::string(key) == "np" ? "np " : "") << v;
  }
  if (!samples.header_value("hostname").empty()) out << ")";
  out << "\nprotocols: asynchronous k <= " << fit.async_threshold << " B, detached ";
  if (fit.async_threshold < fit.detached_threshold)
    out << fit.async_threshold + 1 << ".." << fit.detached_threshold << " B";
  else
    out << "none";
  out << ", synchronous k > " << fit.detached_threshold << " B\n";
  out << "segments (transfer T = L + k/B; R^2 of send, recv, isend, pingpong):\n";
  for (size_t i = 0; i < fit.segments.size(); ++i) {
    const SegmentParams& s = fit.segments[i];
    out << "  " << i + 1 << ". " << range_text(s.first, s.last) << ", " << protocol_name(s.protocol) << ", "
        << s.count[0] << " send samples at " << g4(s.lo) << ".." << g4(s.hi) << " B\n"
        << "     os  " << line_text(s.os) << "   or  " << line_text(s.orr) << "   ois " << line_text(s.ois) << "\n"
        << "     T   L " << g4(s.latency_s * 1e6) << " us, B " << bandwidth_text(s.bandwidth_Bps) << "   lat-factor "
        << g4(s.lat_factor) << ", bw-factor " << g4(s.bw_factor) << "\n"
        << "     R^2 " << g4(s.r2[0]) << " " << g4(s.r2[1]) << " " << g4(s.r2[2]) << " " << g4(s.r2[3]) << "\n";
  }
  out << "link: latency " << g4(fit.link_latency_s * 1e6) << " us, bandwidth " << bandwidth_text(fit.link_bandwidth_Bps)
      << "\n";
  if (fit.bidir_ratio)
    out << "limiter: (B_send + B_recv) / B = " << g4(*fit.bidir_ratio) << " measured; limiter_factor "
        << g4(*fit.limiter_factor) << "\n";
  if (fit.host_speed_flops) out << "host speed: " << g4(*fit.host_speed_flops / 1e9) << " Gflop/s per core\n";
  if (fit.reduce_flops_per_element)
    out << "reductions: " << g4(*fit.reduce_flops_per_element)
        << " flops per element at that speed (simfab convert --reduce-flops " << g4(*fit.reduce_flops_per_element)
        << ")\n";
  out << "LogGOPS: L " << g4(fit.loggops_L_ps) << " ps, o " << g4(fit.loggops_o_ps) << " ps, g " << g4(fit.loggops_g_ps)
      << " ps, G " << g4(fit.loggops_G_ps_per_byte) << " ps/B, O " << g4(fit.loggops_O_ps_per_byte) << " ps/B, S "
      << fit.loggops_S << " B\n";
  for (const ContentionPoint& c : fit.contention)
    out << "contention: " << c.pairs << " pair(s) at once: " << bandwidth_text(c.aggregate_Bps) << " in total\n";
  if (!fit.first_call_s.empty()) out << "first calls (mpi/first-call): " << first_call_table(fit) << "\n";
  out << "repetitions: " << spread_text(fit) << " (median over sizes of (median - best) / best)\n";
  for (const std::string& n : fit.notes) out << "note: " << n << "\n";
}

std::vector<PlotPanel> fit_panels(const CalibrationFit& fit, const CalibrationSamples& samples, double outlier_factor) {
  const auto pts = kept_points(samples, outlier_factor);
  const auto& of = [&](Experiment e) -> const std::vector<Point>& { return pts[static_cast<size_t>(e)]; };
  std::vector<double> breaks(fit.boundaries.begin(), fit.boundaries.end());
  const auto panel = [&](const char* name, const std::string& title, Experiment e, Line SegmentParams::*line,
                         double scale) {
    PlotPanel p{name, title, of(e), {}, breaks};
    for (size_t i = 0; i < fit.segments.size(); ++i)
      p.curves.push_back(curve(fit.segments[i], i == 0, i + 1 == fit.segments.size(), fit.segments[i].*line, scale));
    return p;
  };
  std::vector<PlotPanel> out;
  out.push_back(panel("send", "send: MPI_Send, receive posted (fit: os, or T + os when synchronous)",
                      Experiment::kSend, &SegmentParams::send, 1));
  out.push_back(panel("recv", "recv: MPI_Recv of a message sent before", Experiment::kRecv, &SegmentParams::recv, 1));
  if (!of(Experiment::kIsend).empty())
    out.push_back(panel("isend", "isend: MPI_Isend (fit: ois)", Experiment::kIsend, &SegmentParams::isend, 1));
  out.push_back(panel("pingpong", "pingpong: round trip", Experiment::kPingpong, &SegmentParams::half_pingpong, 2));
  PlotPanel t = panel("transfer", "transfer: pingpong/2 - os - or (fit: T = L + k/B)", Experiment::kPingpong,
                      &SegmentParams::transfer, 1);
  for (Point& p : t.dots) {
    const SegmentParams& s = fit.segment_of(static_cast<Bytes>(p.x));
    p.y = p.y / 2 - s.os.at(p.x) - s.orr.at(p.x);
  }
  out.push_back(std::move(t));
  if (!of(Experiment::kLateRecv).empty()) {
    PlotPanel late{"late_recv", "late_recv: MPI_Send, receive posted late (dashed: S_a, S_d)",
                   of(Experiment::kLateRecv), {}, {}};
    for (Bytes b : {fit.async_threshold, fit.detached_threshold}) late.breakpoints.push_back(static_cast<double>(b));
    out.push_back(std::move(late));
  }
  return out;
}

}  // namespace simfab::calibrate
