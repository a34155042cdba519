// SweepResults: the table `simfab sweep -o results.csv` writes, one row per point in grid order
// whatever order the points finished in:
//
//   <one column per setting the sweep varies>[,rep],makespan_ps,makespan_s,energy_j,messages,wall_s,status,error
//   loggops,0.01ns,1181800000,0.0011818,,480,0.012,ok,
//   flow,0.01ns,,,,,0.009,bad_input,"cfg.yaml:3:5: error: ..."
//
// makespan_ps and messages are the point's JSON integers, makespan_s the same time as exact decimal
// seconds (report/time_format.hpp), energy_j the JSON's number (empty without power); wall_s is the
// point's wall time from start to exit (with its process start-up), the one column that differs
// from one run of the sweep to another. status: ok, bad_input (exit 2), deadlock (3), crashed (a
// signal, or exit 4: a rank of exec crashed), failure (5: a host or link failed), timeout, error
// (any other exit, or no JSON); error: the first non-empty line of the point's stderr.
//
// Resuming: resume_from reads an earlier output of the same spec (same header); its rows count as
// done (with retry_failed, only the ok ones), so only the missing points run. A row that is no
// point of the spec, or another header, is an InputError (the file belongs to another sweep).
// Points interrupted by SIGINT/SIGTERM (exit 130/143) are not recorded: they run again next time.
//
// Cost: O(points x columns) strings; write() is O(table). Thread-safety: none.
#pragma once

#include <array>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sweep/point_runner.hpp"
#include "sweep/sweep_spec.hpp"

namespace simfab {

// The columns after the point's settings, in order: every one but the last two is a number (or
// empty: a failed point, energy_j without power). `simfab report` recognises a sweep's CSV by them.
inline constexpr std::array<std::string_view, 7> kSweepResultColumns = {
    "makespan_ps", "makespan_s", "energy_j", "messages", "wall_s", "status", "error"};

class SweepResults {
 public:
  explicit SweepResults(const SweepSpec& spec);

  // REQUIRES: nothing recorded yet. Throws InputError (see above).
  void resume_from(const std::string& path, bool retry_failed);

  bool has(size_t point) const { return !rows_[point].empty(); }
  size_t recorded() const;
  size_t failed() const;  // recorded rows whose status is not ok
  // Records the point's row; returns its status ("" when it was interrupted: nothing recorded).
  std::string record(size_t point, const PointOutcome& outcome);

  // The header and the recorded rows, in grid order.
  void write(std::ostream& out) const;

 private:
  std::vector<std::string> key_cells(size_t point) const;

  const SweepSpec& spec_;
  std::vector<std::string> header_;
  size_t keys_;                              // leading columns naming the point (settings, rep)
  std::vector<std::vector<std::string>> rows_;  // per point; empty: not run yet
};

// The status column for an outcome ("" for an interrupted point), and the error column.
std::string point_status(const PointOutcome& o);
std::string point_error(const PointOutcome& o);

}  // namespace simfab
