#include "cpu/host_cpus.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string>

namespace simfab::cpu {

namespace {
constexpr double kWorkTolerance = 1e-3;  // work-ps: completions within it end together
}

HostCpus::HostCpus(Engine& engine, const Platform& platform, const std::vector<int>& ranks_per_host,
                   bool all_dynamic)
    : engine_(engine), platform_(platform) {
  dyn_index_.assign(static_cast<size_t>(platform.host_count()), -1);
  for (HostId h = 0; h < platform.host_count(); ++h) {
    const Host& host = platform.host(h);
    const CpuProfile* prof = host.cpu_profile >= 0 ? &platform.cpu_profile(host.cpu_profile) : nullptr;
    const int ranks = static_cast<size_t>(h) < ranks_per_host.size() ? ranks_per_host[static_cast<size_t>(h)] : 0;
    const bool dvfs = prof && prof->pstates() > 1;
    if (!dvfs && host.speed_profile < 0 && ranks <= host.cores && !all_dynamic) continue;
    Dyn d;
    d.host = h;
    d.cores = std::max(1, host.cores);
    d.pstate = prof ? prof->initial_pstate : 0;
    d.profile = prof;
    d.scale = 1.0;
    if (host.speed_profile >= 0) d.avail = &platform.availability(host.speed_profile);
    dyn_index_[static_cast<size_t>(h)] = static_cast<int32_t>(dyn_.size());
    dyn_.push_back(std::move(d));
    dyn_hosts_.push_back(h);
  }
  engine_.set_handler(EventKind::kCpu, this);
}

double HostCpus::rate(const Dyn& d) const {
  const size_t n = d.heap.size();
  const double s = d.scale * d.avail_scale;
  if (n <= static_cast<size_t>(d.cores)) return s;
  return s * static_cast<double>(d.cores) / static_cast<double>(n);
}

void HostCpus::advance(Dyn& d, SimTime t) {
  if (!d.heap.empty()) d.v += rate(d) * static_cast<double>((t - d.t_last).ps());
  d.t_last = t;
}

void HostCpus::refresh_avail(Dyn& d, SimTime now) {
  if (d.avail) d.avail_scale = d.avail->value_at(now).value_or(1.0);
}

void HostCpus::notify(const Dyn& d, SimTime t) {
  for (CpuObserver* o : observers_) o->on_cpu_state(d.host, t, static_cast<int>(d.heap.size()), d.pstate);
}

void HostCpus::reschedule(uint32_t di) {
  Dyn& d = dyn_[di];
  ++d.generation;
  if (d.heap.empty()) return;
  SimTime at = SimTime::never();
  bool overflow = false;
  if (const double r = rate(d); r > 0) {
    const double dt = (d.heap.front().key - d.v) / r;
    const double ps = std::ceil(std::max(0.0, dt) - 1e-6);
    std::optional<SimTime> sum;
    if (ps < 9.2e18) sum = checked_add(d.t_last, SimTime::ps(std::max<int64_t>(1, static_cast<int64_t>(ps))));
    if (sum) at = *sum;
    else overflow = true;
  }
  if (d.avail) at = std::min(at, d.avail->next_change(d.t_last));  // a(t) changes first
  if (at == SimTime::never()) {
    const std::string& name = platform_.host(d.host).name;
    if (overflow)
      throw InputError(SourceLoc{}, "simulated time overflows 64-bit picoseconds on host '" + name +
                                        "': a computation lasts too long at its pstate");
    throw InputError(SourceLoc{}, "host '" + name + "' computes at speed 0 from " + std::to_string(d.t_last.seconds()) +
                                      " s on (" + (d.avail_scale == 0 ? "its speed profile is 0" : "its pstate " +
                                      std::to_string(d.pstate) + " has speed 0") +
                                      " and nothing changes it): its computation would never end");
  }
  engine_.schedule(at, EventKind::kCpu, (uint64_t{d.generation} << 24) | di);
}

void HostCpus::start(HostId h, uint32_t token, uint64_t work_ps, uint32_t task) {
  const uint32_t di = static_cast<uint32_t>(dyn_index_[static_cast<size_t>(h)]);
  Dyn& d = dyn_[di];
  const SimTime now = engine_.now();
  advance(d, now);
  refresh_avail(d, now);
  for (CpuObserver* o : observers_) o->on_task_start(h, now, task, work_ps);
  d.heap.push_back(Running{d.v + static_cast<double>(work_ps), token});
  std::push_heap(d.heap.begin(), d.heap.end(), std::greater<>());
  reschedule(di);
  notify(d, now);
}

void HostCpus::handle(SimTime now, uint64_t index) {
  const uint32_t di = static_cast<uint32_t>(index & 0xFFFFFF);
  Dyn& d = dyn_[di];
  if (static_cast<uint32_t>(index >> 24) != d.generation) return;  // voided by a later change
  advance(d, now);
  refresh_avail(d, now);
  done_.clear();
  while (!d.heap.empty() && d.heap.front().key <= d.v + kWorkTolerance) {
    done_.push_back(d.heap.front().token);
    std::pop_heap(d.heap.begin(), d.heap.end(), std::greater<>());
    d.heap.pop_back();
  }
  reschedule(di);
  notify(d, now);
  // Taken out of done_ (its capacity kept) in case the client re-enters this handler.
  std::vector<uint32_t> done;
  done.swap(done_);
  for (uint32_t token : done) client_->computation_done(token, now);
  done.clear();
  if (done_.empty()) done_.swap(done);
}

int HostCpus::pstate(HostId h) const {
  const int32_t di = dyn_index_[static_cast<size_t>(h)];
  if (di >= 0) return dyn_[static_cast<size_t>(di)].pstate;
  const Host& host = platform_.host(h);
  return host.cpu_profile >= 0 ? platform_.cpu_profile(host.cpu_profile).initial_pstate : 0;
}

int HostCpus::pstates(HostId h) const {
  const Host& host = platform_.host(h);
  return host.cpu_profile >= 0 ? platform_.cpu_profile(host.cpu_profile).pstates() : 1;
}

int HostCpus::last_computing_pstate(HostId h) const {
  const Host& host = platform_.host(h);
  return host.cpu_profile >= 0 ? platform_.cpu_profile(host.cpu_profile).last_computing_pstate() : 0;
}

int HostCpus::busy(HostId h) const {
  const int32_t di = dyn_index_[static_cast<size_t>(h)];
  return di >= 0 ? static_cast<int>(dyn_[static_cast<size_t>(di)].heap.size()) : 0;
}

void HostCpus::set_pstate(HostId h, int p) {
  SIMFAB_CHECK(p >= 0 && p < pstates(h), "HostCpus::set_pstate: pstate out of range");
  const int32_t di = dyn_index_[static_cast<size_t>(h)];
  if (di < 0) return;  // one pstate: nothing changes
  Dyn& d = dyn_[static_cast<size_t>(di)];
  if (d.pstate == p) return;
  const SimTime now = engine_.now();
  advance(d, now);
  refresh_avail(d, now);
  d.pstate = p;
  d.scale = d.profile->speeds[static_cast<size_t>(p)] / d.profile->speeds[static_cast<size_t>(d.profile->initial_pstate)];
  reschedule(static_cast<uint32_t>(di));
  notify(d, now);
}

}  // namespace simfab::cpu
