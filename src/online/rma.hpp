// Rma: MPI one-sided communication (MPI-3.1 chapter 11) in online mode.
//
// Data. Every rank lives in the simfab process, so a window is the members' (base, size,
// disp_unit) triples and an access is a direct copy through the datatype engine: MPI_Put packs
// the origin buffer and unpacks it at target base + disp * disp_unit; MPI_Get the reverse;
// MPI_Accumulate / MPI_Get_accumulate / MPI_Fetch_and_op apply the operation element-wise
// (reduce_packed: target = origin op target; MPI_REPLACE, MPI_NO_OP as MPI says);
// MPI_Compare_and_swap replaces when equal. Copies happen when the call is made: MPI leaves the
// target memory undefined until the epoch's synchronization, and conflicting accesses within an
// epoch are erroneous, so the copy's moment is unobservable by a correct program.
//
// Time. Each access is one network transfer on simfab's RMA context (OnlineProgram::rma_transfer,
// never matched by a program's receive): origin -> target for put and accumulate, target ->
// origin for get, and target -> origin of the result for the fetching operations. Both ends'
// overheads are charged by the network model as for a message. A get's request leg (origin ->
// target, one latency) is not modelled: the transfer starts at the call. Synchronization:
//   MPI_Win_fence           completes the rank's outstanding transfers, then a barrier on the
//                           window's communicator (the collective selector's algorithm)
//   MPI_Win_lock / unlock   exclusive / shared lock per target, granted in call order at no
//                           network cost; unlock completes the transfers to that target
//   MPI_Win_lock_all / unlock_all, MPI_Win_flush(_all)   as above, on every target
//   MPI_Win_post / start / complete / wait   (PSCW): start blocks until every target of its
//                           group has posted; wait blocks until every origin of the post's group
//                           has completed; complete finishes the origin's transfers
// Dynamic windows (MPI_Win_create_dynamic): a target displacement is an address inside memory the
// target attached (MPI_Win_attach); an access outside it is an error. Request-based operations
// (MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate) return the transfer's request, which
// the window's flush and unlock then do not wait for (a simplification: MPI completes them there
// too). MPI_Win_allocate_shared / MPI_Win_shared_query: any window is shared memory here.
// Creation (MPI_Win_create / MPI_Win_allocate) is collective: an allgather of the triples on
// the communicator, so it costs what that allgather costs. MPI_Win_free: a fence.
// Memory: per window its members' triples and lock state (about 48 B per member).
#pragma once

#include <simfab/mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "online/online_program.hpp"

namespace simfab::online {

class Rma {
 public:
  static Rma& instance();

  // dynamic: MPI_Win_create_dynamic (base and size unused: memory is attached later, and a
  // target displacement is an address, MPI_Get_address's).
  MPI_Win create(OnlineProgram& p, void* base, MPI_Aint size, int disp_unit, MPI_Comm comm, bool allocate,
                 void** allocated, const char* call, bool dynamic = false);
  // Dynamic windows: the calling rank exposes [base, base + size) / stops exposing it.
  void attach(OnlineProgram& p, MPI_Win win, void* base, MPI_Aint size, const char* call);
  void detach(OnlineProgram& p, MPI_Win win, const void* base, const char* call);
  // MPI_Win_shared_query: member `rank`'s memory (every rank lives in this process, so any window
  // is shared memory: loads and stores reach the target directly).
  void shared_query(OnlineProgram& p, MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr,
                    const char* call);
  void free(OnlineProgram& p, MPI_Win* win, const char* call);
  void fence(OnlineProgram& p, MPI_Win win, const char* call);

