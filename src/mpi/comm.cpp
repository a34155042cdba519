#include "mpi/comm.hpp"

#include <string>

#include "mpi/call_error.hpp"

namespace simfab::mpi {

CommTable::CommTable(int32_t world_size) : world_size_(world_size) {
  SIMFAB_CHECK(world_size >= 1, "a world needs at least one rank");
  Comm& w = comms_[kCommWorld];
  w.id_ = kCommWorld;
  w.context_pair_ = 0;
  w.group_ = Group::world(world_size);
}

const Comm* CommTable::find(CommId id) const {
  auto it = comms_.find(id);
  return it == comms_.end() ? nullptr : &it->second;
}

const Comm& CommTable::at(CommId id, const char* call) const {
  const Comm* c = find(id);
  if (!c) throw MpiCallError(call, "communicator " + std::to_string(id) + " does not exist");
  return *c;
}

Comm& CommTable::at_mut(CommId id, const char* call) { return const_cast<Comm&>(at(id, call)); }

Comm::MemberCounters& CommTable::counters(Comm& c, int32_t local, const char* call) {
  if (local < 0 || local >= c.size())
    throw MpiCallError(call, "rank " + std::to_string(local) + " is not a rank of communicator " +
                                 std::to_string(c.id_) + " (size " + std::to_string(c.size()) + ")");
  if (c.counters_.empty()) c.counters_.resize(static_cast<size_t>(c.size()));
  return c.counters_[static_cast<size_t>(local)];
}

uint32_t CommTable::acquire_context_pair() {
  if (!free_pairs_.empty()) {
    const uint32_t k = free_pairs_.top();
    free_pairs_.pop();
    return k;
  }
  SIMFAB_CHECK(next_pair_ < (1u << 31), "more than 2^31 communicators alive");
  return next_pair_++;
}

Comparison CommTable::compare(CommId a, CommId b) const {
  const Comm& x = at(a, "MPI_Comm_compare");
  const Comm& y = at(b, "MPI_Comm_compare");
  if (a == b) return Comparison::kIdent;
  const Comparison g = mpi::compare(x.group(), y.group());
  return g == Comparison::kIdent ? Comparison::kCongruent : g;
}

int32_t CommTable::next_collective_tag(CommId comm, int32_t local) {
  Comm::MemberCounters& m = counters(at_mut(comm, "collective"), local, "collective");
  return static_cast<int32_t>(m.collectives++ & 0x7fffffffu);
}

CreationTicket CommTable::arrive(CommId parent, int32_t parent_local, const CreationArgs& args) {
  const char* call = creation_call_name(args.kind);
  Comm& p = at_mut(parent, call);
  Comm::MemberCounters& m = counters(p, parent_local, call);
  if (!p.freed_.empty() && p.freed_[static_cast<size_t>(parent_local)])
    throw MpiCallError(call, "rank " + std::to_string(parent_local) + " has freed communicator " +
                                 std::to_string(parent));
  CreationTicket t;
  t.creation = m.creations++;
  const uint32_t slot = t.creation - p.creations_completed_;
  while (p.pending_.size() <= slot)
    p.pending_.push_back(std::make_unique<PendingCreation>(
        parent, p.creations_completed_ + static_cast<uint32_t>(p.pending_.size()), p.size()));
  PendingCreation& pc = *p.pending_[slot];
  t.new_comm = pc.arrive(p.group_, parent_local, args);
  if (!pc.complete()) return t;

  // Members' k-th calls come after their (k-1)-th: creations complete in order.
  SIMFAB_CHECK(slot == 0, "creation completed out of order");
  std::vector<NewComm> made = pc.build(p.group_);
  for (const NewComm& n : made)
    if (find(n.id))
      throw MpiCallError(call, "communicator id " + std::to_string(n.id) + " is already in use (creation #" +
                                   std::to_string(t.creation) + " on communicator " + std::to_string(parent) + ")");
  for (NewComm& n : made) {
    Comm& c = comms_[n.id];
    c.id_ = n.id;
    c.context_pair_ = acquire_context_pair();
    c.group_ = std::move(n.group);
  }
  // `p` is still valid: std::map never moves its nodes.
  p.pending_.pop_front();
  ++p.creations_completed_;
  t.completed = true;
  return t;
}

const Comm& CommTable::adopt(CommId id, const Group& group) {
  if (const Comm* live = find(id)) return *live;
  Comm& c = comms_[id];
  c.id_ = id;
  c.context_pair_ = acquire_context_pair();
  c.group_ = group;
  return c;
}

uint32_t CommTable::creations_completed(CommId parent) const {
  return at(parent, "creation query").creations_completed_;
}

bool CommTable::free(CommId comm, int32_t local) {
  if (comm == kCommWorld) throw MpiCallError("MPI_Comm_free", "MPI_COMM_WORLD cannot be freed");
  Comm& c = at_mut(comm, "MPI_Comm_free");
  counters(c, local, "MPI_Comm_free");
  if (c.freed_.empty()) c.freed_.resize(static_cast<size_t>(c.size()));
  if (c.freed_[static_cast<size_t>(local)])
    throw MpiCallError("MPI_Comm_free", "rank " + std::to_string(local) + " frees communicator " +
                                            std::to_string(comm) + " twice");
  c.freed_[static_cast<size_t>(local)] = true;
  if (++c.freed_count_ < c.size()) return false;
  if (!c.pending_.empty())
    throw MpiCallError("MPI_Comm_free", "communicator " + std::to_string(comm) +
                                            " is freed by all its members while creation #" +
                                            std::to_string(c.creations_completed_) +
                                            " on it is incomplete (some members never called it)");
  free_pairs_.push(c.context_pair_);
  comms_.erase(comm);
  return true;
}

bool CommTable::freed_by(CommId comm, int32_t local) const {
  const Comm* c = find(comm);
  return c && !c->freed_.empty() && c->freed_[static_cast<size_t>(local)];
}

size_t CommTable::memory_bytes() const {
  constexpr size_t kMapNode = 4 * sizeof(void*);  // red-black node overhead (libstdc++: 32 B)
  size_t bytes = sizeof(*this) + free_pairs_.size() * sizeof(uint32_t);
  for (const auto& [id, c] : comms_) {
    bytes += kMapNode + sizeof(id) + sizeof(Comm) + c.group_.memory_bytes();
    bytes += c.counters_.capacity() * sizeof(Comm::MemberCounters) + c.freed_.capacity() / 8;
    for (const auto& pc : c.pending_) bytes += pc->memory_bytes();
  }
  return bytes;
}

}  // namespace simfab::mpi
