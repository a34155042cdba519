#include "sim/simulation.hpp"

#include "report/progress_meter.hpp"

#include <sys/resource.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "core/interrupt.hpp"
#include "cpu/host_cpus.hpp"
#include "energy/energy_meter.hpp"
#include "energy/governor.hpp"
#include "mpi/coll/registry.hpp"
#include "net/network_registry.hpp"
#include "nic/nic_params.hpp"
#include "nic/nic_registry.hpp"
#include "nic/portals_network.hpp"
#include "noise/noise_keys.hpp"
#include "platform/load_platform.hpp"
#include "sim/host_failures.hpp"
#include "replay/goal_program.hpp"
#include "replay/goal_binary.hpp"
#include "replay/ti_trace.hpp"
#include "hybrid/hybrid_keys.hpp"
#include "online/online_run.hpp"
#include "otf2/otf2_trace.hpp"
#include "sim/calibration_check.hpp"
#include "sim/hostfile.hpp"

namespace simfab {

void register_builtin_keys(Config& cfg) {
  register_network_keys(cfg);
  nic::register_nic_keys(cfg);
  coll::register_coll_keys(cfg);
  online::register_online_keys(cfg);
  energy::register_energy_keys(cfg);
  energy::register_lb_keys(cfg);
  hybrid::register_hybrid_keys(cfg);
  register_calibration_keys(cfg);
  register_region_keys(cfg);
  noise::register_noise_keys(cfg);
}

namespace {

std::vector<HostId> round_robin(const Platform& p, int num_ranks, const std::string& app) {
  if (p.host_count() < num_ranks)
    throw InputError(SourceLoc{p.source(), 0, 0},
                     "the platform has " + std::to_string(p.host_count()) + " hosts but " + app +
                         " has " + std::to_string(num_ranks) +
                         " ranks; give a platform with at least one host per rank");
  std::vector<HostId> m(static_cast<size_t>(num_ranks));
  for (int r = 0; r < num_ranks; ++r) m[static_cast<size_t>(r)] = r % p.host_count();
  return m;
}

uint64_t peak_rss() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;
}

// The NIC's counters, and its energy when nic/power-* give it one (then the run reports energy).
void nic_results(const nic::PortalsNetwork& pn, const Platform& platform, const Config& cfg, RunResult& out) {
  const nic::Nic& n = pn.nic();
  out.nic.present = true;
  out.nic.wire = cfg.choice("nic/wire");
  out.nic.counters = n.counters();
  for (const Host& h : platform.hosts()) out.nic.hosts.push_back(h.name);
  if (n.params().power_idle_w == 0 && n.params().power_busy_w == 0) return;
  for (HostId h = 0; h < platform.host_count(); ++h) {
    out.nic.energy_j.push_back(n.energy_j(h, out.exec.makespan));
    out.energy.nics_j += out.nic.energy_j.back();
  }
  out.energy.present = true;
  out.energy.total_j += out.energy.nics_j;
}

}  // namespace

Platform load_run_platform(const SimulationInput& in, Config& cfg) {
  Platform platform;
  if (!in.platform_path.empty()) {
    platform = load_platform(in.platform_path, &std::cerr, in.platform_vars);
  } else if (!in.platform_vars.empty()) {
    throw InputError(SourceLoc{"--platform-var", 0, 0}, "platform variables need a platform file (--platform)",
                     in.platform_vars.front().first + "=" + in.platform_vars.front().second);
  }
  for (const PlatformSetting& s : platform.settings())
    if (!cfg.keys().contains(s.key) || !cfg.is_explicit(s.key)) cfg.set(s.key, s.value, s.loc);  // set() names unknown keys
  // SimGrid's model comes with SimGrid's collectives, unless the run chose others.
  if (cfg.choice("network/model") == "smpi" && !cfg.is_explicit("mpi/coll-selector"))
    cfg.set("mpi/coll-selector", "smpi-default", SourceLoc{"network/model=smpi", 0, 0});
  return platform;
}

