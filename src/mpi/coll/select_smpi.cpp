#include "mpi/coll/select_smpi.hpp"

#include <algorithm>
#include <bit>

#include "mpi/coll/select_ompi.hpp"

namespace simfab::coll {

namespace {

constexpr Bytes K = 1024;

Bytes sum(std::span<const Bytes> v) {
  Bytes s = 0;
  for (Bytes b : v) s += b;
  return s;
}
bool regular(std::span<const Bytes> v) { return std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) == v.end(); }
bool is_pof2(int p) { return p > 0 && std::has_single_bit(static_cast<unsigned>(p)); }
Bytes pof2_floor(int p) { return p <= 1 ? 1 : std::bit_floor(static_cast<uint64_t>(p)); }
Bytes type_size(const CollCall& c) { return std::max<Bytes>(1, c.type_size); }

// The first `alg` of the row whose bound exceeds v (bounds strictly increasing; the last is open).
struct Cut {
  Bytes below;
  int alg;
};
int pick(std::initializer_list<Cut> cuts, Bytes v) {
  for (const Cut& c : cuts)
    if (v < c.below) return c.alg;
  return (cuts.end() - 1)->alg;
}
constexpr Bytes kOpen = ~Bytes{0};

const char* default_choice(CollOp op, const CollCall& c) {
  switch (op) {
    case CollOp::kBarrier: return "ompi_basic_linear";
    case CollOp::kBcast: return "binomial_tree";
    case CollOp::kAlltoall: return select_smpi(SmpiSelector::kOmpi, op, c);
    case CollOp::kReduceScatter:
      if (!regular(c.counts)) return select_smpi(SmpiSelector::kMpich, op, c);
      return "default";
    default: return "default";
  }
}

const char* ompi_choice(CollOp op, const CollCall& c) {
  const int p = std::max(1, c.size);
  const int id = ompi_tuned_algorithm_id(op, p, c.bytes);
  switch (op) {
    case CollOp::kAllreduce: {
      static const char* const k[] = {"", "redbcast", "redbcast", "rdb", "lr", "ompi_ring_segmented", "rab_rdb"};
      return k[id];
    }
    case CollOp::kBcast: {
      static const char* const k[] = {"", "NTSL", "ompi_pipeline", "ompi_pipeline", "ompi_split_bintree", "NTSB",
                                      "binomial_tree", "mvapich2_knomial_intra_node", "scatter_rdb_allgather",
                                      "scatter_LR_allgather"};
      return k[id];
    }
    case CollOp::kReduce: {
      static const char* const k[] = {"", "ompi_basic_linear", "ompi_chain", "ompi_pipeline", "ompi_binary",
                                      "ompi_binomial", "ompi_in_order_binary", "ompi_basic_linear"};
      return k[id];
    }
    case CollOp::kAllgather: {
      static const char* const k[] = {"", "NTSLR_NB", "bruck", "rdb", "ring", "ompi_neighborexchange", "pair"};
      return k[id];
    }
    case CollOp::kAlltoall: {
      static const char* const k[] = {"", "basic_linear", "pair", "bruck", "basic_linear", "basic_linear"};
      return k[id];
    }
    case CollOp::kBarrier: {
      static const char* const k[] = {"", "ompi_basic_linear", "ompi_basic_linear", "ompi_recursivedoubling",
                                      "ompi_bruck", "ompi_two_procs", "ompi_tree"};
      return k[id];
    }
    case CollOp::kGather: {
      static const char* const k[] = {"", "ompi_basic_linear", "ompi_binomial", "ompi_linear_sync"};
      return k[id];
    }
    case CollOp::kScatter: {
      // 3 is Open MPI's linear_nb, which SimGrid 3.32 lacks: it runs its default iscatter there
      // (recorded: scatter 262144 on 4 ranks, root isends S1 S2 S3, no wait in between).
      static const char* const k[] = {"", "ompi_basic_linear", "ompi_binomial", "default"};
      return k[id];
    }
    case CollOp::kReduceScatter: {
      static const char* const k[] = {"", "default", "ompi_basic_recursivehalving", "ompi_ring",
                                      "ompi_butterfly"};
      return k[smpi_ompi_reduce_scatter_id(p, sum(c.counts))];
    }
    case CollOp::kAllgatherv: {
      static const char* const k[] = {"", "GB", "ompi_bruck", "mpich_ring", "ompi_neighborexchange", "pair"};
      return k[smpi_ompi_allgatherv_id(p, sum(c.counts) / static_cast<Bytes>(p))];
    }
    case CollOp::kAlltoallv:
      if (p < 4 || (p >= 64 && p < 128) || (p >= 256 && p < 1024)) return "pair";
      return "ompi_basic_linear";
    default: return "default";
  }
}

const char* mpich_choice(CollOp op, const CollCall& c) {
  const int p = std::max(1, c.size);
  const Bytes s = c.bytes, count = c.bytes / type_size(c), pof2 = pof2_floor(p);
  switch (op) {
    case CollOp::kAllreduce: return "rdb";  // two-level, one rank per host: allreduce__rdb on the leaders
    case CollOp::kAlltoall:
      if (s < 256 && p >= 8) return "bruck";
      if (s < 32768) return "mvapich2_scatter_dest";
      return p % 2 ? "pair" : "ring";
    case CollOp::kAlltoallv: return "bruck";
    case CollOp::kBarrier: return "ompi_bruck";
    case CollOp::kBcast: return "SMP_binomial";  // init_smp, then uniform hosts (smpi_bcast.hpp)
    case CollOp::kReduce: return count < pof2 || s < 2048 ? "binomial" : "scatter_gather";
    case CollOp::kReduceScatter: {
      Bytes elements = 0;
      for (Bytes b : c.counts) elements += b / type_size(c);
      return elements > 524288 ? "mpich_pair" : "mpich_rdb";
    }
    case CollOp::kAllgather: {
      const Bytes total = s * static_cast<Bytes>(p);
      if (is_pof2(p) && total < 524288) return "rdb";
      return total <= 81920 ? "bruck" : "ring";
    }
    case CollOp::kAllgatherv: {
      Bytes elements = 0;
      for (Bytes b : c.counts) elements += b / type_size(c);
      if (is_pof2(p) && elements < 524288) return "mpich_rdb";
      return elements <= 81920 ? "ompi_bruck" : "mpich_ring";
    }
    case CollOp::kGather:
    case CollOp::kScatter: return "ompi_binomial";
    default: return "default";
  }
}

}  // namespace

