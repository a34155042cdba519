// TiProgram's communicator actions and collective start (see ti_program.hpp and the SIMFAB
// EXTENSIONS of ti_trace.hpp): which communicator a line runs on, collectives on it, and the
// creation calls with their cost.
//
// Creation cost (an approximation, documented in ti_trace.hpp): MPI libraries agree on a new
// context id with an allreduce over the parent and, for split, gather every member's (colour,
// key) with an allgather. simfab charges comm_dup as an 8 B recursive-doubling allreduce and
// comm_split / comm_create as a Bruck allgather of 8 B per member, on the parent's collective
// context, counted as one of its collectives. Both algorithms are causal (every member's result
// depends on every member's start), so when a member leaves its creation every member has
// arrived and the new communicator exists: a later action can always use it.
#include "core/error.hpp"
#include "core/text_locator.hpp"
#include "mpi/call_error.hpp"
#include "mpi/coll/allgather_algorithms.hpp"
#include "mpi/coll/allreduce_algorithms.hpp"
#include "replay/ti_program.hpp"

namespace simfab {

void build_creation_fragment(coll::Fragment& f, TiKind kind, RankId local, int size) {
  constexpr Bytes kCreationBytes = 8;
  if (kind == TiKind::kCommDup) coll::allreduce_recursive_doubling(f, local, size, kCreationBytes, {});
  else coll::allgather_bruck(f, local, size, kCreationBytes);
  f.close(SimTime::zero());
}

const mpi::Comm& TiProgram::member_comm(RankId r, int32_t id, const TiLine& line) const {
  if (id == mpi::kCommWorld) return world_;  // every rank is a member; no lookup per line
  const mpi::Comm* comm = comms_.find(id);
  if (!comm)
    fail(line, line.begin,
         "communicator " + std::to_string(id) + " does not exist (no comm_split, comm_dup or comm_create of rank " +
             std::to_string(r) + " made it before this line, or it was freed)");
  const int32_t local = comm->group().local_rank(r);
  if (local == mpi::kUndefined)
    fail(line, line.begin,
         "rank " + std::to_string(r) + " is not a member of communicator " + std::to_string(id) + " (" +
             std::to_string(comm->size()) + " ranks)");
  if (comms_.freed_by(id, local))
    fail(line, line.begin, "rank " + std::to_string(r) + " uses communicator " + std::to_string(id) +
                               " after freeing it (comm_free)");
  return *comm;
}

TiProgram::CollEntry TiProgram::enter_collective(RankId r, const CollSignature& sig, const mpi::Comm& comm, SimTime t) {
  RankState& s = rank(r);
  const RankId local = comm.group().local_rank(r);
  const bool world = comm.id() == mpi::kCommWorld;
  CollEntry e;
  e.seq = world ? s.colls : static_cast<uint32_t>(comms_.next_collective_tag(comm.id(), local));
  e.choice = matcher_.enter(static_cast<uint32_t>(comm.id()), e.seq, comm.size(), local, r, s.line, sig,
                            ex_->collective_choice(r, t));
  if (world) ++s.colls;  // the world's sequence only: other communicators count in comms_
  return e;
}

bool TiProgram::start_collective(RankId r, uint32_t seq, const mpi::Comm& comm, SimTime t, bool nonblocking) {
  RankState& s = rank(r);
  const bool world = comm.id() == mpi::kCommWorld;
  const uint32_t run = runner_.start(*ex_, frag_, r, static_cast<int32_t>(seq & INT32_MAX), comm.collective_context(),
                                     t, world ? nullptr : &comm.group());
  if (!nonblocking) {
    s.state = State::kCollective;
    s.wait = run;
    return true;
  }
  // A request no point-to-point key can name (MPI_Waitall, waitany/waitsome without a list and
  // finalize complete it).
  const uint32_t req = add_request(r, kCollectiveKey, kCollectiveKey, static_cast<int32_t>(seq & INT32_MAX));
  requests_[req].line = s.line;
  requests_[req].comm = comm.id();
  requests_[req].coll = true;
  requests_[req].op = run;
  return false;
}

void TiProgram::start_creation(RankId r, const TiAction& a, const mpi::Comm& parent, SimTime t) {
  const RankId local = parent.group().local_rank(r);
  mpi::CreationArgs args;
  switch (a.kind) {
    case TiKind::kCommDup: args = mpi::CreationArgs::dup(a.comm2); break;
    case TiKind::kCommSplit:
      args = mpi::CreationArgs::split(a.peer == kTiUndefined ? mpi::kUndefined : a.peer, a.tag, a.comm2);
      break;
    default:
      group_.assign(counts_.begin(), counts_.end());
      args = mpi::CreationArgs::create(group_, a.comm2);
      break;
  }
  CollSignature sig;
  sig.name = ti_action_name(a.kind);
  const uint32_t file = trace_.file_of(r);
  const std::string name(trace_.file_name(file));
  try {
    comms_.arrive(parent.id(), local, args);
  } catch (const mpi::MpiCallError& e) {
    const std::string_view text = trace_.text(file);
    throw error_at(name, text, static_cast<size_t>(rank(r).line), "rank " + std::to_string(r) + ": " + e.what());
  }
  frag_.clear();
  build_creation_fragment(frag_, a.kind, local, parent.size());
  start_collective(r, enter_collective(r, sig, parent, t).seq, parent, t);
}

void TiProgram::free_comm(RankId r, const TiAction& a, const TiLine& line) {
  const mpi::Comm& comm = member_comm(r, a.comm2, line);
  const int32_t id = comm.id();
  smp_ready_.erase(smp_key(id, r));  // a later communicator may reuse the id
  try {
    if (comms_.free(id, comm.group().local_rank(r))) matcher_.fail_pending(static_cast<uint32_t>(id));
  } catch (const mpi::MpiCallError& e) {
    fail(line, line.begin, "rank " + std::to_string(r) + ": " + e.what());
  }
}

}  // namespace simfab
