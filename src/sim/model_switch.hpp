// ModelSwitch: switching network models during a run (seed 000 chapter 6, §3.10; issue 24).
// S4BXI switched between two MPI implementations through a middleware (dual handles, request
// ownership sets). simfab has every model in one process and one event queue, so a switch is a
// choice per message: the executor asks, when a send starts, which model it goes through
// (mpi/model_selector.hpp), and the message keeps that model to its end.
//
// A switch changes any keys that network models read (network/*, loggops/*, flow/*, packet/*,
// nic/*, SimGrid's smpi/ network keys), not only network/model, and the collectives' choice
// (mpi/coll-selector, mpi/<collective>, smpi/coll-selector, smpi/<collective>): a phase's
// configuration is the run's with the changes of every switch so far applied in order. A
// collective runs with the choice of its first member to enter it (in the front-end's order:
// simulated time in replay), recorded per collective instance, so its members never disagree on
// the algorithm, whatever side of a switch each of them is on. Each distinct network configuration is
// one model instance, built before the run (so a bad key, value or model fails before any time is
// spent) on an event kind of its own (EventKind::kModel1 + i - 1; at most 8 distinct models, at
// most one of them with nic/model=portals); switching back to an earlier configuration reuses its
// instance, whose transfers may still be in flight.
//
// Triggers, all producing the same kind of switch:
//   by simulated time   `--switch T:key=value[,key=value...]`: a message whose send starts at
//                       t >= T goes through the new model (times must not decrease);
//   at a logical point  a TI action `<rank> switch key=value...`, a GOAL op `l: switch k=v,...`
//                       (replay/goal_schedule.hpp), simfab_switch("key=value,...")
//                       in an MPI program, MPI_Pcontrol(level) mapped by
//                       `--pcontrol LEVEL:key=value,...`, or `--switch-after COLL:K:key=value,...`
//                       (when the rank's K-th call of collective COLL returns; iCOLL counts the
//                       non-blocking calls when they are made; TI traces and simfab exec): from the rank's own time at that point
//                       on, its messages use the new model. Every rank must reach its k-th
//                       logical switch with the same keys (else exit 2 naming both places), and
//                       every rank must reach every one (checked at the end of a run that did
//                       not deadlock). Ranks reach a point at different times: a message whose
//                       two ends are on different sides uses the model its sender was in.
//   Logical switches form their own sequence (configuration k = k-1's with switch k's changes);
//   a rank uses whichever of the timed and its own logical switches came last.
//
// Phases: phase 0 runs from 0 under the run's configuration; every switch opens a phase at its
// time (a logical one at the first rank's arrival), until the next phase or the makespan. Each
// reports its changes, its model's name, the messages (and bytes) whose sends started while it
// was the latest phase opened (by simulated time; each message's MessageRecord::phase names it,
// so --stats splits the matrix and the links per phase), and the engine events and wall-clock
// seconds from its opening on (a timed switch is applied when the first message after it
// starts: it costs no event), so the figures say what each phase cost. Cost: one call per message.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
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
// "1:network/model=packet": an MPI_Pcontrol level and its switch (--pcontrol).
std::pair<int, ConfigChanges> parse_pcontrol(const std::string& spec);
// "allreduce:10:network/model=loggops": after each rank's K-th call of a collective (--switch-after).
struct SwitchAfter {
  std::string collective;  // as TI names it: allreduce, bcast, ..., iallreduce for non-blocking
  uint32_t k = 0;
  ConfigChanges changes;
  std::string text;
};
SwitchAfter parse_switch_after(const std::string& spec);
// "k=v,k=v": the one text of a switch's changes (what ranks compare, what outputs show).
std::string changes_text(const ConfigChanges& changes);
// "key=value key=value" or "key=value,key=value" (a TI switch, simfab_switch). Empty on a bad item.
std::optional<ConfigChanges> parse_changes(std::string_view text);

struct PhaseResult {
  uint32_t id = 0;  // MessageRecord::phase of its messages (0: the run's first phase)
  SimTime from, to;
  ConfigChanges changes;  // of the switch that opened it (empty for phase 0)
  std::string model;      // its network model's name
  uint64_t events = 0;    // engine events from its first message to the next phase's
  double wall_s = 0;
  uint64_t messages = 0;  // messages whose send started in it, and their bytes
  uint64_t bytes = 0;
};

