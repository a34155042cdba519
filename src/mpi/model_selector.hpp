// ModelSelector: which of a run's network models a rank's next message goes through (switching
// models during a run, seed 000 ch. 6, issue 24). The executor asks it once per message, when the
// send starts; the message keeps that model to its end (its envelope, its data, the receiver's
// overheads), so transfers in flight finish in the model that started them, and a message whose
// two ends are on different sides of a switch uses the model its sender was in.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/sim_time.hpp"
#include "mpi/coll/registry.hpp"
#include "net/network.hpp"

namespace simfab {

// Where a logical switch is (for errors): formatted only when needed, so a trace's switch costs
// no line count. The function must stay valid for the run (it may be kept and called later).
using SwitchWhere = std::function<std::string()>;

class ModelSelector {
 public:
  virtual ~ModelSelector() = default;
  // The model of rank r's message of `bytes` starting at t. Calls come in non-decreasing t (the
  // engine's order).
  virtual uint8_t model(RankId r, SimTime t, Bytes bytes) = 0;
  // The phase (PhaseResult::id) that counted the last model() call's message.
  virtual uint32_t counted_phase() const { return 0; }
  // Model m (0: the executor's own); models may be added during the run (a logical switch).
  virtual Network& network(uint8_t m) = 0;
  virtual size_t model_count() const = 0;
  // A logical switch point of rank r at its time t (a TI `switch`, simfab_switch): from t on its
  // messages go through the model of `changes` ("key=value key=value" or comma-separated).
  // `where` names the place for errors. Throws InputError.
  virtual void switch_point(RankId r, SimTime t, std::string_view changes, SwitchWhere where) = 0;
  // MPI_Pcontrol(level) of rank r at t: the switch mapped to `level` (--pcontrol), or nothing.
  virtual void pcontrol(RankId r, SimTime t, int level, SwitchWhere where) = 0;
  // Rank r is done with a call of collective `name` at t ("allreduce" when a blocking one returns,
  // "iallreduce" when a non-blocking one is called): the switches after the K-th call count it.
  virtual void collective_done(RankId /*r*/, SimTime /*t*/, std::string_view /*name*/) {}
  // The collective choice (mpi/coll-selector, mpi/<collective>, SimGrid's smpi/ ones) rank r is
  // under at t: an index for coll_choice (0: the run's own, which the front-end keeps). A
  // collective runs with the choice of the first member to enter it (the front-ends record it per
  // collective instance), so every member runs the same algorithm.
  virtual uint8_t collective_choice(RankId /*r*/, SimTime /*t*/) { return 0; }
  virtual const coll::CollChoice& coll_choice(uint8_t i) const = 0;
};

}  // namespace simfab
