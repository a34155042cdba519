// What the TI and GOAL writers of `simfab convert` share: the walk over one rank's kept records
// with its computation gaps and pinning charges, and the normalised arguments of a collective.
//
// GAPS. The time between two MPI calls is the application's computation: for each record whose
// step is kOp (capture_run.hpp), gap = its call time - the return time of the previous kOp record
// (MPI_Init's return for the first); MPI_Finalize's gap runs from the last kOp's return to its call.
// When the trace counts floating-point operations (RankCapture::counters), the gap also carries
// the counter's difference between those two points (its flops), which the TI writer prefers.
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
// REDUCTIONS (TI only; ConvertOptions::reduce_flops). A real reduction computes: TI's reduce,
// allreduce, scan, exscan and reducescatter carry it as their flops argument, which replay charges
// once per call at the host's speed. simfab writes reduce_flops per reduced element (default 1: one
// operation of the op per element, SimGrid's reading; 0 charges nothing). GOAL's Schedgen shape has
// no such calc (seed 004 Appendix D), so it is left out there.
//
// COMMUNICATOR CREATION (TI only; ConvertOptions::measured_creation). An MPI library's
// communicator constructors do work no network model knows (context-id agreement, setting up the
// collective modules: 1-3 ms for Open MPI 4.1 on one node, against microseconds for simfab's
// modelled allgather). With measured_creation, each creation is preceded by a sleep of the
// SHORTEST time any member spent in that call: the last member to arrive did not wait for the
// others, so its time is the call's own cost. The modelled exchange still follows.
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
  double reduce_flops = 1;         // flops per reduced element (TI); 0: none
  bool measured_creation = true;   // TI: communicator creations cost their measured time
};

// The shortest time (ps) any member of the communicator spent in the creation that is record i of
// rank r (members cut by salvage are not counted; 0 when none is left).
int64_t creation_cost_ps(const CaptureRun& run, RankId r, uint32_t i);

struct CapVisit {
  uint32_t index = 0;      // the record (== kept(r) for the finalize added after a salvage cut)
  CapStep step = CapStep::kSkip;
  int64_t gap_ps = -1;     // kOp, kFinalize: the gap before it; -1: none (markers, salvage end)
  int64_t pin_ps = 0;      // kOp: the pinning charge before it, 0 for none
  double gap_flops = -1;   // kOp, kFinalize: the flops a counter measured in the gap; -1: none
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
