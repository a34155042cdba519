// Durations of TI compute and sleep actions (see ti_duration.hpp).
#include "replay/ti_duration.hpp"

#include <cmath>
#include <string>

#include "core/text_locator.hpp"

namespace simfab {

SimTime ti_compute_time(double flops, const Host& host, std::string_view file_name, const TiLine& line) {
  if (std::isinf(host.speed_flops) || flops == 0) return SimTime::zero();
  const double seconds = flops / host.speed_flops;
  if (!(seconds * 1e12 <= kTiMaxCalcPs))
    throw error_at(std::string(file_name), line.text, line.begin,
                   "computing " + std::to_string(flops) + " flops on host '" + host.name + "' (" +
                       std::to_string(host.speed_flops) + " flop/s) takes longer than simfab's limit for one action "
                       "(2^61 ps, about 26 days)");
  return SimTime::from_seconds(seconds);
}

SimTime ti_sleep_time(double seconds, std::string_view file_name, const TiLine& line) {
  if (!(seconds * 1e12 <= kTiMaxCalcPs))
    throw error_at(std::string(file_name), line.text, line.begin,
                   "a sleep of " + std::to_string(seconds) +
                       " s is longer than simfab's limit for one action (2^61 ps, about 26 days)");
  return SimTime::from_seconds(seconds);
}

}  // namespace simfab
