// How long a TI `compute` or `sleep` action takes (replay/ti_trace.hpp): compute = flops / the
// speed of the rank's host (free on an infinitely fast, ideal host, and for 0 flops), sleep = its
// seconds; both rounded once to picoseconds (SimTime::from_seconds). One action may last at most
// kTiMaxCalcPs (2^61 ps, about 26 days, the bound of GOAL calc durations); a longer one is an
// InputError at the action's line. O(1).
//
// Used by TI replay (replay/ti_program.cpp) and the GOAL export (replay/ti_to_goal.cpp).
#pragma once

#include <string_view>

#include "core/sim_time.hpp"
#include "platform/platform.hpp"
#include "replay/ti_trace.hpp"

namespace simfab {

inline constexpr double kTiMaxCalcPs = static_cast<double>(INT64_MAX / 4);

// `file_name` and `line` locate the action for the error message.
SimTime ti_compute_time(double flops, const Host& host, std::string_view file_name, const TiLine& line);
SimTime ti_sleep_time(double seconds, std::string_view file_name, const TiLine& line);

}  // namespace simfab
