// TI trace -> GOAL text (`simfab goal`): the full point-to-point graph of a time-independent trace
// (replay/ti_trace.hpp), collectives expanded, so LogGOPSim or `simfab run --goal` can replay it
// and predict what `simfab run --trace` predicts (same makespan, messages and bytes).
//
// Semantics are TiProgram's (replay/ti_program.hpp), written as dependencies. Each rank keeps a
// FRONTIER: the dependencies its next action must meet. Every op an action produces that has no
// other predecessor in its action gets one edge per frontier entry; then the frontier is updated:
//   action                      GOAL ops                              frontier afterwards
//   compute <flops>             calc flops/speed of the rank's host   {requires it}
//   sleep <s>                   calc s                                {requires it}
//   send, recv                  send, recv                            {requires it}
//   isend, irecv                send, recv; opens a request           {irequires it}
//   wait <src> <dst> <tag>      none                                  + {requires the request's op}
//   waitall                     none                                  + {requires every open request's op}
//   barrier, bcast, ... (all    the fragment of build_ti_collective   {requires its closing calc} +
//   collectives)                (mpi/coll/, the CollChoice given, as  {requires each op whose
//                               replay: --cfg mpi/<coll>=NAME and     completion the closing calc does
//                               mpi/coll-selector apply), its         not imply (one that only an
//                               internal requires/irequires edges     irequires edge follows)}
//                               and closing calc (the reduction's
//                               compute time, as replay)
//   finalize                    none: the block ends (an action after it is an error, as replay)
//   init, comm_*, location, test  none
// A request is matched by wait as in replay: key (rank, peer, tag) for isend, (peer, rank, tag) for
// irecv, the oldest with the key. A wait whose request was never started is an InputError at its
// line (replay would report a deadlock). An action of another kind (one TiKind gains later) is an
// InputError naming it: it cannot be exported until this file learns it.
//
// TAGS. TiProgram separates collective messages by context (1) with the rank's collective counter
// as tag; GOAL has no contexts, so tags carry the separation:
//   point-to-point   the trace's tag t, which must lie in [0, kCollTagBase) (InputError otherwise);
//                    a receive with tag -1 (MPI_ANY_TAG) is written `tag any`
//   k-th collective  kCollTagBase + (k mod kCollTagBase), k = 0, 1, ... counted per rank: all its
//   of a rank        ops share that tag, and ranks call collectives in the same order, so the
//                    k-th collective has the same tag on every rank (replay's tag k, context 1)
// The ranges are disjoint, so no collective message matches an application receive, except with
// `tag any`: a rank that has both a tag -1 receive and a collective is an InputError.
//
// Equivalence with replay: the executor sees the same ops, released at the same times and in the
// same order per predecessor (a collective's roots in fragment order). One difference remains,
// which GOAL cannot express: an isend is a plain send, so under network/model=flow with
// flow/ois != flow/os its CPU overhead is flow/os (both default to 0).
//
// Cost: O(lines of the trace) time for rank-grouped traces (TiTrace cursors; up to O(P x lines)
// for a finely interleaved shared trace), plus O(ops + edges) of the fragments. Edges per action:
// (roots of the action) x (frontier size); the frontier holds one entry plus one per request
// waited since the last op. Memory: the open requests and frontier of ONE rank, and one
// collective's fragment; nothing per line or per written op (GoalWriter streams).
#pragma once

#include <cstdint>
#include <ostream>
#include <span>

#include "mpi/coll/registry.hpp"
#include "platform/platform.hpp"
#include "replay/ti_trace.hpp"

namespace simfab {

// Collective tags start here (2^30); point-to-point tags of the trace must stay below.
inline constexpr int32_t kCollTagBase = int32_t{1} << 30;

struct GoalExportStats {
  uint64_t ops = 0;
  uint64_t dependencies = 0;
};

// Writes `trace` as GOAL text to `out`, rank by rank. rank_host[r] is rank r's host in `platform`
// (its speed turns flops into time). Throws InputError (file:line, the line echoed) for a line
// replay would reject and for what cannot be exported (see above); `out` then holds a partial text.
// REQUIRES: rank_host.size() == trace.num_ranks(), every host in the platform.
GoalExportStats write_ti_as_goal(TiTrace& trace, const Platform& platform, std::span<const HostId> rank_host,
                                 const coll::CollChoice& choice, std::ostream& out);

}  // namespace simfab
