// sendrecv_list_step: mpi/coll/step.hpp's sendrecv_step (a blocking MPI_Sendrecv, kReplace) for
// messages whose segments are not one contiguous run but an explicit list, e.g. Bruck's blocks
// r, r+1, ... that wrap around P, or the scattered (src, dst) blocks of a Bruck alltoall step.
// Same ops and edges as sendrecv_step: the send and the receive `require` the previous step, the
// receive `irequires` the send. Lists are recorded only while the fragment tracks data, so callers
// build them only when f.tracking() and pass empty ones otherwise (bytes are given separately).
// Complexity: O(1) ops and edges, O(list) copying while tracking.
#pragma once

#include <cstdint>
#include <span>

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

inline After sendrecv_list_step(Fragment& f, After prev, RankId to, Bytes send_bytes, std::span<const uint32_t> out,
                                RankId from, Bytes recv_bytes, std::span<const uint32_t> in) {
  const uint32_t s = f.send(to, send_bytes, out);
  require_after(f, s, prev);
  const uint32_t r = f.recv(from, recv_bytes, in);
  require_after(f, r, prev);
  f.irequire(r, s);
  return After{s, r};
}

}  // namespace simfab::coll
