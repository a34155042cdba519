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
//   send, rsend, recv           send, recv                            {requires it}
//   isend, irsend, irecv        send, recv; opens a request           {irequires it}
//   sendrecv                    send, then recv (both on the frontier) {requires both}
//   wait <src> <dst> <tag>      none                                  + {requires the request's op}
//   waitall                     none                                  + {requires every open request's op}
//   barrier, bcast, ... (all    the fragment of build_ti_collective   {requires its closing calc} +
//   collectives)                (mpi/coll/, the CollChoice given, as  {requires each op whose
//                               replay: --cfg mpi/<coll>=NAME and     completion the closing calc does
//                               mpi/coll-selector apply), its         not imply (one that only an
//                               internal requires/irequires edges     irequires edge follows)}
//                               and closing calc (the reduction's
//                               compute time, as replay)
//   ibarrier, ibcast, ... (the  the same fragment; the rank goes on   frontier unchanged; the ops a
//   non-blocking collectives)   at once, as replay                    blocking call would require
//                                                                     become open requests (waitall
//                                                                     requires them; no wait key
//                                                                     names them)
//   comm_split/dup/create       the creation's cost as replay charges it (replay/ti_comm.cpp): an
//   (with arguments)            8 B recursive-doubling allreduce (dup) or an 8 B Bruck allgather
//                               (split, create) on the parent, written as a collective of the
//                               parent (it takes one of the parent's collective numbers)
//   finalize                    none: the block ends (an action after it is an error, as replay)
//   init, comm_size, comm_free, location, test, testany, testsome, testall, iprobe   none
// MPI_PROC_NULL peers (kProcNull) make no op at all: a blocking call leaves the frontier as it is,
// an immediate one opens a request born completed (its wait adds nothing); sendrecv writes only
// its non-null half. ssend/issend/bsend/ibsend and probe to or from MPI_PROC_NULL are no-ops too.
// A request is matched by wait as in replay: key (rank, peer, tag, comm) for isend, (peer, rank,
// tag, comm) for irecv (peers as world ranks, a wildcard source as itself), the oldest with the
// key. A wait whose request was never started is an InputError at its line (replay would report a
// deadlock).
//
// NOT EXPRESSIBLE (InputError naming file:line and why; replay the trace with `simfab run`):
//   ssend, issend     GOAL has no synchronous-mode send (one that completes only once matched)
//   bsend, ibsend     GOAL has no buffered-mode send (one that completes locally whatever its size)
//   probe             GOAL has no probe (waiting for a message without receiving it)
//   cancel            of an irecv: whether it is cancelled depends on timing GOAL cannot test
//                     (cancel of an isend or of a request born completed does nothing: no op)
//   waitany, waitsome GOAL has no any-of dependency; accepted only when every request concerned
//                     was born completed (MPI_PROC_NULL) or none is open: then they consume
//                     requests exactly as replay (the first / all of them) and write nothing
// An action of another kind (one TiKind gains later) is an InputError naming it.
//
// COMMUNICATORS. A line ending in `comm=<id>` runs on that communicator: its peers and roots are
// local ranks there, written as world ranks (the group's world_rank); a collective is built for
// (local rank, communicator size) and its peers mapped the same way, as replay's FragmentRunner
// does. Groups come from a first pass over the trace's comm_* actions (replay/ti_to_goal_comms.hpp,
// which explains its order); the main pass then keeps, per rank, the communicators it belongs to:
// its k-th creation call gives it the instance the first pass recorded, comm_free removes it. A
// line on a communicator the rank does not hold (never created, freed, not a member) is an
// InputError, as in replay.
//
// TAGS. TiProgram separates matching spaces by context (each communicator has a point-to-point
// and a collective context; its k-th collective uses tag k there); GOAL has no contexts, so tags
// carry the separation, one disjoint range per space (the layout is GoalTags, ti_to_goal_comms.hpp):
//   MPI_COMM_WORLD p2p      the trace's tag t, which must lie in [0, 2^30) (InputError otherwise)
//   world collective k      2^30 + (k mod 2^29), k counted per rank over the world's collectives
//                           (creations on the world included): ranks call them in the same order,
//                           so the k-th has the same tag on every rank (replay's tag k, context 1)
//   sub-communicator #s     its own block above 3 x 2^29: p2p tag t -> base + t (t below a bound
//                           that shrinks with the number of communicators the trace creates:
//                           2^28 for one; InputError beyond), its k-th collective -> base +
//                           half + (k mod half)
// A receive with tag -1 (MPI_ANY_TAG) is written `tag any`, which would match any range: a rank
// that has both one and a collective is an InputError naming both lines. Communicator creations
// are collectives of every parent member, so `tag any` is only exportable in ranks that make no
// collective, hence use MPI_COMM_WORLD alone (a collective message reaches such a rank only from
// a collective it never calls, which replay leaves unmatched: not checked).
// A wildcard source (-555, or an SMPI -333 that TiUndefinedSources leaves one, as replay) is written
// `from any`; with a concrete tag it stays in its range.
//
// Equivalence with replay: the executor sees the same ops, released at the same times and in the
// same order per predecessor (a collective's roots in fragment order, sendrecv's send before its
// receive). One difference remains, which GOAL cannot express: an isend is a plain send, so under
// network/model=flow with flow/ois != flow/os its CPU overhead is flow/os (both default to 0).
//
// Cost: O(lines of the trace) time for rank-grouped traces (TiTrace cursors; up to O(P x lines)
// for a finely interleaved shared trace), twice (the first pass only tokenises lines that are not
// comm_*), plus O(ops + edges) of the fragments. Edges per action: (roots of the action) x
// (frontier size); the frontier holds one entry (two after sendrecv) plus one per request waited
// since the last op. Memory: the communicators (TiGoalComms: O(P + communicators + creation
// calls)), and the open requests, frontier and communicators of ONE rank, and one collective's
// fragment; nothing per line or per written op (GoalWriter streams).
#pragma once

#include <cstdint>
#include <ostream>
#include <span>

#include "mpi/coll/registry.hpp"
#include "platform/platform.hpp"
#include "replay/ti_to_goal_comms.hpp"
#include "replay/ti_trace.hpp"

namespace simfab {

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
