// Capture -> GOAL schedule in Schedgen's shape (`simfab convert --goal OUT`; seed 004 §2.5, the
// thesis's Appendix C -> Appendix D), written with replay/goal_writer.hpp, times in ps.
//
// Per rank, every kOp record (capture_run.hpp) becomes its GOAL op(s), then the calc of the gap
// before it (capture_convert.hpp; written even when 0, as Schedgen does), then the edges:
//   l1: send 400000b to 1 tag 0        the op
//   l2: calc 73000000                  the gap since the previous op's return (MPI_Init's first)
//   l1 requires l2                     the op's roots require the gap
//   l2 requires l0                     the gap requires the previous op (irequires after an
//                                      Isend/Irecv: the rank goes on once it has started)
//   [lP: calc <pin>  l1 requires lP  lP requires l2]   with --pinning, when new bytes are pinned
// The final calc (last return -> MPI_Finalize's call) requires the last op. Ops:
//   Send/Bsend/Ssend/Rsend, Isend...   send <bytes>b to <world rank> tag <t>
//   Recv, Irecv                        recv <bytes>b from <world rank> tag <t> (the recorded source
//                                      of a wildcard; `any` where the trace has none)
//   Sendrecv                           its send and its recv (both roots; the gap after requires both)
//   Wait*, Test* that complete         calc 0 that requires each completed request's op
//   Probe                              calc 0 (GOAL has no probe)
//   collectives                        the ops of replay's algorithm for them under the default
//                                      (Schedgen) choice, build_ti_collective: dissemination for
//                                      barrier (1 B), allreduce and allgather, binomial trees for
//                                      bcast and reduce, linear alltoall(v), gather(v), scatter(v),
//                                      ...; the fragment's ops, its internal edges, its closing
//                                      calc 0; the next gap requires that calc
//   Comm_dup/split/create              the creation's cost as replay charges it (build_creation_
//                                      fragment), a collective of the parent
// Peers are world ranks (communicator ranks mapped through the members).
// TAGS (GOAL has no communicators): MPI_COMM_WORLD's point-to-point tags are written as they are;
// its k-th collective (creations count) uses 1000000 + (k mod 2^29), Schedgen's collsbase + its
// counter (seed 004 §6 test 7); a world tag inside that range is an InputError. Communicator i
// (1..N) uses GoalTags slot i (replay/ti_to_goal_comms.hpp) for its point-to-point tags and its
// collectives. Wildcard tags (liballprof) are `tag any`.
// Cost: O(records + fragment ops) per rank, streamed; memory: one rank's open requests.
// Thread-safety: none.
#pragma once

#include <ostream>

#include "capture/capture_convert.hpp"

namespace simfab {

inline constexpr int32_t kCaptureCollTagBase = 1000000;  // Schedgen's collsbase
inline constexpr int32_t kCaptureCollTagSpan = int32_t{1} << 29;

// Writes the whole schedule. Throws InputError (file:line) for a tag GOAL cannot carry.
void write_capture_goal(const CaptureRun& run, const ConvertOptions& options, std::ostream& out);

}  // namespace simfab
