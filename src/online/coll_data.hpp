// CollData: what an MPI collective computes, apart from how long it takes (online mode).
//
// The timing of a collective is its algorithm's messages on the network (the selector's choice,
// mpi/coll/); its data is computed here, exactly, from copies: when member i enters, deposit()
// packs the inputs it contributes (its send buffer, or with MPI_IN_PLACE its part of the receive
// buffer; a scatter's root packs one block per member, an alltoall member one block per peer);
// when member i's share of the messages has completed and the inputs it needs are there
// (ready()), outputs() writes what MPI says i receives:
//   bcast       root's buffer                 reduce / allreduce   x_0 op x_1 op ... op x_{P-1}
//   gather(v)   block j from member j (root)  allgather(v)         block j from member j
//   scatter(v)  block i of root's             alltoall(v)          block i of every member's
//   reduce_scatter(_block)  block i of the reduction               scan  x_0 op .. op x_i
//   exscan      x_0 op .. op x_{i-1} (member 0: untouched)         barrier  nothing
// Reductions fold the inputs in rank order as they arrive, acc = acc op x_j (MPI's operations
// are associative), so non-commutative operations get MPI's canonical order, P members cost
// O(P n) together, and a folded input is dropped at once. Members leave in any order, so inputs are copied at
// entry, not read at exit; a member whose messages completed before an input it needs was
// deposited waits for that deposit (never a silent zero).
// Agreement: every member must call the same collective with the same root (and, for
// reductions, the same operation); otherwise mpi_fatal names both calls.
// Memory: the packed inputs of one collective instance, freed when its last member has left.
#pragma once

#include <simfab/mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mpi/coll/registry.hpp"
#include "replay/ti_action.hpp"

namespace simfab::online {

// One member's arguments of one collective call (pointers are the program's).
struct CollArgs {
  coll::CollOp op = coll::CollOp::kBarrier;
  bool block = false;   // reduce_scatter_block (op = kReduceScatter with one count)
  const void* sbuf = nullptr;
  void* rbuf = nullptr;
  int64_t scount = 0;
  MPI_Datatype stype = MPI_DATATYPE_NULL;
  int64_t rcount = 0;
  MPI_Datatype rtype = MPI_DATATYPE_NULL;
  const int* scounts = nullptr;  // scatterv, alltoallv
  const int* sdispls = nullptr;
  const int* rcounts = nullptr;  // gatherv, allgatherv, alltoallv, reduce_scatter
  const int* rdispls = nullptr;
  MPI_Op mop = MPI_OP_NULL;
  int root = 0;
  const char* call = "";
};

class CollInstance {
 public:
  // `choice`: the collective choice its first member was under (model switches), which every
  // member runs.
  CollInstance(const CollArgs& first, int size, uint8_t choice = 0);
  uint8_t choice() const { return choice_; }
  // Member `local` enters: checks it agrees with the first member's call and copies its inputs.
  void deposit(const CollArgs& a, int local);
  // Whether every input member `local`'s outputs depend on has been deposited. An algorithm's
  // messages need not carry every member's contribution to every other (Schedgen's patterns time
  // communication, not data flow), so a member whose messages are done waits for this too.
  bool ready(int local) const;
  // Member `local`'s share completed: writes its outputs. Returns true when it was the last.
  bool outputs(const CollArgs& a, int local);

 private:
  const std::vector<std::byte>& input(int member, size_t block, const char* call) const;
  void fold(const CollArgs& a);  // extends acc_ over the members deposited in rank order
  const std::vector<std::byte>& prefix(int k, const CollArgs& a);  // x_0 op .. op x_k

  coll::CollOp op_;
  int root_;
  MPI_Op mop_;
  int size_;
  std::string first_call_;
  std::vector<std::vector<std::vector<std::byte>>> inputs_;  // member -> blocks
  std::vector<uint8_t> deposited_;
  std::vector<std::byte> acc_;                  // reductions: x_0 op .. op x_{folded_-1}
  int folded_ = 0;
  uint8_t choice_ = 0;
  std::vector<std::vector<std::byte>> prefix_;  // scans: prefix_[j] = x_0 op .. op x_j until delivered
  int left_ = 0;
};

// The TiAction (kind, root, sizes in bytes, per-rank counts) whose algorithm times this call on
// a communicator of `size` members; `counts` receives the v-collectives' per-rank bytes.
TiAction timing_action(const CollArgs& a, int local, int size, bool nonblocking, std::vector<Bytes>& counts);

}  // namespace simfab::online
