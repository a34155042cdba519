// A self-contained SVG figure of log-log panels: measurements as dots, fitted functions as lines,
// breakpoints as vertical dashed lines. Hand-written SVG 1.1 (no script, no external style), so
// any browser or XML parser reads it.
//
// Layout: panels in rows of two, each kPanelWidth x kPanelHeight user units, a plot area inside
// margins for the tick labels. Each axis spans whole decades around its data,
//   [10^floor(log10 min), 10^ceil(log10 max)],
// a value v at   x_px = left + width * (log10 v - log10 lo) / (log10 hi - log10 lo)
// (y the same, upwards), with a tick and label per decade ("1k", "10M" bytes; "1us", "10ms"
// seconds). Points with a coordinate <= 0 cannot be drawn on log axes and are skipped. Each panel
// is a <g class="panel" id="panel-NAME">, so tests and scripts can find them.
// Cost: O(points); the output is about 60 bytes per dot.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "calibrate/segmented_fit.hpp"

namespace simfab::calibrate {

struct PlotPanel {
  std::string name;   // the id suffix: letters, digits, '-' and '_'
  std::string title;  // shown above the panel
  std::vector<Point> dots;
  std::vector<std::vector<Point>> curves;  // each drawn as one polyline
  std::vector<double> breakpoints;         // x positions
};

void write_svg(std::ostream& out, std::span<const PlotPanel> panels, const std::string& title);

}  // namespace simfab::calibrate
