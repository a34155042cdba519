// OnlineProgram's communicators, groups, names and Cartesian topologies.
#include "online/online_program.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "mpi/call_error.hpp"
#include "online/datatype.hpp"
#include "online/mpi_fatal.hpp"
#include "online/online_program_detail.hpp"
#include "replay/ti_program.hpp"

namespace simfab::online {

using namespace detail;

// ---------------------------------------------------------------------------------------------
// Communicators and groups

RankId OnlineProgram::CommRef::world(int32_t l) const {
  if (l < 0) return l;
  if (!comm) return self;
  return comm->id() == mpi::kCommWorld ? l : comm->group().world_rank(l);
}

int32_t OnlineProgram::CommRef::local(RankId w) const {
  if (!comm) return 0;
  return comm->id() == mpi::kCommWorld ? w : comm->group().local_rank(w);
}

OnlineProgram::CommRef OnlineProgram::comm(MPI_Comm c, const char* call) const {
  CommRef cr;
  if (c == MPI_COMM_NULL) mpi_fatal(call, "the communicator is MPI_COMM_NULL");
  if (c == MPI_COMM_SELF) {
    cr.self = current_;
    cr.p2p_context = kSelfContext;
    cr.coll_context = kSelfContext + 1;
    return cr;
  }
  const mpi::Comm* m = c == MPI_COMM_WORLD || c >= kFirstTableHandle ? comms_.find(comm_id_of(c)) : nullptr;
  if (!m) mpi_fatal(call, "invalid communicator " + std::to_string(c) + " (not created, or freed)");
  const int32_t local = m->id() == mpi::kCommWorld ? current_ : m->group().local_rank(current_);
  if (local == mpi::kUndefined)
    mpi_fatal(call, "rank " + std::to_string(current_) + " is not a member of communicator " + std::to_string(c));
  if (m->id() != mpi::kCommWorld && comms_.freed_by(m->id(), local))
    mpi_fatal(call, "communicator " + std::to_string(c) + " was freed by this rank");
  cr.comm = m;
  cr.size = m->size();
  cr.rank = local;
  cr.p2p_context = m->p2p_context();
  cr.coll_context = m->collective_context();
  return cr;
}

std::string OnlineProgram::describe_comm(MPI_Comm c) const {
  if (c == MPI_COMM_WORLD) return "MPI_COMM_WORLD";
  if (c == MPI_COMM_SELF) return "MPI_COMM_SELF";
  auto it = comm_names_.find(c);
  if (it != comm_names_.end()) return "communicator " + it->second;
  return "communicator " + std::to_string(c);
}

MPI_Comm OnlineProgram::comm_create(MPI_Comm parent, mpi::CreationKind kind, int color, int key,
                                    std::span<const int32_t> group, const char* call, MPI_Request* request) {
  const CommRef p = comm(parent, call);
  if (!p.comm) mpi_fatal(call, "creating communicators from MPI_COMM_SELF is not supported by simfab");
  if (kind == mpi::CreationKind::kSplit && color < 0 && color != MPI_UNDEFINED)
    mpi_fatal(call, "colour " + std::to_string(color) + " must be >= 0 or MPI_UNDEFINED");
  const mpi::CommId pid = p.comm->id();
  Rank& R = rank();
  const uint32_t k = R.creations[parent]++;
  const int colour = kind == mpi::CreationKind::kSplit ? color : 0;
  mpi::CommId new_id = mpi::kCommNull;
  if (colour != MPI_UNDEFINED) {
    auto [it, fresh] = creation_ids_.emplace(std::make_tuple(pid, k, colour), next_comm_id_);
    if (fresh) ++next_comm_id_;
    new_id = it->second;
  }
  mpi::CreationArgs args;
  switch (kind) {
    case mpi::CreationKind::kDup: args = mpi::CreationArgs::dup(new_id); break;
    case mpi::CreationKind::kSplit: args = mpi::CreationArgs::split(colour == MPI_UNDEFINED ? mpi::kUndefined : colour, key, new_id); break;
    case mpi::CreationKind::kCreate: args = mpi::CreationArgs::create(group, new_id); break;
  }
  uint32_t i = 0;
  on_kernel_stack([&] {
    mpi::CreationTicket ticket;
    try {
      ticket = comms_.arrive(pid, p.rank, args);
    } catch (const mpi::MpiCallError& e) {
      mpi_fatal(call, e.detail());
    }
    if (ticket.completed) recheck_blocked();
    const TiKind tk = kind == mpi::CreationKind::kDup     ? TiKind::kCommDup
                      : kind == mpi::CreationKind::kSplit ? TiKind::kCommSplit
                                                          : TiKind::kCommCreate;
    i = start_creation_cost(p, pid, tk, call);
  });
  if (request != nullptr) {  // MPI_Comm_idup: the agreement (over every member) completes the request
    *request = static_cast<MPI_Request>(i + 1);
    return handle_of(new_id);
  }
  finish_creation(i, [this, pid, k] { return comms_.creation_complete(pid, k); }, std::string(call) + " on " + describe_comm(parent));
  return new_id == mpi::kCommNull || !comms_.find(new_id) || !comms_.find(new_id)->group().contains(current_)
             ? MPI_COMM_NULL
             : handle_of(new_id);
}

uint32_t OnlineProgram::start_creation_cost(const CommRef& over, mpi::CommId over_id, TiKind kind, const char* call) {
  // Its cost: the collective the MPI libraries run to agree on the new communicator.
  frag_.clear();
  build_creation_fragment(frag_, kind, over.rank, over.size);
  const int32_t tag = comms_.next_collective_tag(over_id, over.rank);
  const uint32_t i = new_request(Request::Kind::kColl);
  requests_[i].coll_args.call = call;
  rank().colls.push_back(i);
  requests_[i].run = runner_.start(*ex_, frag_, current_, tag, over.coll_context, rank().now,
                                   over_id == mpi::kCommWorld ? nullptr : &over.comm->group());
  return i;
}

void OnlineProgram::finish_creation(uint32_t i, std::function<bool()> created, std::string blocked_in) {
  block([this, i, created = std::move(created)] { return requests_[i].complete && created(); }, std::move(blocked_in));
  advance_to(requests_[i].done);
  MPI_Request h = static_cast<MPI_Request>(i + 1);
  consume(&h, MPI_STATUS_IGNORE);
}

MPI_Comm OnlineProgram::comm_create_group(MPI_Comm parent, const mpi::Group& group, int tag, const char* call) {
  const CommRef p = comm(parent, call);
  if (tag < 0 || tag > kTagUpperBound) mpi_fatal(call, "tag " + std::to_string(tag) + " is not in 0..MPI_TAG_UB");
  if (!group.contains(current_))
    mpi_fatal(call, "the calling process is not in the group (only the group's members call MPI_Comm_create_group)");
  std::vector<int32_t> members;
  for (int32_t m = 0; m < group.size(); ++m) {
    if (p.local(group.world_rank(m)) == mpi::kUndefined)
      mpi_fatal(call, "the group holds a process that is not in the communicator");
    members.push_back(group.world_rank(m));
  }
  const mpi::CommId pid = p.comm ? p.comm->id() : -2 - current_;  // MPI_COMM_SELF: one per rank
  // The members' n-th call with one (parent, tag, group) makes one communicator.
  const uint32_t n = group_creation_calls_[std::make_tuple(current_, pid, tag, members)]++;
  auto [it, fresh] = group_creation_ids_.emplace(std::make_tuple(pid, tag, std::move(members), n), next_comm_id_);
  if (fresh) ++next_comm_id_;
  const mpi::CommId id = it->second;
  uint32_t i = 0;
  on_kernel_stack([&] {
    comms_.adopt(id, group);
    i = start_creation_cost(comm(handle_of(id), call), id, TiKind::kCommCreate, call);
  });
  finish_creation(i, [] { return true; }, std::string(call) + " on " + describe_comm(parent));
  return handle_of(id);
}

void OnlineProgram::comm_free(MPI_Comm* c, const char* call) {
  if (*c == MPI_COMM_WORLD || *c == MPI_COMM_SELF) mpi_fatal(call, "MPI_COMM_WORLD and MPI_COMM_SELF cannot be freed");
  const CommRef cr = comm(*c, call);
  smp_ready_.erase({*c, current_});
  try {
    if (comms_.free(cr.comm->id(), cr.rank)) {
      carts_.erase(*c);
      comm_names_.erase(*c);
    }
  } catch (const mpi::MpiCallError& e) {
    mpi_fatal(call, e.detail());
  }
  *c = MPI_COMM_NULL;
}

int OnlineProgram::comm_compare(MPI_Comm a, MPI_Comm b, const char* call) const {
  if (a == b) {
    comm(a, call);
    return MPI_IDENT;
  }
  const CommRef ca = comm(a, call);
  const CommRef cb = comm(b, call);
  if (!ca.comm || !cb.comm) return ca.size == cb.size && ca.size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL;
  switch (mpi::compare(ca.comm->group(), cb.comm->group())) {
    case mpi::Comparison::kIdent: return MPI_CONGRUENT;
    case mpi::Comparison::kSimilar: return MPI_SIMILAR;
    default: return MPI_UNEQUAL;
  }
}

MPI_Group OnlineProgram::add_group(mpi::Group g) {
  groups_.push_back(std::make_unique<mpi::Group>(std::move(g)));
  return static_cast<MPI_Group>(groups_.size() + 1);
}

MPI_Group OnlineProgram::group_of(MPI_Comm c, const char* call) {
  const CommRef cr = comm(c, call);
  if (!cr.comm) return add_group(mpi::Group::strided(current_, 1, 1));
  return add_group(cr.comm->group());
}

const mpi::Group& OnlineProgram::group(MPI_Group g, const char* call) const {
  static const mpi::Group empty;
  if (g == MPI_GROUP_EMPTY) return empty;
  const int64_t i = static_cast<int64_t>(g) - 2;
  if (i < 0 || i >= static_cast<int64_t>(groups_.size()) || !groups_[static_cast<size_t>(i)])
    mpi_fatal(call, "invalid group " + std::to_string(g) + " (not created, or freed)");
  return *groups_[static_cast<size_t>(i)];
}

void OnlineProgram::free_group(MPI_Group* g, const char* call) {
  if (*g == MPI_GROUP_EMPTY) {
    *g = MPI_GROUP_NULL;
    return;
  }
  group(*g, call);
  groups_[static_cast<size_t>(*g - 2)].reset();
  *g = MPI_GROUP_NULL;
}

void OnlineProgram::set_comm_name(MPI_Comm c, std::string name, const char* call) {
  comm(c, call);
  comm_names_[c] = std::move(name);
}

std::string OnlineProgram::comm_name(MPI_Comm c, const char* call) const {
  comm(c, call);
  auto it = comm_names_.find(c);
  if (it != comm_names_.end()) return it->second;
  return c == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : c == MPI_COMM_SELF ? "MPI_COMM_SELF" : "";
}

void OnlineProgram::set_cart(MPI_Comm c, Cart cart) { carts_[c] = std::move(cart); }

const OnlineProgram::Cart& OnlineProgram::cart(MPI_Comm c, const char* call) const {
  comm(c, call);
  auto it = carts_.find(c);
  if (it == carts_.end()) mpi_fatal(call, describe_comm(c) + " has no Cartesian topology (MPI_Cart_create)");
  return it->second;
}


}  // namespace simfab::online
