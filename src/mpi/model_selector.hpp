// ModelSelector: which of a run's network models a rank's next message goes through (switching
// models during a run, seed 000 ch. 6, issue 24). The executor asks it once per message, when the
// send starts; the message keeps that model to its end (its envelope, its data, the receiver's
// overheads), so transfers in flight finish in the model that started them, and a message whose
// two ends are on different sides of a switch uses the model its sender was in.
#pragma once

#include <cstdint>

#include "core/sim_time.hpp"

namespace simfab {

class ModelSelector {
 public:
  virtual ~ModelSelector() = default;
  // The model (an index into Executor::set_models' list) of rank r's message starting at t.
  // Calls come in non-decreasing t (the engine's order).
  virtual uint8_t model(RankId r, SimTime t) = 0;
};

}  // namespace simfab
