// RegionTimes: the computation of each code region, as given and as charged (seed 001 §2.11).
//
// A code region is the code a rank runs between two consecutive MPI calls: CallSites' task
// (mpi/call_sites.hpp), named as seed 001 names it,
//     "<site of the previous MPI call>:<site of the next MPI call>"
// with sites "file:line" (a TI trace's location lines) or "<object>+0x<offset>" (simfab exec, the
// capture library), "?" where unknown. Every computation a front-end charges (a TI compute, an
// online measured burst) goes through charge():
//     charged = given x s(region)        s = the factor file's value for the region, else 1
// and the region's executions and its given and charged sums are kept (--stats regions.csv).
// Sleeps and MPI delays are not computations and are never scaled.
//
// Calibration (seed 001 §2.11 steps 1-3; `simfab calibrate regions REFERENCE MEASURED`): with the
// regions.csv of a reference run (e.g. the real run, or the host to predict) and of a measured one
// (e.g. simfab exec, or the host the trace was captured on), for every region in both
//     s(c) = (given_ref(c) / executions_ref(c)) / (given_measured(c) / executions_measured(c))
// (the seed sums over ranks and executions; the per-execution mean is the same when both runs
// executed the region equally often, and stays right when the workloads differ in length).
//
// Factor file (cpu/region-factors=FILE): CSV, one `"region",factor` per line, seed 001's form
// ("exchange_1.f:130:exchange_1.f:30",1.9696); an optional header `region,factor`; blank lines and
// `#` comments. A factor is a finite number > 0; a region listed twice is an error.
// Cost: one name lookup per region the first time it computes, then O(1) per computation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "mpi/call_sites.hpp"

namespace simfab {

class Config;

// cpu/region-factors (a factor file, or none).
void register_region_keys(Config& cfg);

// One region of a run (regions.csv): in order of first appearance.
struct RegionRow {
  std::string name;  // "<previous site>:<next site>"
  uint64_t executions = 0;
  uint64_t given_ps = 0;    // as the trace or the measurement gave it
  uint64_t charged_ps = 0;  // after the factor
  double factor = 1;
};

// One field-split CSV line: fields may be quoted ("..." with "" for a quote). Nullopt when a
// quote is not closed.
std::optional<std::vector<std::string>> split_csv_line(std::string_view line);

class RegionTimes {
 public:
  // The factors of `path` (the format above). Throws InputError naming the file and line.
  void load_factors(const std::string& path);
  bool has_factors() const { return !factors_.empty(); }

  // The work (ps at the host's nominal speed) a computation of `task` charges; counts it.
  uint64_t charge(const CallSites& sites, uint32_t task, uint64_t given_ps);

  // The regions that computed, in order of first appearance.
  std::vector<RegionRow> rows(const CallSites& sites) const;
  // The factor file's regions that never computed (a name that matched nothing is likely a typo,
  // or a region this run did not reach).
  std::vector<std::string> unused_factors() const;

  static std::string region_name(const CallSites& sites, uint32_t task);

 private:
  static bool line_is_header(const std::vector<std::string>& fields);
  struct PerTask {
    bool known = false;  // factor looked up
    double factor = 1;
    uint64_t executions = 0, given_ps = 0, charged_ps = 0;
  };
  std::unordered_map<std::string, double> factors_;
  std::vector<std::string> factor_order_;  // file order, for unused_factors()
  std::unordered_set<std::string> factor_used_;  // the factors a region matched
  std::vector<PerTask> tasks_;
};

// A run's regions.csv (region,executions,given_s,charged_s,factor), as --stats writes it.
struct RegionMeasurement {
  std::string name;
  uint64_t executions = 0;
  double given_s = 0;
};
// Throws InputError naming the file and line.
std::vector<RegionMeasurement> read_regions_csv(const std::string& path);

// s(c) per region in both (the rule above), in the reference's order; `only_reference` and
// `only_measured` receive the regions found on one side only.
struct RegionFactor {
  std::string name;
  double factor = 1;
  uint64_t executions_reference = 0, executions_measured = 0;
};
std::vector<RegionFactor> region_factors(const std::vector<RegionMeasurement>& reference,
                                         const std::vector<RegionMeasurement>& measured,
                                         std::vector<std::string>& only_reference,
                                         std::vector<std::string>& only_measured);

}  // namespace simfab
