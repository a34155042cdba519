#include "sim/calibration_check.hpp"

#include "core/error.hpp"

namespace simfab {

void register_calibration_keys(Config& cfg) {
  cfg.declare({"calibration/library", CfgType::kText, "none",
               "the MPI library a calibrated platform was measured with (simfab calibrate fit writes it; a TI trace "
               "whose # mpi-library: names another is refused); none: not said",
               {}});
  cfg.declare({"calibration/nodes", CfgType::kInt, "0",
               "how many nodes the calibration's ranks used (1: shared memory); a TI trace whose # mpi-nodes: is 1 "
               "where this is more, or the reverse, is refused; 0: not said",
               {}});
}

std::string_view library_name(std::string_view library_version) {
  return library_version.substr(0, library_version.find(','));
}

void check_trace_matches_calibration(const Config& cfg, const TiOrigin& trace) {
  const std::string& calibrated = cfg.text("calibration/library");
  if (!trace.library.empty() && calibrated != "none" && library_name(trace.library) != library_name(calibrated))
    throw InputError(trace.library_at,
                     "this trace was captured with " + std::string(library_name(trace.library)) +
                         " but the platform was calibrated with " + std::string(library_name(calibrated)) +
                         " (calibration/library): calibrate with the library that ran the capture",
                     "# mpi-library: " + trace.library);
  const int64_t nodes = cfg.integer("calibration/nodes");
  if (trace.nodes > 0 && nodes > 0 && (trace.nodes == 1) != (nodes == 1))
    throw InputError(trace.nodes_at,
                     "this trace ran on " + std::to_string(trace.nodes) + " node(s) but the platform was calibrated on " +
                         std::to_string(nodes) + " (calibration/nodes): " +
                         (nodes == 1 ? "shared-memory measurements cannot stand for a network"
                                     : "network measurements cannot stand for shared memory") +
                         "; calibrate with the ranks placed as the traced run's were",
                     "# mpi-nodes: " + std::to_string(trace.nodes));
}

}  // namespace simfab
