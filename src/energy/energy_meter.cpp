#include "energy/energy_meter.hpp"

#include <algorithm>
#include <map>

namespace simfab::energy {
namespace {

constexpr double kJoulesPerWattPs = 1e-12;

std::string link_class(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] >= '0' && name[i] <= '9') {
      if (out.empty() || out.back() != '*') out += '*';
    } else {
      out += name[i];
    }
  }
  return out;
}

}  // namespace

bool platform_has_power(const Platform& platform) {
  for (int i = 0; i < platform.cpu_profile_count(); ++i)
    if (platform.cpu_profile(i).has_power()) return true;
  for (const Link& l : platform.links())
    if (l.has_power()) return true;
  return false;
}

EnergyMeter::EnergyMeter(const Platform& platform, const cpu::HostCpus& cpus, const std::vector<HostId>& rank_host,
                         MiddleValue middle, bool polling, CStateIdle cstates)
    : platform_(platform), cpus_(cpus), rank_host_(rank_host), middle_(middle), polling_(polling),
      cstates_(polling ? CStateIdle(CStateRule::kOff, 2, 0) : std::move(cstates)) {
  meters_.resize(static_cast<size_t>(platform.host_count()));
  power_ = PowerTimeline(platform.host_count());
  lines_.assign(static_cast<size_t>(platform.host_count()), nullptr);
  for (HostId h = 0; h < platform.host_count(); ++h) {
    const Host& host = platform.host(h);
    if (host.cpu_profile >= 0 && platform.cpu_profile(host.cpu_profile).has_power()) {
      auto [it, fresh] = line_sets_.try_emplace({host.cpu_profile, host.cores});
      if (fresh)
        for (const PstatePower& w : platform.cpu_profile(host.cpu_profile).power)
          it->second.push_back(power_line(w, host.cores, middle_));
      lines_[static_cast<size_t>(h)] = &it->second;
    }
    Meter& m = meters_[static_cast<size_t>(h)];
    m.pstate = cpus.pstate(h);
    if (polling_ && cpus.dynamic(h)) m.pstates.emplace_back(SimTime::zero(), m.pstate);
  }
}

void EnergyMeter::on_cpu_state(HostId h, SimTime t, int busy, int pstate) {
  Meter& m = meters_[static_cast<size_t>(h)];
  const double dt = static_cast<double>((t - m.t_last).ps());
  if (m.busy == 0) m.idle_ps += dt;
  if (!polling_ && has_power(h)) {
    const double w = line(h, m.pstate).watts(m.busy);
    m.energy_j += w * dt * kJoulesPerWattPs;
    power_.add(h, m.t_last, t, w);
  }
  if (polling_ && pstate != m.pstate) m.pstates.emplace_back(t, pstate);
  if (cstates_.on() && has_power(h)) {
    if (m.busy == 0 && busy > 0) {
      const double j = idle_period(cstates_, h, m.pstate, m.idle_since, t);
      m.cstate_j += j;
      power_.add_energy(h, m.idle_since, t, j);
    }
    if (m.busy > 0 && busy == 0) m.idle_since = t;
  }
  m.t_last = t;
  m.busy = busy;
  m.pstate = pstate;
}

void EnergyMeter::on_fixed_computation(HostId h, SimTime start, SimTime end) {
  Meter& m = meters_[static_cast<size_t>(h)];
  if (cstates_.on() && has_power(h) && start > m.cover_end) {
    const double j = idle_period(cstates_, h, m.pstate, m.cover_end, start);
    m.cstate_j += j;
    power_.add_energy(h, m.cover_end, start, j);
  }
  if (!polling_ && has_power(h)) {  // busy(t) >= 1 over [start, end): Base - Idle + PerCore x busy
    const PowerLine& l = line(h, m.pstate);
    power_.add(h, start, end, l.per_core_w);
    if (end > m.cover_end) power_.add(h, max(start, m.cover_end), end, l.base_w - l.idle_w);
  }
  m.sum_ps += static_cast<double>((end - start).ps());
  if (end > m.cover_end) {
    m.union_ps += static_cast<double>((end - max(start, m.cover_end)).ps());
    m.cover_end = end;
  }
}

double EnergyMeter::idle_period(CStateIdle& c, HostId h, int p, SimTime from, SimTime to) const {
  if (to <= from) return 0;
  const double off = host_power_ ? host_power_->overlap(h, from, to) : 0.0;
  const std::vector<CState>& states = platform_.cpu_profile(platform_.host(h).cpu_profile).cstates;
  return c.idle_period(static_cast<size_t>(h), states, (to - from).seconds() - off, line(h, p).idle_w);
}

