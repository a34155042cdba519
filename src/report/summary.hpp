// The results of a run, for people (text) and for scripts (JSON).
//
// JSON contract (scripts rely on it; keys are only ever added):
//   version            simfab version string
//   config             the effective configuration: every key, defaults included; times in ps,
//                      per-byte costs in ps/B, sizes in bytes; keys a model derived itself hold a
//                      string saying how (e.g. LogGOPS L from platform routes)
//   inputs             {platform, application, format}
//   model              network model name
//   makespan_ps        integer picoseconds;  makespan_s: the same in seconds
//   num_ranks
//   ranks              [{rank, host, finish_ps}] in rank order
//   messages, bytes    point-to-point messages (collectives expanded) and their payload bytes
//   unmatched_messages messages delivered but never received
//   events             events processed by the kernel
//   network            link and flow statistics of models that share links (report/network_stats.hpp)
//   energy_j, hosts, energy   when the platform declares power (report/energy_report.hpp)
//   noise              with OS noise (report/noise_report.hpp); without it the noise/* keys are
//                      left out of config, so such a run's JSON is unchanged
//   wall_s, simulate_s, peak_rss_bytes   wall-clock seconds of the run and of its event loop,
//                      and peak memory; 0 with --reproducible, so two runs give byte-identical files
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "core/config.hpp"
#include "sim/simulation.hpp"

namespace simfab {

void print_summary(std::ostream& os, const RunResult& r, const Config& cfg);
std::string result_json(const RunResult& r, const Config& cfg, bool reproducible);
// The same document as a JSON value (the --trace-out file embeds it under "simfab").
nlohmann::ordered_json result_json_value(const RunResult& r, const Config& cfg, bool reproducible);
// "5.654 ns": a time with an SI prefix and 4 significant digits.
std::string human_time(SimTime t);

}  // namespace simfab
