// Simulation: one predicted run, from inputs to results. It loads the platform (or makes an ideal
// one), opens the application (GOAL schedule or TI trace), maps ranks to hosts, builds the network
// model named by the configuration, runs the executor and gathers the results.
//
// Rank mapping: with a hostfile, as it says (sim/hostfile.hpp; ranks may share hosts); otherwise
// rank r runs on host r mod H, in the platform's host order (hosts first, then cluster members),
// and fewer hosts than ranks is an input error (one rank per host, as seed 004's one rank per HCA).
// Platform settings (the YAML `config:` section) apply to every key not given on the command line
// (--cfg wins); an unknown key or bad value there is an error at its line in the platform file.
#pragma once

#include "nic/nic_result.hpp"
#include "sim/model_switch.hpp"
#include <string>
#include <vector>

#include "core/config.hpp"
#include "energy/energy_meter.hpp"
#include "energy/pstate_log.hpp"
#include "mpi/activity.hpp"
#include "mpi/executor.hpp"
#include "noise/noise_model.hpp"
#include "platform/platform_vars.hpp"
#include "platform/platform.hpp"

namespace simfab {

// Declares every configuration key of every built-in module.
void register_builtin_keys(Config& cfg);

// What watches a run besides its results: the outputs' activity sink (timelines, statistics) and
// the progress line; both optional and owned by the caller.
struct RunHooks {
  ActivitySink* activity = nullptr;
  bool progress = false;  // a status line on stderr while the event loop runs (report/progress_meter)
  // The NIC model's rows (nic/model=portals): the timeline's NIC tracks, --portals-log. With
  // nic_log_required (--portals-log), a run without the NIC model is an input error.
  nic::NicLog* nic_log = nullptr;
  bool nic_log_required = false;
};

// Model switches given on the command line (sim/model_switch.hpp), as text.
struct SwitchOptions {
  std::vector<std::string> times;     // --switch TIME:key=value,...
  std::vector<std::string> pcontrol;  // --pcontrol LEVEL:key=value,...
  std::vector<std::string> after;     // --switch-after COLLECTIVE:K:key=value,...
};

struct SimulationInput {
  std::string platform_path;  // empty: an ideal platform (GOAL), a default cluster (online)
  std::string goal_path;      // exactly one of goal_path / trace_path / otf2_path / program
  std::string trace_path;
  std::string hostfile_path;  // empty: round-robin mapping
  std::vector<std::string> program;  // online mode (simfab exec): the program and its arguments
  int num_ranks = 0;                 // online mode: -np
  SwitchOptions switches;             // --switch, --pcontrol (sim/model_switch.hpp)
  bool tag_output = false;            // online mode: --tag-output (online/output_tagger.hpp)
  std::string otf2_path;      // an OTF2 archive's anchor file (otf2/otf2_trace.hpp)
  double otf2_speed = 0;      // flop/s of the traced core: its gaps become flops; 0: sleeps
  PlatformVars platform_vars;  // --platform-var NAME=VALUE: the platform's ${NAME} (platform_vars.hpp)
};

struct RunResult {
  std::string model;
  std::string platform;  // path, or "<ideal>"
  std::string application;
  std::string application_format;  // "goal", "ti" or "online"
  bool goal_compiled = false;       // the GOAL schedule was read in its compiled form (goal_binary.hpp)
  int num_ranks = 0;
  std::vector<std::string> rank_host;  // host name per rank
  std::vector<std::pair<std::string, std::string>> derived;  // Network::derived_parameters()
  NetworkStats network;                                      // Network::statistics()
  energy::EnergyReport energy;  // present when the platform declares power (or nic/power-*)
  NicResult nic;
  std::vector<PhaseResult> phases;  // with model switches: one per phase (sim/model_switch.hpp)
  uint64_t governor_changes = 0;  // pstate changes a DVFS governor made
  std::vector<energy::PstateTrack> pstates;  // DVFS hosts' pstate over time (energy/pstate_log.hpp)
  uint64_t tasks = 0;             // distinct tasks the computations belong to (mpi/call_sites.hpp)
  uint64_t migrations = 0;        // ranks GreedyLB moved (lb/balancer=greedy)
  std::vector<RegionRow> regions;  // computation per code region (mpi/region_times.hpp)
  std::vector<std::string> unused_region_factors;  // cpu/region-factors' regions that never computed
  noise::NoiseResult noise;        // OS noise injected (noise/noise_model.hpp); present when noise is on
  ExecutionResult exec;
  double wall_s = 0;      // wall-clock seconds of the whole run (loading inputs included)
  double simulate_s = 0;  // of which the event loop (events / simulate_s = the kernel's speed)
  uint64_t peak_rss_bytes = 0;
};

// The platform of `in` (empty without --platform) with its `config:` settings applied to every
// key of `cfg` not given explicitly (the command line wins); then the model's defaults: under
// network/model=smpi, mpi/coll-selector=smpi-default unless given. Throws InputError.
Platform load_run_platform(const SimulationInput& in, Config& cfg);
// The host of each rank: as in.hostfile_path says, else round-robin (rank r on host r mod H), and
// then fewer hosts than ranks is an InputError. `app` names the application in messages.
std::vector<HostId> map_ranks(const SimulationInput& in, const Platform& platform, int num_ranks,
                              const std::string& app);

// Runs `program` on `platform` with the network model `cfg` names and fills `out`'s execution
// results (exec, derived, network, platform, num_ranks, rank_host, simulate_s, peak memory); the
// caller sets the application fields and wall_s. Shared by every front-end.
// `switches`: SimulationInput::switches.
void execute_program(const Platform& platform, const std::vector<HostId>& rank_host, Program& program, OpPool& ops,
                     Engine& engine, const Config& cfg, RunResult& out, const RunHooks& hooks = {},
                     const SwitchOptions& switches = {});

// Throws InputError on bad input. A deadlock is not an exception: result.exec.blocked is set.
// `cfg` receives the platform's settings (the effective configuration the results record).
RunResult run_simulation(const SimulationInput& in, Config& cfg, const RunHooks& hooks = {});

}  // namespace simfab
