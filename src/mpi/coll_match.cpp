// CollectiveMatcher: see coll_match.hpp.
#include "mpi/coll_match.hpp"

#include "core/error.hpp"

namespace simfab {

namespace {

std::string size_text(Bytes b) { return std::to_string(b) + " B"; }

}  // namespace

void CollectiveMatcher::mismatch(std::string_view call, uint64_t seq, int32_t rank,
                                 uint64_t position, const std::string& what, int32_t other,
                                 uint64_t other_position) const {
  throw InputError(SourceLoc{}, "mismatched collective: " + describe_(rank, position) + ": rank " + std::to_string(rank) +
                                    " calls " + std::string(call.empty() ? "?" : call) + " as collective #" +
                                    std::to_string(seq + 1) + " of its communicator, but " + what + " (rank " +
                                    std::to_string(other) + " at " + describe_(other, other_position) +
                                    "); every member must call the same collectives in the same order with "
                                    "matching arguments");
}

void CollectiveMatcher::merge(Bytes& field, Bytes value, const char* what, const Pending& p, uint64_t seq,
                              int32_t rank, uint64_t position) const {
  if (value == CollSignature::kAny) return;
  if (field == CollSignature::kAny) {
    field = value;
    return;
  }
  if (field != value)
    mismatch(call_, seq, rank, position,
             std::string("its ") + what + " is " + size_text(value) + " where an earlier member's is " + size_text(field),
             p.first, p.position);
}

void CollectiveMatcher::check_counts(Pending& p, uint64_t seq, int members, int32_t local, int32_t rank,
                                     uint64_t position, const CollSignature& sig) const {
  const auto n = static_cast<size_t>(members);
  if (!sig.counts.empty()) {
    SIMFAB_CHECK(sig.counts.size() == n, "CollectiveMatcher: counts must have one entry per member");
    if (p.counts_from < 0) {
      p.counts.assign(sig.counts.begin(), sig.counts.end());
      p.counts_from = rank;
      p.counts_position = position;
      for (size_t i = 0; i < p.own.size(); ++i)
        if (p.own[i] != CollSignature::kAny && p.own[i] != p.counts[i])
          mismatch(call_, seq, rank, position,
                   "it expects " + size_text(p.counts[i]) + " from rank " + std::to_string(i) + ", which gives " +
                       size_text(p.own[i]),
                   static_cast<int32_t>(i), p.position);
      p.own.clear();
      p.own.shrink_to_fit();
    } else {
      for (size_t i = 0; i < n; ++i)
        if (sig.counts[i] != p.counts[i])
          mismatch(call_, seq, rank, position,
                   "its count for rank " + std::to_string(i) + " is " + size_text(sig.counts[i]) + " where rank " +
                       std::to_string(p.counts_from) + " says " + size_text(p.counts[i]),
                   p.counts_from, p.counts_position);
    }
  }
  if (sig.own == CollSignature::kAny) return;
  const auto me = static_cast<size_t>(local);
  if (p.counts_from >= 0) {
    if (p.counts[me] != sig.own)
      mismatch(call_, seq, rank, position,
               "it gives " + size_text(sig.own) + " where rank " + std::to_string(p.counts_from) + " expects " +
                   size_text(p.counts[me]) + " from it",
               p.counts_from, p.counts_position);
    return;
  }
  if (p.own.empty()) p.own.assign(n, CollSignature::kAny);
  p.own[me] = sig.own;
}

uint8_t CollectiveMatcher::enter(uint32_t comm, uint64_t seq, int members, int32_t local, int32_t rank,
                                 uint64_t position, const CollSignature& sig, uint8_t choice) {
  if (members <= 1) return choice;
  call_ = sig.name;
  const uint64_t key = (uint64_t{comm} << 32) | (seq & 0xffffffffu);
  auto [it, fresh] = pending_.try_emplace(key);
  Pending& p = it->second;
  if (fresh) {
    p.name = sig.name;
    p.root = sig.root;
    p.first = rank;
    p.position = position;
    p.choice = choice;
  } else {
    if (sig.name != p.name)
      mismatch(call_, seq, rank, position, "rank " + std::to_string(p.first) + " called " + std::string(p.name) + " there",
               p.first, p.position);
    if (sig.root != p.root)
      mismatch(call_, seq, rank, position,
               "its root is " + std::to_string(sig.root) + " where rank " + std::to_string(p.first) + "'s is " +
                   std::to_string(p.root),
               p.first, p.position);
  }
  merge(p.bytes, sig.bytes, "size", p, seq, rank, position);
  merge(p.bytes2, sig.bytes2, "second size", p, seq, rank, position);
  if (!sig.counts.empty() || sig.own != CollSignature::kAny) check_counts(p, seq, members, local, rank, position, sig);
  p.members = members;
  const uint8_t first_choice = p.choice;
  if (++p.arrived == members) pending_.erase(it);
  return first_choice;
}

void CollectiveMatcher::fail_lowest(bool any_comm, uint32_t comm) const {
  const Pending* lowest = nullptr;
  uint64_t lowest_key = 0;
  for (const auto& [key, p] : pending_) {  // the minimum: independent of the map's order
    if (!any_comm && (key >> 32) != comm) continue;
    if (!lowest || key < lowest_key) {
      lowest = &p;
      lowest_key = key;
    }
  }
  if (!lowest) return;
  throw InputError(SourceLoc{}, "collective never completed by all members: " + describe_(lowest->first, lowest->position) +
                                    ": rank " + std::to_string(lowest->first) + " calls " + std::string(lowest->name) +
                                    " as collective #" + std::to_string((lowest_key & 0xffffffffu) + 1) +
                                    " of communicator " + std::to_string(lowest_key >> 32) + ", but only " +
                                    std::to_string(lowest->arrived) + " of its " + std::to_string(lowest->members) +
                                    " members ever call it" +
                                    (any_comm ? std::string(" before the run ends") : " before they all free it") +
                                    "; every member must call every collective of its communicator");
}

void CollectiveMatcher::fail_pending() const { fail_lowest(true, 0); }

void CollectiveMatcher::fail_pending(uint32_t comm) const { fail_lowest(false, comm); }

}  // namespace simfab
