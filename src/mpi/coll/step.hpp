// Steps: the blocking point-to-point calls of an MPI library's collective (MPIC_Send, MPIC_Recv,
// MPIC_Sendrecv in MPICH; ompi_coll_base_sendrecv in OpenMPI) as Fragment ops. Each step starts
// when the previous one has finished, which `After` names: the at most two ops the next step must
// `require` (a sendrecv's send and its receive, or the reduction that follows the receive).
//
//   send_step       send                               -> After{send}
//   recv_step       recv [+ reduction calc]            -> After{recv or calc}
//   sendrecv_step   send, recv [+ reduction calc]      -> After{send, recv or calc}
//                   the recv `irequires` the send: it merges into the buffer only after the send
//                   has taken its snapshot (MPICH and OpenMPI receive into a scratch buffer and
//                   reduce after both halves completed; the checker merges at the receive).
// A receive with Combine::kReduce charges the reduction through reduce_after() (reduce_cost.hpp).
//
// Complexity: O(1) per step: 1-3 ops, at most 5 edges.
#pragma once

#include <cstdint>

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/reduce_cost.hpp"

namespace simfab::coll {

inline constexpr uint32_t kNoOp = UINT32_MAX;

// The ops that end the previous step (kNoOp: none; a default After is the collective's start).
struct After {
  uint32_t a = kNoOp;
  uint32_t b = kNoOp;
};

inline void require_after(Fragment& f, uint32_t op, After prev) {
  if (prev.a != kNoOp) f.require(op, prev.a);
  if (prev.b != kNoOp) f.require(op, prev.b);
}

// One side of a message: the peer, its size and the segments it moves (check.hpp's layout).
struct Side {
  RankId peer = 0;
  Bytes bytes = 0;
  Segs segs;
};

inline After send_step(Fragment& f, After prev, Side out) {
  const uint32_t s = f.send(out.peer, out.bytes, out.segs);
  require_after(f, s, prev);
  return After{s};
}

// The op that ends receive `r`: its reduction calc when it reduces and reductions cost.
inline uint32_t received(Fragment& f, uint32_t r, Side in, Combine combine, const ReduceCost& cost) {
  return combine == Combine::kReduce ? reduce_after(f, r, in.bytes, cost) : r;
}

inline After recv_step(Fragment& f, After prev, Side in, Combine combine, const ReduceCost& cost) {
  const uint32_t r = f.recv(in.peer, in.bytes, in.segs, combine);
  require_after(f, r, prev);
  return After{received(f, r, in, combine, cost)};
}

inline After sendrecv_step(Fragment& f, After prev, Side out, Side in, Combine combine, const ReduceCost& cost) {
  const uint32_t s = send_step(f, prev, out).a;
  const uint32_t r = f.recv(in.peer, in.bytes, in.segs, combine);
  require_after(f, r, prev);
  f.irequire(r, s);
  return After{s, received(f, r, in, combine, cost)};
}

}  // namespace simfab::coll