class ModelSwitch final : public ModelSelector {
 public:
  // Builds every phase's model (model 0 = `first`, the run's own). Throws InputError naming the
  // switch and the key for a key that is unknown or not a network model's, a bad value, or a
  // model the platform cannot run.
  ModelSwitch(Engine& engine, const Platform& platform, const Config& run_cfg, Network& first, int num_ranks,
              std::vector<ModelSwitchSpec> switches, std::map<int, ConfigChanges> pcontrol = {},
              std::vector<SwitchAfter> after = {});
  ~ModelSwitch() override;

  uint8_t model(RankId r, SimTime t, Bytes bytes) override;
  uint32_t counted_phase() const override { return counted_; }
  uint8_t collective_choice(RankId r, SimTime t) override { return setting(r, t).coll; }
  const coll::CollChoice& coll_choice(uint8_t i) const override { return colls_[i]; }
  Network& network(uint8_t m) override { return *nets_[m]; }
  size_t model_count() const override { return nets_.size(); }
  void switch_point(RankId r, SimTime t, std::string_view changes, SwitchWhere where) override;
  void pcontrol(RankId r, SimTime t, int level, SwitchWhere where) override;
  void collective_done(RankId r, SimTime t, std::string_view name) override;
  // After a run whose ranks all finished: every rank reached every logical switch (InputError).
  void check_complete() const;
  // The phases of a run that ended at `makespan`, its events in all `events`.
  std::vector<PhaseResult> phases(SimTime makespan, uint64_t events) const;
  // Every model's statistics together: per link (by name) bytes, busy time, flows and packets
  // summed, peaks the largest; the models' totals summed.
  NetworkStats statistics() const;

 private:
  // What a phase runs under: its network model and its collective choice.
  struct Setting {
    uint8_t model = 0;  // nets_[model]
    uint8_t coll = 0;   // colls_[coll]
  };
  struct Phase {
    ModelSwitchSpec spec;  // a logical switch: spec.at = the first rank's arrival
    Setting setting;
    uint32_t id = 0;  // timed: its index in phases_; logical k: phases_.size() + k
    bool started = false;
    uint64_t events_at = 0;
    double wall_at = 0;
    uint64_t messages = 0, bytes = 0;  // sends that started while it was the latest phase
  };
  struct Logical {
    Phase phase;
    SwitchWhere where;      // the first rank's place
    RankId first = 0;
    std::string given;      // the first rank's text, as given (later ranks' fast path)
    int reached = 0;
  };
  void start(Phase& p, SimTime at);
  // The setting of `cfg` after `changes` (its model built when new); InputError naming `origin`.
  Setting setting_for(Config& cfg, const ConfigChanges& changes, const std::string& origin);
  uint8_t model_for(const Config& cfg, const std::string& origin);
  // Rank r's setting at t (opens the timed phases t has reached).
  const Setting& setting(RankId r, SimTime t);
  Engine& engine_;
  const Platform& platform_;
  std::vector<Network*> nets_;
  std::vector<std::unique_ptr<Network>> owned_;
  std::vector<coll::CollChoice> colls_;  // distinct collective choices: [0] = the run's
  std::map<std::string, uint8_t> built_;  // configuration signature -> model
  int nics_ = 0;
  std::vector<Phase> phases_;  // timed: [0] = the run's configuration
  size_t current_ = 0;
  // The phase opened latest in simulated time (a logical one, or phases_[index]): it counts the
  // sends; counted_ is the id of the one that counted the last.
  bool latest_logical_ = false;
  size_t latest_ = 0;
  uint32_t counted_ = 0;
  Phase& latest() { return latest_logical_ ? logical_[latest_].phase : phases_[latest_]; }
  std::vector<Logical> logical_;
  Config logical_cfg_;          // the configuration of the last logical switch built
  std::vector<uint32_t> rank_logical_;  // per rank: logical switches reached
  std::map<int, ConfigChanges> pcontrol_;
  std::vector<SwitchAfter> after_;
  std::vector<std::vector<uint32_t>> after_count_;  // per rule, per rank: calls so far
};

}  // namespace simfab
