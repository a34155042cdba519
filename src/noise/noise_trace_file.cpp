#include "noise/noise_trace_file.hpp"

#include <vector>

#include "core/error.hpp"
#include "core/text_locator.hpp"
#include "noise/two_column_file.hpp"

namespace simfab::noise {

DetourTrace parse_noise_trace(const std::string& name, std::string_view text) {
  std::vector<Detour> detours;
  int64_t prev_start = 0, prev_end = 0, period = 0;
  int prev_line = 0;
  bool have_prev = false;
  const char* expected_format = "expected `<start_ns> <duration_ns>` (LogGOPSim's format, tab or space separated)";
  const bool csv = read_two_columns(name, text, {"start_ns,duration_ns", expected_format}, [&](const ColumnLine& c) {
    const int64_t start = field_milli(name, text, c.a, c.a_at, "start", "nanoseconds");
    const int64_t duration = field_milli(name, text, c.b, c.b_at, "duration", "nanoseconds");
    if (have_prev && start < prev_start)
      throw error_at(name, text, c.at,
                     "detours must be sorted by start: this one starts before the one at line " +
                         std::to_string(prev_line));
    if (have_prev && start < prev_end)
      throw error_at(name, text, c.at,
                     "this detour starts inside the one at line " + std::to_string(prev_line) + " (which ends at " +
                         milli_text(prev_end) + " ns): detours must not overlap");
    if (duration > 0) detours.push_back({start, duration});
    have_prev = true;
    prev_line = c.line;
    prev_start = start;
    prev_end = start + duration;
    period = prev_end;
  });
  if (detours.empty())
    throw InputError(SourceLoc{name, 0, 0}, csv || have_prev
                                                ? "the noise trace has no detour of positive duration"
                                                : "the noise trace is empty: " + std::string(expected_format) +
                                                      " per detour, or a CSV with the header start_ns,duration_ns");
  int64_t busy = 0;
  for (const Detour& d : detours) busy += d.duration_ps;
  if (busy >= period)
    throw InputError(SourceLoc{name, 0, 0}, "the noise trace's detours fill its whole length (" +
                                                milli_text(period) + " ns): no time is left for computation (add a gap, or a last line "
                                                "`<end_ns> 0` to make the trace longer)");
  return DetourTrace(std::move(detours), period);
}

DetourTrace read_noise_trace(const std::string& path) {
  return parse_noise_trace(path, read_whole_file(path, "noise trace (noise/trace)"));
}

}  // namespace simfab::noise
