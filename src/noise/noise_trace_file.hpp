// Noise trace files (noise/trace=FILE): LogGOPSim's format, or a CSV.
//
//   LogGOPSim's   one detour per line: `<start_ns> <duration_ns>`, separated by tabs or spaces;
//                 `#` starts a comment line; blank lines are skipped.
//   CSV           a header line `start_ns,duration_ns`, then `<start_ns>,<duration_ns>` per line
//                 (`#` comment lines and blank lines are skipped too).
// Numbers are nanoseconds, decimal (`1200`, `1200.5`), rounded to the nearest picosecond (the
// layout, comments and number syntax are two_column_file.hpp's).
// Detours must be sorted by start and must not overlap (a detour may start where the previous one
// ends). A detour of duration 0 injects nothing; it only makes the trace longer. The trace's
// period P is the end of its last line's detour (start + duration): LogGOPSim wraps at its last
// start instead (noise_model.hpp). At least one detour must have a positive duration, and P must
// exceed the total detour time.
// Errors are InputErrors at file:line:column with the line echoed: a line that is not two numbers,
// a negative or non-numeric value, a detour that starts before the previous one or inside it, an
// empty trace. O(lines) time; the detours are kept (16 B each).
#pragma once

#include <string>
#include <string_view>

#include "noise/detour_trace.hpp"

namespace simfab::noise {

DetourTrace read_noise_trace(const std::string& path);
// The same from text already in memory (`name` in messages); for tests.
DetourTrace parse_noise_trace(const std::string& name, std::string_view text);

}  // namespace simfab::noise
