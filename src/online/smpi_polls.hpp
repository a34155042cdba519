// SmpiPolls: the simulated time SMPI injects into polling calls (SimGrid 3.32, smpi_request.cpp),
// which simfab exec reproduces under network/model=smpi so that a program that polls (a panel
// factorisation testing for its next column, a progress loop) predicts what smpirun predicts.
//
// SMPI, before each poll looks at its requests:
//   MPI_Test (and each active request of MPI_Testall, MPI_Testsome)   sleeps n_test x smpi/test
//   MPI_Testany                                  sleeps n_testany x smpi/test
//   MPI_Iprobe (MPI_Probe: iprobe until found)   computes n_iprobe x smpi/iprobe
// where each counter n is 1 after a successful poll of its kind and grows by one after each
// failed one (with smpi/grow-injected-times, the default; Testany's grows always). The counters
// are process-wide in SMPI (C++ statics shared by all ranks), so here too: one per kind per run.
// A rank polling for a message that arrives at time T therefore sees it at the first t_k >= T with
// t_k = t_0 + c (1 + 2 + ... + k). Defaults (SimGrid's): smpi/test = smpi/iprobe = 100 us.
// Complexity: O(1). Thread-safety: none (ranks run one at a time).
#pragma once

#include <cstdint>

#include "core/sim_time.hpp"

namespace simfab::online {

class SmpiPolls {
 public:
  enum Kind : uint8_t { kTest, kTestany, kIprobe, kKinds };
  // A counter this large means a poll that cannot succeed: the caller then waits for it instead, so
  // a poll loop that can never end becomes a deadlock report, not an endless run.
  static constexpr uint64_t kRunaway = 1'000'000;

  SmpiPolls() = default;
  SmpiPolls(SimTime test, SimTime iprobe, bool grow) : test_(test), iprobe_(iprobe), grow_(grow), on_(true) {}

  bool enabled() const { return on_; }
  // The time the next poll of `k` costs (charged before it looks).
  SimTime cost(Kind k) const { return SimTime::ps((k == kIprobe ? iprobe_ : test_).ps() * static_cast<int64_t>(n_[k])); }
  void outcome(Kind k, bool found) {
    if (found) n_[k] = 1;
    else if (grow_ || k == kTestany) ++n_[k];
  }
  bool runaway(Kind k) const { return n_[k] > kRunaway; }

 private:
  SimTime test_ = SimTime::zero();
  SimTime iprobe_ = SimTime::zero();
  bool grow_ = true;
  bool on_ = false;
  uint64_t n_[kKinds] = {1, 1, 1};
};

}  // namespace simfab::online
