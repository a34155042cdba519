#include "energy/task_governor.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace simfab::energy {

TaskGovernor::TaskGovernor(cpu::HostCpus& cpus, const Platform& platform, TaskGovernorParams params)
    : cpus_(cpus), platform_(platform), params_(params) {
  hosts_.resize(static_cast<size_t>(platform.host_count()));
}

int TaskGovernor::lo(HostId h) const { return std::min(params_.min_pstate, cpus_.pstates(h) - 1); }
int TaskGovernor::hi(HostId h) const {
  const int last = cpus_.last_computing_pstate(h);
  return params_.max_pstate < 0 ? last : std::clamp(params_.max_pstate, lo(h), last);
}

void TaskGovernor::start() {
  for (HostId h : cpus_.dynamic_hosts()) {
    if (cpus_.pstates(h) < 2) continue;
    const Host& host = platform_.host(h);
    if (params_.rule == TaskRule::kLagrange && !platform_.cpu_profile(host.cpu_profile).has_power())
      throw InputError(SourceLoc{}, "--cfg energy/governor=lagrange weighs each pstate's energy, but host '" +
                                        host.name + "' has " + std::to_string(cpus_.pstates(h)) +
                                        " pstates and no power (give it wattage_per_state, or 'power' in YAML)");
    cpus_.set_pstate(h, lo(h));  // new tasks run at f_max
    hosts_[static_cast<size_t>(h)].pstate = lo(h);
  }
}

void TaskGovernor::on_cpu_state(HostId h, SimTime t, int busy) {
  HostState& s = hosts_[static_cast<size_t>(h)];
  if (s.busy > 0 && busy == 0) {  // PostTask: its computing time is known
    s.end = t;
    s.ran = true;
  }
  s.busy = busy;
}

void TaskGovernor::on_task_start(HostId h, SimTime t, uint32_t task, uint64_t) {
  HostState& s = hosts_[static_cast<size_t>(h)];
  if (cpus_.pstates(h) < 2 || s.busy > 0) return;
  if (params_.adagio_per_host && params_.rule != TaskRule::kLagrange) task = 0;  // one schedule per host
  if (s.ran) {
    TaskState& done = s.tasks[s.task];
    done.pstate = judge(h, s, done, t);
    done.judged = true;
    s.ran = false;
  }
  auto it = s.tasks.find(task);
  const int p = it != s.tasks.end() && it->second.judged ? it->second.pstate : lo(h);
  if (p != cpus_.pstate(h)) {
    ++changes_;
    cpus_.set_pstate(h, p);
  }
  s.task = task;
  s.start = t;
  s.pstate = p;
}

int TaskGovernor::judge(HostId h, HostState& s, TaskState& k, SimTime now) {
  const CpuProfile& profile = platform_.cpu_profile(platform_.host(h).cpu_profile);
  const std::vector<double>& speeds = profile.speeds;
  const double t_comp = (s.end - s.start).seconds();
  const double t_lib = (now - s.end).seconds();
  switch (params_.rule) {
    case TaskRule::kAdagio:
      return adagio_next(t_comp, t_lib, s.pstate, speeds, lo(h), hi(h));
    case TaskRule::kAdagioImproved:
      if (!k.judged) k.t_libs = TminWindow(params_.adagio_window);
      return adagio_improved_next(t_comp, t_lib, s.pstate, speeds, lo(h), hi(h), params_.adagio_factor, &k.t_libs);
    case TaskRule::kLagrange: {
      if (!k.judged) {
        k.lagrange = LagrangeState{t_comp, 0};
        k.spans = TminWindow(params_.lagrange_window);
      }
      k.spans.push((now - s.start).seconds());
      const size_t n = speeds.size();
      std::vector<double> time_at(n), busy_w(n), idle_w(n);
      for (size_t p = 0; p < n; ++p) {
        time_at[p] = t_comp * (speeds[static_cast<size_t>(s.pstate)] / speeds[p]);  // exact at p = s.pstate
        busy_w[p] = power_line(profile.power[p], platform_.host(h).cores, params_.middle).watts(1);
        idle_w[p] = profile.power[p].idle_w;
      }
      const double bound = params_.lagrange.overlay * k.spans.t_min();
      return lagrange_step(time_at, busy_w, idle_w, lo(h), hi(h), bound, params_.lagrange, &k.lagrange);
    }
  }
  return s.pstate;
}

}  // namespace simfab::energy
