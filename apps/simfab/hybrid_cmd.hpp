// `simfab hybrid -np N [options] [--mpirun-arg ARG]... [--] PROGRAM [ARGS...]` (issue 25): runs a
// real MPI program on the real MPI library with simfab supplying the network (seed 002). It
// checks the options, platform and keys, then starts
//   mpirun [--allow-run-as-root] --oversubscribe -np N+1 -x LD_PRELOAD=<build>/libsimfab-hybrid.so
//          -x SIMFAB_HYBRID_SIM=... -x SIMFAB_HYBRID_APP=PROGRAM -x SIMFAB_HYBRID_OPTS=<options>
//          [ARG...] PROGRAM [ARGS...]
// ($SIMFAB_MPIRUN instead of mpirun when set) and returns the job's exit status; a failed job's
// temporary output files (and a statistics directory it created) are removed.
#pragma once

#include <string>
#include <vector>

namespace simfab {

int cmd_hybrid(const std::vector<std::string>& args);

}  // namespace simfab
