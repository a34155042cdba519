// SimGrid 3.32's collective algorithm names (the values of its smpi/<collective> keys, e.g.
// smpi/bcast=binomial_tree) and the simfab registry algorithm each one runs (registry.hpp).
// The smpi-* selectors (select_smpi.hpp) answer with these names too, so one table serves both.
//
// `exact` says whether simfab's algorithm sends SimGrid's messages (same peers, sizes, order and
// blocking pattern), as checked against smpirun -replay recordings (P = 2, 3, 4, 5, 7, 8, 16;
// 4 B to 200 KB; the recorded sequences are in coll_smpi_test.cpp), or is the nearest simfab
// algorithm (same family and volume, another order, segmentation or tree). Exact:
//   barrier   ompi_basic_linear (default), ompi_tree, ompi_bruck, ompi_recursivedoubling,
//             ompi_two_procs, ompi_doublering
//   bcast     binomial_tree (default)
//   reduce    default (ireduce), ompi_basic_linear, ompi_binary (unsegmented sizes)
//   allreduce default, redbcast (reduce + bcast as the active selector picks them), rdb, lr
//             (count % P == 0; the remainder's extra allreduce differs on P = 3), rab_rdb
//   allgather default (iallgather); rdb only when P is a power of two (listed inexact)
//   alltoall  basic_linear, pair, bruck
//   gather, scatter: default and ompi_basic_linear; allgatherv, alltoallv, gatherv, scatterv,
//   reduce_scatter, scan, exscan: default
// Known inexact (the nearest simfab algorithm runs): bcast NTSB, NTSL, ompi_pipeline,
// ompi_split_bintree, mvapich2_knomial_intra_node, scatter_*_allgather; reduce ompi_binomial,
// ompi_chain, ompi_pipeline (SimGrid's binomial children come nearest first, simfab's farthest
// first); gather/scatter ompi_binomial (SimGrid's scatter also sends whole subtrees' buffers);
// allreduce ompi_ring_segmented; allgather rdb on other sizes, bruck, ring, pair, NTSLR_NB,
// neighborexchange; alltoall ring, mvapich2_scatter_dest; every non-default allgatherv,
// alltoallv and reduce_scatter algorithm (they run SimGrid's default pattern).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "mpi/coll/registry.hpp"

namespace simfab::coll {

struct SmpiName {
  const char* simgrid;  // SimGrid's name (smpi/<collective>=...)
  const char* simfab;   // the registry algorithm that runs it
  bool exact;
};

// SimGrid's key for `op`: "smpi/bcast", ..., "smpi/reduce_scatter"; "" for scan and exscan
// (SimGrid has no key for them: they are fixed).
std::string smpi_key(CollOp op);
std::span<const SmpiName> smpi_names(CollOp op);
// The registry algorithm for SimGrid's `name`; nullptr when simfab does not know the name.
const CollAlgorithm* smpi_algorithm(CollOp op, std::string_view name);

}  // namespace simfab::coll
