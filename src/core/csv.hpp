// CSV text as RFC 4180 has it: fields separated by commas, records by line breaks; a field holding
// a comma, a double quote or a line break is quoted, its quotes doubled. Every CSV simfab writes
// (--stats, calibrate regions, sweep results) quotes its fields through csv_field; the sweep reads
// its own output back with parse_csv to resume.
//
//   csv_field("flow")          flow
//   csv_field("a, b")          "a, b"
//   csv_field("say \"hi\"")    "say ""hi"""
//
// parse_csv accepts LF and CRLF line ends and a last record without one; a quote inside an
// unquoted field is kept as text. Complexity: O(text). Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace simfab {

// The field as CSV text: as is, or quoted when it must be.
std::string csv_field(std::string_view s);

// The records of `text` (named `name` in errors), each a list of fields; blank lines are skipped.
// Throws InputError at the line where a quoted field is left open or text follows its closing quote.
// With `record_lines`, it receives the line (from 1) each record starts on, for the caller's errors.
std::vector<std::vector<std::string>> parse_csv(std::string_view text, const std::string& name,
                                                std::vector<int>* record_lines = nullptr);

}  // namespace simfab
