// MPI_Scan algorithms as per-rank point-to-point graphs (fragment.hpp).
//
// linear (chain)       OpenMPI 4.1 coll_base_scan.c ompi_coll_base_scan_intra_linear (and
//                      coll_basic_scan): rank 0 sends its buffer to rank 1; rank r > 0 receives
//                      the prefix {0..r-1} from r-1, reduces it into its own (charging `cost`),
//                      and, unless it is the last rank, sends {0..r} on to r+1.
//   P-1 messages of n bytes in all; rank 0 sends 1, ranks 1..P-2 receive and send 1, rank P-1
//   receives 1; P-1 reductions; the critical path is P-1 hops.
// Data layout for check_collective(kScan, P, 0, 1, ...) (check.hpp): one segment.
//
// Not here (see the report of issue 4): recursive-doubling scan and exscan (MPICH
// scan_intra_recursive_doubling.c, exscan_intra_recursive_doubling.c, OpenMPI
// scan_intra_recursivedoubling) and the linear exscan keep two buffers per rank (the partial
// result of the subtree and the prefix, or the received prefix and the value forwarded), while
// check.hpp's scan/exscan layout has one value per segment and no scratch segments, so no data
// annotation of them can be proven by check_collective.
// Complexity: at most 3 ops per rank.
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/reduce_cost.hpp"

namespace simfab::coll {

// REQUIRES: size >= 1, 0 <= rank < size.
void scan_linear(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost);

}  // namespace simfab::coll
