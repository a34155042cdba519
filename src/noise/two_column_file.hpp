// Two-column text files of the noise inputs: the detour traces (noise_trace_file.hpp) and the
// detour-length histograms (detour_histogram.hpp) share one layout and one set of checks.
//
//   whitespace form   one record per line: `<a> <b>`, separated by tabs or spaces
//   CSV form          a header line (the format's, e.g. `start_ns,duration_ns`) as the first
//                     non-comment line, then `<a>,<b>` per line
// In both, `#` starts a comment line, blank lines are skipped, and a CRLF line end is accepted.
// Numbers are decimal (`1200`, `1200.5`) with at most three significant fraction digits (the
// fourth rounds half up): nanoseconds become picoseconds exactly, weights become thousandths.
// Errors are InputErrors at file:line:column with the line echoed: a line that is not two fields,
// a negative or non-numeric value. O(length of the text); no allocation per line.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace simfab::noise {

// One data line: its two fields, where they and the line start in the text, its 1-based number.
struct ColumnLine {
  std::string_view a, b;
  size_t at = 0, a_at = 0, b_at = 0;
  int line = 0;
};

struct TwoColumnFormat {
  std::string_view csv_header;  // e.g. "start_ns,duration_ns"
  const char* expected;         // what a whitespace line must look like, for messages
};

// Calls `each` for every data line of `text` (`name` in messages); returns whether it was a CSV.
bool read_two_columns(const std::string& name, std::string_view text, const TwoColumnFormat& format,
                      const std::function<void(const ColumnLine&)>& each);

// A decimal number with three fraction digits kept, as an integer of thousandths: "1200.5" ->
// 1'200'500; nullopt unless digits[.digits] below 2^62 thousandths.
std::optional<int64_t> parse_milli(std::string_view s);
// parse_milli of a field at offset `pos` of `text`, or an InputError there naming `what` (the
// field: "start", "duration", "weight") and the unit expected (`unit`: "nanoseconds").
int64_t field_milli(const std::string& name, std::string_view text, std::string_view field, size_t pos,
                    const char* what, const char* unit);
// Thousandths as the files write them: 1'200'500 -> "1200.5".
std::string milli_text(int64_t v);

// The whole file at `path`, or an InputError "cannot open the <what>".
std::string read_whole_file(const std::string& path, const std::string& what);

}  // namespace simfab::noise
