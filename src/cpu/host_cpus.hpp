// HostCpus: the computations of every host, sharing its cores at its current pstate (seed 001
// §2.3 and §4.3; ../shared/spec/seed-001-energy.md tests 5 and 6).
//
// Work. A computation's work is given in picoseconds at the host's initial pstate on a dedicated
// core (what front-ends compute as flops / Host::speed_flops). At pstate p a core runs at
//     s(p) = speeds[p] / speeds[initial]    work-ps per ps,
// and n computations on N cores each progress at r = s(p) * min(1, N / n): fair sharing, no
// scheduling overhead (the thesis's rule, with its C*p/n typo read as C*n/p). A pstate change
// takes effect at once for the computations already running (their remaining work continues at
// the new rate: test 6, 100 Mflop switched from 100 to 20 Mflop/s at 0.5 s ends at 3.0 s).
//
// Speed profiles (platform/availability.hpp, SimGrid's speed_file): the rate is also multiplied by
// the profile's value a(t) in force, r = s(p) * a(t) * min(1, N / n). While the host computes, its
// one live event is at the earlier of the next completion and the profile's next change, where
// V is brought up to date at the old rate and the new a(t) applies: the integral of the step
// function is exact (SimGrid's 10 Gflop on 1 Gf under "0 0.5 / 2 1 / PERIODICITY 3" ends at 15 s).
// An idle host schedules nothing, so a periodic profile does not keep the run alive. A rate of 0
// (a pstate of speed 0, or a(t) = 0) with no later change is an InputError: the computation
// would never end.
//
// Which hosts are modelled this way ("dynamic"): those with more than one pstate or a speed
// profile, and those with more ranks than cores. Every other host keeps LogGOPSim's CPU timer (a computation's end is
// known when it starts, no extra event); its load still reaches the observers.
//
// Algorithm. All computations of a dynamic host progress at the same rate, so the host keeps a
// virtual work clock V(t) = integral of r dt and each computation the value K = V(start) + work at
// which it ends, in a min-heap. The next completion is at t_last + (K_min - V) / r, rounded up to
// a picosecond; one engine event per host is live (a generation number voids the others). Cost:
// O(log n) per start, completion or pstate change, n = the host's running computations.
//
// Observers (CpuObserver) see every change of a host's (busy, pstate), in time order per host, and
// every computation of a fixed host as its interval: energy and governors are observers, not
// hooks in the kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "core/engine.hpp"
#include "platform/platform.hpp"

namespace simfab::cpu {

class CpuObserver {
 public:
  virtual ~CpuObserver() = default;
  // Dynamic host h runs `busy` computations at `pstate` from t on. Per host, t never decreases.
  virtual void on_cpu_state(HostId h, SimTime t, int busy, int pstate) = 0;
  // A computation on a fixed host occupies one core over [start, end). Starts never decrease.
  virtual void on_fixed_computation(HostId h, SimTime start, SimTime end) = 0;
  // A computation of `work_ps` (ps at the initial pstate) of task `task` (mpi/call_sites.hpp)
  // starts on dynamic host h at t; on_cpu_state follows. For per-task governors.
  virtual void on_task_start(HostId /*h*/, SimTime /*t*/, uint32_t /*task*/, uint64_t /*work_ps*/) {}
};

// Who learns that a computation ended (the executor): token is what start() was given.
class CpuClient {
 public:
  virtual ~CpuClient() = default;
  virtual void computation_done(uint32_t token, SimTime t) = 0;
};

class HostCpus : public EventHandler {
 public:
  // ranks_per_host[h]: the ranks mapped to host h (more than its cores makes it dynamic).
  // all_dynamic: every host is modelled dynamically (ranks may migrate onto any host).
  HostCpus(Engine& engine, const Platform& platform, const std::vector<int>& ranks_per_host,
           bool all_dynamic = false);

  void set_client(CpuClient* c) { client_ = c; }
  void add_observer(CpuObserver* o) { observers_.push_back(o); }

  bool dynamic(HostId h) const { return dyn_index_[static_cast<size_t>(h)] >= 0; }
  bool any_dynamic() const { return !dyn_.empty(); }
  // Starts a computation of `work_ps` (> 0) of task `task` on dynamic host h at the engine's
  // current time.
  void start(HostId h, uint32_t token, uint64_t work_ps, uint32_t task = 0);
  // A computation on fixed host h over [start, end): tells the observers.
  void fixed(HostId h, SimTime start, SimTime end) {
    for (CpuObserver* o : observers_) o->on_fixed_computation(h, start, end);
  }

  int pstate(HostId h) const;
  int pstates(HostId h) const;
  // The last pstate of speed > 0 counted from pstate 0 (CpuProfile::last_computing_pstate).
  int last_computing_pstate(HostId h) const;
  // Sets host h's pstate from the engine's current time on. REQUIRES: 0 <= p < pstates(h).
  // A fixed host has one pstate: setting it to 0 does nothing.
  void set_pstate(HostId h, int p);
  int busy(HostId h) const;
  const std::vector<HostId>& dynamic_hosts() const { return dyn_hosts_; }

  void handle(SimTime now, uint64_t index) override;

 private:
  struct Running {
    double key;      // V at which it ends
    uint32_t token;
    bool operator>(const Running& o) const { return key != o.key ? key > o.key : token > o.token; }
  };
  struct Dyn {
    HostId host;
    int cores;
    int pstate;
    const CpuProfile* profile;
    double scale;  // speeds[pstate] / speeds[initial]
    const Availability* avail = nullptr;  // its speed profile, or none
    double avail_scale = 1;               // the profile's value in force (1 before its first event)
    double v = 0;  // virtual work clock
    SimTime t_last = SimTime::zero();
    uint32_t generation = 0;
    std::vector<Running> heap;  // min-heap on key
  };
  double rate(const Dyn& d) const;
  void advance(Dyn& d, SimTime t);
  void reschedule(uint32_t di);
  void notify(const Dyn& d, SimTime t);
  // After advance(d, now): the speed profile's value from now on.
  static void refresh_avail(Dyn& d, SimTime now);

  Engine& engine_;
  const Platform& platform_;
  CpuClient* client_ = nullptr;
  std::vector<CpuObserver*> observers_;
  std::vector<int32_t> dyn_index_;  // per host: index into dyn_, or -1 (fixed host)
  std::vector<Dyn> dyn_;
  std::vector<HostId> dyn_hosts_;
  std::vector<uint32_t> done_;  // scratch: tokens completing at one event
};

}  // namespace simfab::cpu
