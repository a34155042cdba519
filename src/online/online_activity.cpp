// What an online rank is doing, for the outputs (mpi/activity.hpp). The MPI calls that may take
// simulated time open a call interval when they start, named without "MPI_" (MPI_Allreduce ->
// "Allreduce"); when any reported call returns, the program's own computation ("compute") opens
// the next one, so a rank's intervals tile [0, finish]. Calls that take no simulated time
// (MPI_Comm_rank, MPI_Wtime, datatype and info calls, ...) are not reported: their instant stays
// in the surrounding computation; so is what a rank does before its first reported call. Classes: sends, receives and their non-blocking forms, persistent
// starts and one-sided transfers point-to-point; wait, test and probe families, and one-sided
// synchronisation, waiting; collectives (blocking or not) and communicator creation collective;
// MPI_Init and MPI_Finalize other.
#include <cstring>
#include <string_view>

#include "online/online_program.hpp"

namespace simfab::online {

namespace {

struct OnlineCallClass {
  std::string_view name;  // after "MPI_"
  CallClass cls;
};

constexpr CallClass kP = CallClass::kP2p, kC = CallClass::kCollective, kW = CallClass::kWait;

// Every MPI function of include/simfab/mpi.h that may take simulated time. Collectives also match
// with a leading I (their non-blocking forms).
constexpr OnlineCallClass kClasses[] = {
    {"Init", CallClass::kOther}, {"Init_thread", CallClass::kOther}, {"Finalize", CallClass::kOther},
    {"Send", kP}, {"Ssend", kP}, {"Bsend", kP}, {"Rsend", kP}, {"Isend", kP}, {"Issend", kP}, {"Ibsend", kP},
    {"Irsend", kP}, {"Recv", kP}, {"Irecv", kP}, {"Mrecv", kP}, {"Imrecv", kP}, {"Sendrecv", kP},
    {"Sendrecv_replace", kP}, {"Start", kP}, {"Startall", kP}, {"Put", kP}, {"Get", kP}, {"Accumulate", kP},
    {"Get_accumulate", kP}, {"Rput", kP}, {"Rget", kP}, {"Raccumulate", kP}, {"Rget_accumulate", kP},
    {"Fetch_and_op", kP}, {"Compare_and_swap", kP},
    {"Wait", kW}, {"Waitall", kW}, {"Waitany", kW}, {"Waitsome", kW}, {"Test", kW}, {"Testall", kW},
    {"Testany", kW}, {"Testsome", kW}, {"Probe", kW}, {"Iprobe", kW}, {"Mprobe", kW}, {"Improbe", kW},
    {"Win_fence", kW}, {"Win_lock", kW}, {"Win_lock_all", kW}, {"Win_unlock", kW}, {"Win_unlock_all", kW},
    {"Win_flush", kW}, {"Win_flush_all", kW}, {"Win_flush_local", kW}, {"Win_flush_local_all", kW},
    {"Win_start", kW}, {"Win_complete", kW}, {"Win_post", kW}, {"Win_wait", kW}, {"Win_test", kW},
    {"Win_sync", kW},
    {"Barrier", kC}, {"Bcast", kC}, {"Reduce", kC}, {"Allreduce", kC}, {"Gather", kC}, {"Gatherv", kC},
    {"Scatter", kC}, {"Scatterv", kC}, {"Allgather", kC}, {"Allgatherv", kC}, {"Alltoall", kC},
    {"Alltoallv", kC}, {"Alltoallw", kC}, {"Reduce_scatter", kC}, {"Reduce_scatter_block", kC}, {"Scan", kC},
    {"Exscan", kC}, {"Comm_split", kC}, {"Comm_split_type", kC}, {"Comm_dup", kC}, {"Comm_dup_with_info", kC},
    {"Comm_idup", kC}, {"Comm_create", kC}, {"Comm_create_group", kC}, {"Cart_create", kC}, {"Cart_sub", kC},
    {"Graph_create", kC}, {"Dist_graph_create", kC}, {"Dist_graph_create_adjacent", kC},
    {"Intercomm_create", kC}, {"Intercomm_merge", kC}, {"Win_create", kC}, {"Win_allocate", kC},
    {"Win_allocate_shared", kC}, {"Win_create_dynamic", kC}, {"Win_free", kC},
};

// The class of an MPI function, or false when it takes no simulated time (not reported).
bool classify(std::string_view name, CallClass& cls) {
  if (name.substr(0, 4) != "MPI_") return false;
  name.remove_prefix(4);
  for (const OnlineCallClass& c : kClasses)
    if (c.name == name || (c.cls == kC && name.size() > 1 && name[0] == 'I' && c.name == name.substr(1))) {
      cls = c.cls;
      return true;
    }
  return false;
}

}  // namespace

void OnlineProgram::report_enter(const char* call) {
  CallClass cls;
  if (!classify(call, cls)) return;
  CallInfo info;
  info.name = call + 4;  // a string literal of the ABI: static storage
  info.cls = cls;
  const RankId r = current_;
  Rank& R = rank();
  const SimTime t = R.now;
  const bool first = !R.reported_any;
  on_kernel_stack([&] {
    if (first) {  // what the rank did before its first call (its start-up) is computation
      CallInfo start;
      start.name = "compute";
      start.cls = CallClass::kCompute;
      ex_->activity()->call(r, SimTime::zero(), start);
    }
    ex_->activity()->call(r, t, info);
  });
  R.reported_any = true;
  R.in_reported_call = true;
}

void OnlineProgram::report_leave() {
  Rank& R = rank();
  if (!R.in_reported_call) return;
  R.in_reported_call = false;
  CallInfo info;
  info.name = "compute";
  info.cls = CallClass::kCompute;
  const RankId r = current_;
  const SimTime t = R.now;
  on_kernel_stack([&] { ex_->activity()->call(r, t, info); });
}

void OnlineProgram::report_algorithm(const char* call, const char* algorithm) {
  CallClass cls;
  if (!classify(call, cls)) return;
  CallInfo info;
  info.name = call + 4;
  info.cls = cls;
  info.algorithm = algorithm;
  info.refines = true;
  ex_->activity()->call(current_, rank().now, info);  // already on the kernel stack
}

}  // namespace simfab::online
