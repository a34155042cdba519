// `simfab convert` (see convert_cmd.hpp).
#include "convert_cmd.hpp"

#include <charconv>
#include <cmath>
#include <iostream>

#include "capture/capture_goal_writer.hpp"
#include "capture/capture_run.hpp"
#include "capture/capture_ti_writer.hpp"
#include "cli_options.hpp"
#include "core/atomic_file.hpp"
#include "core/units.hpp"
#include "otf2/otf2_capture_writer.hpp"
#include "otf2/otf2_reader.hpp"

namespace simfab {

namespace {

constexpr CliOption kOptions[] = {{"--ti"},           {"--goal"},          {"--speed"},
                                  {"--pinning"},      {"--salvage", false}, {"--quiet", false},
                                  {"--reduce-flops"}, {"--comm-creation"}, {"--otf2"}, {"--otf2-out"}};

// `text` as a finite non-negative number; otherwise a usage error saying `expected`.
double parse_non_negative(std::string_view text, const std::string& expected) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0)
    throw usage_error(expected);
  return v;
}

}  // namespace

int cmd_convert(const std::vector<std::string>& args) {
  std::vector<std::string> inputs, options;
  split_positionals(args, kOptions, inputs, options);
  std::string ti_path, goal_path, otf2_path, otf2_out;
  ConvertOptions conv;
  bool speed_given = false, salvage = false, quiet = false, flops_given = false, creation_given = false;
  parse_options(options, kOptions, [&](std::string_view name, const std::string& value) {
    if (name == "--ti") {
      ti_path = value;
    } else if (name == "--goal") {
      goal_path = value;
    } else if (name == "--speed") {
      conv.speed = parse_speed_option(value);
      speed_given = true;
    } else if (name == "--pinning") {
      const size_t comma = value.find(',');
      if (comma == std::string::npos) throw usage_error("--pinning expects A,B (µs, µs per byte), got '" + value + "'");
      const std::string expected =
          "--pinning expects A,B (µs per pinning, µs per byte; non-negative numbers), got '" + value + "'";
      conv.pin_a_us = parse_non_negative(std::string_view(value).substr(0, comma), expected);
      conv.pin_b_us = parse_non_negative(std::string_view(value).substr(comma + 1), expected);
      conv.pinning = true;
    } else if (name == "--reduce-flops") {
      flops_given = true;
      conv.reduce_flops = parse_non_negative(
          value, "--reduce-flops expects the flops per reduced element (a non-negative number), got '" + value + "'");
    } else if (name == "--comm-creation") {
      if (value != "measured" && value != "simulated")
        throw usage_error("--comm-creation expects measured or simulated, got '" + value + "'");
      conv.measured_creation = value == "measured";
      creation_given = true;
    } else if (name == "--otf2") {
      otf2_path = value;
    } else if (name == "--otf2-out") {
      otf2_out = value;
    } else if (name == "--salvage") {
      salvage = true;
    } else {
      quiet = true;
    }
  });
  if (inputs.empty() == otf2_path.empty())
    throw usage_error(otf2_path.empty() ? "give the capture traces to convert: a directory or the per-rank files, or "
                                          "--otf2 ARCHIVE.otf2"
                                        : "give either capture traces or --otf2 ARCHIVE.otf2, not both");
  if (ti_path.empty() && goal_path.empty() && otf2_out.empty())
    throw usage_error("give an output: --ti OUT.ti, --goal OUT.goal and/or --otf2-out DIR");
  if (salvage && !otf2_path.empty()) throw usage_error("--salvage applies to capture traces, not to --otf2");

  std::string creator;
  const CaptureRun run = otf2_path.empty()
                             ? CaptureRun::load(expand_capture_inputs(inputs, salvage), CaptureRun::Options{salvage})
                             : load_otf2_run(otf2_path, &creator);
  if (!otf2_path.empty()) {
    const ConvertOptions defaults = otf2_convert_defaults(creator);
    if (!flops_given) conv.reduce_flops = defaults.reduce_flops;
    if (!creation_given) conv.measured_creation = defaults.measured_creation;
  }
  for (const std::string& w : run.warnings()) std::cerr << w << "\n";
  if (!speed_given) conv.speed = run.speed();
  if (!otf2_out.empty()) write_capture_otf2(run, otf2_out);  // first: the one that can fail midway
  if (!goal_path.empty())
    write_file_atomically(goal_path, "the GOAL output file",
                          [&](std::ostream& out) { write_capture_goal(run, conv, out); });
  if (!ti_path.empty()) write_capture_ti(run, ti_path, conv);
  if (!quiet) {
    size_t records = 0;
    for (int r = 0; r < run.num_ranks(); ++r) records += run.kept(r);
    std::cout << "simfab: converted " << run.num_ranks() << " ranks (" << records << " records)";
    if (!ti_path.empty()) std::cout << "; wrote " << ti_path << " (+ " << ti_path << "_files/)";
    if (!goal_path.empty()) std::cout << "; wrote " << goal_path;
    if (!otf2_out.empty()) std::cout << "; wrote " << otf2_out << "/traces.otf2";
    std::cout << "\n";
  }
  return 0;
}

}  // namespace simfab
