// Linear (direct, flat) collectives: every message goes straight between the two ranks that own
// the data, with no dependencies between the messages of one rank.
//
//   alltoall(v)   Schedgen's create_linear_alltoall_rank (seed 004 §2.5, research notes B.5):
//                 for step = 1 .. P-1: send to (r + step) mod P, then recv from (r - step) mod P.
//                 The v variant is the same pattern with per-peer sizes (Schedgen has none).
//   allgatherv    the alltoall pattern, sending the same block to every peer and receiving
//                 recv[peer] from each (Schedgen has none; this is MPICH's "ring-free" baseline).
//   gather(v)     Schedgen's create_gather: the root receives from virtual ranks 1 .. P-1 in order
//                 (binomial_vrank: ranks 0 and root swap), every other rank sends once to the
//                 root. The root does not message itself.
//   scatter(v)    Schedgen's create_scatter: the mirror of gather.
// Per-peer sizes are indexed by real rank; entry [rank] (the rank itself) is ignored.
//
// Complexity: 2(P-1) ops per rank for alltoall(v)/allgatherv; P-1 ops on the root and 1 op
// elsewhere for gather(v)/scatter(v); no edges. Message count: P(P-1) for alltoall.
#pragma once

#include <span>

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

// REQUIRES (all): 0 <= rank, root < size; spans hold `size` entries.
void linear_alltoall(Fragment& f, RankId rank, int size, Bytes send_bytes, Bytes recv_bytes);
void linear_alltoallv(Fragment& f, RankId rank, int size, std::span<const Bytes> send,
                      std::span<const Bytes> recv);
void linear_allgatherv(Fragment& f, RankId rank, int size, Bytes send_bytes, std::span<const Bytes> recv);

// `recv_each` / `recv[peer]`: what the root receives from each peer; `send_bytes`: what a
// non-root sends.
void linear_gather(Fragment& f, RankId rank, int size, RankId root, Bytes send_bytes, Bytes recv_each);
void linear_gatherv(Fragment& f, RankId rank, int size, RankId root, Bytes send_bytes,
                    std::span<const Bytes> recv);
// `send_each` / `send[peer]`: what the root sends to each peer; `recv_bytes`: what a non-root
// receives.
void linear_scatter(Fragment& f, RankId rank, int size, RankId root, Bytes send_each, Bytes recv_bytes);
void linear_scatterv(Fragment& f, RankId rank, int size, RankId root, std::span<const Bytes> send,
                     Bytes recv_bytes);

}  // namespace simfab::coll