std::vector<HostId> map_ranks(const SimulationInput& in, const Platform& platform, int num_ranks,
                              const std::string& app) {
  if (!in.hostfile_path.empty() && in.platform_path.empty())
    throw InputError(SourceLoc{in.hostfile_path, 0, 0}, "--hostfile needs --platform: it names the platform's hosts");
  return in.hostfile_path.empty() ? round_robin(platform, num_ranks, app)
                                  : read_hostfile(in.hostfile_path, platform, num_ranks);
}

void execute_program(const Platform& platform, const std::vector<HostId>& rank_host, Program& program, OpPool& ops,
                     Engine& engine, const Config& cfg, RunResult& out, const RunHooks& hooks,
                     const SwitchOptions& switches) {
  std::unique_ptr<Network> net = nic::make_mpi_network(engine, platform, cfg);
  if (auto* pn = dynamic_cast<nic::PortalsNetwork*>(net.get()))
    pn->nic().set_log(hooks.nic_log);
  else if (hooks.nic_log_required)
    throw InputError(SourceLoc{"--portals-log", 0, 0}, "the Portals log records the NIC model: add --cfg nic/model=portals");
  if (platform.has_profiles(Platform::ProfileKind::kLinkState) && std::string(net->name()) != "flow" &&
      std::string(net->name()) != "smpi")
    throw InputError(SourceLoc{platform.source(), 0, 0},
                     "link failures (state profiles of links) are simulated by network/model=flow and smpi only, "
                     "not by " + std::string(net->name()));
  Executor ex(engine, *net, ops, program, rank_host);
  std::vector<int> rank_noise_class;
  rank_noise_class.reserve(rank_host.size());
  for (HostId h : rank_host) rank_noise_class.push_back(platform.host(h).noise_class);
  noise::NoiseSetup noise_setup = noise::make_noise(cfg, platform.noise_classes(), rank_noise_class);
  if (noise_setup.model && cfg.boolean("noise/collectives") && out.application_format == "goal")
    throw InputError(SourceLoc{"--cfg noise/collectives", 0, 0},
                     "a GOAL schedule marks no collectives (its ops are plain calcs, sends and receives, also when "
                     "converted from a TI trace): noise/collectives=yes would inject nothing; replay the TI trace, or "
                     "run the application with simfab exec");
  ex.set_noise(noise_setup.model.get());
  if (const std::string& f = cfg.text("cpu/region-factors"); f != "none") ex.regions().load_factors(f);
  // Model switches (sim/model_switch.hpp): by time from --switch, logical ones from the front-end.
  std::vector<ModelSwitchSpec> specs;
  for (const std::string& s : switches.times) specs.push_back(parse_model_switch(s));
  std::map<int, ConfigChanges> pcontrol;
  for (const std::string& s : switches.pcontrol) pcontrol.insert(parse_pcontrol(s));
  std::vector<SwitchAfter> after;
  for (const std::string& s : switches.after) after.push_back(parse_switch_after(s));
  if (!after.empty() && out.application_format == "goal")
    throw InputError(SourceLoc{"--switch-after", 0, 0},
                     "a GOAL schedule has no collective calls to count: use --switch TIME:... (or a TI trace)");
  auto model_switch = std::make_unique<ModelSwitch>(engine, platform, cfg, *net, static_cast<int>(rank_host.size()),
                                                    std::move(specs), std::move(pcontrol), std::move(after));
  ex.set_model_selector(model_switch.get());
  // Hosts (seed 001): shared cores and pstates where a host needs them, power where declared.
  std::vector<int> ranks_per_host(static_cast<size_t>(platform.host_count()), 0);
  for (HostId h : rank_host) ++ranks_per_host[static_cast<size_t>(h)];
  const bool power = energy::platform_has_power(platform);
  const energy::GovernorParams gov = energy::governor_params(cfg);
  const energy::LbOptions lb = energy::lb_options(cfg);
  auto cpus = std::make_unique<cpu::HostCpus>(engine, platform, ranks_per_host, lb.enabled);
  if (gov.kind != energy::GovernorKind::kNone) {
    bool dvfs = false;
    for (HostId h : cpus->dynamic_hosts()) dvfs = dvfs || cpus->pstates(h) > 1;
    if (!dvfs)
      throw InputError(SourceLoc{platform.source(), 0, 0},
                       "--cfg energy/governor=" + cfg.choice("energy/governor") +
                           ": no host of the platform has several pstates (give a host a speed list)");
  }
  std::unique_ptr<energy::EnergyMeter> meter;
  std::unique_ptr<energy::Governor> governor;
  if (power) {
    meter = std::make_unique<energy::EnergyMeter>(
        platform, *cpus, ex.rank_hosts(),
        cfg.choice("energy/middle-value") == "epsilon" ? energy::MiddleValue::kEpsilon : energy::MiddleValue::kOneCore,
        cfg.choice("energy/polling") == "busy", energy::cstate_idle(cfg, static_cast<size_t>(platform.host_count())));
    cpus->add_observer(meter.get());
  }
  if (gov.kind != energy::GovernorKind::kNone) {
    governor = std::make_unique<energy::Governor>(engine, *cpus, platform, gov);
    cpus->add_observer(governor.get());
  }
  std::unique_ptr<energy::PstateLog> pstate_log;
  if (hooks.activity) {  // only the timelines and statistics show it
    pstate_log = std::make_unique<energy::PstateLog>(platform, *cpus);
    cpus->add_observer(pstate_log.get());
  }
  if (!cpus->any_dynamic() && !power) {
    cpus.reset();
    engine.set_handler(EventKind::kCpu, nullptr);
  }
  ex.set_cpus(cpus.get());
  cpu::HostPower host_power(platform);
  ex.set_host_power(&host_power);
  if (meter) meter->set_host_power(&host_power);
  if (const int64_t p = cfg.integer("energy/pstate"); p >= 0 && cpus) {
    for (HostId h : cpus->dynamic_hosts()) {
      if (cpus->pstates(h) < 2) continue;
      if (p >= cpus->pstates(h))
        throw InputError(SourceLoc{platform.source(), 0, 0},
                         "--cfg energy/pstate=" + std::to_string(p) + ": host '" + platform.host(h).name + "' has " +
                             std::to_string(cpus->pstates(h)) + " pstates (0 to " +
                             std::to_string(cpus->pstates(h) - 1) + ")");
      cpus->set_pstate(h, static_cast<int>(p));
    }
  }
  if (governor)
    governor->start([&program] {
      for (RankId r = 0; r < program.num_ranks(); ++r)
        if (!program.rank_finished(r)) return true;
      return false;
    });
  if (hooks.activity) {
    RunInfo info;
    info.application = out.application;
    info.format = out.application_format;
    info.platform_path = platform.source();
    info.model = net->name();
    info.rank_host_id = rank_host;
    for (HostId h : rank_host) info.rank_host.push_back(platform.host(h).name);
    info.platform = &platform;
    hooks.activity->start_run(info);
    ex.set_activity(hooks.activity);
  }
  // Host state profiles: the first host to turn off under an unfinished rank ends the run.
  HostFailures failures(engine, platform, rank_host, [&ex](int r, SimTime t) { return ex.finished_by(r, t); });
  std::unique_ptr<ProgressMeter> progress;
  if (hooks.progress) progress = std::make_unique<ProgressMeter>(program, stderr);
  const auto t1 = std::chrono::steady_clock::now();
  set_interrupt_engine(&engine);  // Ctrl-C reports this run's clock
  out.exec = ex.run(progress.get());
  set_interrupt_engine(nullptr);
  if (progress) progress->done();
  out.simulate_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  if (out.exec.blocked.empty()) model_switch->check_complete();
  out.phases = model_switch->phases(out.exec.makespan, out.exec.events);
  if (out.phases.size() == 1) out.phases.clear();  // no switch happened
  out.derived = net->derived_parameters();
  out.model = net->name();
  out.network = model_switch->model_count() > 1 ? model_switch->statistics() : net->statistics();
  if (meter) out.energy = meter->finish(out.exec.makespan, out.exec.finish, out.network);
  if (const auto* pn = dynamic_cast<const nic::PortalsNetwork*>(net.get())) nic_results(*pn, platform, cfg, out);
  if (governor) out.governor_changes = governor->changes();
  if (pstate_log) out.pstates = pstate_log->tracks();
  out.tasks = ex.call_sites().tasks();
  out.regions = ex.regions().rows(ex.call_sites());
  out.unused_region_factors = ex.regions().unused_factors();
  out.migrations = program.migrations();
  if (noise_setup.model) out.noise = noise_setup.result();
  out.platform = platform.source();
  out.num_ranks = static_cast<int>(rank_host.size());
  out.rank_host.clear();
  out.rank_host.reserve(rank_host.size());
  for (HostId h : rank_host) out.rank_host.push_back(platform.host(h).name);
  out.peak_rss_bytes = peak_rss();
}

