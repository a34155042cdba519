#include "mpi/group_builder.hpp"

#include <algorithm>
#include <numeric>

namespace simfab::mpi {

void GroupBuilder::push(RankId world) {
  SIMFAB_CHECK(world >= 0, "negative world rank pushed to a group");
  SIMFAB_CHECK(size_ < INT32_MAX, "group larger than 2^31-1 members");
  if (!ranks_.empty()) {
    ranks_.push_back(world);
  } else if (size_ == 0) {
    first_ = world;
  } else if (size_ == 1 && world != first_) {
    stride_ = world - first_;  // both >= 0: no overflow
  } else if (size_ == 1 || static_cast<int64_t>(first_) + int64_t{size_} * stride_ != world) {
    // The progression breaks (or a rank repeats the first): materialise what it held.
    ranks_.reserve(static_cast<size_t>(size_) + 1);
    for (int32_t i = 0; i < size_; ++i) ranks_.push_back(first_ + i * stride_);
    ranks_.push_back(world);
  }
  ++size_;
}

std::optional<Group> GroupBuilder::build(RankId* duplicate) {
  Group g;
  g.size_ = size_;
  if (ranks_.empty()) {
    g.first_ = size_ == 0 ? 0 : first_;
    g.stride_ = size_ <= 1 ? 1 : stride_;
    *this = GroupBuilder{};
    return g;
  }
  auto r = std::make_shared<Group::Ranks>();
  r->world = std::move(ranks_);
  ranks_.clear();
  r->by_world.resize(r->world.size());
  std::iota(r->by_world.begin(), r->by_world.end(), 0);
  const std::vector<RankId>& w = r->world;
  std::sort(r->by_world.begin(), r->by_world.end(), [&](int32_t x, int32_t y) {
    const RankId wx = w[static_cast<size_t>(x)];
    const RankId wy = w[static_cast<size_t>(y)];
    return wx != wy ? wx < wy : x < y;
  });
  // Equal world ranks are adjacent, in push order: the earliest second occurrence is the one the
  // caller's arguments repeated first.
  int32_t first_repeat = INT32_MAX;
  for (size_t i = 1; i < r->by_world.size(); ++i) {
    const int32_t cur = r->by_world[i];
    if (w[static_cast<size_t>(cur)] == w[static_cast<size_t>(r->by_world[i - 1])])
      first_repeat = std::min(first_repeat, cur);
  }
  *this = GroupBuilder{};
  if (first_repeat != INT32_MAX) {
    if (duplicate) *duplicate = w[static_cast<size_t>(first_repeat)];
    return std::nullopt;
  }
  g.ranks_ = std::move(r);
  return g;
}

}  // namespace simfab::mpi
