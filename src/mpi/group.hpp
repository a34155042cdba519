// Group: an MPI process group (MPI-3.1 §6.3), an ordered list of distinct world ranks. Local rank
// i of the group is its i-th member; world_rank(i) and local_rank(w) translate both ways.
//
// Representation (the two forms are never mixed up: a group is stored compactly iff its members
// form an arithmetic progression, so two groups are identical iff their stored forms are equal):
//   compact   first, stride, size: member i is first + i * stride (stride != 0; stride = 1 when
//             size <= 1). The world group (0..N-1), any contiguous range, every group a single
//             range triplet selects from a compact group, and every split colour that takes every
//             k-th rank are compact: 12 B whatever the size, O(1) translation both ways.
//   general   the members in order plus an index (local ranks sorted by world rank), shared
//             read-only between copies: 8 B per member, world_rank O(1), local_rank O(log n).
//             Copying a Group is O(1) either way (the ranks are shared, never mutated).
// Every constructor below goes through GroupBuilder, which keeps the compact form while the
// members pushed continue an arithmetic progression and materialises the list only when they stop.
//
// Operations (MPI-3.1 §6.3.2), each O(size of the inputs and result), plus O(log n) per lookup in a
// general group:
//   incl(ranks)              the members with these local ranks, in that order
//   excl(ranks)              the members without these local ranks, in group order
//   range_incl(triplets)     incl of the ranks first, first+stride, ..., first+floor((last-first)/
//                            stride)*stride of each triplet in turn (strides may be negative)
//   range_excl(triplets)     excl of the same ranks
//   group_union(a, b)        all of a, then the members of b not in a, in b's order
//   group_intersection(a, b) the members of a that are in b, in a's order
//   group_difference(a, b)   the members of a not in b, in a's order
//   compare(a, b)            kIdent (same members, same order), kSimilar (same members, another
//                            order) or kUnequal
//   translate_ranks(a, r, b) the local rank in b of each a-local rank in r (kUndefined when not a
//                            member of b; kProcNull maps to kProcNull)
// Invalid arguments (a rank outside the group, a duplicate, a zero stride, a triplet whose last
// rank is outside the group or that runs away from its last rank) throw MpiCallError naming the
// MPI call. MPICH and Open MPI reject such triplets too; the standard only says the computed ranks
// must be valid and distinct.
// Thread-safety: a Group is immutable after construction; copies may be read concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/sim_time.hpp"
#include "mpi/op.hpp"

namespace simfab::mpi {

// MPI_UNDEFINED (the value MPICH and Open MPI use): "not a member", "no colour".
inline constexpr int32_t kUndefined = -32766;
// MPI_PROC_NULL as accepted by translate_ranks: simfab's one value (mpi/op.hpp).
using simfab::kProcNull;

// The results of MPI_Group_compare / MPI_Comm_compare (kCongruent only for communicators).
enum class Comparison : uint8_t { kIdent, kCongruent, kSimilar, kUnequal };
const char* comparison_name(Comparison c);

// One MPI_Group_range_incl/excl triplet.
struct RankRange {
  int32_t first = 0;
  int32_t last = 0;
  int32_t stride = 1;
};

class Group {
 public:
  // The empty group (MPI_GROUP_EMPTY).
  Group() = default;
  // World ranks 0..n-1 (the group of MPI_COMM_WORLD). REQUIRES: n >= 0.
  static Group world(int32_t n);
  // first, first + stride, ..., size members. REQUIRES: size >= 0, stride != 0 when size > 1, every
  // member >= 0.
  static Group strided(RankId first, int32_t stride, int32_t size);
  // The given world ranks in that order; throws MpiCallError(call) on a negative or repeated rank.
  static Group from_world_ranks(std::span<const RankId> ranks, std::string_view call);

  int32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // REQUIRES: 0 <= local < size() (the caller validates ranks read from input against size()).
  RankId world_rank(int32_t local) const {
    SIMFAB_CHECK(local >= 0 && local < size_, "group rank out of range");
    if (!ranks_) return first_ + local * stride_;
    return ranks_->world[static_cast<size_t>(local)];
  }
  // The local rank of world rank `world`, or kUndefined when it is not a member.
  int32_t local_rank(RankId world) const;
  bool contains(RankId world) const { return local_rank(world) != kUndefined; }
  // All members in order (materialises: O(size) memory; for tests and small groups).
  std::vector<RankId> world_ranks() const;

  Group incl(std::span<const int32_t> ranks) const;
  Group excl(std::span<const int32_t> ranks) const;
  Group range_incl(std::span<const RankRange> ranges) const;
  Group range_excl(std::span<const RankRange> ranges) const;

  // Stored compactly (no per-member memory)?
  bool is_compact() const { return !ranks_; }
  // Heap bytes this group refers to (0 when compact; shared storage is counted by every copy).
  size_t memory_bytes() const;
  // Same members in the same order.
  friend bool operator==(const Group& a, const Group& b);

 private:
  friend class GroupBuilder;
  struct Ranks {
    std::vector<RankId> world;     // member i's world rank
    std::vector<int32_t> by_world;  // local ranks sorted by world rank
  };

  int32_t size_ = 0;
  RankId first_ = 0;
  int32_t stride_ = 1;
  std::shared_ptr<const Ranks> ranks_;  // null: compact
};

Group group_union(const Group& a, const Group& b);
Group group_intersection(const Group& a, const Group& b);
Group group_difference(const Group& a, const Group& b);
// kIdent, kSimilar or kUnequal.
Comparison compare(const Group& a, const Group& b);
// MPI_Group_translate_ranks; throws MpiCallError when a rank is neither a rank of `a` nor kProcNull.
std::vector<int32_t> translate_ranks(const Group& a, std::span<const int32_t> ranks, const Group& b);

}  // namespace simfab::mpi
