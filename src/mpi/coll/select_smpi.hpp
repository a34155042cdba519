// Selectors `smpi-default`, `smpi-ompi`, `smpi-mpich` (--cfg mpi/coll-selector=..., or SimGrid's
// own key smpi/coll-selector=default|ompi|mpich): the collective algorithm SimGrid 3.32's SMPI
// runs when replaying a TI trace (`smpirun -replay`) with --cfg=smpi/coll-selector:<name>, so that
// simfab sends the same internal point-to-point messages. Sources: simgrid/simgrid v3.32,
// src/smpi/colls/smpi_default_selector.cpp, smpi_openmpi_selector.cpp ("Updated 02/2022"),
// smpi_mpich_selector.cpp; checked against recordings of smpirun -replay (coll_smpi_test.cpp).
//
// A selector answers with SimGrid's algorithm name (as smpi/<collective>=NAME takes it); the
// table of mpi/coll/smpi_names.hpp maps it to simfab's registry algorithm.
//
// smpi-default (SimGrid's default selector)
//   barrier        ompi_basic_linear
//   bcast          binomial_tree
//   reduce         default: ireduce, linear to the root       (smpi_linear.hpp)
//   allreduce      default: reduce + bcast from rank 0, each as the active selector picks them
//   gather(v), scatter(v), allgather(v), alltoallv   default: the linear nbc patterns
//   alltoall       ompi (the smpi-ompi table below)
//   reduce_scatter default: ireduce to 0 + scatterv (equal blocks; unequal ones go to mpich)
//   scan, exscan   default (SimGrid's only scan: smpi_coll.cpp, linear)
// smpi-ompi (OpenMPI 4.1's fixed decision tables, select_ompi.hpp's ompi_tuned_algorithm_id for
// the eight collectives they share, with SimGrid's own implementations behind the ids):
//   allreduce  1,2 redbcast 3 rdb 4 lr 5 ompi_ring_segmented 6 rab_rdb
//   bcast      1 NTSL 2,3 ompi_pipeline 4 ompi_split_bintree 5 NTSB 6 binomial_tree
//              7 mvapich2_knomial_intra_node 8 scatter_rdb_allgather 9 scatter_LR_allgather
//   reduce     1,7 ompi_basic_linear 2 ompi_chain 3 ompi_pipeline 4 ompi_binary 5 ompi_binomial
//              6 ompi_in_order_binary
//   allgather  1 NTSLR_NB 2 bruck 3 rdb 4 ring 5 ompi_neighborexchange 6 pair
//   alltoall   1,4,5 basic_linear 2 pair 3 bruck
//   barrier    1,2 ompi_basic_linear 3 ompi_recursivedoubling 4 ompi_bruck 5 ompi_two_procs 6 ompi_tree
//   gather     1 ompi_basic_linear 2 ompi_binomial 3 ompi_linear_sync
//   scatter    1 ompi_basic_linear 2 ompi_binomial 3 default (Open MPI's linear_nb; SimGrid has none)
//   and SimGrid's own tables (smpi_openmpi_selector.cpp; S = the whole vector, sum of counts x
//   type size; P rows as in select_ompi.hpp):
//   reduce_scatter 1 default 2 ompi_basic_recursivehalving 3 ompi_ring 4 ompi_butterfly
//     P<4 <64K:3 <128K:4 :3   P<8 <8:1 <256K:2 :3   P<32 <256K:2 :3   P<64 <64:1 <2K:2 <512K:4 :3
//     P<128 <256:1 <512:2 <2K:4 <4K:2 :4   P<256 <256:1 <512:2 :4   P<512 <256:1 <1K:2 :4
//     P<1024 <512:1 <2K:2 <8K:4 <16K:2 :4  P<2048 <512:1 <4K:2 <16K:4 <32K:2 :4
//     P<4096 <512:1 <4K:2 :4   else <1K:1 <8K:2 :4
//   allgatherv (per-rank size = S / P) 1 GB 2 ompi_bruck 3 mpich_ring 4 ompi_neighborexchange 5 pair
//     P==2 <2K:3 <4K:5 <8K:3 :5   P<8 <256:1 <4K:4 <8K:3 <16K:4 <256K:2 :4   P<16 <1K:1 :2
//     P<32 <128:1 <256K:2 :3   P<64 <256:1 <8K:2 :3   P<128 <256:1 <4K:2 :3
//     P<256 <1K:2 <64K:4 :3   P<512 <1K:2 :3   P<1024 <512:2 <1K:1 <4K:2 <1M:4 :3   else <4K:2 :4
//   alltoallv  P<4 pair, P<64 ompi_basic_linear, P<128 pair, P<256 ompi_basic_linear,
//              P<1024 pair, else ompi_basic_linear
//   gatherv, scatterv, scan, exscan: SimGrid's fixed ones (as smpi-default)
// smpi-mpich (smpi_mpich_selector.cpp; P = size, pof2 = largest power of two <= P, S = bytes,
// count = elements; every test as SimGrid writes it, strict or not):
//   allreduce  rdb, whatever the size (allreduce__mpich: init_smp, then mvapich2_two_level, which
//              with one rank per host is allreduce__rdb among the leaders; measured with smpirun
//              running a program). The flat table (S > 2048 && count >= pof2: rab_rdb) is never
//              reached.
//   alltoall   S < 256 && P >= 8: bruck; S < 32768: mvapich2_scatter_dest; P odd: pair; else ring
//   alltoallv  bruck          barrier  ompi_bruck
//   bcast      SMP_binomial, whatever the size (bcast__mpich: the communicator's first call runs
//              comm->init_smp(), whose messages smpi_bcast.hpp models; with the same number of
//              ranks on every host, is_uniform, it runs bcast__SMP_binomial; recorded). The flat
//              table (S < 12288 || P <= 8: binomial_tree; ...) is never reached.
//   reduce     count < pof2 || S < 2048: binomial; else scatter_gather
//   reduce_scatter  sum of counts (ELEMENTS) > 524288: mpich_pair; else mpich_rdb
//   allgather  P pof2 && S*P < 524288: rdb; S*P <= 81920: bruck; else ring
//   allgatherv sum of counts (ELEMENTS) = 0: nothing; P pof2 && sum < 524288: mpich_rdb;
//              sum <= 81920: ompi_bruck; else mpich_ring
//   gather, scatter  ompi_binomial     gatherv, scatterv, scan, exscan: SimGrid's fixed ones
// allreduce and reduce: SimGrid's mpich selector first turns a communicator "SMP-aware" (its
// init_smp messages, which simfab sends too on the communicator's first mpich bcast, reduce or
// allreduce: registry.cpp) and then runs mvapich2_two_level. With one rank per host that is the
// flat mpich reduce (above) on the leaders' communicator (reduce__mpich on an SMP communicator),
// and allreduce__rdb for allreduce. In 3.32 that path crashes `smpirun -replay` (MPI_OP_NULL);
// simfab follows what SimGrid does running the program (validation/simgrid, "-vs-program").
// bcast's SMP path (SMP_binomial) and the ompi selector's mvapich2_knomial_intra_node (which
// also starts with init_smp) are reproduced. All assume one rank per host.
// Reductions: TI traces do not record the operation; SimGrid replays them with MPI_OP_NULL,
// which every selector treats as commutative, and so does simfab.
#pragma once

#include "mpi/coll/registry.hpp"

namespace simfab::coll {

// SimGrid's algorithm name for `op` under `sel` (kNone counts as kDefault) for `c`.
const char* select_smpi(SmpiSelector sel, CollOp op, const CollCall& c);

// The SimGrid table ids behind smpi-ompi's reduce_scatter, allgatherv and alltoallv decisions
// (the numbers of the header; for tests).
int smpi_ompi_reduce_scatter_id(int comm_size, Bytes total_bytes);
int smpi_ompi_allgatherv_id(int comm_size, Bytes per_rank_bytes);

}  // namespace simfab::coll
