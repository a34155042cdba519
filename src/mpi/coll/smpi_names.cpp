#include "mpi/coll/smpi_names.hpp"

namespace simfab::coll {

namespace {

// "default" is SimGrid's default selector's algorithm for the collective; "ompi" and "mpich" (the
// selector names SimGrid also accepts per collective) are resolved by the registry (registry.cpp).
constexpr SmpiName kBarrier[] = {
    {"default", "smpi-ompi_basic_linear", true},     {"ompi_basic_linear", "smpi-ompi_basic_linear", true},
    {"ompi_tree", "smpi-ompi_tree", true},           {"ompi_bruck", "dissemination", true},
    {"ompi_recursivedoubling", "recursive-doubling", true}, {"ompi_two_procs", "recursive-doubling", true},
    {"ompi_doublering", "double-ring", true},        {"mpich_smp", "smpi-mpich_smp", true},
};
constexpr SmpiName kBcast[] = {
    {"default", "smpi-binomial_tree", true},
    {"binomial_tree", "smpi-binomial_tree", true},
    {"NTSB", "smpi-NTSB", true},
    {"NTSL", "smpi-NTSL", true},
    {"SMP_binomial", "smpi-SMP_binomial", true},
    {"ompi_pipeline", "smpi-ompi_pipeline", true},
    {"ompi_split_bintree", "smpi-ompi_split_bintree", true},
    {"mvapich2_knomial_intra_node", "smpi-mvapich2_knomial_intra_node", true},
    {"scatter_rdb_allgather", "smpi-scatter_rdb_allgather", true},
    {"scatter_LR_allgather", "smpi-scatter_LR_allgather", true},
    {"flattree", "smpi-flattree", true},
};
constexpr SmpiName kReduce[] = {
    {"default", "smpi-default", true},
    {"ompi_basic_linear", "smpi-ompi_basic_linear", true},
    {"ompi_chain", "smpi-ompi_chain", true},
    {"ompi_pipeline", "smpi-ompi_pipeline", true},
    {"ompi_binary", "smpi-ompi_binary", true},
    {"ompi_in_order_binary", "smpi-ompi_in_order_binary", true},
    {"ompi_binomial", "smpi-ompi_binomial", true},
    {"binomial", "smpi-binomial", true},
    {"scatter_gather", "smpi-scatter_gather", true},
};
constexpr SmpiName kAllreduce[] = {
    {"default", "smpi-default", true},
    {"redbcast", "smpi-default", true},
    {"rdb", "recursive-doubling", true},
    {"lr", "smpi-lr", true},
    {"rab_rdb", "rabenseifner", true},
    {"ompi_ring_segmented", "smpi-ompi_ring_segmented", true},
};
constexpr SmpiName kAllgather[] = {
    {"default", "smpi-default", true},
    {"rdb", "smpi-rdb", true},
    {"bruck", "smpi-bruck", true},
    {"ring", "smpi-ring", true},
    {"ompi_neighborexchange", "smpi-ompi_neighborexchange", true},
    {"pair", "smpi-pair", true},
    {"NTSLR_NB", "smpi-NTSLR_NB", true},
};
constexpr SmpiName kAlltoall[] = {
    {"default", "smpi-default", true},
    {"basic_linear", "basic-linear", true},
    {"pair", "smpi-pair", true},
    {"ring", "smpi-ring", true},
    {"bruck", "bruck", true},
    {"mvapich2_scatter_dest", "smpi-mvapich2_scatter_dest", true},
};
constexpr SmpiName kGather[] = {
    {"default", "smpi-default", true},
    {"ompi_basic_linear", "smpi-ompi_basic_linear", true},
    {"ompi_binomial", "smpi-ompi_binomial", true},
    {"ompi_linear_sync", "smpi-ompi_linear_sync", true},
};
constexpr SmpiName kScatter[] = {
    {"default", "smpi-default", true},
    {"ompi_basic_linear", "smpi-ompi_basic_linear", true},
    {"ompi_binomial", "smpi-ompi_binomial", true},
};
constexpr SmpiName kAllgatherv[] = {
    {"default", "smpi-default", true},
    {"GB", "smpi-GB", true},
    {"ring", "smpi-ring", true},
    {"pair", "smpi-pair", true},
    {"ompi_bruck", "smpi-ompi_bruck", true},
    {"ompi_neighborexchange", "smpi-ompi_neighborexchange", true},
    {"mpich_ring", "smpi-mpich_ring", true},
    {"mpich_rdb", "smpi-mpich_rdb", true},
};
constexpr SmpiName kAlltoallv[] = {
    {"default", "smpi-default", true},
    {"ompi_basic_linear", "smpi-default", true},  // the same irecvs, isends and waitall
    {"pair", "smpi-pair", true},
    {"bruck", "smpi-bruck", true},
};
constexpr SmpiName kFixed[] = {{"default", "smpi-default", true}};
constexpr SmpiName kReduceScatter[] = {
    {"default", "smpi-default", true},
    {"ompi_basic_recursivehalving", "smpi-ompi_basic_recursivehalving", true},
    {"ompi_ring", "smpi-ompi_ring", true},
    {"ompi_butterfly", "smpi-ompi_butterfly", true},
    {"mpich_rdb", "smpi-mpich_rdb", true},
    {"mpich_pair", "smpi-mpich_pair", true},
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
