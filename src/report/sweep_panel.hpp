// The sweep results panel of `simfab report` (issue 32): the CSV that `simfab sweep SPEC.yaml -o
// results.csv` writes (sweep/sweep_results.hpp), read back and turned into the data the page's
// sweep.js draws (any result column against any axis, a heatmap over two axes).
//
// Columns. The header ends with the result columns (kSweepResultColumns: makespan_ps, makespan_s,
// energy_j, messages, wall_s, status, error); every column before them is an axis: a setting the
// sweep varies, or `rep` for repetitions. That ending is how a sweep's CSV is told from a run file.
//
// Axes are numeric or categorical. An axis is numeric when every value but the default (an empty
// cell: a point that does not set the column) reads as a number in one quantity: bare numbers,
// times (ns, us, s: in seconds), bandwidths (Gbps, GBps: in B/s), sizes (kB, MiB: in bytes) or
// speeds (Gf: in flop/s), the suffixes of core/units.hpp; otherwise (model and algorithm names, a
// mix of quantities) it is categorical. A numeric axis lists its values by number, the default
// last; a categorical one in the order the rows first show them (the spec's order).
//
//   loggops/G: 0.01ns, 0.04ns, ""  -> numeric, unit "s", numbers 1e-11, 4e-11, null
//   network/model: loggops, flow   -> categorical
//
// Results are the numeric result columns (all but status and error). A row whose status is not
// `ok` is a failed point: its results are null, whatever its cells say, and the page marks it
// with its error, never as a value. An ok row's empty cell is null too (energy_j without power).
// The best point of a result column is the ok point with the lowest value (the first in file
// order on a tie): less time, energy, messages or wall time is better.
//
// Errors (InputError at file:line, nothing written by the caller): an empty file, a header that
// is not a sweep's, a header with no rows, a row with another number of fields than the header,
// an empty status, a result of an ok row that is not a finite number.
//
// The page's JSON (the "sweep" member of the data block, see web/report/sweep.js):
//   {"file", "points", "ok", "failed",
//    "axes": [{"name", "numeric", "unit", "values": [text...], "numbers": [number|null...] (numeric
//              axes only), "index": [value index per point]}],
//    "results": [{"name", "unit", "values": [number|null per point], "best": point|null}],
//    "status": [per point], "error": [per point, "" when ok]}
// Points are in file order (the sweep's grid order).
//
// Cost: O(file) time and memory. Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace simfab {

struct SweepAxis {
  std::string name;
  bool numeric = false;
  std::string unit;                            // numeric: "", "s", "B/s", "B" or "flop/s"
  std::vector<std::string> values;             // distinct values, in the order above
  std::vector<std::optional<double>> numbers;  // numeric: each value in `unit` (nullopt: default)
  std::vector<uint32_t> index;                 // per point: its value's index in `values`
};

struct SweepResultColumn {
  std::string name;
  std::string unit;                           // "ps", "s", "J" or "" (a count)
  std::vector<std::optional<double>> values;  // per point; nullopt: failed point or empty cell
  std::optional<size_t> best;                 // the ok point with the lowest value
};

struct SweepTable {
  std::string file;  // the path as given
  std::vector<SweepAxis> axes;
  std::vector<SweepResultColumn> results;
  std::vector<std::string> status;  // per point
  std::vector<std::string> error;   // per point
  size_t points() const { return status.size(); }
  size_t failed() const;
};

// Whether `path` is a sweep's results: its first line ends with the result columns, or its name
// ends in ".csv" (so read_sweep_table names what a CSV lacks). False for an unreadable file, which
// the run reader then reports.
bool is_sweep_results(const std::string& path);

// Reads and checks the CSV. Throws InputError (see above).
SweepTable read_sweep_table(const std::string& path);

// The page's "sweep" object (see above).
nlohmann::json sweep_panel_json(const SweepTable& table);

}  // namespace simfab
