#include "sim/goal_export.hpp"

#include "mpi/coll/registry.hpp"
#include "replay/ti_trace.hpp"

namespace simfab {

GoalExportResult export_trace_as_goal(const SimulationInput& in, Config& cfg, std::ostream& out) {
  SIMFAB_CHECK(!in.trace_path.empty() && in.goal_path.empty(), "export_trace_as_goal: needs a TI trace");
  Platform platform = load_run_platform(in, cfg);
  std::unique_ptr<TiTrace> trace = open_ti_trace(in.trace_path);
  const int num_ranks = ti_num_ranks(*trace);
  if (in.platform_path.empty()) platform = Platform::ideal(num_ranks);
  const std::vector<HostId> rank_host = map_ranks(in, platform, num_ranks, in.trace_path);
  GoalExportResult r;
  r.num_ranks = num_ranks;
  r.stats = write_ti_as_goal(*trace, platform, rank_host, coll::CollChoice::from(cfg), out);
  return r;
}

}  // namespace simfab
