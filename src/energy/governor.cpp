#include "energy/governor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace simfab::energy {
namespace {

// A decimal key in [lo, hi].
double number_key(const Config& cfg, const char* key, double lo, double hi, const char* expected) {
  const std::string& text = cfg.text(key);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= lo && v <= hi))
    throw InputError(SourceLoc{}, std::string("--cfg ") + key + "=" + text + ": expected " + expected);
  return v;
}

double fraction_key(const Config& cfg, const char* key) { return number_key(cfg, key, 0, 1, "a load between 0 and 1"); }

}  // namespace

void register_energy_keys(Config& cfg) {
  cfg.declare({"energy/governor", CfgType::kChoice, "none",
               "DVFS governor of every host with several pstates: none keeps the platform's pstates (and "
               "set_pstate's); performance, powersave, ondemand, conservative as Linux's (seed 001 §2.15)",
               {"none", "performance", "powersave", "ondemand", "conservative", "adagio", "adagio-improved",
                "lagrange"}});
  cfg.declare({"energy/adagio-schedule", CfgType::kChoice, "task",
               "adagio, adagio-improved: task keeps a pstate per task (Listing 4's Sched[taskid]); host applies "
               "each decision to the host's next task, whatever it is (SimGrid's implementation, which produced "
               "the thesis's Table 9.3)",
               {"task", "host"}});
  cfg.declare({"energy/adagio-factor", CfgType::kText, "3",
               "adagio-improved: MPI time after a task above this factor times its least recent one means "
               "waiting for others (slow down); below it, speed up halfway (seed 001 Listing 5)", {}});
  cfg.declare({"energy/adagio-window", CfgType::kInt, "0",
               "adagio-improved: t_min is the least MPI time after the task over its last N executions; 0: "
               "over all of them", {}});
  cfg.declare({"energy/lagrange-rho", CfgType::kText, "10",
               "lagrange: the ADMM penalty rho, in J/s^2 (seed 001 §4.7)", {}});
  cfg.declare({"energy/lagrange-overlay", CfgType::kText, "0.95",
               "lagrange: the share of a task's span (its compute and the MPI time after it) it may compute "
               "in: s = this x the span (the thesis's overlayable_iteration_time)", {}});
  cfg.declare({"energy/lagrange-window", CfgType::kInt, "5",
               "lagrange: s is the overlay times the least of the task's last N spans (1: the last one only; "
               "a detour of a neighbour then lengthens s and the run creeps slower)", {}});
  cfg.declare({"energy/lagrange-idle", CfgType::kChoice, "until-s",
               "lagrange: g(f)'s idle term, until-s: max(0, s - T) x P_idle (the consistent form), or printed: "
               "min(s, T) x P_idle as the thesis prints it",
               {"until-s", "printed"}});
  cfg.declare({"energy/lagrange-dual", CfgType::kChoice, "admm",
               "lagrange: the dual step, admm: lambda -= T - t (ADMM's, converges), or printed: lambda += T - t "
               "as the thesis prints it (diverges on the critical path)",
               {"admm", "printed"}});
  cfg.declare({"energy/cstates", CfgType::kChoice, "menu",
               "idle hosts whose platform lists C-states (cstates=...) enter one per idle period, chosen by the "
               "length the previous period had (menu, as Linux's menu governor), by this period's own length "
               "(oracle), or never (off: idle power is flat); energy/polling=idle only",
               {"menu", "oracle", "off"}});
  cfg.declare({"energy/cstate-residency", CfgType::kText, "2",
               "a C-state is entered when the idle period is expected to last at least this many times its "
               "latency (its target residency)", {}});
  cfg.declare({"energy/sampling-period", CfgType::kTime, "0.1s",
               "how often a governor looks at each host's load (simulated time)", {}});
  cfg.declare({"energy/up-threshold", CfgType::kText, "0.8",
               "ondemand, conservative: a load above this speeds the host up", {}});
  cfg.declare({"energy/down-threshold", CfgType::kText, "0.2",
               "conservative: a load below this slows the host down one pstate", {}});
  cfg.declare({"energy/min-pstate", CfgType::kInt, "0", "the fastest pstate a governor may choose", {}});
  cfg.declare({"energy/max-pstate", CfgType::kInt, "-1",
               "the slowest pstate a governor may choose; -1: each host's last", {}});
  cfg.declare({"energy/pstate", CfgType::kInt, "-1",
               "start every host that has several pstates at this one (simfab run --sweep pstate=...); -1: "
               "the platform's initial pstates", {}});
  cfg.declare({"energy/polling", CfgType::kChoice, "busy",
               "what a rank waiting in MPI draws: busy (it spins on a core, as real MPI libraries do) or "
               "idle (it sleeps; SimGrid's default)",
               {"busy", "idle"}});
  cfg.declare({"energy/middle-value", CfgType::kChoice, "one-core",
               "the middle value of a pstate's Idle:Middle:AllCores power: one-core (the power with one "
               "core busy, seed 001) or epsilon (SimGrid 3.32's: the power at a vanishing load)",
               {"one-core", "epsilon"}});
}

