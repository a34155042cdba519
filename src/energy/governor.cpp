#include "energy/governor.hpp"

#include "energy/adagio.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace simfab::energy {
namespace {

double fraction_key(const Config& cfg, const char* key) {
  const std::string& text = cfg.text(key);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v >= 0 && v <= 1))
    throw InputError(SourceLoc{}, std::string("--cfg ") + key + "=" + text + ": expected a load between 0 and 1");
  return v;
}

}  // namespace

void register_energy_keys(Config& cfg) {
  cfg.declare({"energy/governor", CfgType::kChoice, "none",
               "DVFS governor of every host with several pstates: none keeps the platform's pstates (and "
               "set_pstate's); performance, powersave, ondemand, conservative as Linux's (seed 001 §2.15)",
               {"none", "performance", "powersave", "ondemand", "conservative", "adagio", "adagio-improved"}});
  cfg.declare({"energy/adagio-factor", CfgType::kText, "1.2",
               "adagio-improved: MPI time above this factor times the least seen so far means waiting for "
               "others (slow down); below it, speed up halfway", {}});
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

GovernorParams governor_params(const Config& cfg) {
  GovernorParams p;
  const std::string& g = cfg.choice("energy/governor");
  p.kind = g == "performance"    ? GovernorKind::kPerformance
           : g == "powersave"    ? GovernorKind::kPowersave
           : g == "ondemand"     ? GovernorKind::kOndemand
           : g == "conservative" ? GovernorKind::kConservative
           : g == "adagio"       ? GovernorKind::kAdagio
           : g == "adagio-improved" ? GovernorKind::kAdagioImproved
                                 : GovernorKind::kNone;
  {
    const std::string& text = cfg.text("energy/adagio-factor");
    char* end = nullptr;
    p.adagio_factor = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(p.adagio_factor >= 1) || !std::isfinite(p.adagio_factor))
      throw InputError(SourceLoc{}, "--cfg energy/adagio-factor=" + text + ": expected a number >= 1");
  }
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
      return current;  // per task, not per period (Governor::adagio)
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
}

int Governor::lo(HostId h) const { return std::min(params_.min_pstate, cpus_.pstates(h) - 1); }
int Governor::hi(HostId h) const {
  const int last = cpus_.pstates(h) - 1;
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
  if (params_.kind == GovernorKind::kAdagio || params_.kind == GovernorKind::kAdagioImproved) {
    for (HostId h : cpus_.dynamic_hosts())
      if (cpus_.pstates(h) > 1) cpus_.set_pstate(h, lo(h));  // new tasks run at f_max
    return;
  }
  if (params_.kind == GovernorKind::kOndemand || params_.kind == GovernorKind::kConservative)
    engine_.schedule(params_.period, EventKind::kGovernor, 0);
}

void Governor::on_cpu_state(HostId h, SimTime t, int busy, int pstate) {
  if (params_.kind == GovernorKind::kAdagio || params_.kind == GovernorKind::kAdagioImproved) {
    adagio(h, t, busy, pstate);
    return;
  }
  Load& l = load_[static_cast<size_t>(h)];
  l.core_ps += static_cast<double>(std::min(l.busy, platform_.host(h).cores)) * static_cast<double>((t - l.t_last).ps());
  l.t_last = t;
  l.busy = busy;
}

void Governor::adagio(HostId h, SimTime t, int busy, int pstate) {
  Load& l = load_[static_cast<size_t>(h)];
  const int was = l.busy;
  l.busy = busy;
  if (cpus_.pstates(h) < 2) return;
  if (was > 0 && busy == 0) {  // PostTask: the task's computing time is known
    l.t_comp_ps = static_cast<double>((t - l.task_start).ps());
    l.task_end = t;
    l.task_pstate = pstate;
    l.has_task = true;
  } else if (was == 0 && busy > 0) {  // PreTask: t_lib is known; choose this task's pstate
    l.task_start = t;
    if (!l.has_task) return;
    const std::vector<double>& speeds = platform_.cpu_profile(platform_.host(h).cpu_profile).speeds;
    const double t_comp = l.t_comp_ps;
    const double t_lib = static_cast<double>((t - l.task_end).ps());
    const int p = params_.kind == GovernorKind::kAdagio
                      ? adagio_next(t_comp, t_lib, l.task_pstate, speeds, lo(h), hi(h))
                      : adagio_improved_next(t_comp, t_lib, l.task_pstate, speeds, lo(h), hi(h), params_.adagio_factor,
                                             &l.t_min);
    if (p != pstate) {
      ++changes_;
      cpus_.set_pstate(h, p);
    }
  }
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
