// MPICH's default ("auto") collective algorithm selection (issue 4, selectors: the MPICH half of
// `--cfg mpi/coll-selector=mpich`).
//
// Source reproduced: MPICH 3.3 (pmodels/mpich, src/mpi/coll/<coll>/<coll>.c, functions
// MPIR_<Coll>_intra_auto, with the CVAR defaults declared in the CVAR block at the top of the same
// files). These rules are unchanged from the monolithic src/mpi/coll/<coll>.c of MPICH 3.0-3.2
// (MPIR_<Coll>_intra), and are what MPICH 3.3.x runs when MPIR_CVAR_<COLL>_INTRA_ALGORITHM=auto.
// MPICH >= 3.4 replaced them by the JSON-driven "csel" selector, which is NOT reproduced here.
//
// Not modelled (simfab has no notion of them at this level): the SMP/node-aware paths taken first
// when MPIR_CVAR_ENABLE_SMP_COLLECTIVES is set and the communicator spans several nodes with
// several ranks each (MPIR_<Coll>_intra_smp), heterogeneous communicators, MPI_IN_PLACE alltoall
// (pairwise sendrecv_replace), device (ch3/ch4) overrides, and the early return of a zero-count
// bcast/allreduce (simfab still runs the chosen algorithm with empty messages).
// Reduction operations: TI traces do not record the operation, so simfab ASSUMES a builtin,
// commutative one. User-defined ops (HANDLE_KIND_BUILTIN false) would force recursive doubling
// for allreduce and binomial for reduce whatever the size; that branch is never taken.
//
// What `total_bytes` is, per collective (the quantity MPICH compares with its thresholds):
//   bcast       type_size * count                       (MPIR_Bcast_intra_auto: nbytes)
//   reduce      type_size * count                       (MPIR_Reduce_intra_auto)
//   allreduce   type_size * count                       (MPIR_Allreduce_intra_auto: nbytes)
//   allgather   recvcount * comm_size * type_size        (MPIR_Allgather_intra_auto: tot_bytes),
//               i.e. the WHOLE gathered buffer, not one rank's block
//   alltoall    sendcount * type_size                   (MPIR_Alltoall_intra_auto: nbytes),
//               i.e. the block sent to ONE destination
//   barrier, gather, scatter   ignored (MPICH has a single algorithm)
// Unlike select_ompi, this is NOT CollCall::bytes for allgather (one rank's block there): convert
// with mpich_total_bytes() below, which multiplies by P for allgather and passes the rest through.
// `type_size` (bytes per element; CollCall::type_size, the trace's datatype size) only matters
// for the "count >= pof2" conditions of reduce and allreduce (count = total_bytes / type_size):
// every other MPICH 3.3 rule compares bytes, and none of the chosen algorithms changes its
// messages with the count (MPICH's bcast scatter works on bytes; Rabenseifner's chunks are
// count/pof2 elements, which simfab cuts in bytes, split.hpp). The default 1 is MPI_BYTE. E.g.
// 16 ranks, allreduce of 300 MPI_DOUBLEs (2400 B > 2048): count 300 >= 16 -> Rabenseifner; on
// 512 ranks count 300 < 512 -> recursive doubling, where 2400 MPI_BYTEs would still be
// Rabenseifner (2400 >= 512).
//
// Decision rules (defaults: see MpichCvars below; P = comm_size, pof2 = largest power of two <= P):
//   barrier     dissemination
//   bcast       nbytes < 12288 || P < 8          -> binomial
//               else nbytes < 524288 && P is pof2 -> scatter + recursive-doubling allgather
//               else                              -> scatter + ring allgather
//   reduce      nbytes > 2048 && count >= pof2    -> reduce-scatter (recursive halving) + gather
//               else                              -> binomial
//   allreduce   nbytes <= 2048 || count < pof2    -> recursive doubling
//               else                              -> reduce-scatter + allgather (Rabenseifner)
//   allgather   tot_bytes < 524288 && P is pof2   -> recursive doubling
//               else tot_bytes < 81920            -> Bruck
//               else                              -> ring
//   alltoall    nbytes <= 256 && P >= 8           -> Bruck
//               else nbytes <= 32768              -> "scattered" (isend/irecv, 32 at a time)
//               else                              -> pairwise
//   gather      binomial
//   scatter     binomial
//
// Mapping of MPICH's algorithms onto simfab's registry names (mpi/coll/registry.cpp):
//   MPICH algorithm (MPIR_..._intra_*)           simfab name            note
//   Barrier_intra_dissemination                  "dissemination"
//   Bcast_intra_binomial                         "binomial"
//   Bcast_intra_scatter_ring_allgather           "scatter-allgather"
//   Bcast_intra_scatter_recursive_doubling_allgather
//                                                "scatter-allgather"    (1)
//   Reduce_intra_binomial                        "binomial"
//   Reduce_intra_reduce_scatter_gather           "rabenseifner"
//   Allreduce_intra_recursive_doubling           "recursive-doubling"
//   Allreduce_intra_reduce_scatter_allgather     "rabenseifner"
//   Allgather_intra_recursive_doubling           "recursive-doubling"   (only chosen when P is pof2)
//   Allgather_intra_brucks                       "bruck"
//   Allgather_intra_ring                         "ring"
//   Alltoall_intra_brucks                        "bruck"
//   Alltoall_intra_scattered                     "basic-linear"         (2)
//   Alltoall_intra_pairwise                      "pairwise"             (3)
//   Gather_intra_binomial                        "binomial"
//   Scatter_intra_binomial                       "binomial"
// (1) simfab has no scatter + recursive-doubling-allgather bcast; the medium-size pof2 case uses
//     the same binomial scatter followed by the ring allgather (same bytes moved, (P-1) instead of
//     log2 P allgather steps).
// (2) MPICH posts the irecvs/isends in batches of MPIR_CVAR_ALLTOALL_THROTTLE (32) destinations;
//     "basic-linear" posts all of them at once, which is identical for P <= 32.
// (3) MPICH's pairwise pairs rank r with r XOR s when P is a power of two, (r+s)/(r-s) mod P
//     otherwise; simfab's pairwise always uses (r+s)/(r-s): same P-1 steps and volume.
// Every MPICH 3.3 algorithm above is unsegmented: segment_bytes is always 0.
//
// Allreduce caveat: MPICH 3.3's MPIR_Allreduce_intra_auto computes
//   nbytes = MPIR_CVAR_MAX_SMP_ALLREDUCE_MSG_SIZE ? type_size * count : 0;
// (meant for the SMP test) and then reuses it in `nbytes <= MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE`, so
// with the default MAX_SMP_ALLREDUCE_MSG_SIZE = 0 a 3.3 build always runs recursive doubling. The
// monolithic MPIR_Allreduce_intra of earlier MPICH compared `count * type_size` and documents
// Rabenseifner for long messages; we reproduce that documented rule (the one the CVAR describes).
#pragma once

