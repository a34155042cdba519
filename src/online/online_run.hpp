// run_online: `simfab exec` (online mode, online_program.hpp): loads the platform (or, without
// one, a default cluster of one host per rank), maps ranks to hosts as `simfab run` does, opens
// the program built by simfab-cc (ProgramImage), and runs it on the configured network model.
//
// Configuration keys (simfab config --list):
//   online/compute=measured|declared  measured: the CPU time each rank spends between MPI calls
//                                     is charged (scaled, below); declared: only simfab_compute /
//                                     smpi_execute* charge time, so runs are reproducible
//   cpu/reference-speed=SPEED         flop/s of this machine's core: measured time t costs
//                                     t * SPEED / host speed; 0 (default): t as measured
//   online/stack-size=BYTES           each rank's stack (a guard page below it)
//   online/poll-cost=TIME             what an MPI_Test/MPI_Iprobe that finds nothing costs, so a
//                                     polling loop advances simulated time
// The default cluster (no --platform): hosts node-0 .. node-(N-1) of 1 Gf/s behind a 10 Gb/s
// non-blocking switch with 1 us links (examples/platforms/cluster16.yaml's shape).
#pragma once

#include "core/config.hpp"
#include "sim/simulation.hpp"

namespace simfab::online {

void register_online_keys(Config& cfg);

// The platform of a run without --platform (simfab exec, simfab hybrid): n hosts of 1 Gf/s on
// 10 Gb/s, 1 us links.
Platform default_cluster(int n);
// cpu/reference-speed in flop/s; 0 when it is 0 (measured time as it is). InputError when bad.
double reference_speed(const Config& cfg);

RunResult run_online(const SimulationInput& in, Config& cfg, const RunHooks& hooks = {});

}  // namespace simfab::online
