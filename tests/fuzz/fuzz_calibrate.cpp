// Fuzz target: `simfab calibrate fit` (src/calibrate/): the calibration CSV reader, the segmented
// fit and every writer (platform YAML, JSON, summary, SVG), all in memory. The first byte picks
// the options (ordinary/relative weights, outlier filter on/off, few/many segments). Bad input
// must be an InputError, never a crash, a failed SIMFAB_CHECK or a non-finite number in a platform.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "calibrate/calibration_fit.hpp"
#include "calibrate/calibration_output.hpp"
#include "calibrate/calibration_samples.hpp"
#include "calibrate/svg_plot.hpp"
#include "core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simfab;
  using namespace simfab::calibrate;
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const CalibrationSamples samples = parse_calibration_samples(text, "fuzz.csv");
    CalibrationOptions options;
    if (mode & 1) options.weighting = Weighting::kOrdinary;
    if (mode & 2) options.outlier_factor = 0;
    options.max_segments = (mode & 4) ? 2 : 6;
    const CalibrationFit fit = fit_calibration(samples, options);
    std::ostringstream out;
    write_platform_yaml(out, fit, samples, 1 + (mode >> 4));
    out << fit_json(fit, samples);
    print_fit_summary(out, fit, samples);
    write_svg(out, fit_panels(fit, samples, options.outlier_factor), "fuzz");
  } catch (const InputError&) {
  }
  return 0;
}
