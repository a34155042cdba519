// What the ranks of a hybrid run and its simulator process say to each other (seed 002 §2.1-2.2,
// issue 25): the shared constants of apps/hybrid/ (the ranks' PMPI library) and
// apps/hybrid/sim/ (the simulator). Header-only, no dependencies: the library includes it too.
//
// LAYOUT. The job has N + 1 processes; the last of MPI_COMM_WORLD is the simulator, the others
// the application, which sees an MPI_COMM_WORLD of N ranks (the library's app communicator). The
// simulator and the ranks talk on a duplicate of the real MPI_COMM_WORLD (the channel), so their
// messages never match the application's. Everything goes over MPI: the job may span hosts.
//
// MESSAGES (rank -> simulator, in order on the channel):
//   kLines       complete TI lines (replay/ti_trace.hpp, with the `wtime` extension) of the rank's
//                calls so far: its MPI calls and, before each, `compute <flops>` for the real
//                time it spent outside MPI (times the flop rate the simulator gave it)
//   kWtimeLines  the same, ending with `<r> wtime`: the rank then waits for a kWtime reply
//   kBlocked     the rank is about to block in a real MPI call: its pending lines (maybe none),
//                a NUL byte, the call's name; it sends nothing more until that call returns
//   kEnd         the rank's stream is complete (after its `finalize` line)
// (simulator -> rank):
//   kSetup       at start: Setup below
//   kWtime       a double: the rank's virtual time in seconds at its `wtime` line
// Within each direction the channel keeps order (MPI's non-overtaking rule, one sender).
#pragma once

#include <cstdint>

namespace simfab::hybrid {

inline constexpr int kLines = 101;
inline constexpr int kWtimeLines = 102;
inline constexpr int kBlocked = 103;
inline constexpr int kEnd = 104;
inline constexpr int kSetup = 105;
inline constexpr int kWtime = 106;

// The simulator's answer at start-up, one per rank.
struct Setup {
  double flops_per_s = 0;  // compute lines: real seconds x this = flops (host speed x hybrid/compute-scale)
  // Sends larger than copy_above and at most copy_max bytes complete at once in the simulation
  // (eager) but may wait for the receiver in the real MPI: the library sends them from a copy
  // and completes the caller's request at once, so the real run never waits where the
  // simulation does not (docs/architecture.md, "Hybrid execution").
  uint64_t copy_above = 0;
  uint64_t copy_max = 0;
};
// (Bad input found by the simulator ends the whole job with MPI_Abort: no status to send.)

}  // namespace simfab::hybrid
