#include "calibrate/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace simfab::calibrate {

namespace {

constexpr double kPanelWidth = 520, kPanelHeight = 340;
constexpr double kLeft = 64, kRight = 16, kTop = 30, kBottom = 40;  // plot area margins
constexpr double kHeader = 36;                                      // the figure's title

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// "1", "10", "100", "1k", ... for bytes; "1ns" .. "1s", "10s" for seconds.
std::string decade_label(int exponent, bool seconds) {
  static const char* kBytePrefix[] = {"", "k", "M", "G", "T", "P"};
  static const char* kTimePrefix[] = {"f", "p", "n", "u", "m", ""};
  if (seconds) {
    const int group = static_cast<int>(std::floor(exponent / 3.0));
    const int within = exponent - 3 * group;
    if (group < -5 || group > 0) return "1e" + std::to_string(exponent) + "s";
    return std::to_string(within == 0 ? 1 : within == 1 ? 10 : 100) + kTimePrefix[group + 5] + "s";
  }
  if (exponent < 0 || exponent >= 18) return "1e" + std::to_string(exponent);
  const int within = exponent % 3;
  return std::to_string(within == 0 ? 1 : within == 1 ? 10 : 100) + kBytePrefix[exponent / 3];
}

struct Axis {
  int lo = 0, hi = 1;  // decades
  double map(double v, double from, double length) const {
    return from + length * (std::log10(v) - lo) / (hi - lo);
  }
};

Axis axis_of(double min, double max) {
  if (!(min > 0) || !(max > 0)) return Axis{0, 1};
  Axis a{static_cast<int>(std::floor(std::log10(min))), static_cast<int>(std::ceil(std::log10(max)))};
  if (a.hi <= a.lo) a.hi = a.lo + 1;
  return a;
}

void write_panel(std::ostream& out, const PlotPanel& p, double x0, double y0) {
  double xmin = HUGE_VAL, xmax = 0, ymin = HUGE_VAL, ymax = 0;
  const auto extend = [&](const Point& q) {
    if (q.x <= 0 || q.y <= 0) return;
    xmin = std::min(xmin, q.x), xmax = std::max(xmax, q.x), ymin = std::min(ymin, q.y), ymax = std::max(ymax, q.y);
  };
  for (const Point& q : p.dots) extend(q);
  for (const auto& c : p.curves)
    for (const Point& q : c) extend(q);
  const Axis ax = axis_of(xmin, xmax), ay = axis_of(ymin, ymax);
  const double left = x0 + kLeft, top = y0 + kTop;
  const double width = kPanelWidth - kLeft - kRight, height = kPanelHeight - kTop - kBottom;
  const auto px = [&](double v) { return ax.map(v, left, width); };
  const auto py = [&](double v) { return ay.map(v, top + height, -height); };

  out << "<g class=\"panel\" id=\"panel-" << escape(p.name) << "\">\n";
  out << "<text x=\"" << num(x0 + kPanelWidth / 2) << "\" y=\"" << num(y0 + 18)
      << "\" text-anchor=\"middle\" font-size=\"14\">" << escape(p.title) << "</text>\n";
  out << "<rect x=\"" << num(left) << "\" y=\"" << num(top) << "\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" fill=\"none\" stroke=\"#444\"/>\n";
  for (int d = ax.lo; d <= ax.hi; ++d) {
    const double x = ax.map(std::pow(10.0, d), left, width);
    out << "<line x1=\"" << num(x) << "\" y1=\"" << num(top + height) << "\" x2=\"" << num(x) << "\" y2=\""
        << num(top + height + 5) << "\" stroke=\"#444\"/><text x=\"" << num(x) << "\" y=\"" << num(top + height + 18)
        << "\" text-anchor=\"middle\" font-size=\"10\">" << decade_label(d, false) << "</text>\n";
  }
  for (int d = ay.lo; d <= ay.hi; ++d) {
    const double y = ay.map(std::pow(10.0, d), top + height, -height);
    out << "<line x1=\"" << num(left - 5) << "\" y1=\"" << num(y) << "\" x2=\"" << num(left) << "\" y2=\"" << num(y)
        << "\" stroke=\"#444\"/><text x=\"" << num(left - 8) << "\" y=\"" << num(y + 3)
        << "\" text-anchor=\"end\" font-size=\"10\">" << decade_label(d, true) << "</text>\n";
  }
  out << "<text x=\"" << num(left + width / 2) << "\" y=\"" << num(top + height + 34)
      << "\" text-anchor=\"middle\" font-size=\"11\">message size (bytes)</text>\n";
  for (double b : p.breakpoints) {
    if (!(b > 0) || std::log10(b) < ax.lo || std::log10(b) > ax.hi) continue;
    out << "<line x1=\"" << num(px(b)) << "\" y1=\"" << num(top) << "\" x2=\"" << num(px(b)) << "\" y2=\""
        << num(top + height) << "\" stroke=\"#888\" stroke-dasharray=\"5 4\"/>\n";
  }
  for (const Point& q : p.dots)
    if (q.x > 0 && q.y > 0)
      out << "<circle cx=\"" << num(px(q.x)) << "\" cy=\"" << num(py(q.y))
          << "\" r=\"1.6\" fill=\"#1f77b4\" fill-opacity=\"0.55\"/>\n";
  for (const auto& c : p.curves) {
    std::string points;
    for (const Point& q : c)
      if (q.x > 0 && q.y > 0) points += num(px(q.x)) + "," + num(py(q.y)) + " ";
    if (!points.empty())
      out << "<polyline points=\"" << points << "\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.8\"/>\n";
  }
  out << "</g>\n";
}

}  // namespace

void write_svg(std::ostream& out, std::span<const PlotPanel> panels, const std::string& title) {
  const size_t rows = (panels.size() + 1) / 2;
  const double width = 2 * kPanelWidth, height = kHeader + static_cast<double>(rows) * kPanelHeight;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
      << "\" font-family=\"sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << num(width / 2) << "\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">" << escape(title)
      << "</text>\n";
  for (size_t i = 0; i < panels.size(); ++i)
    write_panel(out, panels[i], static_cast<double>(i % 2) * kPanelWidth,
                kHeader + static_cast<double>(i / 2) * kPanelHeight);
  out << "</svg>\n";
}

}  // namespace simfab::calibrate
