// The statistics as CSV files (the list and their columns: report/run_stats.hpp), and the
// directory they go to.
#pragma once

#include <string>

#include "report/stats_report.hpp"

namespace simfab {

// Makes `dir` (and its parents) if needed and checks that a file can be created in it, so that a
// bad --stats is reported before the simulation, not after it. Throws
// InputError(SourceLoc{dir, 0, 0}, ...) saying why it cannot.
void prepare_stats_dir(const std::string& dir, const std::string& what = "statistics directory");

// Writes every CSV file of `s` into `dir` (which exists), each all-or-nothing
// (core/atomic_file.hpp). Throws InputError when a file cannot be written.
void write_stats_csv(const StatsReport& s, const std::string& dir);

}  // namespace simfab
