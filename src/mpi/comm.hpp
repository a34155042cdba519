// CommTable: the live MPI communicators of one run, by id, and the collective calls that create
// them (MPI-3.1 §6.4).
//
// A communicator is a Group plus two matching contexts, one for point-to-point traffic and one for
// the collectives simfab generates, so neither ever matches the other nor another communicator's
// messages. Id 0 is MPI_COMM_WORLD over ranks 0..N-1 with contexts 0 (p2p) and 1 (collectives), the
// values the executor has always used. Every other communicator gets the lowest context pair
// (2k, 2k+1), k >= 1, that no live communicator holds; freeing it returns the pair.
//
// Ids are chosen by the front-end's input (the trace writer), >= 0; an id names one communicator
// at a time and may be given again once that communicator is freed.
//
// Creation is collective: each parent member calls arrive(parent, its local rank, args) in its own
// program order; a member's k-th arrival on a parent joins creation k (PendingCreation checks the
// arguments agree). The last member's arrival builds the new communicators (their ids must not be
// live then) and frees the pending state; creations on one parent complete in order, so "creation
// k is complete" is k < creations_completed(parent). The arrival's ticket says which id the member
// gets (kCommNull: none, e.g. MPI_UNDEFINED colour).
//
// Collective tags: next_collective_tag(comm, local) returns member local's k-th collective on comm
// as tag k (mod 2^31), so every member's k-th collective matches the others' k-th on the
// collective context.
//
// Creation among a group only (MPI_Comm_create_group, where the parent's other members do not
// call): adopt(id, group) makes communicator `id` over `group` at its first member's call and
// returns it when it exists already; the front-end picks the id and charges the agreement.
//
// Freeing is collective too: free(comm, local) records one member; the communicator (its id and
// contexts) is released when its last member frees it. MPI_COMM_WORLD cannot be freed.
//
// Memory: per communicator about 200 B plus its Group (0 B when compact, else 8 B per member);
// per-member counters (collective and creation sequence numbers, 8 B per member) and free marks
// (1 bit per member) are allocated on first use, so a world of any size costs O(1) until it runs a
// collective or creates a communicator. A pending creation costs what PendingCreation says.
// Time: lookups O(log C) for C live communicators; arrive O(1) amortised (dup, split) or
// O(group) (create), plus the completing arrival's build.
// Errors: MpiCallError naming the MPI call (unknown communicator, rank outside it, ids in use or
// disagreeing, ...). After an error the table is in a valid but unspecified state; the run stops.
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <vector>

#include "mpi/comm_creation.hpp"
#include "mpi/group.hpp"

namespace simfab::mpi {

class Comm {
 public:
  CommId id() const { return id_; }
  const Group& group() const { return group_; }
  int32_t size() const { return group_.size(); }
  uint32_t p2p_context() const { return 2 * context_pair_; }
  uint32_t collective_context() const { return 2 * context_pair_ + 1; }

 private:
  friend class CommTable;
  struct MemberCounters {
    uint32_t collectives = 0;  // collectives this member has started
    uint32_t creations = 0;    // creation calls this member has made
  };

  CommId id_ = kCommNull;
  uint32_t context_pair_ = 0;
  Group group_;
  std::vector<MemberCounters> counters_;  // empty until first used
  std::vector<bool> freed_;               // empty until the first free
  int32_t freed_count_ = 0;
  uint32_t creations_completed_ = 0;
  std::deque<std::unique_ptr<PendingCreation>> pending_;  // creations creations_completed_, +1, ...
};

// What one member's arrival at a creation tells it.
struct CreationTicket {
  uint32_t creation = 0;     // k: this was the member's k-th creation call on the parent
  CommId new_comm = kCommNull;  // the id it gets once creation k completes (kCommNull: none)
  bool completed = false;    // this arrival was the last: the new communicators exist now
};

class CommTable {
 public:
  // MPI_COMM_WORLD over world_size ranks. REQUIRES: world_size >= 1.
  explicit CommTable(int32_t world_size);
  CommTable(const CommTable&) = delete;
  CommTable& operator=(const CommTable&) = delete;

  int32_t world_size() const { return world_size_; }
  // The live communicator `id`, or nullptr. The pointer stays valid until that communicator is freed.
  const Comm* find(CommId id) const;
  // The live communicator `id`; throws MpiCallError(call, "communicator 5 does not exist").
  const Comm& at(CommId id, const char* call) const;
  size_t live() const { return comms_.size(); }

  // MPI_Comm_compare: kIdent (same communicator), kCongruent (identical groups), kSimilar, kUnequal.
  Comparison compare(CommId a, CommId b) const;

  // Member `local` of `comm` starts its next collective on it: returns the tag for it.
  int32_t next_collective_tag(CommId comm, int32_t local);

  // Member `parent_local` of `parent` calls a communicator creation (see the header comment).
  CreationTicket arrive(CommId parent, int32_t parent_local, const CreationArgs& args);
  uint32_t creations_completed(CommId parent) const;
  // Communicator `id` over `group`, made now unless it is live (see the header comment).
  const Comm& adopt(CommId id, const Group& group);
  bool creation_complete(CommId parent, uint32_t k) const { return k < creations_completed(parent); }

  // Member `local` of `comm` calls MPI_Comm_free; returns true when that released the communicator.
  bool free(CommId comm, int32_t local);
  // Whether member `local` of live communicator `comm` has freed it already (it may not use it).
  bool freed_by(CommId comm, int32_t local) const;

  // Heap and table bytes held for the communicators and their pending creations (approximate for
  // the map nodes; exact for the per-member vectors and groups).
  size_t memory_bytes() const;

 private:
  Comm& at_mut(CommId id, const char* call);
  Comm::MemberCounters& counters(Comm& c, int32_t local, const char* call);
  uint32_t acquire_context_pair();

  int32_t world_size_;
  std::map<CommId, Comm> comms_;
  uint32_t next_pair_ = 1;  // context pairs 1..next_pair_-1 have been handed out
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> free_pairs_;
};

}  // namespace simfab::mpi
