// The statistics as JSON: the schema is documented in report/run_stats.hpp (RunStats::to_json).
#pragma once

#include <nlohmann/json.hpp>

#include "report/stats_report.hpp"

namespace simfab {

nlohmann::ordered_json stats_json(const StatsReport& s);

}  // namespace simfab
