// Decoding OTF2's collective byte totals into capture counts (see otf2_sizes.hpp).
#include "otf2/otf2_sizes.hpp"

#include <map>

namespace simfab {

namespace {

bool is_v(CapFunc f) {
  return f == CapFunc::kGatherv || f == CapFunc::kScatterv || f == CapFunc::kAllgatherv ||
         f == CapFunc::kReduceScatter || f == CapFunc::kAlltoallv;
}

// Appends a list to rank rc's count pool; returns its index.
uint32_t add_list(RankCapture& rc, const std::vector<uint64_t>& list) {
  const auto at = static_cast<uint32_t>(rc.counts.size());
  rc.counts.push_back(list.size());
  rc.counts.insert(rc.counts.end(), list.begin(), list.end());
  return at;
}

// Peer j's share of `total` split evenly over n peers.
uint64_t share(uint64_t total, uint64_t n, uint64_t j) { return total / n + (j < total % n ? 1 : 0); }

// The block of a non-v collective from this rank's own totals.
uint64_t own_block(const CapRecord& rec) {
  const uint64_t sent = rec.s_count, received = rec.r_count;
  const auto n = static_cast<uint64_t>(rec.comm.size);
  const bool root = rec.comm.rank == rec.root;
  switch (rec.func) {
    case CapFunc::kBcast: return root ? sent / n : received;
    case CapFunc::kReduce:
    case CapFunc::kGather: return sent > 0 || !root || n < 2 ? sent : received / (n - 1);
    case CapFunc::kScatter: return received > 0 || !root || n < 2 ? received : sent / (n - 1);
    case CapFunc::kScan: {
      const uint64_t sum = sent + received;
      return sum % (n + 1) == 0 ? sum / (n + 1) : block_of(sum, n - 1 == 0 ? 1 : n - 1);
    }
    case CapFunc::kExscan: return n < 2 ? 0 : (sent + received) / (n - 1);
    case CapFunc::kAllreduce:
    case CapFunc::kAllgather:
    case CapFunc::kAlltoall:
    case CapFunc::kReduceScatterBlock: return block_of(sent, n);
    default: return 0;
  }
}

// The lists of one v-collective: member m (local rank) is world rank world[m], its record index[m].
void fill_v(std::vector<RankCapture>& ranks, const std::vector<int32_t>& world,
            const std::vector<uint32_t>& index) {
  const size_t n = world.size();
  const auto rec = [&](size_t m) -> CapRecord& { return ranks[static_cast<size_t>(world[m])].records[index[m]]; };
  std::vector<uint64_t> sent(n), received(n);
  for (size_t m = 0; m < n; ++m) {
    sent[m] = rec(m).s_count;
    received[m] = rec(m).r_count;
  }
  const CapFunc f = rec(0).func;
  for (size_t m = 0; m < n; ++m) {
    CapRecord& r = rec(m);
    RankCapture& rc = ranks[static_cast<size_t>(world[m])];
    const auto root = static_cast<size_t>(r.root);
    std::vector<uint64_t> list(n, 0);
    switch (f) {
      case CapFunc::kGatherv: {
        r.s_count = sent[m];
        if (m != root) break;
        for (size_t i = 0; i < n; ++i) list[i] = sent[i];  // the root's own: 0 when in place
        r.r_counts = add_list(rc, list);
        break;
      }
      case CapFunc::kScatterv:
        r.r_count = received[m];
        if (m != root) break;
        for (size_t i = 0; i < n; ++i) list[i] = received[i];
        r.s_counts = add_list(rc, list);
        break;
      case CapFunc::kAllgatherv:
        for (size_t i = 0; i < n; ++i) list[i] = block_of(sent[i], n);
        r.s_count = list[m];
        r.r_counts = add_list(rc, list);
        break;
      case CapFunc::kReduceScatter:
        for (size_t i = 0; i < n; ++i) list[i] = block_of(received[i], n);
        r.r_count = list[m];
        r.r_counts = add_list(rc, list);
        break;
      default: {  // alltoallv
        for (size_t j = 0; j < n; ++j) list[j] = share(sent[m], n, j);
        r.s_counts = add_list(rc, list);
        for (size_t j = 0; j < n; ++j) list[j] = share(sent[j], n, m);
        r.r_counts = add_list(rc, list);
        break;
      }
    }
  }
}

}  // namespace

std::pair<uint64_t, uint64_t> scorep_totals(OTF2_CollectiveOp op, int32_t size, int32_t local, int32_t root_rank,
                                            uint64_t b, uint64_t b2) {
  const auto n = static_cast<uint64_t>(size > 1 ? size : 1);
  const auto me = static_cast<uint64_t>(local > 0 ? local : 0);
  const bool root = local == root_rank;
  switch (op) {
    case OTF2_COLLECTIVE_OP_BCAST: return root ? std::pair{n * b, b} : std::pair{uint64_t{0}, b};
    case OTF2_COLLECTIVE_OP_REDUCE: return {b, root ? n * b : 0};
    case OTF2_COLLECTIVE_OP_GATHER: return {b, root ? n * b2 : 0};
    case OTF2_COLLECTIVE_OP_SCATTER: return {root ? n * b : 0, b2};
    case OTF2_COLLECTIVE_OP_ALLREDUCE: return {n * b, n * b};
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLTOALL: return {n * b, n * b2};
    case OTF2_COLLECTIVE_OP_ALLGATHERV: return {n * b, b2};
    case OTF2_COLLECTIVE_OP_GATHERV:
    case OTF2_COLLECTIVE_OP_SCATTERV:
    case OTF2_COLLECTIVE_OP_ALLTOALLV: return {b, b2};
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: return {b, n * b2};
    case OTF2_COLLECTIVE_OP_SCAN: return {(n - me) * b, (me + 1) * b};
    case OTF2_COLLECTIVE_OP_EXSCAN: return {(n - me - 1) * b, me * b};
    default: return {0, 0};
  }
}

uint64_t block_of(uint64_t total, uint64_t n) {
  if (n == 0) return total;
  if (total % n == 0 || n == 1) return total / n;
  return total % (n - 1) == 0 ? total / (n - 1) : total / n;
}

void decode_collective_sizes(std::vector<RankCapture>& ranks,
                             const std::unordered_map<int64_t, std::vector<int32_t>>& members) {
  // Per communicator handle, per world rank: that rank's collective records in order.
  std::map<int64_t, std::map<int32_t, std::vector<uint32_t>>> colls;
  for (size_t w = 0; w < ranks.size(); ++w) {
    const RankCapture& rc = ranks[w];
    for (uint32_t i = 0; i < rc.records.size(); ++i) {
      const CapRecord& rec = rc.records[i];
      const CapClass cls = cap_class(rec.func);
      if (cls == CapClass::kCollective || cls == CapClass::kCreation)
        colls[rec.comm.handle][static_cast<int32_t>(w)].push_back(i);
    }
  }
  // v-collectives: across members; records left over get zero lists.
  for (const auto& [handle, by_rank] : colls) {
    auto mit = members.find(handle);
    if (mit == members.end()) continue;
    const std::vector<int32_t>& world = mit->second;
    size_t calls = SIZE_MAX;
    for (int32_t w : world) {
      auto it = by_rank.find(w);
      calls = std::min(calls, it == by_rank.end() ? size_t{0} : it->second.size());
    }
    if (world.empty()) calls = 0;
    std::vector<uint32_t> index(world.size());
    for (size_t k = 0; k < calls; ++k) {
      bool same = true;
      for (size_t m = 0; m < world.size(); ++m) {
        index[m] = by_rank.at(world[m])[k];
        same = same && ranks[static_cast<size_t>(world[m])].records[index[m]].func ==
                           ranks[static_cast<size_t>(world[0])].records[index[0]].func;
      }
      if (same && is_v(ranks[static_cast<size_t>(world[0])].records[index[0]].func)) fill_v(ranks, world, index);
    }
  }
  for (RankCapture& rc : ranks)
    for (CapRecord& rec : rc.records) {
      if (cap_class(rec.func) != CapClass::kCollective) continue;
      const std::vector<uint64_t> zeros(static_cast<size_t>(rec.comm.size), 0);
      if (is_v(rec.func)) {
        if (rec.s_counts == kCapNoList && rec.r_counts == kCapNoList) rec.r_counts = rec.s_counts = add_list(rc, zeros);
        continue;
      }
      const uint64_t b = own_block(rec);
      rec.s_count = rec.r_count = b;
    }
}

}  // namespace simfab
