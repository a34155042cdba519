// Exact decimal text of integer picosecond times, for the timeline and statistics outputs.
//
// Timeline files (report/trace_event_writer.hpp: microseconds; report/paje_writer.hpp and the
// statistics CSV, report/stats_csv.cpp: seconds) store times as decimal numbers. Printing them
// through a double (printf "%f") would round differently from one libc to another and lose
// picoseconds beyond 2^53; here the integer is split with integer arithmetic only, so the text is
// exact and byte-identical run to run:
//
//   decimal_text(1234567, 6)          "1.234567"        (1,234,567 ps in microseconds)
//   decimal_text(1200000, 6)          "1.2"             trailing zeros trimmed, then the point
//   decimal_text(5000000, 6)          "5"
//   decimal_text(12345678, 12, false) "0.000012345678"  (seconds, fixed width)
//
// Complexity: O(digits), no allocation beyond the returned string (short strings stay inline).
#pragma once

#include <cstdint>
#include <string>

#include "core/sim_time.hpp"

namespace simfab {

// value / 10^decimals written exactly, with `decimals` digits after the point; with `trim`, the
// trailing zeros of the fraction (and a point left alone) are dropped. REQUIRES: 0 <= decimals <= 18.
std::string decimal_text(int64_t value, int decimals, bool trim = true);

// A time in microseconds, trailing zeros trimmed: what Chrome trace events' "ts"/"dur" hold.
inline std::string micros_text(SimTime t) { return decimal_text(t.ps(), 6); }
// A time in seconds with all 12 decimals (picosecond resolution): what Paje's dates hold.
inline std::string seconds_text(SimTime t) { return decimal_text(t.ps(), 12, false); }

}  // namespace simfab
