// FirstCallCosts: what an MPI library spends setting a collective up the first time a process
// calls it (issue 28; measured by `simfab calibrate`'s first_call/next_call experiments).
//
// Open MPI builds a collective's module state lazily: on this project's VM the first
// MPI_Allreduce of a process takes about 12 us more than the second, the first MPI_Bcast 7 us,
// the first MPI_Alltoall 4 us; a fresh communicator (MPI_Comm_dup) of a process that has used
// the collective before pays nothing again. So the cost is per (process, collective):
//     a rank's first blocking call of collective c costs first_call(c) before it takes part;
//     every later call of c by that rank, on any communicator, costs nothing extra.
// Key: mpi/first-call = "<collective>=<seconds>[;<collective>=<seconds>...]" with the names of
// `simfab coll --list` (barrier, bcast, ..., exscan); unnamed collectives cost nothing; "none" (the
// default) charges nothing. The calibrated platform writes it. TI replays (replay/ti_program) and
// simfab exec (online/online_messages) charge it as a delay before the rank takes part. Non-blocking collectives are not charged (Open MPI runs them
// in another component, not measured).
// Cost: O(1) per call (a 16-bit mask per rank); nothing when the key is empty.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/config.hpp"
#include "core/sim_time.hpp"
#include "mpi/coll/registry.hpp"

namespace simfab::coll {

class FirstCallCosts {
 public:
  FirstCallCosts() = default;
  // From mpi/first-call; throws InputError naming the key on a malformed table.
  static FirstCallCosts from(const Config& cfg);
  // The table's text parsed; `what` receives the complaint (empty on success).
  static FirstCallCosts parse(std::string_view table, std::string& what);

  bool any() const { return any_; }
  SimTime cost(CollOp op) const { return cost_[static_cast<size_t>(op)]; }
  // The set-up rank r pays now for a blocking call of op: cost(op) the first time, then zero.
  SimTime charge(RankId r, CollOp op);

 private:
  static_assert(static_cast<size_t>(CollOp::kCount) <= 16, "one bit per collective in a uint16_t");
  std::array<SimTime, static_cast<size_t>(CollOp::kCount)> cost_{};
  bool any_ = false;
  std::vector<uint16_t> called_;  // per rank: the collectives it has called
};

}  // namespace simfab::coll