CStateIdle cstate_idle(const Config& cfg, size_t hosts) {
  const std::string& rule = cfg.choice("energy/cstates");
  const double residency = number_key(cfg, "energy/cstate-residency", 0, 1e6, "a factor from 0 to 1e6");
  return CStateIdle(rule == "menu" ? CStateRule::kMenu : rule == "oracle" ? CStateRule::kOracle : CStateRule::kOff,
                    residency, hosts);
}

GovernorParams governor_params(const Config& cfg) {
  GovernorParams p;
  const std::string& g = cfg.choice("energy/governor");
  p.kind = g == "performance"    ? GovernorKind::kPerformance
           : g == "powersave"    ? GovernorKind::kPowersave
           : g == "ondemand"     ? GovernorKind::kOndemand
           : g == "conservative" ? GovernorKind::kConservative
           : g == "adagio"       ? GovernorKind::kAdagio
           : g == "adagio-improved" ? GovernorKind::kAdagioImproved
           : g == "lagrange"     ? GovernorKind::kLagrange
                                 : GovernorKind::kNone;
  p.task.adagio_factor = number_key(cfg, "energy/adagio-factor", 1, 1e6, "a number from 1 to 1e6");
  const int64_t window = cfg.integer("energy/adagio-window");
  if (window < 0 || window > 1'000'000)
    throw InputError(SourceLoc{}, "--cfg energy/adagio-window=" + std::to_string(window) +
                                      ": expected 0 (all past executions) to 1000000");
  p.task.adagio_window = static_cast<size_t>(window);
  p.task.adagio_per_host = cfg.choice("energy/adagio-schedule") == "host";
  p.task.lagrange.rho = number_key(cfg, "energy/lagrange-rho", 0, 1e12, "a number from 0 to 1e12 (J/s^2)");
  p.task.lagrange.overlay = number_key(cfg, "energy/lagrange-overlay", 0.01, 1, "a share from 0.01 to 1");
  const int64_t span_window = cfg.integer("energy/lagrange-window");
  if (span_window < 1 || span_window > 1'000'000)
    throw InputError(SourceLoc{}, "--cfg energy/lagrange-window=" + std::to_string(span_window) +
                                      ": expected 1 (the last span) to 1000000");
  p.task.lagrange_window = static_cast<size_t>(span_window);
  p.task.lagrange.printed_idle = cfg.choice("energy/lagrange-idle") == "printed";
  p.task.lagrange.printed_dual = cfg.choice("energy/lagrange-dual") == "printed";
  p.task.middle = cfg.choice("energy/middle-value") == "epsilon" ? MiddleValue::kEpsilon : MiddleValue::kOneCore;
  p.period = cfg.time("energy/sampling-period");
  if (p.period < SimTime::ps(1'000'000))
    throw InputError(SourceLoc{}, "--cfg energy/sampling-period=" + std::to_string(p.period.ps()) +
                                      " ps: expected at least 1us; give a unit, e.g. 0.1s (a bare number is picoseconds)");
  p.up = fraction_key(cfg, "energy/up-threshold");
  p.down = fraction_key(cfg, "energy/down-threshold");
  if (p.down > p.up)
    throw InputError(SourceLoc{}, "--cfg energy/down-threshold (" + cfg.text("energy/down-threshold") +
                                      ") is above energy/up-threshold (" + cfg.text("energy/up-threshold") +
                                      "): a load cannot be both high and low");
  const int64_t lo = cfg.integer("energy/min-pstate"), hi = cfg.integer("energy/max-pstate");
  if (lo < 0 || lo > 1'000'000 || hi < -1 || hi > 1'000'000 || (hi >= 0 && hi < lo))
    throw InputError(SourceLoc{}, "--cfg energy/min-pstate=" + std::to_string(lo) + " and energy/max-pstate=" +
                                      std::to_string(hi) + ": expected 0 <= min <= max (max -1: the host's last)");
  p.min_pstate = static_cast<int>(lo);
  p.max_pstate = static_cast<int>(hi);
  return p;
}