RunResult run_simulation(const SimulationInput& in, Config& cfg, const RunHooks& hooks) {
  if (!in.program.empty()) return online::run_online(in, cfg, hooks);
  const auto t0 = std::chrono::steady_clock::now();
  RunResult out;

  Platform platform = load_run_platform(in, cfg);
  out.model = cfg.choice("network/model");

  Engine engine;
  OpPool* ops = nullptr;
  std::unique_ptr<Program> program;
  GoalSchedule goal;
  OpPool ti_ops;
  std::unique_ptr<TiTrace> trace;
  std::unique_ptr<Otf2Trace> otf2;
  TiTrace* ti = nullptr;  // trace's or otf2's
  int num_ranks = 0;
  if (!in.goal_path.empty()) {
    out.application = in.goal_path;
    out.application_format = "goal";
    goal = load_goal_file(in.goal_path, out.goal_compiled);
    num_ranks = goal.num_ranks;
    ops = &goal.ops;
    if (in.platform_path.empty()) platform = Platform::ideal(num_ranks);
  } else {
    const bool is_otf2 = !in.otf2_path.empty();
    out.application = is_otf2 ? in.otf2_path : in.trace_path;
    out.application_format = is_otf2 ? "otf2" : "ti";
    if (in.platform_path.empty())
      throw InputError(SourceLoc{out.application, 0, 0},
                       is_otf2 ? "an OTF2 trace needs --platform: simfab predicts its run on the hosts and network a "
                                 "platform describes"
                               : "a TI trace needs --platform: its compute amounts are flops, and host speeds "
                                 "turn them into time");
    TiOrigin origin;
    if (is_otf2) {
      otf2 = std::make_unique<Otf2Trace>(in.otf2_path, in.otf2_speed);
      ti = &otf2->trace();
      origin = otf2->origin(in.otf2_path);
    } else {
      trace = open_ti_trace(in.trace_path);
      ti = trace.get();
      origin = ti_origin(*trace);
    }
    num_ranks = ti_num_ranks(*ti);
    // A trace that names its MPI library replays with that library's collectives, and must
    // come from the setup a calibrated platform measured (issue 28).
    check_trace_matches_calibration(cfg, origin);
    coll::select_library_collectives(cfg, origin.library, origin.library_at);
    ops = &ti_ops;
  }
  std::vector<HostId> rank_host = map_ranks(in, platform, num_ranks, out.application);
  if (goal.num_ranks > 0) program = std::make_unique<GoalProgram>(goal);
  else program = make_ti_program(*ti, ti_ops, platform, rank_host, coll::CollChoice::from(cfg), energy::lb_options(cfg),
                                 coll::FirstCallCosts::from(cfg));

  execute_program(platform, rank_host, *program, *ops, engine, cfg, out, hooks, in.switches);
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace simfab