int smpi_ompi_reduce_scatter_id(int p, Bytes s) {
  if (p < 4) return pick({{64 * K, 3}, {128 * K, 4}, {kOpen, 3}}, s);
  if (p < 8) return pick({{8, 1}, {256 * K, 2}, {kOpen, 3}}, s);
  if (p < 32) return pick({{256 * K, 2}, {kOpen, 3}}, s);
  if (p < 64) return pick({{64, 1}, {2 * K, 2}, {512 * K, 4}, {kOpen, 3}}, s);
  if (p < 128) return pick({{256, 1}, {512, 2}, {2 * K, 4}, {4 * K, 2}, {kOpen, 4}}, s);
  if (p < 256) return pick({{256, 1}, {512, 2}, {kOpen, 4}}, s);
  if (p < 512) return pick({{256, 1}, {1 * K, 2}, {kOpen, 4}}, s);
  if (p < 1024) return pick({{512, 1}, {2 * K, 2}, {8 * K, 4}, {16 * K, 2}, {kOpen, 4}}, s);
  if (p < 2048) return pick({{512, 1}, {4 * K, 2}, {16 * K, 4}, {32 * K, 2}, {kOpen, 4}}, s);
  if (p < 4096) return pick({{512, 1}, {4 * K, 2}, {kOpen, 4}}, s);
  return pick({{1 * K, 1}, {8 * K, 2}, {kOpen, 4}}, s);
}

int smpi_ompi_allgatherv_id(int p, Bytes s) {
  if (p == 2) return pick({{2 * K, 3}, {4 * K, 5}, {8 * K, 3}, {kOpen, 5}}, s);
  if (p < 8) return pick({{256, 1}, {4 * K, 4}, {8 * K, 3}, {16 * K, 4}, {256 * K, 2}, {kOpen, 4}}, s);
  if (p < 16) return pick({{1 * K, 1}, {kOpen, 2}}, s);
  if (p < 32) return pick({{128, 1}, {256 * K, 2}, {kOpen, 3}}, s);
  if (p < 64) return pick({{256, 1}, {8 * K, 2}, {kOpen, 3}}, s);
  if (p < 128) return pick({{256, 1}, {4 * K, 2}, {kOpen, 3}}, s);
  if (p < 256) return pick({{1 * K, 2}, {64 * K, 4}, {kOpen, 3}}, s);
  if (p < 512) return pick({{1 * K, 2}, {kOpen, 3}}, s);
  if (p < 1024) return pick({{512, 2}, {1 * K, 1}, {4 * K, 2}, {1024 * K, 4}, {kOpen, 3}}, s);
  return pick({{4 * K, 2}, {kOpen, 4}}, s);
}

const char* select_smpi(SmpiSelector sel, CollOp op, const CollCall& c) {
  switch (sel) {
    case SmpiSelector::kOmpi: return ompi_choice(op, c);
    case SmpiSelector::kMpich: return mpich_choice(op, c);
    case SmpiSelector::kNone:
    case SmpiSelector::kDefault: break;
  }
  return default_choice(op, c);
}

}  // namespace simfab::coll
