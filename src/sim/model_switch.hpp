// ModelSwitch: switching network models during a run (seed 000 chapter 6, §3.10; issue 24).
// S4BXI switched between two MPI implementations through a middleware (dual handles, request
// ownership sets). simfab has every model in one process and one event queue, so a switch is a
// choice per message: the executor asks, when a send starts, which model it goes through
// (mpi/model_selector.hpp), and the message keeps that model to its end.
//
// A switch changes any keys that network models read (network/*, loggops/*, flow/*, packet/*,
// nic/*, SimGrid's smpi/ network keys), not only network/model: a phase's configuration is the
// run's with the changes of every switch so far applied in order. Each distinct configuration is
// one model instance, built before the run (so a bad key, value or model fails before any time is
// spent) on an event kind of its own (EventKind::kModel1 + i - 1; at most 8 distinct models, at
// most one of them with nic/model=portals); switching back to an earlier configuration reuses its
// instance, whose transfers may still be in flight.
//
// Triggers (this version): by simulated time, `--switch T:key=value[,key=value...]`. A message
// whose send starts at t >= T goes through the new model; one that started before finishes in
// its own. Switch times must increase. Logical triggers (a TI action, simfab_switch, Pcontrol,
// after the K-th collective) are not implemented yet (issue 24).
//
// Phases: phase 0 runs from 0 under the run's configuration; switch k opens phase k at its time
// T_k, until T_{k+1} or the makespan. Each phase reports its changes, its model's name, and the
// engine events and wall-clock seconds from its first message on (a switch costs no event: it is
// applied when the first message after it starts), so the figures say what each phase cost.
// Cost: one comparison per message; nothing when the run has no switch.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/config.hpp"
#include "core/engine.hpp"
#include "mpi/model_selector.hpp"
#include "net/network.hpp"
#include "platform/platform.hpp"

namespace simfab {

using ConfigChanges = std::vector<std::pair<std::string, std::string>>;

struct ModelSwitchSpec {
  SimTime at;
  ConfigChanges changes;
  std::string text;  // as given (for messages)
};

// "2ms:network/model=packet,flow/bw-factor=0.9": a time (with units, or bare seconds) and at least
// one key=value. Throws InputError at "--switch" saying what was expected.
ModelSwitchSpec parse_model_switch(const std::string& spec);

struct PhaseResult {
  SimTime from, to;
  ConfigChanges changes;  // of the switch that opened it (empty for phase 0)
  std::string model;      // its network model's name
  uint64_t events = 0;    // engine events from its first message to the next phase's
  double wall_s = 0;
};

class ModelSwitch final : public ModelSelector {
 public:
  // Builds every phase's model (model 0 = `first`, the run's own). Throws InputError naming the
  // switch and the key for a key that is unknown or not a network model's, a bad value, or a
  // model the platform cannot run.
  ModelSwitch(Engine& engine, const Platform& platform, const Config& run_cfg, Network& first,
              std::vector<ModelSwitchSpec> switches);
  ~ModelSwitch() override;

  std::vector<Network*> models() const;
  uint8_t model(RankId r, SimTime t) override;
  // The phases of a run that ended at `makespan`, its events in all `events`.
  std::vector<PhaseResult> phases(SimTime makespan, uint64_t events) const;
  // Every model's statistics together: per link (by name) bytes, busy time, flows and packets
  // summed, peaks the largest; the models' totals summed.
  NetworkStats statistics() const;

 private:
  struct Phase {
    ModelSwitchSpec spec;
    uint8_t model = 0;
    bool started = false;
    uint64_t events_at = 0;
    double wall_at = 0;
  };
  void enter(size_t phase);
  Engine& engine_;
  std::vector<Network*> nets_;
  std::vector<std::unique_ptr<Network>> owned_;
  std::vector<Phase> phases_;
  size_t current_ = 0;
  double wall0_;
};

}  // namespace simfab
