// What the TI and GOAL writers of `simfab convert` share: the walk over one rank's kept records
// with its computation gaps and pinning charges, and the normalised arguments of a collective.
//
// GAPS. The time between two MPI calls is the application's computation: for each record whose
// step is kOp (capture_run.hpp), gap = its call time - the return time of the previous kOp record
// (MPI_Init's return for the first); MPI_Finalize's gap runs from the last kOp's return to its call.
// Skipped records (MPI_Comm_rank, MPI_Iprobe, ...) and markers (MPI_Comm_free) do not end a gap:
// their time is part of it, as Schedgen counts them. MPI call durations are not in the output
// (seed 004 §2.5: only application compute is).
//
// PINNING (ConvertOptions::pinning; seed 004 §2.5 extension 1, §4.4). Per rank, a PinnedIntervals
// of buffer bytes already used; a transfer's buffers are [addr, addr + bytes): send and receive
// buffers of point-to-point calls, the send and receive buffers of collectives (v-variants: the sum
// of their counts; MPI_IN_PLACE and address 0 are not buffers). When they bring n > 0 new bytes
// the op is preceded by a charge of A + B*n µs (pin_ps).
//
// Cost: O(records) per rank (plus O(log) per pinning insert). Thread-safety: none.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "capture/capture_run.hpp"
#include "replay/ti_action.hpp"

namespace simfab {

struct ConvertOptions {
  double speed = 0;        // flop/s of the traced machine's core; 0: gaps are written as sleeps
  bool pinning = false;
  double pin_a_us = 0;     // A: µs per transfer that pins new bytes
  double pin_b_us = 0;     // B: µs per new byte
};

struct CapVisit {
  uint32_t index = 0;      // the record (== kept(r) for the finalize added after a salvage cut)
  CapStep step = CapStep::kSkip;
  int64_t gap_ps = -1;     // kOp, kFinalize: the gap before it; -1: none (markers, salvage end)
  int64_t pin_ps = 0;      // kOp: the pinning charge before it, 0 for none
};

// Calls visit() for rank r's kInit, every kOp and kMarker record, and kFinalize (the record, or an
// added one at index kept(r) with gap -1 when the rank was cut), in order.
void walk_rank(const CaptureRun& run, RankId r, const ConvertOptions& options,
               const std::function<void(const CapVisit&)>& visit);

// A collective's arguments with MPI's special cases applied: MPI_IN_PLACE (the send side takes the
// receive side's block, and the reverse for scatter(v) at the root) and the root's counts for the
// non-roots of gatherv/scatterv (MPI ignores theirs; capture writes `-`). Counts are elements of
// the side's datatype (s_dt / r_dt bytes each).
struct CapCollArgs {
  TiKind kind = TiKind::kBarrier;
  int32_t root = 0;
  int32_t local = 0;       // the rank in the communicator
  int32_t size = 1;
  uint64_t s_count = 0, s_dt = 1;
  uint64_t r_count = 0, r_dt = 1;
  std::vector<uint64_t> s_counts, r_counts;  // P entries when the collective has them
};
CapCollArgs collective_args(const CaptureRun& run, RankId r, uint32_t i);

}  // namespace simfab
