// What `simfab calibrate fit` writes from a CalibrationFit (calibration_fit.hpp):
//
// Platform (YAML, platform/yaml_platform.cpp's format): one cluster "calibrated" of `hosts` hosts
// node0 .. node{hosts-1} with
//   speed       the measured flop rate (1 Gf without compute measurements); cores 1
//   bandwidth   the link bandwidth B, in bytes/s
//   latency     half the link latency L (a route crosses two private links: up, down)
//   sharing     splitduplex, limiter_factor (seed 003 §IV-B) when measured
// and a `config:` section that `simfab run --platform` applies (a --cfg still overrides it):
//   network/model: flow
//   flow/os, flow/or, flow/ois        "first:seconds:seconds_per_byte;..." one section per segment
//   flow/lat-factor, flow/bw-factor   "first:factor;..."
//   flow/async-threshold, flow/detached-threshold   S_a and S_d in bytes
//   loggops/L, o, g (ps), G, O (ps/B), S (bytes)    for --cfg network/model=loggops
// A section starts at its segment's first size (the previous boundary + 1; simfab's tables are
// closed on the left): seed 003's "k <= 1420" segment is the section "0:...", the next "1421:...".
// Numbers are written with 9 significant digits.
//
// Summary (text): the input, the protocol thresholds, one line per segment (sizes, protocol,
// os/or/ois lines, L and B, factors, R^2 of the four fits), the link, limiter, speed, LogGOPS and
// the notes. JSON: the same values (seconds, bytes, bytes/s; "inf" bandwidths as null).
// Plot: the panels of svg_plot.hpp: send, recv, isend, pingpong (round trip), transfer time
// (pingpong/2 - os - or per measurement, against T) and late_recv (no fit; S_a and S_d dashed).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "calibrate/calibration_fit.hpp"
#include "calibrate/calibration_samples.hpp"
#include "calibrate/svg_plot.hpp"

namespace simfab::calibrate {

// REQUIRES: hosts >= 1.
void write_platform_yaml(std::ostream& out, const CalibrationFit& fit, const CalibrationSamples& samples, int hosts);
std::string fit_json(const CalibrationFit& fit, const CalibrationSamples& samples);
void print_fit_summary(std::ostream& out, const CalibrationFit& fit, const CalibrationSamples& samples);
std::vector<PlotPanel> fit_panels(const CalibrationFit& fit, const CalibrationSamples& samples, double outlier_factor);

// The flow model's tables as written in the platform's config.
std::string overhead_table(const CalibrationFit& fit, Line SegmentParams::*line);
std::string factor_table(const CalibrationFit& fit, double SegmentParams::*factor);

}  // namespace simfab::calibrate