int next_pstate(GovernorKind kind, int current, double load, int lo, int hi, double up, double down) {
  switch (kind) {
    case GovernorKind::kNone: return current;
    case GovernorKind::kPerformance: return lo;
    case GovernorKind::kPowersave: return hi;
    case GovernorKind::kOndemand: {
      if (load > up) return lo;
      const int p = hi - static_cast<int>(std::floor(load * (hi - lo + 1)));
      return std::clamp(p, lo, hi);
    }
    case GovernorKind::kAdagio:
    case GovernorKind::kAdagioImproved:
    case GovernorKind::kLagrange:
      return current;  // per task, not per period (TaskGovernor)
    case GovernorKind::kConservative:
      if (load > up) return std::clamp(current - 1, lo, hi);
      if (load < down) return std::clamp(current + 1, lo, hi);
      return std::clamp(current, lo, hi);
  }
  return current;
}

Governor::Governor(Engine& engine, cpu::HostCpus& cpus, const Platform& platform, GovernorParams params)
    : engine_(engine), cpus_(cpus), platform_(platform), params_(params) {
  load_.resize(static_cast<size_t>(platform.host_count()));
  engine_.set_handler(EventKind::kGovernor, this);
  if (params_.kind == GovernorKind::kAdagio || params_.kind == GovernorKind::kAdagioImproved ||
      params_.kind == GovernorKind::kLagrange) {
    TaskGovernorParams t = params_.task;
    t.rule = params_.kind == GovernorKind::kAdagio           ? TaskRule::kAdagio
             : params_.kind == GovernorKind::kAdagioImproved ? TaskRule::kAdagioImproved
                                                             : TaskRule::kLagrange;
    t.min_pstate = params_.min_pstate;
    t.max_pstate = params_.max_pstate;
    tasks_ = std::make_unique<TaskGovernor>(cpus, platform, t);
  }
}

int Governor::lo(HostId h) const { return std::min(params_.min_pstate, cpus_.pstates(h) - 1); }
int Governor::hi(HostId h) const {
  const int last = cpus_.last_computing_pstate(h);
  return params_.max_pstate < 0 ? last : std::clamp(params_.max_pstate, lo(h), last);
}

void Governor::start(std::function<bool()> running) {
  running_ = std::move(running);
  if (params_.kind == GovernorKind::kNone) return;
  for (HostId h : cpus_.dynamic_hosts()) {
    if (cpus_.pstates(h) < 2) continue;
    const int p = next_pstate(params_.kind, cpus_.pstate(h), 0.0, lo(h), hi(h), params_.up, params_.down);
    if (params_.kind == GovernorKind::kPerformance || params_.kind == GovernorKind::kPowersave) cpus_.set_pstate(h, p);
  }
  if (tasks_) {
    tasks_->start();
    return;
  }
  if (params_.kind == GovernorKind::kOndemand || params_.kind == GovernorKind::kConservative)
    engine_.schedule(params_.period, EventKind::kGovernor, 0);
}

void Governor::on_task_start(HostId h, SimTime t, uint32_t task, uint64_t work_ps) {
  if (tasks_) tasks_->on_task_start(h, t, task, work_ps);
}

void Governor::on_cpu_state(HostId h, SimTime t, int busy, int) {
  if (tasks_) {
    tasks_->on_cpu_state(h, t, busy);
    return;
  }
  Load& l = load_[static_cast<size_t>(h)];
  l.core_ps += static_cast<double>(std::min(l.busy, platform_.host(h).cores)) * static_cast<double>((t - l.t_last).ps());
  l.t_last = t;
  l.busy = busy;
}

void Governor::handle(SimTime now, uint64_t) {
  if (running_ && !running_()) return;  // the run is over: no more ticks
  ++ticks_;
  const double period_ps = static_cast<double>(params_.period.ps());
  for (HostId h : cpus_.dynamic_hosts()) {
    if (cpus_.pstates(h) < 2) continue;
    Load& l = load_[static_cast<size_t>(h)];
    const int cores = std::max(1, platform_.host(h).cores);
    l.core_ps += static_cast<double>(std::min(l.busy, cores)) * static_cast<double>((now - l.t_last).ps());
    l.t_last = now;
    const double load = std::min(1.0, l.core_ps / (period_ps * cores));
    l.core_ps = 0;
    const int cur = cpus_.pstate(h);
    const int p = next_pstate(params_.kind, cur, load, lo(h), hi(h), params_.up, params_.down);
    if (p != cur) {
      ++changes_;
      cpus_.set_pstate(h, p);
    }
  }
  // Re-arm only while something else is still to happen: the run then ends (or deadlocks) as
  // it would without a governor.
  if (engine_.pending() > 0) engine_.schedule(now + params_.period, EventKind::kGovernor, 0);
}

}  // namespace simfab::energy
