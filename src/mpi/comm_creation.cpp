#include "mpi/comm_creation.hpp"

#include <algorithm>
#include <string>

#include "mpi/call_error.hpp"
#include "mpi/group_builder.hpp"

namespace simfab::mpi {

const char* creation_call_name(CreationKind kind) {
  switch (kind) {
    case CreationKind::kDup: return "MPI_Comm_dup";
    case CreationKind::kSplit: return "MPI_Comm_split";
    case CreationKind::kCreate: return "MPI_Comm_create";
  }
  return "?";
}

PendingCreation::PendingCreation(CommId parent_id, uint32_t index, int32_t parent_size)
    : parent_id_(parent_id), index_(index), parent_size_(parent_size) {}

void PendingCreation::fail(const std::string& detail) const {
  throw MpiCallError(creation_call_name(kind_), detail + " (creation #" + std::to_string(index_) +
                                                    " on communicator " + std::to_string(parent_id_) + ")");
}

CommId PendingCreation::check_id(int32_t local, CommId id, IdGiver& expected) const {
  if (id < 0)
    fail("rank " + std::to_string(local) + " gets a communicator but gives id " + std::to_string(id) +
         " (ids are >= 0)");
  if (expected.id == kCommNull) {
    expected = {id, local};
  } else if (expected.id != id) {
    fail("rank " + std::to_string(local) + " gives id " + std::to_string(id) + " to the new communicator, rank " +
         std::to_string(expected.local) + " gave " + std::to_string(expected.id));
  }
  return id;
}

CommId PendingCreation::arrive(const Group& parent, int32_t local, const CreationArgs& args) {
  SIMFAB_CHECK(local >= 0 && local < parent_size_ && arrived_ < parent_size_, "bad creation arrival");
  if (arrived_ == 0) {
    kind_ = args.kind;
    first_local_ = local;
    if (kind_ == CreationKind::kSplit) split_.assign(static_cast<size_t>(parent_size_), SplitEntry{kUndefined, 0});
  } else if (args.kind != kind_) {
    throw MpiCallError(creation_call_name(args.kind),
                       "rank " + std::to_string(local) + " calls " + creation_call_name(args.kind) + " where rank " +
                           std::to_string(first_local_) + " called " + creation_call_name(kind_) + " (creation #" +
                           std::to_string(index_) + " on communicator " + std::to_string(parent_id_) + ")");
  }
  ++arrived_;
  switch (kind_) {
    case CreationKind::kDup: return check_id(local, args.new_id, id_);
    case CreationKind::kSplit: return arrive_split(local, args);
    case CreationKind::kCreate: return arrive_create(parent, local, args);
  }
  return kCommNull;
}

CommId PendingCreation::arrive_split(int32_t local, const CreationArgs& args) {
  const int32_t color = args.color;
  if (color < 0 && color != kUndefined)
    fail("rank " + std::to_string(local) + " gives colour " + std::to_string(color) +
         " (colours are >= 0, or MPI_UNDEFINED)");
  split_[static_cast<size_t>(local)] = {color, args.key};
  if (color == kUndefined) return kCommNull;
  auto [it, fresh] = color_id_.try_emplace(color, IdGiver{kCommNull, local});
  const CommId id = check_id(local, args.new_id, it->second);
  if (fresh) {
    auto [other, added] = id_color_.try_emplace(id, color);
    if (!added)
      fail("colours " + std::to_string(other->second) + " and " + std::to_string(color) + " both give id " +
           std::to_string(id) + " (rank " + std::to_string(color_id_.at(other->second).local) + " and rank " +
           std::to_string(local) + ")");
  }
  return id;
}

void PendingCreation::check_same_group(const Group& parent, int32_t local, std::span<const int32_t> ranks) const {
  const std::string who = "rank " + std::to_string(local) + " passes a group that differs from rank " +
                          std::to_string(first_local_) + "'s";
  if (static_cast<int64_t>(ranks.size()) != create_group_.size())
    fail(who + " (" + std::to_string(ranks.size()) + " ranks, not " + std::to_string(create_group_.size()) + ")");
  for (size_t i = 0; i < ranks.size(); ++i) {
    const int32_t r = ranks[i];
    const int32_t expected = parent.local_rank(create_group_.world_rank(static_cast<int32_t>(i)));
    if (r != expected)
      fail(who + " (position " + std::to_string(i) + ": rank " + std::to_string(r) + ", not " +
           std::to_string(expected) + ")");
  }
}

CommId PendingCreation::arrive_create(const Group& parent, int32_t local, const CreationArgs& args) {
  if (arrived_ == 1) {
    try {
      create_group_ = parent.incl(args.group);
    } catch (const MpiCallError& e) {
      fail("rank " + std::to_string(local) + "'s group: " + e.detail());
    }
  } else {
    check_same_group(parent, local, args.group);
  }
  if (!create_group_.contains(parent.world_rank(local))) return kCommNull;
  return check_id(local, args.new_id, id_);
}

size_t PendingCreation::memory_bytes() const {
  constexpr size_t kMapNode = 4 * sizeof(void*) + 16;  // red-black node plus an entry
  return sizeof(*this) + split_.capacity() * sizeof(SplitEntry) + create_group_.memory_bytes() +
         (color_id_.size() + id_color_.size()) * kMapNode;
}

std::vector<NewComm> PendingCreation::build(const Group& parent) const {
  SIMFAB_CHECK(complete(), "building an incomplete creation");
  std::vector<NewComm> out;
  switch (kind_) {
    case CreationKind::kDup:
      out.push_back({id_.id, parent});
      break;
    case CreationKind::kCreate:
      if (id_.id != kCommNull) out.push_back({id_.id, create_group_});
      break;
    case CreationKind::kSplit: {
      std::vector<int32_t> order;
      order.reserve(split_.size());
      for (int32_t i = 0; i < parent_size_; ++i)
        if (split_[static_cast<size_t>(i)].color != kUndefined) order.push_back(i);
      std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        const SplitEntry& x = split_[static_cast<size_t>(a)];
        const SplitEntry& y = split_[static_cast<size_t>(b)];
        if (x.color != y.color) return x.color < y.color;
        if (x.key != y.key) return x.key < y.key;
        return a < b;
      });
      GroupBuilder b;
      for (size_t i = 0; i < order.size(); ++i) {
        b.push(parent.world_rank(order[i]));
        const int32_t color = split_[static_cast<size_t>(order[i])].color;
        if (i + 1 == order.size() || split_[static_cast<size_t>(order[i + 1])].color != color)
          out.push_back({color_id_.at(color).id, *b.build()});
      }
      break;
    }
  }
  return out;
}

}  // namespace simfab::mpi
