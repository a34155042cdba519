// Physical quantities written by users, with units, as in SimGrid platform files and `--cfg`.
//
// Every parser takes the text of one value and returns the value in simfab's internal unit, or
// std::nullopt when the text is not a number with a known unit (the caller names the file, line and
// key). A bare number is read in the internal unit.
//
//   quantity     internal unit    accepted suffixes (case-sensitive, as SimGrid's)
//   time         picoseconds      ps ns us ms s  (also m h)
//   per-byte     ps per byte      ps ns us (time per byte), or a bandwidth: Bps kBps MBps GBps TBps,
//                                 KiBps MiBps GiBps, bps kbps Mbps Gbps Tbps  (turned into 1e12/B ps)
//   bytes        bytes            B kB MB GB KiB MiB GiB  (b is accepted for GOAL's "10b")
//   bandwidth    bytes per second Bps kBps MBps GBps TBps KiBps MiBps GiBps bps kbps Mbps Gbps Tbps
//   speed        flop/s           f kf Mf Gf Tf Pf, also flops kflops Mflops Gflops Tflops Pflops
//
// Negative, NaN and infinite values are rejected. Times must land on whole picoseconds after
// rounding (from_seconds); per-byte costs keep a fractional ps/B as a double (e.g. 12.5 Gbps is
// 640 ps/B, 3 GBps is 333.33 ps/B).
#pragma once

#include <optional>
#include <string_view>

#include "core/sim_time.hpp"

namespace simfab::units {

std::optional<SimTime> parse_time(std::string_view text);
// A time as SimGrid's command line takes it: with units (10us, 2ms), or a bare number of seconds;
// nullopt unless it is a time of 0 or more (below 9.2e6 s).
std::optional<SimTime> parse_time_or_seconds(std::string_view text);
std::optional<double> parse_ps_per_byte(std::string_view text);
std::optional<Bytes> parse_bytes(std::string_view text);
std::optional<double> parse_bandwidth(std::string_view text);
std::optional<double> parse_speed(std::string_view text);

// Splits "12.5Gbps" into (12.5, "Gbps"); nullopt if no leading non-negative finite number.
std::optional<std::pair<double, std::string_view>> split_number(std::string_view text);

}  // namespace simfab::units
