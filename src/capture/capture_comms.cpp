// CaptureAligner steps 3-4: communicator handles -> ids, requests -> the records that opened them,
// wildcard receives -> the peers the run recorded (see capture_run.hpp).
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "capture/capture_aligner.hpp"
#include "core/error.hpp"

namespace simfab {

namespace {

// A live handle of one rank: its id and the rank's (rank, size) in it.
struct Slot {
  int32_t id = 0;
  int32_t rank = 0;
  int32_t size = 0;
};

}  // namespace

void CaptureAligner::assign_comms() {
  CapCommInfo world;
  world.members.resize(run_.ranks_.size());
  for (size_t r = 0; r < world.members.size(); ++r) world.members[r] = static_cast<RankId>(r);
  run_.comms_.assign(1, world);
  first_creation_.assign(1, {0, 0});
  std::map<std::tuple<int32_t, uint32_t, int32_t>, int32_t> ids;  // (parent, creation, colour) -> id
  for (int r = 0; r < run_.num_ranks(); ++r) {
    RankCapture& rc = run_.ranks_[static_cast<size_t>(r)];
    std::unordered_map<int64_t, Slot> handles;  // looked up only, never iterated
    handles[rc.header.world] = Slot{0, r, run_.num_ranks()};
    if (rc.header.has_self) handles[rc.header.self] = Slot{kCapLocalComm, 0, 1};
    std::map<int32_t, uint32_t> creations;  // per parent id: this rank's creation calls so far
    for (uint32_t i = 0; i < limit_[static_cast<size_t>(r)]; ++i) {
      CapRecord& rec = rc.records[i];
      if (!rec.has_comm) continue;
      const int32_t biggest = std::max(rec.comm.size, rec.has_newcomm ? rec.newcomm.size : 0);
      if (biggest > run_.num_ranks()) {
        problem(r, i, std::string(cap_func_name(rec.func)) + " on a communicator of " + std::to_string(biggest) +
                          " ranks, more than MPI_COMM_WORLD's " + std::to_string(run_.num_ranks()));
        break;
      }
      auto it = handles.find(rec.comm.handle);
      if (it == handles.end()) {
        if (rec.comm.size != 1) {
          problem(r, i, std::string(cap_func_name(rec.func)) + " on communicator handle " +
                            std::to_string(rec.comm.handle) + " (size " + std::to_string(rec.comm.size) +
                            "), which no recorded call created; expected MPI_COMM_WORLD (handle " +
                            std::to_string(rc.header.world) +
                            ") or a communicator made by MPI_Comm_dup/split/create earlier in this file");
          break;
        }
        it = handles.emplace(rec.comm.handle, Slot{kCapLocalComm, 0, 1}).first;  // a self-like communicator
      }
      const Slot slot = it->second;
      if (slot.rank != rec.comm.rank || slot.size != rec.comm.size) {
        problem(r, i, std::string(cap_func_name(rec.func)) + " says it is rank " + std::to_string(rec.comm.rank) +
                          " of " + std::to_string(rec.comm.size) + " in communicator handle " +
                          std::to_string(rec.comm.handle) + ", but earlier records of this file say rank " +
                          std::to_string(slot.rank) + " of " + std::to_string(slot.size) +
                          " (are the lines of two ranks interleaved in one file?)");
        break;
      }
      rec.comm_id = slot.id;
      const CapClass cls = cap_class(rec.func);
      if (cls == CapClass::kFree) {
        if (slot.id == 0) {
          problem(r, i, "MPI_Comm_free of MPI_COMM_WORLD");
          break;
        }
        handles.erase(it);
        continue;
      }
      if (cls != CapClass::kCreation) continue;
      if (slot.id == kCapLocalComm) {  // made from a local communicator: local too
        if (rec.has_newcomm) handles[rec.newcomm.handle] = Slot{kCapLocalComm, rec.newcomm.rank, rec.newcomm.size};
        continue;
      }
      const uint32_t k = creations[slot.id]++;
      const int32_t color = cap_split_form(rec.func) ? rec.color : 0;
      if (cap_split_form(rec.func) && color == kCapUndefined) continue;
      if (!rec.has_newcomm) {  // a Comm_create non-member: its group is known once all ranks are read
        create_outsiders_.emplace_back(r, i);
        continue;
      }
      const auto key = std::make_tuple(slot.id, k, color);
      auto [found, fresh] = ids.emplace(key, static_cast<int32_t>(run_.comms_.size()));
      const int32_t id = found->second;
      if (fresh) {
        CapCommInfo info;
        info.parent = slot.id;
        info.how = rec.func;
        info.creation = k;
        info.color = color;
        info.members.assign(static_cast<size_t>(rec.newcomm.size), -1);
        run_.comms_.push_back(std::move(info));
        first_creation_.emplace_back(r, i);
      }
      CapCommInfo& info = run_.comms_[static_cast<size_t>(id)];
      const auto [fr, fi] = first_creation_[static_cast<size_t>(id)];
      if (static_cast<int32_t>(info.members.size()) != rec.newcomm.size) {
        problem(r, i, "the new communicator has " + std::to_string(rec.newcomm.size) + " ranks here but " +
                          std::to_string(info.members.size()) + " at " + where(fr, fi) +
                          " (the same creation call, so the same communicator)");
        break;
      }
      RankId& member = info.members[static_cast<size_t>(rec.newcomm.rank)];
      if (member >= 0) {
        problem(r, i, "rank " + std::to_string(rec.newcomm.rank) + " of the new communicator is claimed by world rank " +
                          std::to_string(member) + " too (" + where(fr, fi) + " made the same communicator)");
        break;
      }
      member = r;
      rec.new_id = id;
      handles[rec.newcomm.handle] = Slot{id, rec.newcomm.rank, rec.newcomm.size};
    }
  }
  // Comm_create non-members: the communicator their creation call made for the others, if any.
  for (const auto& [r, i] : create_outsiders_) {
    CapRecord& rec = run_.ranks_[static_cast<size_t>(r)].records[i];
    // Recount this rank's creation index on the parent: the records before i.
    uint32_t k = 0;
    const RankCapture& rc = run_.rank(r);
    for (uint32_t j = 0; j < i; ++j)
      if (cap_class(rc.records[j].func) == CapClass::kCreation && rc.records[j].comm_id == rec.comm_id) ++k;
    auto it = ids.find(std::make_tuple(rec.comm_id, k, 0));
    rec.new_id = it == ids.end() ? -1 : it->second;
  }
}

void CaptureAligner::check_members() {
  for (size_t id = 1; id < run_.comms_.size(); ++id) {
    const CapCommInfo& info = run_.comms_[id];
    const auto [fr, fi] = first_creation_[id];
    for (size_t m = 0; m < info.members.size(); ++m)
      if (info.members[m] < 0 && !salvage_)
        fail_at(fr, fi, comm_name(static_cast<int32_t>(id)) + " has " + std::to_string(info.members.size()) +
                            " ranks, but no file's creation call gives any rank rank " + std::to_string(m) + " in it");
  }
  run_.by_world_.assign(run_.comms_.size(), {});
  for (size_t id = 1; id < run_.comms_.size(); ++id) {
    auto& v = run_.by_world_[id];
    const auto& members = run_.comms_[id].members;
    for (size_t m = 0; m < members.size(); ++m)
      if (members[m] >= 0) v.emplace_back(members[m], static_cast<int32_t>(m));
    std::sort(v.begin(), v.end());
  }
}

void CaptureAligner::resolve_requests(RankId r) {
  RankCapture& rc = run_.ranks_[static_cast<size_t>(r)];
  const bool lap = rc.header.dialect == CapDialect::kLiballprof;
  std::unordered_map<uint64_t, uint32_t> open;  // request -> record (or kNullRequest); never iterated
  std::unordered_map<uint64_t, uint32_t> opened_at;
  const auto resolve = [&](CapRecord& rec, bool has, int32_t src, int32_t tag, uint32_t i) {
    if (rec.r_peer == kCapAnySource) {
      rec.wild_src = true;
      if (has) {
        if (src < 0 || src >= rec.comm.size) {
          problem(r, i, std::string(cap_func_name(rec.func)) + " from MPI_ANY_SOURCE completed with source " +
                            std::to_string(src) + ", which is not a rank of its communicator (size " +
                            std::to_string(rec.comm.size) + ")");
          return false;
        }
        rec.r_peer = src;
      }
    }
    if (rec.r_tag == kCapAnyTag) {
      rec.wild_tag = true;
      if (has) {
        if (tag < 0) {
          problem(r, i, std::string(cap_func_name(rec.func)) + " with MPI_ANY_TAG completed with tag " +
                            std::to_string(tag) + "; expected the message's tag (0 or more)");
          return false;
        }
        rec.r_tag = tag;
      }
    }
    return true;
  };
  // Record i opens its request; `null`: one that moves no message. False on a problem.
  const auto open_request = [&](const CapRecord& rec, uint32_t i, bool null) {
    const std::string name(cap_func_name(rec.func));
    if (!lap && rec.req == 0) {
      problem(r, i, name + " with request 0 (MPI_REQUEST_NULL); expected a request number of 1 or more");
      return false;
    }
    if (!lap && open.count(rec.req)) {
      problem(r, i, name + " opens request " + std::to_string(rec.req) + ", which is still open since line " +
                        std::to_string(rc.records[opened_at[rec.req]].line) + " (request numbers are never reused)");
      return false;
    }
    open[rec.req] = null ? CapDone::kNullRequest : i;
    opened_at[rec.req] = i;
    return true;
  };
  for (uint32_t i = 0; i < limit_[static_cast<size_t>(r)]; ++i) {
    CapRecord& rec = rc.records[i];
    const std::string name(cap_func_name(rec.func));
    switch (cap_class(rec.func)) {
      case CapClass::kIsend:
      case CapClass::kIrecv: {
        const bool send = cap_class(rec.func) == CapClass::kIsend;
        const bool null = (send ? rec.s_peer : rec.r_peer) == kCapProcNull || rec.comm_id == kCapLocalComm;
        if (!open_request(rec, i, null)) return;
        if (!send && !resolve(rec, false, 0, 0, i)) return;
        break;
      }
      case CapClass::kCollective:  // a nonblocking one opens a request, completed like a send's
        if (cap_nonblocking_coll(rec.func) && !open_request(rec, i, rec.comm_id == kCapLocalComm)) return;
        break;
      case CapClass::kCreation:  // MPI_Comm_idup's request: the creation is converted at the call
        if (rec.func == CapFunc::kCommIdup && !open_request(rec, i, true)) return;
        break;
      case CapClass::kTaken:  // MPI_Imrecv's request: the message was matched by its probe
        if (rec.func == CapFunc::kImrecv && !open_request(rec, i, true)) return;
        break;
      case CapClass::kRecv:
      case CapClass::kProbe:
      case CapClass::kSendrecv:
        if (rec.r_peer != kCapProcNull && !resolve(rec, rec.has_status, rec.st_src, rec.st_tag, i)) return;
        break;
      case CapClass::kCompletion: {
        if (lap) {
          // liballprof: request addresses (Waitall: n of them, 8 bytes apart); unknown ones are skipped.
          if (rec.func != CapFunc::kWait && rec.func != CapFunc::kWaitall) break;
          rec.done_begin = static_cast<uint32_t>(rc.done.size());
          rec.done_count = 0;
          const uint64_t n = rec.func == CapFunc::kWait ? 1 : rec.n;
          for (uint64_t j = 0; j < n; ++j) {
            const uint64_t addr = rec.req + 8 * j;
            auto it = open.find(addr);
            if (it == open.end()) continue;
            CapDone d;
            d.req = addr;
            d.op = it->second;
            rc.done.push_back(d);
            ++rec.done_count;
            open.erase(it);
          }
          break;
        }
        for (uint32_t j = 0; j < rec.done_count; ++j) {
          CapDone& d = rc.done[rec.done_begin + j];
          if (d.req == 0) {
            d.op = CapDone::kNullRequest;
            continue;
          }
          auto it = open.find(d.req);
          if (it == open.end()) {
            problem(r, i, name + " completes request " + std::to_string(d.req) +
                              ", which no earlier MPI_Isend/MPI_Irecv (or nonblocking collective, MPI_Imrecv) of this file opened (or an earlier call already "
                              "completed it)");
            return;
          }
          d.op = it->second;
          open.erase(it);
          if (d.op == CapDone::kNullRequest) continue;
          CapRecord& op = rc.records[d.op];
          if (d.src == kCapCancelled) {
            // Cancelled (MPI_Cancel): it moved no message, as if it had named MPI_PROC_NULL.
            (cap_class(op.func) == CapClass::kIsend ? op.s_peer : op.r_peer) = kCapProcNull;
            op.wild_src = op.wild_tag = false;
            d.op = CapDone::kNullRequest;
            continue;
          }
          if (cap_class(op.func) == CapClass::kIrecv && !resolve(op, true, d.src, d.tag, i)) return;
        }
        break;
      }
      default: break;
    }
  }
}

void CaptureAligner::index_collectives() {
  run_.colls_.assign(run_.comms_.size(), {});
  for (size_t id = 0; id < run_.comms_.size(); ++id) run_.colls_[id].resize(run_.comms_[id].members.size());
  run_.coll_index_.assign(run_.ranks_.size(), {});
  for (int r = 0; r < run_.num_ranks(); ++r) {
    const RankCapture& rc = run_.rank(r);
    auto& index = run_.coll_index_[static_cast<size_t>(r)];
    index.assign(rc.records.size(), UINT32_MAX);
    for (uint32_t i = 0; i < limit_[static_cast<size_t>(r)]; ++i) {
      const CapRecord& rec = rc.records[i];
      const CapClass cls = cap_class(rec.func);
      if ((cls != CapClass::kCollective && cls != CapClass::kCreation) || rec.comm_id < 0) continue;
      auto& list = run_.colls_[static_cast<size_t>(rec.comm_id)][static_cast<size_t>(rec.comm.rank)];
      index[i] = static_cast<uint32_t>(list.size());
      list.push_back(i);
    }
  }
}

}  // namespace simfab
