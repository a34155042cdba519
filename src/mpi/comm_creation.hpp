// PendingCreation: the rendezvous of one collective communicator creation (MPI_Comm_dup,
// MPI_Comm_split, MPI_Comm_create; MPI-3.1 §6.4.2) while the parent's members arrive one by one.
//
// Each parent member's k-th creation call on a parent belongs to creation k (CommTable counts);
// this class holds creation k from its first arrival until its last, when build() computes the new
// communicators' groups. Every check that one member's arguments allow is made at its arrival, so
// an error names the member whose call disagrees with the earlier ones:
//   - all members make the same kind of call (kind of the first arrival);
//   - dup: every member gives the same new id;
//   - split: colour >= 0 or kUndefined; members of one colour give one id, different colours give
//     different ids (kUndefined: no communicator, the id is ignored);
//   - create: every member passes the same group (parent-local ranks, valid and distinct, as the
//     first arrival gave it); members of the group give one id; the others get no communicator
//     (their id is ignored).
// Whether a new id is already in use is for the CommTable to check when the creation completes.
// build() orders each split colour by (key, parent rank) (MPI semantics) and returns the colours
// in ascending order; dup shares the parent's group storage.
//
// Memory while pending: split 8 B per parent member plus one entry per colour; create the group
// once (a Group: compact when it is a progression, else 8 B per member); dup O(1). Nothing
// survives completion. Arrival costs O(1) for dup, O(log colours) for split (its id checks) and
// O(group size) for create (comparing the group); build() costs O(n log n) for split.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "mpi/group.hpp"

namespace simfab::mpi {

// A communicator's id as the trace names it: >= 0; 0 is MPI_COMM_WORLD.
using CommId = int32_t;
inline constexpr CommId kCommWorld = 0;
inline constexpr CommId kCommNull = -1;  // MPI_COMM_NULL: no communicator

enum class CreationKind : uint8_t { kDup, kSplit, kCreate };
const char* creation_call_name(CreationKind kind);  // "MPI_Comm_dup", ...

// One member's arguments to a creation call. `new_id` is the id the trace gives to this member's
// new communicator (kCommNull or anything when the member gets none).
struct CreationArgs {
  CreationKind kind = CreationKind::kDup;
  CommId new_id = kCommNull;
  int32_t color = 0;                // split: >= 0, or kUndefined
  int32_t key = 0;                  // split
  std::span<const int32_t> group;   // create: parent-local ranks (read during the call only)

  static CreationArgs dup(CommId new_id) { return {CreationKind::kDup, new_id, 0, 0, {}}; }
  static CreationArgs split(int32_t color, int32_t key, CommId new_id) {
    return {CreationKind::kSplit, new_id, color, key, {}};
  }
  static CreationArgs create(std::span<const int32_t> group, CommId new_id) {
    return {CreationKind::kCreate, new_id, 0, 0, group};
  }
};

// One communicator a completed creation makes.
struct NewComm {
  CommId id;
  Group group;
};

class PendingCreation {
 public:
  // Creation `index` on communicator `parent_id` (both for error messages only).
  PendingCreation(CommId parent_id, uint32_t index, int32_t parent_size);

  // Member `local` of the parent arrives. Returns the id it gets once the creation completes
  // (kCommNull: none). Throws MpiCallError when its arguments disagree with the earlier ones.
  // REQUIRES: 0 <= local < parent.size(), each member arrives once.
  CommId arrive(const Group& parent, int32_t local, const CreationArgs& args);
  bool complete() const { return arrived_ == parent_size_; }
  CreationKind kind() const { return kind_; }
  // The new communicators. REQUIRES: complete().
  std::vector<NewComm> build(const Group& parent) const;
  // Heap bytes held while pending (map nodes estimated).
  size_t memory_bytes() const;

 private:
  struct SplitEntry {
    int32_t color;
    int32_t key;
  };
  struct IdGiver {
    CommId id;
    int32_t local;  // the first member that gave it
  };

  [[noreturn]] void fail(const std::string& detail) const;
  CommId check_id(int32_t local, CommId id, IdGiver& expected) const;
  void check_same_group(const Group& parent, int32_t local, std::span<const int32_t> ranks) const;
  CommId arrive_split(int32_t local, const CreationArgs& args);
  CommId arrive_create(const Group& parent, int32_t local, const CreationArgs& args);

  CommId parent_id_;
  uint32_t index_;
  int32_t parent_size_;
  int32_t arrived_ = 0;
  CreationKind kind_ = CreationKind::kDup;
  int32_t first_local_ = 0;             // the first arrival (kind reference)
  IdGiver id_{kCommNull, 0};            // dup, create: the new communicator's id
  Group create_group_;                  // create: the group as the first arrival gave it
  std::vector<SplitEntry> split_;       // split: per parent member
  std::map<int32_t, IdGiver> color_id_; // split: id per colour
  std::map<CommId, int32_t> id_color_;  // split: colour per id
};

}  // namespace simfab::mpi
