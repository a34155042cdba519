// The processor and power keys of simfab's YAML platform, shared by `hosts`, `clusters` and
// `topology` entries (yaml_platform.cpp documents the format), and the `power` of links:
//   speed: 2.3Gf                  one pstate, or a list of pstates: [2.3Gf, 2.2Gf, ...]
//   pstate: 0                     the initial pstate (default 0)
//   power: [[93.75, 110, 179.25], ...]   one [Idle, OneCore, AllCores] triple per pstate, in
//                                 watts, or SimGrid's string "93.75:110:179.25, ..." (which also
//                                 takes the older "Idle:AllCores" pairs)
//   power_off: 10                 watts when off; needs `power`
//   link power: [idle, busy]      watts, or "Idle:Busy"
// Every value is checked as check_cpu_profile / check_link_power do (platform/cpu_profile.hpp);
// a mistake is an InputError at the offending value (the triple of the offending pstate for the
// list form), naming the mapping (host 'a', cluster 'c', ...) and the key.
#pragma once

#include <string_view>
#include <utility>

#include "platform/cpu_profile.hpp"
#include "platform/platform.hpp"
#include "platform/yaml_input.hpp"

namespace simfab {

// speed (required; `speed_hint` says what it is when missing), pstate, power and power_off of `m`,
// checked. The keys must be among m's valid keys.
CpuProfile read_yaml_cpu(const YamlMap& m, std::string_view speed_hint);

// Adds `profile` to `p` and returns its index, or -1 when it needs none (one speed, no power).
int add_cpu_profile_if_needed(Platform& p, CpuProfile profile);

// A link's power under `f`: [idle, busy] or "Idle:Busy", checked. Returns {idle_w, busy_w}.
std::pair<double, double> read_yaml_link_power(const YamlMap& m, const YamlField& f);

}  // namespace simfab
