// SimGrid 3.32's collective algorithm names (the values of its smpi/<collective> keys, e.g.
// smpi/bcast=binomial_tree) and the simfab registry algorithm each one runs (registry.hpp).
// The smpi-* selectors (select_smpi.hpp) answer with these names too, so one table serves both.
//
// `exact` says whether simfab's algorithm sends SimGrid's messages (same peers, sizes, order and
// blocking pattern), as checked against smpirun -replay recordings (P = 2, 3, 4, 5, 7, 8, 16;
// 4 B to 200 KB; the recorded sequences are in coll_smpi_test.cpp), or is the nearest simfab
// algorithm (same family and volume, another order, segmentation or tree). Exact:
//   barrier   ompi_basic_linear (default), ompi_tree, ompi_bruck, ompi_recursivedoubling,
//             ompi_two_procs (P = 2, where the ompi selector picks it), ompi_doublering, mpich_smp
//   bcast     binomial_tree (default), NTSL, NTSB, SMP_binomial (mpich's, with its first call's
//             init_smp; smpi_bcast.hpp), mvapich2_knomial_intra_node, ompi_pipeline,
//             scatter_rdb_allgather, scatter_LR_allgather (smpi_bcast_large.hpp), ompi_split_bintree (two segments
//             per half or more; smpi_split_bintree.hpp), flattree
//   reduce    default (ireduce), ompi_basic_linear, ompi_chain, ompi_pipeline, ompi_binary,
//             ompi_binomial, ompi_in_order_binary, binomial (smpi_reduce.hpp), scatter_gather
//             (smpi_reduce_scatter_gather.hpp)
//   allreduce default, redbcast (reduce + bcast as the active selector picks them), rdb, lr
//             (count % P == 0; the remainder's extra allreduce differs on P = 3), rab_rdb
//   allgather default (iallgather), rdb, bruck, ring, pair, NTSLR_NB, ompi_neighborexchange
//             (smpi_allgather.hpp, smpi_allgatherv.hpp)
//   alltoall  basic_linear, pair (r^i partners), bruck, ring, mvapich2_scatter_dest (smpi_alltoallv.hpp)
//   gather, scatter: default, ompi_basic_linear, ompi_binomial; gather ompi_linear_sync;
//   allgatherv every algorithm (default, GB, ring, pair, ompi_bruck, ompi_neighborexchange,
//              mpich_ring, mpich_rdb: smpi_allgatherv.hpp)
//   alltoallv  default, ompi_basic_linear, pair, bruck (smpi_alltoallv.hpp)
//   reduce_scatter default, ompi_basic_recursivehalving, ompi_ring, ompi_butterfly, mpich_rdb, mpich_pair
//              (smpi_reduce_scatter.hpp)
//   gatherv, scatterv, scan, exscan: default
// Every name is exact, ompi_two_procs only on 2 ranks (SimGrid's pairs every rank with rank
// (r + 1) mod 2, leaving messages unmatched; simfab runs recursive doubling). Where SimGrid
// refuses an input (allgather(v), alltoall(v) pair on P not a power of two; see smpi_refusals.hpp
// for all), simfab runs the ring (allgather(v)), r+i / r-i partners (alltoall) or bruck
// (alltoallv) instead, and under network/model=smpi says so on stderr.
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
