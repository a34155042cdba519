// Inputs SimGrid 3.32 refuses but simfab runs (issue 34): under network/model=smpi a run is meant
// to predict what `smpirun` does, and for these calls smpirun stops instead, so simfab says so on
// stderr, once per (collective, algorithm, communicator size, reason), and goes on:
//
//   simfab: warning: SimGrid 3.32 refuses alltoall 'pair' on 6 ranks (needs a power of two);
//   simfab runs it anyway
//
// The refusals, found by reading SimGrid's src/smpi/colls for throw / xbt_assert on the
// communicator or the buffer and checked with smpirun -replay (3.32):
//   collective  SimGrid name        refuses when                     SimGrid does         simfab runs
//   alltoall    pair                P is not a power of two          throws invalid_argument   r+i / r-i partners
//   alltoallv   pair                P is not a power of two          throws                    bruck (smpi_alltoallv.hpp)
//   allgather   pair                P is not a power of two          throws                    the ring
//   allgatherv  pair                P is not a power of two          throws                    the ring
//   reduce      scatter_gather      0 < count < P, P not a power     MPI_ERR_TRUNCATE, abort   the fold receives P elements
//                                   of two                                                     (smpi_reduce_scatter_gather.hpp)
//   bcast       ompi_split_bintree  a half shorter than one segment  bcast__SMP_linear, whose  split-binary
//                                   (smpi_split_bintree.hpp)         init_smp crashes -replay
// The mpich selector itself picks alltoall pair for P odd and 32 KiB blocks or more, and the
// default and ompi selectors pick it on 5 to 7 ranks for 512 KiB to 1 MiB blocks, so a
// selected algorithm can be refused as well as a forced one.
// Not thread-safe: called from the single-threaded kernel (CollChoice::build).
#pragma once

#include <string>

#include "mpi/coll/registry.hpp"

namespace simfab::coll {

// The warning line (no newline) for running registry algorithm `a` of `op` on `c`, or "" when
// SimGrid 3.32 runs that call.
std::string smpi_refusal_warning(CollOp op, const CollAlgorithm& a, const CollCall& c);

// Writes smpi_refusal_warning to stderr the first time this process sees it; returns whether it
// wrote.
bool warn_smpi_refusal_once(CollOp op, const CollAlgorithm& a, const CollCall& c);

}  // namespace simfab::coll
