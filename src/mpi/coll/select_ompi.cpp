#include "mpi/coll/select_ompi.hpp"

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <limits>

namespace simfab::coll {

namespace {

constexpr Bytes kAny = std::numeric_limits<Bytes>::max();
constexpr int kAll = std::numeric_limits<int>::max();
constexpr Bytes K = 1024;

struct Cut {
  Bytes below;  // applies when total_bytes < below
  int alg;      // OpenMPI's algorithm id
};
struct Row {
  int comm_below;  // applies when comm_size < comm_below
  std::initializer_list<Cut> cuts;
};

int lookup(std::initializer_list<Row> rows, int p, Bytes s) {
  for (const Row& r : rows) {
    if (p >= r.comm_below) continue;
    for (const Cut& c : r.cuts)
      if (s < c.below) return c.alg;
  }
  return 0;  // unreachable: the last row and cut are open-ended
}

// ompi_coll_tuned_allreduce_intra_dec_fixed, commutative branch.
int allreduce_alg(int p, Bytes s) {
  return lookup({{4, {{8, 4}, {4 * K, 3}, {8 * K, 4}, {16 * K, 3}, {64 * K, 4}, {256 * K, 5}, {kAny, 6}}},
                 {8, {{16, 4}, {8 * K, 3}, {kAny, 6}}},
                 {16, {{8 * K, 3}, {kAny, 6}}},
                 {32, {{64, 5}, {4 * K, 3}, {kAny, 6}}},
                 {64, {{128, 5}, {kAny, 6}}},
                 {128, {{256 * K, 3}, {kAny, 6}}},
                 {256, {{128 * K, 2}, {256 * K, 3}, {kAny, 6}}},
                 {512, {{4 * K, 2}, {kAny, 6}}},
                 {2048, {{2 * K, 2}, {16 * K, 3}, {kAny, 6}}},
                 {4096, {{2 * K, 2}, {4 * K, 5}, {16 * K, 3}, {kAny, 6}}},
                 {kAll, {{2 * K, 2}, {16 * K, 5}, {32 * K, 3}, {kAny, 6}}}},
                p, s);
}

int bcast_alg(int p, Bytes s) {
  return lookup({{4, {{32, 3}, {256, 5}, {512, 3}, {1 * K, 7}, {32 * K, 1}, {128 * K, 5}, {256 * K, 2},
                      {512 * K, 1}, {1024 * K, 6}, {kAny, 5}}},
                 {8, {{64, 5}, {128, 6}, {2 * K, 5}, {8 * K, 6}, {1024 * K, 1}, {kAny, 2}}},
                 {16, {{8, 7}, {64, 5}, {4 * K, 7}, {16 * K, 5}, {32 * K, 6}, {kAny, 1}}},
                 {32, {{4 * K, 7}, {1024 * K, 6}, {kAny, 8}}},
                 {64, {{2 * K, 6}, {kAny, 7}}},
                 {128, {{kAny, 7}}},
                 {256, {{2, 6}, {16 * K, 5}, {32 * K, 1}, {64 * K, 5}, {kAny, 7}}},
                 {1024, {{16 * K, 7}, {32 * K, 4}, {kAny, 7}}},
                 {2048, {{512 * K, 7}, {kAny, 8}}},
                 {4096, {{256 * K, 7}, {kAny, 8}}},
                 {kAll, {{8 * K, 7}, {16 * K, 5}, {256 * K, 7}, {kAny, 8}}}},
                p, s);
}

// ompi_coll_tuned_reduce_intra_dec_fixed, commutative branch.
int reduce_alg(int p, Bytes s) {
  return lookup({{4, {{8, 7}, {16, 4}, {32, 3}, {256 * K, 1}, {512 * K, 3}, {1024 * K, 2}, {kAny, 3}}},
                 {8, {{4 * K, 4}, {64 * K, 2}, {256 * K, 5}, {512 * K, 1}, {1024 * K, 5}, {kAny, 1}}},
                 {16, {{8 * K, 4}, {kAny, 5}}},
                 {32, {{4 * K, 4}, {kAny, 5}}},
                 {256, {{kAny, 5}}},
                 {512, {{8 * K, 5}, {16 * K, 6}, {kAny, 5}}},
                 {2048, {{kAny, 5}}},
                 {4096, {{512, 5}, {1 * K, 6}, {8 * K, 5}, {16 * K, 6}, {kAny, 5}}},
                 {kAll, {{16, 5}, {32, 6}, {1 * K, 5}, {2 * K, 6}, {8 * K, 5}, {16 * K, 6}, {kAny, 5}}}},
                p, s);
}

int allgather_alg(int p, Bytes s) {
  if (p == 2) return 6;
  return lookup({{32, {{kAny, 3}}},
                 {64, {{1 * K, 3}, {64 * K, 5}, {kAny, 4}}},
                 {128, {{512, 3}, {64 * K, 5}, {kAny, 4}}},
                 {256, {{512, 3}, {128 * K, 5}, {512 * K, 4}, {1024 * K, 5}, {kAny, 4}}},
                 {512, {{32, 3}, {128, 2}, {1 * K, 3}, {128 * K, 5}, {512 * K, 4}, {1024 * K, 5}, {kAny, 4}}},
                 {1024, {{64, 3}, {256, 2}, {2 * K, 3}, {kAny, 5}}},
                 {2048, {{4, 3}, {8, 2}, {16, 3}, {32, 2}, {256, 3}, {512, 2}, {4 * K, 3}, {kAny, 5}}},
                 {4096, {{32, 2}, {128, 3}, {512, 2}, {4 * K, 3}, {kAny, 5}}},
                 {kAll, {{2, 3}, {8, 2}, {16, 3}, {512, 2}, {4 * K, 3}, {kAny, 5}}}},
                p, s);
}

int alltoall_alg(int p, Bytes s) {
  if (p == 2)
    return lookup({{kAll, {{2, 2}, {4, 5}, {16, 2}, {64, 5}, {256, 2}, {4 * K, 5}, {32 * K, 2}, {256 * K, 4},
                           {1024 * K, 5}, {kAny, 2}}}},
                  p, s);
  return lookup({{8, {{8 * K, 4}, {16 * K, 1}, {64 * K, 4}, {512 * K, 1}, {1024 * K, 2}, {kAny, 1}}},
                 {16, {{256 * K, 4}, {kAny, 1}}},
                 {32, {{4, 4}, {512, 3}, {8 * K, 4}, {32 * K, 1}, {256 * K, 4}, {512 * K, 1}, {kAny, 4}}},
                 {64, {{512, 3}, {512 * K, 1}, {kAny, 4}}},
                 {128, {{1 * K, 3}, {2 * K, 1}, {4 * K, 4}, {256 * K, 1}, {kAny, 2}}},
                 {256, {{1 * K, 3}, {2 * K, 4}, {256 * K, 1}, {kAny, 2}}},
                 {512, {{1 * K, 3}, {8 * K, 4}, {32 * K, 1}, {kAny, 2}}},
                 {1024, {{512, 3}, {8 * K, 4}, {16 * K, 1}, {128 * K, 4}, {256 * K, 1}, {kAny, 2}}},
                 {2048, {{512, 3}, {1 * K, 4}, {2 * K, 1}, {16 * K, 4}, {256 * K, 1}, {kAny, 4}}},
                 {4096, {{1 * K, 3}, {4 * K, 4}, {8 * K, 1}, {128 * K, 4}, {kAny, 1}}},
                 {kAll, {{2 * K, 3}, {8 * K, 4}, {16 * K, 1}, {32 * K, 4}, {64 * K, 1}, {kAny, 4}}}},
                p, s);
}

int barrier_alg(int p) {
  return lookup({{4, {{kAny, 3}}},
                 {8, {{kAny, 1}}},
                 {64, {{kAny, 3}}},
                 {256, {{kAny, 4}}},
                 {512, {{kAny, 6}}},
                 {1024, {{kAny, 4}}},
                 {4096, {{kAny, 6}}},
                 {kAll, {{kAny, 4}}}},
                p, 0);
}

int gather_alg(int p, Bytes s) {
  return lookup({{4, {{2, 3}, {4, 1}, {32 * K, 2}, {64 * K, 1}, {128 * K, 2}, {kAny, 3}}},
                 {8, {{1 * K, 2}, {8 * K, 1}, {32 * K, 2}, {256 * K, 1}, {kAny, 3}}},
                 {256, {{kAny, 2}}},
                 {512, {{2 * K, 2}, {8 * K, 1}, {kAny, 2}}},
                 {kAll, {{kAny, 2}}}},
                p, s);
}

int scatter_alg(int p, Bytes s) {
  return lookup({{4, {{2, 3}, {128 * K, 1}, {256 * K, 3}, {kAny, 1}}},
                 {8, {{2 * K, 2}, {4 * K, 1}, {8 * K, 2}, {32 * K, 1}, {1024 * K, 3}, {kAny, 1}}},
                 {16, {{16 * K, 2}, {1024 * K, 3}, {kAny, 1}}},
                 {32, {{16 * K, 2}, {32 * K, 1}, {kAny, 3}}},
                 {64, {{512, 2}, {8 * K, 3}, {16 * K, 2}, {kAny, 3}}},
                 {kAll, {{512, 2}, {kAny, 3}}}},
                p, s);
}

// OpenMPI algorithm id (index) -> registry name; see the mapping table in the header.
const char* const kAllreduceNames[] = {nullptr, "reduce-bcast", "reduce-bcast", "recursive-doubling",
                                       "ring", "ring", "rabenseifner"};
const char* const kBcastNames[] = {nullptr,  "linear",   "pipeline", "pipeline",          "split-binary",
                                   "binary", "binomial", "knomial4", "scatter-allgather", "scatter-allgather"};
const char* const kReduceNames[] = {nullptr, "linear", "pipeline", "pipeline", "binary",
                                    "binomial", "binary", "rabenseifner"};
const char* const kAllgatherNames[] = {nullptr, "ring", "bruck", "recursive-doubling",
                                       "ring", "neighbor-exchange", "recursive-doubling"};
const char* const kAlltoallNames[] = {nullptr, "basic-linear", "pairwise", "bruck", "basic-linear", "pairwise"};
const char* const kBarrierNames[] = {nullptr, "tree", "double-ring", "recursive-doubling",
                                     "dissemination", "recursive-doubling", "tree"};
const char* const kGatherScatterNames[] = {nullptr, "schedgen", "binomial", "schedgen"};

}  // namespace

int ompi_tuned_algorithm_id(CollOp op, int comm_size, Bytes total_bytes) {
  const int p = comm_size < 1 ? 1 : comm_size;
  const Bytes s = total_bytes;
  switch (op) {
    case CollOp::kAllreduce: return allreduce_alg(p, s);
    case CollOp::kBcast: return bcast_alg(p, s);
    case CollOp::kReduce: return reduce_alg(p, s);
    case CollOp::kAllgather: return allgather_alg(p, s);
    case CollOp::kAlltoall: return alltoall_alg(p, s);
    case CollOp::kBarrier: return barrier_alg(p);
    case CollOp::kGather: return gather_alg(p, s);
    case CollOp::kScatter: return scatter_alg(p, s);
    default: break;  // no OpenMPI/MPICH table (the v-variants, reduce_scatter, scans)
  }
  return 0;
}

int ompi_executed_algorithm_id(CollOp op, int comm_size, Bytes total_bytes, Bytes type_size) {
  int id = ompi_tuned_algorithm_id(op, comm_size, total_bytes);
  const int p = comm_size < 1 ? 1 : comm_size;
  if (p == 1) return id;  // every algorithm returns before communicating
  const Bytes count = total_bytes / (type_size ? type_size : 1);
  const Bytes ranks = static_cast<Bytes>(p);
  const Bytes pof2 = std::bit_floor(ranks);
  switch (op) {
    case CollOp::kAllreduce:
      if (id == 5) id = 4;                   // segmented_ring, segsize 0: count < P * count -> ring
      if (id == 4 && count < ranks) id = 3;  // ring -> recursive_doubling
      if (id == 6 && count < pof2) id = 1;   // rabenseifner -> basic_linear
      break;
    case CollOp::kReduce:
      if (id == 7 && count < pof2) id = 1;  // rabenseifner -> linear (pof2 >= 2 here)
      break;
    case CollOp::kBcast:
      if ((id == 8 || id == 9) && count < ranks) id = 1;  // scatter_allgather(_ring) -> basic_linear
      if (id == 4 && count < 2) id = 2;                   // split_binary_tree -> chain
      break;
    default: break;
  }
  return id;
}

CollDecision select_ompi(CollOp op, int comm_size, Bytes total_bytes, Bytes type_size) {
  const int id = ompi_executed_algorithm_id(op, comm_size, total_bytes, type_size);
  const char* name = "schedgen";
  switch (op) {
    case CollOp::kAllreduce: name = kAllreduceNames[id]; break;
    case CollOp::kBcast: name = kBcastNames[id]; break;
    case CollOp::kReduce: name = kReduceNames[id]; break;
    case CollOp::kAllgather: name = kAllgatherNames[id]; break;
    case CollOp::kAlltoall: name = kAlltoallNames[id]; break;
    case CollOp::kBarrier: name = kBarrierNames[id]; break;
    case CollOp::kGather:
    case CollOp::kScatter: name = kGatherScatterNames[id]; break;
    default: break;  // no OpenMPI/MPICH table (the v-variants, reduce_scatter, scans)
  }
  return CollDecision{name, 0};  // the fixed rules pass segsize 0 to every algorithm
}

}  // namespace simfab::coll
