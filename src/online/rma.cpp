#include "online/rma.hpp"

#include <algorithm>
#include <cstring>

#include "online/datatype.hpp"
#include "online/mpi_fatal.hpp"
#include "online/reduce_op.hpp"

namespace simfab::online {

namespace {

struct Triple {
  uint64_t base;
  int64_t size;
  int64_t disp_unit;
};

std::vector<std::byte> packed(const void* buf, int count, MPI_Datatype t, const char* call) {
  std::vector<std::byte> b(static_cast<size_t>(count * type_size(t, call)));
  if (count > 0) pack(buf, count, t, b.data());
  return b;
}

}  // namespace

Rma& Rma::instance() {
  static Rma r;
  return r;
}

Rma::Window& Rma::window(OnlineProgram& p, MPI_Win win, const char* call, int* local) {
  if (win <= 0 || win > static_cast<MPI_Win>(windows_.size()) || !windows_[static_cast<size_t>(win - 1)].live)
    mpi_fatal(call, "invalid window " + std::to_string(win) + " (not created, or freed)");
  Window& w = windows_[static_cast<size_t>(win - 1)];
  const auto it = w.local_of.find(p.me());
  if (it == w.local_of.end()) mpi_fatal(call, "window " + std::to_string(win) + " was not created by this rank");
  *local = it->second;
  return w;
}

MPI_Comm Rma::comm_of(OnlineProgram& p, const Window& w) const {
  return w.members[static_cast<size_t>(w.local_of.at(p.me()))].comm;
}

MPI_Win Rma::create(OnlineProgram& p, void* base, MPI_Aint size, int disp_unit, MPI_Comm comm, bool allocate,
                    void** allocated, const char* call, bool dynamic) {
  if (size < 0) mpi_fatal(call, "size " + std::to_string(size) + " < 0");
  if (disp_unit <= 0) mpi_fatal(call, "disp_unit " + std::to_string(disp_unit) + " must be > 0");
  const OnlineProgram::CommRef cr = p.comm(comm, call);
  if (allocate) {
    base = size > 0 ? std::calloc(static_cast<size_t>(size), 1) : nullptr;
    if (size > 0 && !base) mpi_fatal(call, "out of memory for a window of " + std::to_string(size) + " B");
    *allocated = base;
  } else if (size > 0 && !base) {
    mpi_fatal(call, "base is NULL for a window of " + std::to_string(size) + " B");
  }
  const uint64_t id = cr.comm ? cr.p2p_context : kSelf + cr.self;
  const uint32_t k = created_[{p.me(), id}]++;
  auto [it, fresh] = keys_.emplace(std::make_pair(id, k), static_cast<int>(windows_.size()));
  if (fresh) {
    windows_.emplace_back();
    Window& w = windows_.back();
    w.live = true;
    w.dynamic = dynamic;
    w.size = cr.size;
    w.members.resize(static_cast<size_t>(cr.size));
    w.locks.resize(static_cast<size_t>(cr.size));
    w.pending.resize(static_cast<size_t>(cr.size));
    w.posts.assign(static_cast<size_t>(cr.size), 0);
    w.post_group.resize(static_cast<size_t>(cr.size));
    w.completes.assign(static_cast<size_t>(cr.size), 0);
    w.start_group.resize(static_cast<size_t>(cr.size));
    w.consumed.assign(static_cast<size_t>(cr.size), std::vector<int>(static_cast<size_t>(cr.size), 0));
  }
  const int index = it->second;
  Window& made = windows_[static_cast<size_t>(index)];
  if (made.dynamic != dynamic) mpi_fatal(call, "the members created different kinds of window");
  made.members[static_cast<size_t>(cr.rank)] = Member{static_cast<std::byte*>(base), size, disp_unit, allocate, comm, {}};
  made.local_of[p.me()] = cr.rank;
  if (static_cast<int>(made.local_of.size()) == cr.size) keys_.erase(it);  // every member has come
  // The exchange of (base, size, disp_unit) every MPI library runs: an allgather on comm.
  Triple mine{reinterpret_cast<uint64_t>(base), size, disp_unit};
  std::vector<Triple> all(static_cast<size_t>(cr.size));
  CollArgs a;
  a.op = coll::CollOp::kAllgather;
  a.sbuf = &mine;
  a.scount = sizeof(Triple);
  a.stype = MPI_BYTE;
  a.rbuf = all.data();
  a.rcount = sizeof(Triple);
  a.rtype = MPI_BYTE;
  a.call = call;
  p.collective(a, comm, false, call);
  return static_cast<MPI_Win>(index + 1);
}

void Rma::finish(OnlineProgram& p, Window& w, int local, int target) {
  auto& pend = w.pending[static_cast<size_t>(local)];
  std::vector<MPI_Request> reqs;
  for (auto it = pend.begin(); it != pend.end();) {
    if (target < 0 || it->target == target) {
      reqs.push_back(it->request);
      it = pend.erase(it);
    } else {
      ++it;
    }
  }
  if (!reqs.empty()) p.wait_all(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE, "MPI_Win (completing transfers)");
}

void Rma::fence(OnlineProgram& p, MPI_Win win, const char* call) {
  int local = 0;
  Window& w = window(p, win, call, &local);
  const MPI_Comm comm = comm_of(p, w);  // before finish(): it waits, and windows_ may grow meanwhile
  finish(p, w, local, -1);
  CollArgs a;
  a.op = coll::CollOp::kBarrier;
  a.call = call;
  p.collective(a, comm, false, call);
}

void Rma::free(OnlineProgram& p, MPI_Win* win, const char* call) {
  int local = 0;
  Window& w = window(p, *win, call, &local);
  const MPI_Comm comm = comm_of(p, w);
  finish(p, w, local, -1);
  CollArgs a;
  a.op = coll::CollOp::kBarrier;
  a.call = call;
  p.collective(a, comm, false, call);
  Window& again = windows_[static_cast<size_t>(*win - 1)];
  Member& m = again.members[static_cast<size_t>(local)];
  if (m.owned) std::free(m.base);
  m = Member{};
  if (++again.freed == again.size) again.live = false;
  *win = MPI_WIN_NULL;
}

void Rma::attach(OnlineProgram& p, MPI_Win win, void* base, MPI_Aint size, const char* call) {
  int local = 0;
  Window& w = window(p, win, call, &local);
  if (!w.dynamic) mpi_fatal(call, "the window was not created by MPI_Win_create_dynamic");
  if (size < 0 || (size > 0 && !base)) mpi_fatal(call, "invalid region (base NULL or size < 0)");
  w.members[static_cast<size_t>(local)].attached.emplace_back(static_cast<std::byte*>(base), size);
}

void Rma::detach(OnlineProgram& p, MPI_Win win, const void* base, const char* call) {
  int local = 0;
  Window& w = window(p, win, call, &local);
  auto& regions = w.members[static_cast<size_t>(local)].attached;
  const auto it = std::find_if(regions.begin(), regions.end(), [&](const auto& r) { return r.first == base; });
  if (it == regions.end()) mpi_fatal(call, "no region attached at that address");
  regions.erase(it);
}

void Rma::shared_query(OnlineProgram& p, MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr,
                       const char* call) {
  int local = 0;
  const Window& w = window(p, win, call, &local);
  if (rank == MPI_PROC_NULL) rank = 0;  // MPI: the lowest rank's segment (with size > 0 here: the first)
  if (rank < 0 || rank >= w.size) mpi_fatal(call, "rank " + std::to_string(rank) + " is not in the window's group");
  const Member& m = w.members[static_cast<size_t>(rank)];
  *size = m.size;
  *disp_unit = m.disp_unit;
  *static_cast<void**>(baseptr) = m.base;
}

void Rma::access(OnlineProgram& p, MPI_Win win, const Transfer& t, const char* call, MPI_Request* request) {
  int local = 0;
  Window& w = window(p, win, call, &local);
  if (t.target == MPI_PROC_NULL) return;
  if (t.target < 0 || t.target >= w.size)
    mpi_fatal(call, "target rank " + std::to_string(t.target) + " is not in the window's group (size " + std::to_string(w.size) + ")");
  if (t.disp < 0) mpi_fatal(call, "target_disp " + std::to_string(t.disp) + " < 0");
  if (t.target_count < 0 || t.origin_count < 0 || t.result_count < 0) mpi_fatal(call, "negative count");
  const Member& m = w.members[static_cast<size_t>(t.target)];
  const int64_t extent = t.target_count > 0 ? type_extent(t.target_type, call) * (t.target_count - 1) + type_size(t.target_type, call) : 0;
  std::byte* at = nullptr;
  if (w.dynamic) {  // the displacement is an address in a region the target attached
    at = reinterpret_cast<std::byte*>(t.disp);
    const bool inside = std::any_of(m.attached.begin(), m.attached.end(),
                                    [&](const auto& r) { return at >= r.first && at + extent <= r.first + r.second; });
    if (!inside)
      mpi_fatal(call, "the access (address " + std::to_string(t.disp) + ", " + std::to_string(extent) +
                          " B) is not inside memory the target attached to the dynamic window");
  } else {
    at = m.base + t.disp * m.disp_unit;
    if (t.disp * m.disp_unit + extent > m.size)
      mpi_fatal(call, "the access (displacement " + std::to_string(t.disp) + " x " + std::to_string(m.disp_unit) +
                          " B, " + std::to_string(extent) + " B) runs past the target's window of " + std::to_string(m.size) + " B");
  }
  const int64_t tbytes = t.target_count * type_size(t.target_type, call);
  Bytes moved = static_cast<Bytes>(tbytes);
  bool to_target = true;
  switch (t.kind) {
    case Access::kPut: {
      const auto data = packed(t.origin, t.origin_count, t.origin_type, call);
      if (static_cast<int64_t>(data.size()) != tbytes) mpi_fatal(call, "origin and target sizes differ");
      if (tbytes > 0) unpack(data.data(), t.target_count, t.target_type, at);
      break;
    }
    case Access::kGet: {
      const auto data = packed(at, t.target_count, t.target_type, call);
      if (static_cast<int64_t>(data.size()) != t.result_count * type_size(t.result_type, call))
        mpi_fatal(call, "origin and target sizes differ");
      if (tbytes > 0) unpack(data.data(), t.result_count, t.result_type, t.result);
      to_target = false;
      break;
    }
    case Access::kAccumulate:
    case Access::kGetAccumulate: {
      auto current = packed(at, t.target_count, t.target_type, call);
      if (t.kind == Access::kGetAccumulate && t.result_count > 0) unpack(current.data(), t.result_count, t.result_type, t.result);
      if (t.op != MPI_NO_OP) {
        const auto data = packed(t.origin, t.origin_count, t.origin_type, call);
        if (data.size() != current.size()) mpi_fatal(call, "origin and target sizes differ");
        reduce_packed(t.op, data.data(), current.data(), t.target_count, t.target_type, call);
        if (tbytes > 0) unpack(current.data(), t.target_count, t.target_type, at);
      }
      if (t.kind == Access::kGetAccumulate) moved += static_cast<Bytes>(tbytes);  // the old value comes back
      break;
    }
    case Access::kCompareAndSwap: {
      const int64_t n = type_size(t.target_type, call);
      std::vector<std::byte> old(static_cast<size_t>(n));
      std::memcpy(old.data(), at, static_cast<size_t>(n));
      if (std::memcmp(at, t.compare, static_cast<size_t>(n)) == 0) std::memcpy(at, t.origin, static_cast<size_t>(n));
      std::memcpy(t.result, old.data(), static_cast<size_t>(n));
      moved = static_cast<Bytes>(2 * n);
      break;
    }
  }
  const OnlineProgram::CommRef cr = p.comm(comm_of(p, w), call);
  const RankId me = p.me(), target = cr.world(t.target);
  const MPI_Request r = to_target ? p.rma_transfer(me, target, moved) : p.rma_transfer(target, me, moved);
  if (request) *request = r;
  else windows_[static_cast<size_t>(win - 1)].pending[static_cast<size_t>(local)].push_back(Pending{r, t.target});
}

void Rma::lock(OnlineProgram& p, int lock_type, int target, MPI_Win win, const char* call) {
  int local = 0;
  Window& w = window(p, win, call, &local);
  if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
    mpi_fatal(call, "lock_type must be MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED");
  if (target < 0 || target >= w.size) mpi_fatal(call, "target rank " + std::to_string(target) + " is not in the window's group");
  const size_t wi = static_cast<size_t>(win - 1);
  const size_t ti = static_cast<size_t>(target);
  const bool exclusive = lock_type == MPI_LOCK_EXCLUSIVE;
  p.wait_for(
      [this, wi, ti, exclusive] {
        const Lock& l = windows_[wi].locks[ti];
        return l.exclusive_holder < 0 && (!exclusive || l.shared.empty());
      },
      std::string(call) + " on target " + std::to_string(target));
  Lock& l = windows_[wi].locks[ti];
  if (exclusive) l.exclusive_holder = local;
  else l.shared.push_back(local);
}

void Rma::unlock(OnlineProgram& p, int target, MPI_Win win, const char* call) {
  int local = 0;
  Window& w = window(p, win, call, &local);
  if (target < 0 || target >= w.size) mpi_fatal(call, "target rank " + std::to_string(target) + " is not in the window's group");
  finish(p, w, local, target);
  Lock& l = windows_[static_cast<size_t>(win - 1)].locks[static_cast<size_t>(target)];
  if (l.exclusive_holder == local) {
    l.exclusive_holder = -1;
  } else {
    auto it = std::find(l.shared.begin(), l.shared.end(), local);
    if (it == l.shared.end()) mpi_fatal(call, "this rank holds no lock on target " + std::to_string(target));
    l.shared.erase(it);
  }
  p.recheck_blocked();
}

void Rma::lock_all(OnlineProgram& p, MPI_Win win, const char* call) {
  int local = 0;
  const int n = window(p, win, call, &local).size;
  for (int t = 0; t < n; ++t) lock(p, MPI_LOCK_SHARED, t, win, call);
}

void Rma::unlock_all(OnlineProgram& p, MPI_Win win, const char* call) {
  int local = 0;
  const int n = window(p, win, call, &local).size;
  for (int t = 0; t < n; ++t) unlock(p, t, win, call);
}

void Rma::flush(OnlineProgram& p, int target, MPI_Win win, const char* call) {
  int local = 0;
  Window& w = window(p, win, call, &local);
  finish(p, w, local, target);
}

std::vector<int> Rma::locals_of(OnlineProgram& p, const Window& w, MPI_Group group, const char* call) {
  const mpi::Group& g = p.group(group, call);
  const OnlineProgram::CommRef cr = p.comm(comm_of(p, w), call);
  std::vector<int> out;
  for (int32_t i = 0; i < g.size(); ++i) {
    const int32_t l = cr.local(g.world_rank(i));
    if (l == mpi::kUndefined) mpi_fatal(call, "the group holds a process outside the window's communicator");
    out.push_back(l);
  }
  return out;
}

void Rma::post(OnlineProgram& p, MPI_Group group, MPI_Win win, const char* call) {
  int local = 0;
  Window& w = window(p, win, call, &local);
  w.post_group[static_cast<size_t>(local)] = locals_of(p, w, group, call);
  w.completes[static_cast<size_t>(local)] = 0;
  ++w.posts[static_cast<size_t>(local)];
  p.recheck_blocked();
}

void Rma::start(OnlineProgram& p, MPI_Group group, MPI_Win win, const char* call) {
  int local = 0;
  Window& w = window(p, win, call, &local);
  const std::vector<int> targets = locals_of(p, w, group, call);
  w.start_group[static_cast<size_t>(local)] = targets;
  const size_t wi = static_cast<size_t>(win - 1);
  const size_t me = static_cast<size_t>(local);
  p.wait_for(
      [this, wi, me, targets] {
        for (int t : targets)
          if (windows_[wi].posts[static_cast<size_t>(t)] <= windows_[wi].consumed[me][static_cast<size_t>(t)]) return false;
        return true;
      },
      std::string(call) + " (waiting for the targets' MPI_Win_post)");
  for (int t : targets) ++windows_[wi].consumed[me][static_cast<size_t>(t)];
}

void Rma::complete(OnlineProgram& p, MPI_Win win, const char* call) {
  int local = 0;
  Window& w = window(p, win, call, &local);
  finish(p, w, local, -1);
  Window& again = windows_[static_cast<size_t>(win - 1)];
  for (int t : again.start_group[static_cast<size_t>(local)]) ++again.completes[static_cast<size_t>(t)];
  again.start_group[static_cast<size_t>(local)].clear();
  p.recheck_blocked();
}

void Rma::wait(OnlineProgram& p, MPI_Win win, const char* call) {
  int local = 0;
  window(p, win, call, &local);
  const size_t wi = static_cast<size_t>(win - 1);
  const size_t me = static_cast<size_t>(local);
  p.wait_for([this, wi, me] { return windows_[wi].completes[me] >= static_cast<int>(windows_[wi].post_group[me].size()); },
             std::string(call) + " (waiting for the origins' MPI_Win_complete)");
}

MPI_Group Rma::group(OnlineProgram& p, MPI_Win win, const char* call) {
  int local = 0;
  const Window& w = window(p, win, call, &local);
  return p.group_of(comm_of(p, w), call);
}

}  // namespace simfab::online
