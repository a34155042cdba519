// A sweep spread over the K processes of an MPI job (`mpirun -np K simfab sweep SPEC -o CSV`,
// issue 31 part 1): process 0 hands out points on demand and gathers their outcomes; processes
// 1..K-1 run them. Long points do not hold up the rest: a worker asks for its next point when one
// of its own ends (dynamic load balancing), so the job ends within one point's time of the ideal.
// The CSV is process 0's, in grid order whatever finished first (sweep/sweep_results.hpp), so it
// is the same as a local sweep's apart from the wall_s column.
//
// Protocol (SweepTransport tags; process 0 is the only one that speaks to all):
//   0 -> w   kStart          the spec is valid and the CSV writable: load the spec, ask for points
//   0 -> w   kStop  [code]   nothing to run (a bad spec, --dry-run, or all done): exit with code
//   w -> 0   kAsk            one of my slots is free
//   0 -> w   kPoint [index]  run this point          | kNoMore: there are none left
//   w -> 0   kOutcome [index, PointOutcome]           the point ended (encode_outcome below)
//   w -> 0   kDone           I have no point running and will ask for no more
// Process 0 returns once every worker said kDone. Messages: O(points + workers), each O(its JSON
// and stderr). A worker exits when process 0 does: mpirun ends the job when one process fails.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>

#include "sweep/point_runner.hpp"
#include "sweep/sweep_transport.hpp"

namespace simfab {

enum SweepTag : int { kStart = 1, kStop, kAsk, kPoint, kNoMore, kOutcome, kDone };

// PointOutcome as bytes (index first) and back. decode_outcome throws std::runtime_error on a
// message too short for its fields (a damaged message: a bug, not user input).
std::string encode_outcome(size_t index, const PointOutcome& o);
PointOutcome decode_outcome(const std::string& data, size_t& index);

// Process 0: tells every worker to start, hands them the points `todo` in that order on demand
// (on_start hears each), and calls on_done for each outcome (in the order they arrive) and
// on_tick every 0.5 s at least. When on_done returns false, the points not yet handed out are not
// run. Returns once every worker is done.
void dispatch_points(SweepTransport& t, std::span<const size_t> todo, const std::function<void(size_t)>& on_start,
                     const PointRunner::OnDone& on_done, const PointRunner::OnTick& on_tick);

// Process 0: there is nothing to run; every worker exits with `code`.
void stop_workers(SweepTransport& t, int code);

// A worker: waits for kStart or kStop. Returns nullopt on kStart, or the exit code of kStop.
std::optional<int> await_start(SweepTransport& t);

// A worker after kStart: runs the points process 0 hands out through `runner` (its -j slots) until
// there are none left, sending each outcome back.
void serve_points(SweepTransport& t, PointRunner& runner, const PointRunner::Arguments& arguments);

}  // namespace simfab
