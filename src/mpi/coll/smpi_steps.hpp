// The blocking call shapes SimGrid 3.32's collectives (src/smpi/colls/**) are written with, as
// Fragment steps (mpi/coll/step.hpp's After: the ops the next call must `require`):
//
//   Request::sendrecv(...)                    sendrecv_step (step.hpp): isend, irecv, waitall
//   Request::send / Request::recv             send_step / recv_step (step.hpp)
//   irecv; Request::send; Request::wait       irecv_send_step below: the receive is posted first
//                                             (the send `irequires` it), both start when the
//                                             previous call has returned
//
// SimGrid's replay reduces with MPI_OP_NULL (no computation), so no step charges a reduction;
// messages carry no segment lists (these algorithms are compared with recordings, not checked
// by check.hpp). Complexity: O(1) ops and edges per step.
#pragma once

#include "mpi/coll/step.hpp"

namespace simfab::coll {

inline After irecv_send_step(Fragment& f, After prev, RankId to, Bytes out, RankId from, Bytes in) {
  const uint32_t r = f.recv(from, in);
  require_after(f, r, prev);
  const uint32_t s = f.send(to, out);
  require_after(f, s, prev);
  f.irequire(s, r);
  return After{s, r};
}

// Request::sendrecv without data (the SimGrid algorithms' message exchange).
inline After smpi_sendrecv(Fragment& f, After prev, RankId to, Bytes out, RankId from, Bytes in) {
  return sendrecv_step(f, prev, Side{to, out, {}}, Side{from, in, {}}, Combine::kReplace, ReduceCost{});
}

}  // namespace simfab::coll
