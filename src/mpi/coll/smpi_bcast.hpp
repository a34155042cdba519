// SimGrid 3.32's own broadcasts that its ompi and mpich selectors pick (select_smpi.hpp), as
// `smpirun -replay` runs them: trees on REAL ranks rooted at rank 0 (not rotated to the root),
// with a first blocking message root -> 0 when the root is another rank, which the root then
// receives again from its parent in the tree (SimGrid marks this root-is-not-zero case unfinished
// in its sources; simfab reproduces what SimGrid does, not what it meant).
//
//   function               SimGrid 3.32 source (src/smpi/colls/bcast/)   tree (parent; children)
//   smpi_relay_bcast kChain      bcast-NTSL.cpp   r-1; r+1 (< P)          "non-topology-specific
//   smpi_relay_bcast kHeapBinary bcast-NTSB.cpp   (r-1)/2; 2r+1, 2r+2      linear / binary"
//   smpi_smp_binomial_bcast      bcast-SMP-binomial.cpp, one rank per host (num_core = 1): the
//                                binomial tree of bcast-binomial-tree.cpp rooted at 0 (far child
//                                first), blocking recv then blocking sends
//
// smpi_relay_bcast: segment = max(1, 8192 / type size) elements, pipe = count / segment.
//   count <= segment: unpipelined, blocking: recv the whole buffer from the parent, then send it
//     to each child in turn (tree_down_blocking).
//   else: pipe pieces of segment elements: every irecv posted at once, piece i sent to each child
//     (left then right) once received (isend), then waitall (tree_down's edges, every irecv
//     issued before the first isend, as SimGrid calls them); the
//     count % segment remainder is one more colls::bcast of it, from the original root, with the
//     active selector (the caller runs it: smpi_relay_bcast returns its bytes).
// Recorded (smpirun -replay --log=smpi_request.thres:verbose, coll_smpi_test.cpp):
//   ompi, P = 13, 8 B, root 0 (NTSB): 0: S1 S2   1: R0 S3 S4   5: R2 S11 S12   6: R2
//   ompi, P = 7, 16384 B, root 3 (NTSL, 2 pieces of 8192): 0: R3:16384 S1 S1   3: S0:16384 R2 R2 S4 S4
//
// smpi_smp_binomial_bcast is what SimGrid's mpich selector runs for EVERY bcast (bcast__mpich
// calls comm->init_smp() on a communicator's first call and, its hosts holding the same number of
// ranks, bcast__SMP_binomial, whatever the size). On that first call (*c.smp_ready false) it
// first appends smpi_init_smp and sets *c.smp_ready; nullptr = the caller does not track it (no
// set-up, e.g. the checker).
// smpi_init_smp: the messages of SimGrid 3.32's Comm::init_smp (src/smpi/mpi/smpi_comm.cpp) with
//   one rank per host: allgather__ring of the 4-byte leader ids over the communicator, the same
//   over the leaders' communicator (every rank), then allreduce__default of the 4-byte
//   "is blocked" flag (ireduce linear to rank 0, then bcast__binomial_tree from 0). An
//   allgather__ring step i = 1 .. P-1 is one Request::sendrecv: send to r+i, receive from r-i.
//   Recorded (mpich, P = 4, bcast 4096 root 0), rank 0:
//     S1:4 R3:4 S2:4 R2:4 S3:4 R1:4  (twice)  R1:4 R2:4 R3:4  S2:4 S1:4  then S2:4096 S1:4096
//   Messages: 2P(P-1) + 2(P-1), all of 4 bytes. It is skipped while the fragment tracks data.
// smpi_mvapich2_knomial_bcast: bcast__mvapich2_knomial_intra_node (bcast-mvapich-smp.cpp), which
//   SimGrid's ompi selector picks for some sizes: the communicator's init_smp on its first call
//   (as above), then a k-nomial tree (k = mv2_intra_node_knomial_factor = 4) rooted at the root:
//   a blocking recv from the parent (the vrank with its lowest non-zero base-4 digit cleared),
//   then per level, highest place m first, isends to vrank + j m (j = 1 .. 3, < P) and a waitall.
//   Recorded (ompi, P = 13, 104 B inside allgatherv GB): rank 0 isends to 4, 8, 12, waits, then
//   1, 2, 3; ranks 4 and 8 send to their next three; 2 P (P - 1) + 2 (P - 1) set-up messages.
// smpi_flattree_bcast: bcast__flattree (bcast-flattree.cpp; no selector picks it): the root isends
//   the buffer to every other rank in increasing rank order and waits for all; the others receive
//   it (blocking). Recorded: P = 5, 100 B, root 2: 2: S0 S1 S3 S4, others: R2.
// Not modelled: several ranks per host (SimGrid's SMP algorithms then move data inside a host
// first, and init_smp's intra-host bcast sends messages too).
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/registry.hpp"

namespace simfab::coll {

enum class RelayTree : uint8_t { kChain, kHeapBinary };

inline constexpr Bytes kSmpiRelaySegmentBytes = 8192;  // bcast_NTS{L,B}_segment_size_in_byte
inline constexpr int kSmpiMv2KnomialFactor = 4;        // mv2_intra_node_knomial_factor

// Returns the remainder (bytes) the caller still broadcasts with the active selector (0: none).
Bytes smpi_relay_bcast(Fragment& f, const CollCall& c, RelayTree tree);
void smpi_smp_binomial_bcast(Fragment& f, const CollCall& c);
void smpi_mvapich2_knomial_bcast(Fragment& f, const CollCall& c);
void smpi_flattree_bcast(Fragment& f, const CollCall& c);
void smpi_init_smp(Fragment& f, RankId rank, int size);
// smpi_init_smp when c's communicator has not run it yet (*c.smp_ready false; then sets it), as
// SimGrid's bcast__mpich, reduce__mpich and allreduce__mpich begin; returns whether it did.
bool smpi_smp_setup_once(Fragment& f, const CollCall& c);

}  // namespace simfab::coll
