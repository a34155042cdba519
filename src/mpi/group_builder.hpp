// GroupBuilder: makes a Group from world ranks pushed one by one, in the compact form as long as
// they form an arithmetic progression (see group.hpp), materialising the member list only at the
// first push that breaks the progression.
//
// So building a contiguous or strided group costs O(1) memory however many members are pushed; a
// general group costs its 8 B per member once. build() sorts the index (O(n log n)) and reports a
// repeated world rank instead of building an invalid group.
// Thread-safety: none (one builder per construction).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "mpi/group.hpp"

namespace simfab::mpi {

class GroupBuilder {
 public:
  // REQUIRES: world >= 0.
  void push(RankId world);
  int32_t size() const { return size_; }
  // The group of the ranks pushed, or nullopt when some world rank was pushed twice; then
  // `*duplicate` (when given) is the repeated rank whose second push came first. The builder is
  // empty again afterwards.
  std::optional<Group> build(RankId* duplicate = nullptr);

 private:
  int32_t size_ = 0;
  RankId first_ = 0;
  int32_t stride_ = 1;
  std::vector<RankId> ranks_;  // non-empty once the progression broke
};

}  // namespace simfab::mpi
