// How an operation that keeps its rank from finishing is described in deadlock reports, one
// wording for every front-end:
//   recv of 8 B from rank 1 tag 4 never matched by a send
//   rendezvous send of 100000 B to rank 1 tag 0 never matched by a recv
//   send of 8 B to rank 1 tag 0 never started          calc never finished
//   probe for a message from any rank tag 3 that never came
// Wildcards read "any rank" / "any"; collective messages add " (collective)", messages of a
// communicator other than MPI_COMM_WORLD " on communicator K" (context_text).
#pragma once

#include <string>

#include "mpi/op.hpp"

namespace simfab {

std::string describe_stuck_op(const Op& op);
// " (collective)" and/or " on communicator K" for a matching context; empty for world p2p.
std::string context_text(uint32_t context);

}  // namespace simfab
