// CollectiveMatcher: MPI's rule that every member of a communicator calls the same collectives in
// the same order with matching arguments (MPI-3.1 §5.1), checked as ranks enter them.
//
// Each member's k-th collective on a communicator is collective k of that communicator. The first
// member to enter collective k records its signature; every later one is compared with it, and
// the record is dropped when the last member has entered. What must agree:
//   kind            the same collective (bcast with bcast, ...)
//   root            rooted collectives: the same root
//   bytes, bytes2   two per-call sizes every member gives identically, or kAny where only some
//                   members know it (gather: the root's receive size per rank, adopted when the
//                   root enters, compared with every member's send size)
//   per-rank sizes  v-collectives: `counts` (the size the call says each member contributes, e.g.
//                   gatherv's receive counts at the root) against `own` (what this member itself
//                   contributes); counts given by several members must be equal
// A mismatch is an InputError naming the collective number, both ranks and both positions (the
// front-end's describe(rank, position) formats a position, e.g. "trace.txt:12").
// Not checked: alltoallv (its matrix is P x P; the executor's truncation check still catches a
// receive too small), datatypes beyond their byte sizes.
//
// The first member's collective choice (model switches, sim/model_switch.hpp) is kept with the
// record and returned to every later member.
// Memory: one record per collective some member has entered and some has not (48 B plus, for
// v-collectives, 8 B per member); nothing once all members have entered. Cost: O(1) per entry,
// O(P) for a v-collective (the same order as parsing its P counts).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab {

struct CollSignature {
  static constexpr Bytes kAny = UINT64_MAX;
  std::string_view name;  // the collective's name, for messages; equal names = same kind
  int32_t root = -1;      // -1: not rooted
  Bytes bytes = kAny;
  Bytes bytes2 = kAny;
  std::span<const Bytes> counts;  // v-collectives: per-member sizes this call states (may be empty)
  Bytes own = kAny;               // v-collectives: this member's own contribution
};

class CollectiveMatcher {
 public:
  // Formats a member's position (e.g. "trace.txt:12") for messages; called only on a mismatch.
  using Describe = std::function<std::string(int32_t rank, uint64_t position)>;

  explicit CollectiveMatcher(Describe describe) : describe_(std::move(describe)) {}

  // Member `local` (0 <= local < members) of communicator `comm`, world rank `rank`, enters its
  // collective number `seq` at `position`. Throws InputError on a mismatch with the members that
  // entered before (messages name world ranks; per-member counts are indexed by local rank).
  // `choice` is the collective choice the member is under (model switches): returns the first
  // member's, which every member runs.
  uint8_t enter(uint32_t comm, uint64_t seq, int members, int32_t local, int32_t rank, uint64_t position,
                const CollSignature& sig, uint8_t choice = 0);

  size_t pending() const { return pending_.size(); }
  // A collective some member entered and another never will (the run ended, or every member freed
  // communicator `comm`): throws InputError naming the collective, its first caller and how many
  // members called it. Without `comm`, the lowest pending (communicator, number) is reported, so
  // the message is deterministic. Does nothing when none is pending (on `comm`).
  void fail_pending() const;
  void fail_pending(uint32_t comm) const;

 private:
  struct Pending {
    std::string_view name;
    int32_t root = -1;
    Bytes bytes = CollSignature::kAny;
    Bytes bytes2 = CollSignature::kAny;
    int32_t first = 0;       // the first member to enter, its position and collective choice
    uint8_t choice = 0;
    uint64_t position = 0;
    int32_t counts_from = -1;  // the member whose counts are `counts` (-1: none yet)
    uint64_t counts_position = 0;
    int arrived = 0;
    int members = 0;
    std::vector<Bytes> counts;  // v-collectives: the stated per-member sizes
    std::vector<Bytes> own;     // v-collectives: members' own sizes seen before any counts
  };

  [[noreturn]] void mismatch(std::string_view call, uint64_t seq, int32_t rank, uint64_t position,
                             const std::string& what, int32_t other, uint64_t other_position) const;
  void fail_lowest(bool any_comm, uint32_t comm) const;
  void merge(Bytes& field, Bytes value, const char* what, const Pending& p, uint64_t seq, int32_t rank,
             uint64_t position) const;
  void check_counts(Pending& p, uint64_t seq, int members, int32_t local, int32_t rank, uint64_t position,
                    const CollSignature& sig) const;

  Describe describe_;
  std::string_view call_;  // the call being entered (messages name it)
  // Lookups only, never iterated: the order of the map cannot reach any output.
  std::unordered_map<uint64_t, Pending> pending_;
};

}  // namespace simfab
