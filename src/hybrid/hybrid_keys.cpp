#include "hybrid/hybrid_keys.hpp"

namespace simfab::hybrid {

void register_hybrid_keys(Config& cfg) {
  cfg.declare({"hybrid/compute-scale", CfgType::kText, "1",
               "simfab hybrid: a second of this machine's computation between MPI calls lasts this many "
               "seconds on the target (2: a CPU twice slower; 0.5: twice faster), on top of cpu/reference-speed",
               {}});
  cfg.declare({"hybrid/compute", CfgType::kChoice, "measured",
               "simfab hybrid: measured charges each rank's real time between MPI calls as computation; none "
               "charges nothing (communication only: the same inputs then give the same prediction)",
               {"measured", "none"}});
  cfg.declare({"hybrid/copy-above", CfgType::kBytes, "4096",
               "simfab hybrid: sends above this size that the simulation completes at once (eager) go from a "
               "copy in the real run, so the real MPI never waits for a receiver the simulation does not "
               "wait for; the real MPI's eager limit (Open MPI shared memory: 4 KiB)",
               {}});
  cfg.declare({"hybrid/stall-timeout", CfgType::kTime, "10s",
               "simfab hybrid: how long (wall clock) every rank may wait in a real MPI call, or for "
               "MPI_Wtime, with nothing reaching the simulator, before the run stops as deadlocked",
               {}});
}

}  // namespace simfab::hybrid
