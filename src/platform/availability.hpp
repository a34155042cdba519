// Availability profiles: a host's or link's speed, bandwidth, latency or state as a step function
// of time (SimGrid 3.32's "profiles": speed_file, bandwidth_file, latency_file, state_file, and
// <trace> / <trace_connect>; issue 37).
//
// Text format (SimGrid's legacy profile syntax, deterministic part), one instruction per line:
//     # comment            (also '%'; blank lines are skipped)
//     <date> <value>       an event: from <date> seconds on, the resource's value is <value>
//     PERIODICITY <P>      the events repeat with period P (P >= the last date)
//     LOOPAFTER <D>        the events repeat D seconds after the last one
// Dates are absolute seconds of the first iteration, non-decreasing, >= 0. Before the first event
// the resource has its nominal value (the platform's speed, bandwidth, latency; "on").
//
// Repetition, with d_0 .. d_n the dates (checked against `smpirun -replay` of SimGrid 3.32, Debian
// 3.32-2: a 10 Gflop computation on a 1 Gf host under "0 0.5 / 2 1.0" ends at 15 s with
// PERIODICITY 3 and at 13 s with LOOPAFTER 3):
//     PERIODICITY P:  iteration k's events at d_i + k * P                 (period P)
//     LOOPAFTER D:    iteration k's events at d_i + k * (d_n + D)          (period d_n + D)
// A <trace periodicity="P"> attribute is PERIODICITY P. SimGrid 3.32 aborts on a period shorter
// than the last date ("Profile loop conditions are not realizable"); SimGrid up to 3.29 (its
// trace_mgr) restarted the events P seconds after the last one, and some of SimGrid's own example
// platforms (two_hosts_platform_with_availability_included.xml) still rely on it. simfab loads
// such a profile with that older rule (period d_n + P, as LOOPAFTER P) and says so in `note`,
// which the loaders turn into a warning (Platform::warnings).
// Stochastic profiles (STOCHASTIC, DET/NORM/EXP/UNIF laws) are refused: a run must be
// reproducible from its inputs, and SimGrid draws them from its own generator.
//
// What a value means depends on where the profile is attached (platform.hpp): a speed profile's
// value scales the host's speed (SimGrid's "scale"; 0.5 = half speed); a bandwidth profile's is
// bytes/s and a latency profile's seconds (absolute, as SimGrid's set_bandwidth/set_latency); a
// state profile's value > 0 is on, <= 0 off.
//
// Queries are O(log n) in the number of events of one iteration.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/sim_time.hpp"

namespace simfab {

struct Availability {
  std::string name;             // the file, or "<trace id='X'>"
  std::vector<SimTime> dates;   // of the first iteration, non-decreasing
  std::vector<double> values;   // one per date
  SimTime period = SimTime::zero();  // 0: the events happen once
  std::string note;             // non-empty: how a SimGrid 3.32 refusal was read (a warning)

  bool empty() const { return dates.empty(); }
  // The value in force at time t (the last event at or before t), or nullopt before the first.
  std::optional<double> value_at(SimTime t) const;
  // The date of the first event strictly after t, or SimTime::never().
  SimTime next_change(SimTime t) const;
  // The first time at or after `from` when the value is <= 0 (a state profile's "off"), or
  // never: looks one iteration of the steps ahead, which covers every value the profile takes.
  SimTime first_off(SimTime from) const;
  // The events of [0, until]: (date, value) pairs in time order (for describing and testing).
  std::vector<std::pair<SimTime, double>> events_until(SimTime until) const;
};

// Parses a profile. `periodicity` > 0 is a <trace periodicity> attribute. Errors are InputError
// at the offending line of `file` (line numbers counted from `first_line`: a <trace> element's
// text starts inside the platform file).
Availability parse_availability(std::string_view text, std::string name, const std::string& file, int first_line = 1,
                                double periodicity = 0);
// Reads a profile file; a relative path is taken from `base_dir` (the platform file's directory,
// where SimGrid looks first). `where` locates the attribute naming it, for the error when the
// file cannot be read; `periodicity` > 0 as for parse_availability.
Availability load_availability(const std::string& path, const std::string& base_dir, const SourceLoc& where,
                               double periodicity = 0);

}  // namespace simfab
