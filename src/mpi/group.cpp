#include "mpi/group.hpp"

#include <algorithm>
#include <string>

#include "mpi/call_error.hpp"
#include "mpi/group_builder.hpp"

namespace simfab::mpi {
namespace {

std::string triplet_text(const RankRange& r) {
  return "(" + std::to_string(r.first) + ", " + std::to_string(r.last) + ", " + std::to_string(r.stride) + ")";
}

void check_rank(int32_t rank, int32_t size, const char* call) {
  if (rank < 0 || rank >= size)
    throw MpiCallError(call, "rank " + std::to_string(rank) + " is not a rank of the group (size " +
                                 std::to_string(size) + ")");
}

// Calls f(rank) for each rank triplet `r` selects from a group of `size`, after checking it.
template <class F>
void for_each_in_range(const RankRange& r, int32_t size, const char* call, F&& f) {
  if (r.stride == 0) throw MpiCallError(call, "triplet " + triplet_text(r) + " has stride 0");
  check_rank(r.first, size, call);
  check_rank(r.last, size, call);
  if ((r.first < r.last && r.stride < 0) || (r.first > r.last && r.stride > 0))
    throw MpiCallError(call, "triplet " + triplet_text(r) + " runs away from its last rank (the stride's sign "
                             "must be that of last - first)");
  const int32_t count = (r.last - r.first) / r.stride + 1;  // same signs: truncation = floor
  for (int32_t i = 0; i < count; ++i) f(r.first + i * r.stride);
}

Group build_or_throw(GroupBuilder& b, const Group& source, const char* call) {
  RankId dup = 0;
  std::optional<Group> g = b.build(&dup);
  if (!g) throw MpiCallError(call, "rank " + std::to_string(source.local_rank(dup)) + " is given more than once");
  return std::move(*g);
}

// The members of `g` except the local ranks in `ranks` (validated against g and `call`).
Group excl_ranks(const Group& g, std::vector<int32_t> ranks, const char* call) {
  std::sort(ranks.begin(), ranks.end());
  for (size_t i = 1; i < ranks.size(); ++i)
    if (ranks[i] == ranks[i - 1])
      throw MpiCallError(call, "rank " + std::to_string(ranks[i]) + " is given more than once");
  GroupBuilder b;
  size_t next = 0;
  for (int32_t i = 0; i < g.size(); ++i) {
    if (next < ranks.size() && ranks[next] == i) {
      ++next;
      continue;
    }
    b.push(g.world_rank(i));
  }
  return *b.build();
}

}  // namespace

const char* comparison_name(Comparison c) {
  switch (c) {
    case Comparison::kIdent: return "MPI_IDENT";
    case Comparison::kCongruent: return "MPI_CONGRUENT";
    case Comparison::kSimilar: return "MPI_SIMILAR";
    case Comparison::kUnequal: return "MPI_UNEQUAL";
  }
  return "?";
}

Group Group::world(int32_t n) { return strided(0, 1, n); }

Group Group::strided(RankId first, int32_t stride, int32_t size) {
  SIMFAB_CHECK(size >= 0, "negative group size");
  SIMFAB_CHECK(size <= 1 || stride != 0, "zero stride in a group of several members");
  const int64_t last = int64_t{first} + int64_t{size > 0 ? size - 1 : 0} * stride;
  SIMFAB_CHECK(size == 0 || (first >= 0 && last >= 0 && last <= INT32_MAX), "group member out of range");
  Group g;
  g.size_ = size;
  g.first_ = size == 0 ? 0 : first;
  g.stride_ = size <= 1 ? 1 : stride;
  return g;
}

Group Group::from_world_ranks(std::span<const RankId> ranks, std::string_view call) {
  const std::string name(call);
  GroupBuilder b;
  for (RankId r : ranks) {
    if (r < 0) throw MpiCallError(name, "world rank " + std::to_string(r) + " is negative");
    b.push(r);
  }
  RankId dup = 0;
  std::optional<Group> g = b.build(&dup);
  if (!g) throw MpiCallError(name, "world rank " + std::to_string(dup) + " is given more than once");
  return std::move(*g);
}

int32_t Group::local_rank(RankId world) const {
  if (!ranks_) {
    const int64_t d = int64_t{world} - first_;
    if (d % stride_ != 0) return kUndefined;
    const int64_t i = d / stride_;
    return i >= 0 && i < size_ ? static_cast<int32_t>(i) : kUndefined;
  }
  const std::vector<RankId>& w = ranks_->world;
  auto it = std::lower_bound(ranks_->by_world.begin(), ranks_->by_world.end(), world,
                             [&](int32_t local, RankId x) { return w[static_cast<size_t>(local)] < x; });
  if (it == ranks_->by_world.end() || w[static_cast<size_t>(*it)] != world) return kUndefined;
  return *it;
}

std::vector<RankId> Group::world_ranks() const {
  if (ranks_) return ranks_->world;
  std::vector<RankId> out(static_cast<size_t>(size_));
  for (int32_t i = 0; i < size_; ++i) out[static_cast<size_t>(i)] = world_rank(i);
  return out;
}

Group Group::incl(std::span<const int32_t> ranks) const {
  GroupBuilder b;
  for (int32_t r : ranks) {
    check_rank(r, size_, "MPI_Group_incl");
    b.push(world_rank(r));
  }
  return build_or_throw(b, *this, "MPI_Group_incl");
}

Group Group::excl(std::span<const int32_t> ranks) const {
  for (int32_t r : ranks) check_rank(r, size_, "MPI_Group_excl");
  return excl_ranks(*this, std::vector<int32_t>(ranks.begin(), ranks.end()), "MPI_Group_excl");
}

Group Group::range_incl(std::span<const RankRange> ranges) const {
  GroupBuilder b;
  for (const RankRange& r : ranges)
    for_each_in_range(r, size_, "MPI_Group_range_incl", [&](int32_t local) { b.push(world_rank(local)); });
  return build_or_throw(b, *this, "MPI_Group_range_incl");
}

Group Group::range_excl(std::span<const RankRange> ranges) const {
  std::vector<int32_t> ranks;
  for (const RankRange& r : ranges)
    for_each_in_range(r, size_, "MPI_Group_range_excl", [&](int32_t local) { ranks.push_back(local); });
  return excl_ranks(*this, std::move(ranks), "MPI_Group_range_excl");
}

size_t Group::memory_bytes() const {
  if (!ranks_) return 0;
  return sizeof(Ranks) + (ranks_->world.capacity() + ranks_->by_world.capacity()) * sizeof(int32_t);
}

bool operator==(const Group& a, const Group& b) {
  if (a.size_ != b.size_) return false;
  if (!a.ranks_ && !b.ranks_) return a.first_ == b.first_ && a.stride_ == b.stride_;
  if (!a.ranks_ || !b.ranks_) return false;  // a general group is never a progression
  return a.ranks_ == b.ranks_ || a.ranks_->world == b.ranks_->world;
}

Group group_union(const Group& a, const Group& b) {
  if (b.empty()) return a;
  if (a.empty()) return b;
  GroupBuilder out;
  for (int32_t i = 0; i < a.size(); ++i) out.push(a.world_rank(i));
  for (int32_t i = 0; i < b.size(); ++i)
    if (!a.contains(b.world_rank(i))) out.push(b.world_rank(i));
  return *out.build();
}

Group group_intersection(const Group& a, const Group& b) {
  GroupBuilder out;
  for (int32_t i = 0; i < a.size(); ++i)
    if (b.contains(a.world_rank(i))) out.push(a.world_rank(i));
  return *out.build();
}

Group group_difference(const Group& a, const Group& b) {
  if (b.empty()) return a;
  GroupBuilder out;
  for (int32_t i = 0; i < a.size(); ++i)
    if (!b.contains(a.world_rank(i))) out.push(a.world_rank(i));
  return *out.build();
}

Comparison compare(const Group& a, const Group& b) {
  if (a.size() != b.size()) return Comparison::kUnequal;
  if (a == b) return Comparison::kIdent;
  for (int32_t i = 0; i < a.size(); ++i)
    if (!b.contains(a.world_rank(i))) return Comparison::kUnequal;
  return Comparison::kSimilar;
}

std::vector<int32_t> translate_ranks(const Group& a, std::span<const int32_t> ranks, const Group& b) {
  std::vector<int32_t> out;
  out.reserve(ranks.size());
  for (int32_t r : ranks) {
    if (r == kProcNull) {
      out.push_back(kProcNull);
      continue;
    }
    check_rank(r, a.size(), "MPI_Group_translate_ranks");
    out.push_back(b.local_rank(a.world_rank(r)));
  }
  return out;
}

}  // namespace simfab::mpi