  enum class Access : uint8_t { kPut, kGet, kAccumulate, kGetAccumulate, kCompareAndSwap };
  struct Transfer {
    Access kind = Access::kPut;
    const void* origin = nullptr;  // put / accumulate source, compare-and-swap's new value
    int origin_count = 0;
    MPI_Datatype origin_type = MPI_DATATYPE_NULL;
    void* result = nullptr;  // get's destination, get_accumulate's / fetch's / CAS's old value
    int result_count = 0;
    MPI_Datatype result_type = MPI_DATATYPE_NULL;
    const void* compare = nullptr;  // compare-and-swap
    int target = 0;
    MPI_Aint disp = 0;
    int target_count = 0;
    MPI_Datatype target_type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_REPLACE;
  };
  // The transfer's data is copied now; its time runs on the network. With `request`, the program
  // gets the transfer's request (MPI_Rput & co., done when the transfer is) instead of the
  // window's next synchronization waiting for it.
  void access(OnlineProgram& p, MPI_Win win, const Transfer& t, const char* call, MPI_Request* request = nullptr);

  void lock(OnlineProgram& p, int lock_type, int target, MPI_Win win, const char* call);
  void unlock(OnlineProgram& p, int target, MPI_Win win, const char* call);
  void lock_all(OnlineProgram& p, MPI_Win win, const char* call);
  void unlock_all(OnlineProgram& p, MPI_Win win, const char* call);
  void flush(OnlineProgram& p, int target, MPI_Win win, const char* call);  // target < 0: all
  void post(OnlineProgram& p, MPI_Group group, MPI_Win win, const char* call);
  void start(OnlineProgram& p, MPI_Group group, MPI_Win win, const char* call);
  void complete(OnlineProgram& p, MPI_Win win, const char* call);
  void wait(OnlineProgram& p, MPI_Win win, const char* call);
  MPI_Group group(OnlineProgram& p, MPI_Win win, const char* call);

 private:
  struct Member {
    std::byte* base = nullptr;
    int64_t size = 0;
    int disp_unit = 1;
    bool owned = false;  // MPI_Win_allocate: freed with the window
    MPI_Comm comm = MPI_COMM_NULL;  // the member's handle of the window's communicator
    std::vector<std::pair<std::byte*, int64_t>> attached;  // dynamic windows: exposed regions
  };
  struct Lock {
    int exclusive_holder = -1;  // local rank holding it exclusively, or -1
    std::vector<int> shared;    // local ranks holding it shared
  };
  struct Pending {
    MPI_Request request;
    int target;  // local rank
  };
  struct Window {
    bool live = false;
    bool dynamic = false;
    std::map<RankId, int> local_of;  // world rank -> rank in the window's communicator
    int size = 0;
    int arrived = 0;
    std::vector<Member> members;
    std::vector<Lock> locks;                     // per target
    std::vector<std::vector<Pending>> pending;   // per origin (local rank): transfers in flight
    std::vector<int> posts;                      // per target: exposure epochs opened (PSCW)
    std::vector<std::vector<int>> post_group;    // per target: its post's origins (local ranks)
    std::vector<int> completes;                  // per target: origins that completed towards it
    std::vector<std::vector<int>> start_group;   // per origin: its start's targets
    std::vector<std::vector<int>> consumed;      // per origin, per target: posts consumed
    int freed = 0;
  };

  Window& window(OnlineProgram& p, MPI_Win win, const char* call, int* local);
  void finish(OnlineProgram& p, Window& w, int local, int target);  // target < 0: every target
  std::vector<int> locals_of(OnlineProgram& p, const Window& w, MPI_Group group, const char* call);

  std::vector<Window> windows_;                          // MPI_Win handle - 1
  // (communicator, k-th creation on it) -> window index; a communicator is its p2p context, or
  // kSelf + the world rank for MPI_COMM_SELF (handles are per rank).
  static constexpr uint64_t kSelf = uint64_t{1} << 40;
  std::map<std::pair<uint64_t, uint32_t>, int> keys_;
  std::map<std::pair<RankId, uint64_t>, uint32_t> created_;  // windows each rank created per communicator
  MPI_Comm comm_of(OnlineProgram& p, const Window& w) const;   // the caller's handle
};

}  // namespace simfab::online