#include "mpi/coll/registry.hpp"
#include "mpi/coll/select_ompi.hpp"  // CollDecision, shared with the OpenMPI selector

namespace simfab::coll {

// MPICH 3.3's CVAR defaults (each from the CVAR block of the file that uses it).
struct MpichCvars {
  Bytes bcast_short_msg_size = 12288;        // MPIR_CVAR_BCAST_SHORT_MSG_SIZE      (bcast/bcast.c)
  Bytes bcast_long_msg_size = 524288;        // MPIR_CVAR_BCAST_LONG_MSG_SIZE       (bcast/bcast.c)
  int bcast_min_procs = 8;                   // MPIR_CVAR_BCAST_MIN_PROCS           (bcast/bcast.c)
  Bytes reduce_short_msg_size = 2048;        // MPIR_CVAR_REDUCE_SHORT_MSG_SIZE     (reduce/reduce.c)
  Bytes allreduce_short_msg_size = 2048;     // MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE  (allreduce/allreduce.c)
  Bytes allgather_short_msg_size = 81920;    // MPIR_CVAR_ALLGATHER_SHORT_MSG_SIZE  (allgather/allgather.c)
  Bytes allgather_long_msg_size = 524288;    // MPIR_CVAR_ALLGATHER_LONG_MSG_SIZE   (allgather/allgather.c)
  Bytes alltoall_short_msg_size = 256;       // MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE   (alltoall/alltoall.c)
  Bytes alltoall_medium_msg_size = 32768;    // MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE  (alltoall/alltoall.c)
  int alltoall_bruck_min_procs = 8;          // literal `comm_size >= 8` in MPIR_Alltoall_intra_auto
};

// MPICH's choice for `op` on `comm_size` ranks; see the table above for what total_bytes is.
CollDecision select_mpich(CollOp op, int comm_size, Bytes total_bytes, Bytes type_size = 1);
CollDecision select_mpich(CollOp op, int comm_size, Bytes total_bytes, Bytes type_size, const MpichCvars& cvars);

// MPICH's `total_bytes` from the registry's CollCall::bytes (one rank's block for allgather,
// alltoall, gather and scatter; the whole buffer for bcast, reduce and allreduce).
Bytes mpich_total_bytes(CollOp op, int comm_size, Bytes call_bytes);

}  // namespace simfab::coll
