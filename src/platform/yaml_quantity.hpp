// Reading physical quantities (speeds, bandwidths, latencies) from fields of a YAML mapping.
//
// Each reader parses the field's scalar with core/units and returns the value in simfab's internal
// unit, or throws an InputError at the value that quotes it and says what was expected:
//   speed      flop/s, > 0     f kf Mf Gf Tf Pf, flops kflops Mflops Gflops Tflops Pflops
//   bandwidth  bytes/s, > 0    Bps kBps MBps GBps TBps KiBps MiBps GiBps, bps kbps Mbps Gbps Tbps
//   latency    ps, >= 0        ps ns us ms s m h; at most about 106 days (9.2e18 ps)
// A bare number is in the internal unit. Negative values get "must be > 0" / "must not be
// negative" rather than "bad <quantity>", and a latency too large for 64-bit picoseconds is "out of
// range". Thread-safety: pure functions of their arguments.
#pragma once

#include "core/sim_time.hpp"
#include "platform/yaml_input.hpp"

namespace simfab {

double read_speed(const YamlMap& m, const YamlField& f);
double read_bandwidth(const YamlMap& m, const YamlField& f);
SimTime read_latency(const YamlMap& m, const YamlField& f);

}  // namespace simfab
