#include "mpi/coll/smpi_names.hpp"

namespace simfab::coll {

namespace {

// "default" is SimGrid's default selector's algorithm for the collective; "ompi" and "mpich" (the
// selector names SimGrid also accepts per collective) are resolved by the registry (registry.cpp).
constexpr SmpiName kBarrier[] = {
    {"default", "smpi-ompi_basic_linear", true},     {"ompi_basic_linear", "smpi-ompi_basic_linear", true},
    {"ompi_tree", "smpi-ompi_tree", true},           {"ompi_bruck", "dissemination", true},
    {"ompi_recursivedoubling", "recursive-doubling", true}, {"ompi_two_procs", "recursive-doubling", true},
    {"ompi_doublering", "double-ring", true},        {"mpich_smp", "dissemination", false},
};
constexpr SmpiName kBcast[] = {
    {"default", "smpi-binomial_tree", true},
    {"binomial_tree", "smpi-binomial_tree", true},
    {"NTSB", "binary", false},
    {"NTSL", "pipeline", false},
    {"ompi_pipeline", "pipeline", false},
    {"ompi_split_bintree", "split-binary", false},
    {"mvapich2_knomial_intra_node", "knomial4", false},
    {"scatter_rdb_allgather", "scatter-allgather", false},
    {"scatter_LR_allgather", "scatter-allgather", false},
    {"flattree", "linear", false},
};
constexpr SmpiName kReduce[] = {
    {"default", "smpi-default", true},
    {"ompi_basic_linear", "linear", true},
    {"ompi_chain", "pipeline", false},
    {"ompi_pipeline", "pipeline", false},
    {"ompi_binary", "binary", true},
    {"ompi_in_order_binary", "binary", false},
    {"ompi_binomial", "binomial", false},
    {"binomial", "binomial", false},
    {"scatter_gather", "rabenseifner", false},
};
constexpr SmpiName kAllreduce[] = {
    {"default", "smpi-default", true},
    {"redbcast", "smpi-default", true},
    {"rdb", "recursive-doubling", true},
    {"lr", "smpi-lr", true},
    {"rab_rdb", "rabenseifner", true},
    {"ompi_ring_segmented", "segmented-ring", false},
};
constexpr SmpiName kAllgather[] = {
    {"default", "smpi-default", true},
    {"rdb", "recursive-doubling", false},
    {"bruck", "bruck", false},
    {"ring", "ring", false},
    {"ompi_neighborexchange", "neighbor-exchange", false},
    {"pair", "ring", false},
    {"NTSLR_NB", "ring", false},
};
constexpr SmpiName kAlltoall[] = {
    {"default", "smpi-default", true},
    {"basic_linear", "basic-linear", true},
    {"pair", "pairwise", true},
    {"ring", "pairwise", false},
    {"bruck", "bruck", true},
    {"mvapich2_scatter_dest", "basic-linear", false},
};
constexpr SmpiName kGather[] = {
    {"default", "smpi-default", true},
    {"ompi_basic_linear", "smpi-default", true},
    {"ompi_binomial", "binomial", false},
    {"ompi_linear_sync", "smpi-default", false},
};
constexpr SmpiName kScatter[] = {
    {"default", "smpi-default", true},
    {"ompi_basic_linear", "smpi-default", true},
    {"ompi_binomial", "binomial", false},
};
constexpr SmpiName kAllgatherv[] = {
    {"default", "smpi-default", true},  {"GB", "smpi-default", false},
    {"ompi_bruck", "smpi-default", false}, {"mpich_ring", "smpi-default", false},
    {"mpich_rdb", "smpi-default", false},  {"ompi_neighborexchange", "smpi-default", false},
    {"pair", "smpi-default", false},
};
constexpr SmpiName kAlltoallv[] = {
    {"default", "smpi-default", true},
    {"ompi_basic_linear", "smpi-default", false},
    {"pair", "smpi-default", false},
    {"bruck", "smpi-default", false},
};
constexpr SmpiName kFixed[] = {{"default", "smpi-default", true}};
constexpr SmpiName kReduceScatter[] = {
    {"default", "smpi-default", true},
    {"ompi_basic_recursivehalving", "smpi-default", false},
    {"ompi_ring", "smpi-default", false},
    {"mpich_rdb", "smpi-default", false},
    {"mpich_pair", "smpi-default", false},
};

}  // namespace

std::string smpi_key(CollOp op) {
  if (op == CollOp::kScan || op == CollOp::kExscan || op == CollOp::kGatherv || op == CollOp::kScatterv) return "";
  return std::string("smpi/") + (op == CollOp::kReduceScatter ? "reduce_scatter" : coll_op_name(op));
}

std::span<const SmpiName> smpi_names(CollOp op) {
  switch (op) {
    case CollOp::kBarrier: return kBarrier;
    case CollOp::kBcast: return kBcast;
    case CollOp::kReduce: return kReduce;
    case CollOp::kAllreduce: return kAllreduce;
    case CollOp::kAllgather: return kAllgather;
    case CollOp::kAlltoall: return kAlltoall;
    case CollOp::kGather: return kGather;
    case CollOp::kScatter: return kScatter;
    case CollOp::kAllgatherv: return kAllgatherv;
    case CollOp::kAlltoallv: return kAlltoallv;
    case CollOp::kReduceScatter: return kReduceScatter;
    case CollOp::kGatherv:
    case CollOp::kScatterv:
    case CollOp::kScan:
    case CollOp::kExscan: return kFixed;
    case CollOp::kCount: break;
  }
  return {};
}

const CollAlgorithm* smpi_algorithm(CollOp op, std::string_view name) {
  for (const SmpiName& n : smpi_names(op))
    if (name == n.simgrid) return find_coll_algorithm(op, n.simfab);
  return nullptr;
}

}  // namespace simfab::coll
