// Per-task DVFS governors (seed 001 §2.15, §4.5-4.7): Adagio, AdagioImproved and Lagrange decide
// a pstate per task (the code between two MPI calls, mpi/call_sites.hpp) from what the task's
// last execution cost, and apply it the next time that task starts on the host (Listing 4's
// PreTask: f = Sched[taskid], f_max for a task never seen).
//
// Per host, from the CPU observer's events: a task starts (HostCpus::start tells its id and work)
// on an idle host; it computes for t_comp at the pstate it was given; the host is then idle (the
// rank waits in MPI) for t_lib until its next task starts. At that next start the finished task
// is judged (adagio.hpp, lagrange.hpp) and its decision stored; then the starting task gets its
// own stored pstate. A host running several ranks at once is judged by the computation that made
// it busy (a task that starts while another computes is not judged; seed 001's governors assume
// one rank per single-core host). State: per host, per task seen there; O(pstates) per task start.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "cpu/host_cpus.hpp"
#include "energy/adagio.hpp"
#include "energy/lagrange.hpp"
#include "energy/power_model.hpp"

namespace simfab::energy {

enum class TaskRule { kAdagio, kAdagioImproved, kLagrange };

struct TaskGovernorParams {
  TaskRule rule = TaskRule::kAdagio;
  int min_pstate = 0;
  int max_pstate = -1;  // -1: the host's last
  double adagio_factor = 3;
  size_t adagio_window = 0;
  bool adagio_per_host = false;  // energy/adagio-schedule=host
  LagrangeParams lagrange;
  size_t lagrange_window = 5;
  MiddleValue middle = MiddleValue::kOneCore;
};

class TaskGovernor {
 public:
  TaskGovernor(cpu::HostCpus& cpus, const Platform& platform, TaskGovernorParams params);
  // Every governed host (dynamic, several pstates) starts at its fastest allowed pstate. Throws
  // InputError for Lagrange on a host without power per pstate.
  void start();
  void on_task_start(HostId h, SimTime t, uint32_t task, uint64_t work_ps);
  void on_cpu_state(HostId h, SimTime t, int busy);
  uint64_t changes() const { return changes_; }

 private:
  struct TaskState {
    int pstate = 0;  // Sched[task]
    TminWindow t_libs;
    LagrangeState lagrange;
    TminWindow spans;  // Lagrange: the task's last spans
    bool judged = false;
  };
  struct HostState {
    int busy = 0;
    bool ran = false;  // a task has run and ended: `task` is to be judged at the next start
    uint32_t task = 0;
    SimTime start = SimTime::zero();
    SimTime end = SimTime::zero();
    int pstate = 0;  // the pstate the task ran at
    std::unordered_map<uint32_t, TaskState> tasks;
  };
  int lo(HostId h) const;
  int hi(HostId h) const;
  // The pstate of `task`'s next execution, from its last one on host h (ended at s.end).
  int judge(HostId h, HostState& s, TaskState& k, SimTime now);

  cpu::HostCpus& cpus_;
  const Platform& platform_;
  TaskGovernorParams params_;
  std::vector<HostState> hosts_;
  uint64_t changes_ = 0;
};

}  // namespace simfab::energy