// busy(t) = ranks of h not finished by t, against the recorded pstates (fixed hosts: one).
double EnergyMeter::host_energy_polling(HostId h, const Meter& m, SimTime makespan,
                                        const std::vector<SimTime>& finish, PowerTimeline& power) const {
  std::vector<SimTime> ends;
  for (size_t r = 0; r < rank_host_.size(); ++r)
    if (rank_host_[r] == h) ends.push_back(finish[r]);
  std::sort(ends.begin(), ends.end());
  std::vector<std::pair<SimTime, int>> ps = m.pstates;
  if (ps.empty()) ps.emplace_back(SimTime::zero(), m.pstate);
  double e = 0;
  SimTime t = SimTime::zero();
  size_t ei = 0, pi = 0;
  int busy = static_cast<int>(ends.size());
  while (t < makespan) {
    while (ei < ends.size() && ends[ei] <= t) { --busy; ++ei; }
    while (pi + 1 < ps.size() && ps[pi + 1].first <= t) ++pi;
    SimTime next = makespan;
    if (ei < ends.size()) next = std::min(next, ends[ei]);
    if (pi + 1 < ps.size()) next = std::min(next, ps[pi + 1].first);
    const double w = line(h, ps[pi].second).watts(busy);
    e += w * static_cast<double>((next - t).ps()) * kJoulesPerWattPs;
    power.add(h, t, next, w);
    t = next;
  }
  return e;
}

EnergyReport EnergyMeter::finish(SimTime makespan, const std::vector<SimTime>& finish, const NetworkStats& net) const {
  EnergyReport rep;
  rep.present = platform_has_power(platform_);
  if (!rep.present) return rep;
  const double T = static_cast<double>(makespan.ps());
  CStateIdle tails = cstates_;  // the last idle periods, up to the end of the run
  PowerTimeline power = power_;  // plus the terms known at the end
  for (HostId h = 0; h < platform_.host_count(); ++h) {
    if (!has_power(h)) continue;
    const Meter& m = meters_[static_cast<size_t>(h)];
    HostEnergy he;
    he.name = platform_.host(h).name;
    double idle_ps = 0;
    if (cpus_.dynamic(h)) {
      const double tail = std::max(0.0, T - static_cast<double>(m.t_last.ps()));
      idle_ps = m.idle_ps + (m.busy == 0 ? tail : 0.0);
      he.energy_j = m.energy_j + line(h, m.pstate).watts(m.busy) * tail * kJoulesPerWattPs;
      if (!polling_) power.add(h, m.t_last, makespan, line(h, m.pstate).watts(m.busy));
    } else {
      idle_ps = std::max(0.0, T - m.union_ps);
      const PowerLine l = line(h, m.pstate);
      he.energy_j = (l.idle_w * idle_ps + l.base_w * m.union_ps + l.per_core_w * m.sum_ps) * kJoulesPerWattPs;
      if (!polling_) power.add(h, SimTime::zero(), makespan, l.idle_w);  // the rest: on_fixed_computation
    }
    if (polling_) he.energy_j = host_energy_polling(h, m, makespan, finish, power);
    if (cstates_.on()) {
      const SimTime tail_from = cpus_.dynamic(h) ? (m.busy == 0 ? m.idle_since : makespan) : m.cover_end;
      const double j = idle_period(tails, h, m.pstate, tail_from, makespan);
      he.energy_j += m.cstate_j + j;
      power.add_energy(h, tail_from, makespan, j);
    }
    he.idle_s = idle_ps / 1e12;
    if (host_power_) {  // time off: its power instead of idle power (no rank runs there then)
      he.energy_j += host_power_->extra_joules(h, makespan, line(h, m.pstate).idle_w,
                                               [&](SimTime from, SimTime to, double j) { power.add_energy(h, from, to, j); });
      he.off_s = host_power_->off_seconds(h, makespan);
      he.offs = host_power_->offs(h);
    }
    rep.hosts_j += he.energy_j;
    rep.hosts.push_back(std::move(he));
  }
  std::map<std::string, double> bytes;
  for (const LinkUsage& u : net.links) bytes[u.name] = u.bytes;
  std::map<std::string, LinkClassEnergy> classes;
  for (const Link& l : platform_.links()) {
    if (!l.has_power()) continue;
    double e = l.idle_w * T * kJoulesPerWattPs;
    if (auto it = bytes.find(l.name); it != bytes.end() && l.bandwidth_Bps > 0)
      e += (l.busy_w - l.idle_w) * it->second / l.bandwidth_Bps;
    LinkClassEnergy& c = classes[link_class(l.name)];
    c.name = link_class(l.name);
    ++c.links;
    c.energy_j += e;
    rep.links_j += e;
  }
  rep.links_busy_modelled = net.present || classes.empty();
  for (auto& [name, c] : classes) rep.link_classes.push_back(c);
  rep.total_j = rep.hosts_j + rep.links_j;
  rep.power = power.plot(platform_, kPlottedHosts, makespan);
  return rep;
}

}  // namespace simfab::energy
