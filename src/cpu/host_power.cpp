#include "cpu/host_power.hpp"

#include <algorithm>

namespace simfab::cpu {
namespace {

const PowerTransition* transition(const Platform& p, HostId h, HostPower::State s) {
  const int profile = p.host(h).cpu_profile;
  if (profile < 0) return nullptr;
  const CpuProfile& c = p.cpu_profile(profile);
  return s == HostPower::State::kBooting ? &c.boot : s == HostPower::State::kShuttingDown ? &c.shutdown : nullptr;
}

SimTime after(SimTime t, double seconds) { return t + SimTime::from_seconds(seconds); }

}  // namespace

const char* state_name(HostPower::State s) {
  switch (s) {
    case HostPower::State::kOn: return "on";
    case HostPower::State::kShuttingDown: return "shutting down";
    case HostPower::State::kOff: return "off";
    case HostPower::State::kBooting: return "booting";
  }
  return "?";
}

HostPower::HostPower(const Platform& platform) : platform_(platform) {
  intervals_.resize(static_cast<size_t>(platform.host_count()));
}

HostPower::State HostPower::state(HostId h, SimTime t) const {
  for (const Interval& i : intervals_[static_cast<size_t>(h)])
    if (i.from <= t && t < i.to) return i.state;
  return State::kOn;
}

std::string HostPower::turn_off(HostId h, SimTime t, const std::vector<RankId>& unfinished_here) {
  const Host& host = platform_.host(h);
  if (const State s = state(h, t); s != State::kOn)
    return "host '" + host.name + "' is " + state_name(s) + ", not on";
  if (!unfinished_here.empty()) {
    std::string ranks;
    for (size_t i = 0; i < unfinished_here.size() && i < 8; ++i)
      ranks += (i ? ", " : "") + std::to_string(unfinished_here[i]);
    if (unfinished_here.size() > 8) ranks += ", ...";
    return "host '" + host.name + "' runs rank" + (unfinished_here.size() == 1 ? " " : "s ") + ranks +
           ", which " + (unfinished_here.size() == 1 ? "has" : "have") +
           " not finished: a rank cannot run on a host that is off";
  }
  std::vector<Interval>& v = intervals_[static_cast<size_t>(h)];
  const PowerTransition* sd = transition(platform_, h, State::kShuttingDown);
  const SimTime off_at = sd ? after(t, sd->time_s) : t;
  v.push_back(Interval{t, off_at, State::kShuttingDown});
  v.push_back(Interval{off_at, SimTime::never(), State::kOff});
  ++switches_;
  return {};
}

std::string HostPower::turn_on(HostId h, SimTime t) {
  std::vector<Interval>& v = intervals_[static_cast<size_t>(h)];
  const State s = state(h, t);
  if (s != State::kOff && s != State::kShuttingDown)
    return "host '" + platform_.host(h).name + "' is " + state_name(s) + ", not off";
  Interval& off = v.back();  // the open kOff interval
  const SimTime boot_at = std::max(t, off.from);
  off.to = boot_at;
  const PowerTransition* b = transition(platform_, h, State::kBooting);
  v.push_back(Interval{boot_at, b ? after(boot_at, b->time_s) : boot_at, State::kBooting});
  return {};
}

double HostPower::off_seconds(HostId h, SimTime end) const { return overlap(h, SimTime::zero(), end); }

double HostPower::overlap(HostId h, SimTime from, SimTime to) const {
  double s = 0;
  for (const Interval& i : intervals_[static_cast<size_t>(h)])
    if (i.from < to && i.to > from) s += (std::min(i.to, to) - std::max(i.from, from)).seconds();
  return s;
}

int HostPower::offs(HostId h) const {
  return static_cast<int>(std::count_if(intervals_[static_cast<size_t>(h)].begin(), intervals_[static_cast<size_t>(h)].end(),
                                        [](const Interval& i) { return i.state == State::kShuttingDown; }));
}

double HostPower::extra_joules(HostId h, SimTime end, double idle_w,
                               const std::function<void(SimTime, SimTime, double)>& each) const {
  const int profile = platform_.host(h).cpu_profile;
  const double off_w = profile >= 0 ? platform_.cpu_profile(profile).power_off_w : 0.0;
  double j = 0;
  for (const Interval& i : intervals_[static_cast<size_t>(h)]) {
    if (i.from > end) continue;
    const SimTime to = std::min(i.to, end);
    const double len = (to - i.from).seconds();
    double e = 0;
    if (i.state == State::kOff) {
      e = (off_w - idle_w) * len;
    } else if (const PowerTransition* t = transition(platform_, h, i.state)) {
      e = t->time_s > 0 ? (t->energy_j / t->time_s - idle_w) * len : t->energy_j;  // time 0: at once
    }
    j += e;
    if (each && e != 0) each(i.from, to, e);
  }
  return j;
}

}  // namespace simfab::cpu
