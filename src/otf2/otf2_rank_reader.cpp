// Otf2RankReader (see otf2_rank_reader.hpp).
#include "otf2/otf2_rank_reader.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace simfab {

namespace {


std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// The capture function an MPI region's name is, if any.
std::optional<CapFunc> func_named(const std::string& name) {
  const std::string l = lower(name);
  for (int f = 0; f < static_cast<int>(CapFunc::kCount); ++f)
    if (lower(std::string(cap_func_name(static_cast<CapFunc>(f)))) == l) return static_cast<CapFunc>(f);
  return std::nullopt;
}

std::optional<CapFunc> collective_func(OTF2_CollectiveOp op) {
  switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER: return CapFunc::kBarrier;
    case OTF2_COLLECTIVE_OP_BCAST: return CapFunc::kBcast;
    case OTF2_COLLECTIVE_OP_GATHER: return CapFunc::kGather;
    case OTF2_COLLECTIVE_OP_GATHERV: return CapFunc::kGatherv;
    case OTF2_COLLECTIVE_OP_SCATTER: return CapFunc::kScatter;
    case OTF2_COLLECTIVE_OP_SCATTERV: return CapFunc::kScatterv;
    case OTF2_COLLECTIVE_OP_ALLGATHER: return CapFunc::kAllgather;
    case OTF2_COLLECTIVE_OP_ALLGATHERV: return CapFunc::kAllgatherv;
    case OTF2_COLLECTIVE_OP_ALLTOALL: return CapFunc::kAlltoall;
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW: return CapFunc::kAlltoallv;
    case OTF2_COLLECTIVE_OP_ALLREDUCE: return CapFunc::kAllreduce;
    case OTF2_COLLECTIVE_OP_REDUCE: return CapFunc::kReduce;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: return CapFunc::kReduceScatter;
    case OTF2_COLLECTIVE_OP_SCAN: return CapFunc::kScan;
    case OTF2_COLLECTIVE_OP_EXSCAN: return CapFunc::kExscan;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: return CapFunc::kReduceScatterBlock;
    default: return std::nullopt;
  }
}

// Whether a CREATE_HANDLE collective without a CommCreate is a communicator constructor that gave
// this rank MPI_COMM_NULL (rather than a window or a file).
bool makes_comm(const std::string& region) {
  const std::string l = lower(region);
  for (const char* prefix : {"mpi_comm_", "mpi_cart_", "mpi_graph_", "mpi_dist_graph_", "mpi_intercomm_"})
    if (l.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace

Otf2RankReader::Otf2RankReader(const Otf2Defs& defs, const std::string& anchor, int32_t rank, RankCapture& out)
    : defs_(defs), rank_(rank), out_(out) {
  out_.path = anchor + "[location " + std::to_string(defs.rank_location[static_cast<size_t>(rank)]) + "]";
  out_.header.dialect = CapDialect::kSimfab;
  out_.header.rank = rank;
  out_.header.size = static_cast<int32_t>(defs.rank_location.size());
  out_.header.world = static_cast<int64_t>(defs.world);
  out_.header.has_world = true;
  out_.header.self = static_cast<int64_t>(defs.self);
  out_.header.has_self = defs.self != OTF2_UNDEFINED_COMM;
  out_.header.ps_per_unit = 1;
  out_.header.hostname = defs.rank_host[static_cast<size_t>(rank)];
  out_.header.library = defs.library;
}

void Otf2RankReader::fail(uint64_t pos, const std::string& what) const {
  throw InputError(SourceLoc{out_.path, static_cast<int>(std::min<uint64_t>(pos, INT32_MAX)), 0}, what);
}

std::optional<CapFunc> Otf2RankReader::named(const Call& c) const { return func_named(c.name); }

void Otf2RankReader::tick(uint64_t pos, uint64_t t) {
  if (t < last_tick_)
    fail(pos, "time goes backwards: tick " + std::to_string(t) + " after tick " + std::to_string(last_tick_));
  last_tick_ = t;
  last_ps_ = defs_.ps(t);
  if (first_ps_ < 0) first_ps_ = last_ps_;
}

CapComm Otf2RankReader::comm_of(uint64_t pos, uint64_t comm, const char* event) {
  auto it = defs_.comms.find(comm);
  if (it == defs_.comms.end())
    fail(pos, std::string(event) + " on communicator " + std::to_string(comm) + ", which the definitions never define");
  CapComm c;
  c.handle = static_cast<int64_t>(comm);
  if (it->second.self) {
    c.size = 1;
    return c;
  }
  const auto& m = it->second.members;
  auto at = std::find(m.begin(), m.end(), rank_);
  if (at == m.end())
    fail(pos, std::string(event) + " on communicator " + std::to_string(comm) + " ('" + it->second.name +
                  "'), which rank " + std::to_string(rank_) + " is not a member of");
  c.rank = static_cast<int32_t>(at - m.begin());
  c.size = static_cast<int32_t>(m.size());
  return c;
}

int32_t Otf2RankReader::peer_in(uint64_t pos, const CapComm& c, uint32_t peer, const char* what) const {
  if (peer >= static_cast<uint32_t>(c.size))
    fail(pos, std::string(what) + " " + std::to_string(peer) + " is not a rank of communicator " +
                  std::to_string(c.handle) + " (size " + std::to_string(c.size) + ")");
  return static_cast<int32_t>(peer);
}

Otf2RankReader::Call& Otf2RankReader::in_call(uint64_t pos, const char* event) {
  if (!call_) fail(pos, std::string(event) + " outside of an MPI call (expected it between the Enter and the Leave "
                                             "of an MPI region such as MPI_Send)");
  if (finalized_) fail(pos, std::string(event) + " after MPI_Finalize");
  return *call_;
}

void Otf2RankReader::enter(uint64_t pos, uint64_t t, uint64_t region) {
  tick(pos, t);
  auto it = defs_.regions.find(region);
  if (it == defs_.regions.end())
    fail(pos, "Enter of region " + std::to_string(region) + ", which the definitions never define");
  const bool mpi = it->second.mpi;
  if (mpi && !call_) {
    Call c;
    c.name = it->second.name;
    c.pos = pos;
    c.enter = last_ps_;
    c.enter_tick = t;
    if (count_tick_ == t) c.count_enter = count_;  // the counter's event came just before the Enter
    for (auto o = stack_.rbegin(); o != stack_.rend(); ++o)
      if (!o->mpi) {
        const std::string& site = defs_.regions.at(o->region).name;
        auto [s, added] = site_ids_.try_emplace(site, static_cast<uint32_t>(out_.sites.size() + 1));
        if (added) out_.sites.push_back(site);
        c.site = s->second;
        break;
      }
    call_ = std::move(c);
    call_depth_ = stack_.size();
  }
  stack_.push_back(Open{region, mpi});
}

void Otf2RankReader::leave(uint64_t pos, uint64_t t, uint64_t region) {
  tick(pos, t);
  if (stack_.empty() || stack_.back().region != region) {
    const std::string open = stack_.empty() ? "none is open" : "the open one is '" + defs_.regions.at(stack_.back().region).name + "'";
    auto it = defs_.regions.find(region);
    fail(pos, "Leave of region '" + (it == defs_.regions.end() ? std::to_string(region) : it->second.name) +
                  "', but " + open);
  }
  stack_.pop_back();
  if (call_ && stack_.size() == call_depth_) {
    leave_tick_ = t;
    count_leave_ = count_tick_ == t ? count_ : RankCapture::kNoCounter;
    close_call(last_ps_);
  }
}

void Otf2RankReader::flop_counter(uint64_t pos, uint64_t t, uint64_t value) {
  tick(pos, t);
  count_ = value;
  count_tick_ = t;
  // Score-P writes a call's metrics at the Enter's and the Leave's time, before or after them.
  if (call_ && call_->enter_tick == t && call_->count_enter == RankCapture::kNoCounter) call_->count_enter = value;
  if (!call_ && leave_tick_ == t && !out_.counters.empty()) out_.counters.back().second = value;
}

void Otf2RankReader::send(uint64_t pos, uint64_t t, uint32_t peer, uint64_t comm, uint32_t tag, uint64_t bytes, bool isend,
                      uint64_t req) {
  tick(pos, t);
  const char* event = isend ? "MpiIsend" : "MpiSend";
  Call& c = in_call(pos, event);
  CapRecord rec;
  rec.comm = comm_of(pos, comm, event);
  rec.s_peer = peer_in(pos, rec.comm, peer, "the receiver");
  rec.s_tag = static_cast<int32_t>(tag & 0x7fffffff);
  rec.s_count = bytes;
  rec.s_dt = 1;
  rec.req = req;
  rec.func = isend ? CapFunc::kIsend : CapFunc::kSend;
  c.ops.push_back(rec);
}

void Otf2RankReader::recv(uint64_t pos, uint64_t t, uint32_t peer, uint64_t comm, uint32_t tag, uint64_t bytes) {
  tick(pos, t);
  Call& c = in_call(pos, "MpiRecv");
  CapRecord rec;
  rec.func = CapFunc::kRecv;
  rec.comm = comm_of(pos, comm, "MpiRecv");
  rec.r_peer = rec.st_src = peer_in(pos, rec.comm, peer, "the sender");
  rec.r_tag = rec.st_tag = static_cast<int32_t>(tag & 0x7fffffff);
  rec.r_count = rec.st_bytes = bytes;
  rec.r_dt = 1;
  rec.has_status = true;
  c.ops.push_back(rec);
}

void Otf2RankReader::irecv_request(uint64_t pos, uint64_t t, uint64_t req) {
  tick(pos, t);
  Call& c = in_call(pos, "MpiIrecvRequest");
  CapRecord rec;
  rec.func = CapFunc::kIrecv;
  rec.req = req;
  rec.r_peer = kCapProcNull;  // until its completion names the sender: one never completed moves nothing
  rec.r_dt = 1;
  rec.comm.handle = static_cast<int64_t>(defs_.world);
  rec.comm.rank = rank_;
  rec.comm.size = out_.header.size;
  c.ops.push_back(rec);
}

void Otf2RankReader::irecv_done(uint64_t pos, uint64_t t, uint32_t peer, uint64_t comm, uint32_t tag, uint64_t bytes,
                            uint64_t req) {
  tick(pos, t);
  const CapComm cc = comm_of(pos, comm, "MpiIrecv");
  const int32_t src = peer_in(pos, cc, peer, "the sender");
  const auto tg = static_cast<int32_t>(tag & 0x7fffffff);
  auto it = irecvs_.find(req);
  if (it != irecvs_.end()) {
    CapRecord& rec = out_.records[it->second];
    rec.comm = cc;
    rec.r_peer = src;
    rec.r_tag = tg;
    rec.r_count = bytes;
    irecvs_.erase(it);
  }
  done(pos, last_tick_, CapDone{req, src, tg, bytes});
}

void Otf2RankReader::done(uint64_t pos, uint64_t t, CapDone d) {
  tick(pos, t);
  in_call(pos, "a request completion").dones.push_back(d);
}

void Otf2RankReader::collective(uint64_t pos, uint64_t t, OTF2_CollectiveOp op, uint64_t comm, uint32_t root,
                            uint64_t sent, uint64_t received) {
  tick(pos, t);
  Call& c = in_call(pos, "MpiCollectiveEnd");
  CapRecord rec;
  rec.comm = comm_of(pos, comm, "MpiCollectiveEnd");
  if (op == OTF2_COLLECTIVE_OP_CREATE_HANDLE || op == OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE) {
    if (!makes_comm(c.name) && !c.created) return;  // a window or a file: not modelled
    const std::string l = lower(c.name);
    rec.func = l.rfind("mpi_comm_dup", 0) == 0 || l == "mpi_comm_idup" ? CapFunc::kCommDup : CapFunc::kCommSplit;
  } else if (auto f = collective_func(op)) {
    rec.func = *f;
    if (cap_rooted(rec.func)) rec.root = peer_in(pos, rec.comm, root, "the root");
    rec.s_count = sent;
    rec.r_count = received;
    rec.s_dt = rec.r_dt = 1;
  } else {
    return;  // destroy handle (CommDestroy says), windows: not modelled
  }
  if (c.collective) fail(pos, "a second MpiCollectiveEnd in one MPI call ('" + c.name + "')");
  c.collective = true;
  c.coll = rec;
}

void Otf2RankReader::comm_create(uint64_t pos, uint64_t t, uint64_t comm) {
  tick(pos, t);
  Call& c = in_call(pos, "CommCreate");
  c.newcomm = comm_of(pos, comm, "CommCreate");
  c.created = true;
}

void Otf2RankReader::comm_destroy(uint64_t pos, uint64_t t, uint64_t comm) {
  tick(pos, t);
  Call& c = in_call(pos, "CommDestroy");
  CapRecord rec;
  rec.func = CapFunc::kCommFree;
  rec.comm = comm_of(pos, comm, "CommDestroy");
  c.ops.push_back(rec);
}

void Otf2RankReader::emit(CapRecord rec) {
  if (finalized_) fail(rec.line, std::string(cap_func_name(rec.func)) + " after MPI_Finalize");
  const bool init = rec.func == CapFunc::kInit || rec.func == CapFunc::kInitThread;
  if (out_.records.empty() && !init) {
    CapRecord first;
    first.func = CapFunc::kInit;
    first.line = rec.line;
    first.call = first.ret = first_ps_;
    out_.records.push_back(first);
    if (!defs_.flop_metrics.empty()) out_.counters.emplace_back(RankCapture::kNoCounter, RankCapture::kNoCounter);
  } else if (!out_.records.empty() && init) {
    fail(rec.line, std::string(cap_func_name(rec.func)) + " after other MPI calls");
  }
  const CapClass cls = cap_class(rec.func);
  rec.has_comm = cls != CapClass::kInit && cls != CapClass::kFinalize && cls != CapClass::kCompletion;
  finalized_ = rec.func == CapFunc::kFinalize;
  out_.records.push_back(rec);
  if (!defs_.flop_metrics.empty()) out_.counters.emplace_back(RankCapture::kNoCounter, RankCapture::kNoCounter);
}

void Otf2RankReader::close_call(int64_t leave) {
  Call c = std::move(*call_);
  call_.reset();
  const std::optional<CapFunc> name = named(c);
  std::vector<CapRecord> recs;
  const auto is_send = [](const CapRecord& r) { return r.func == CapFunc::kSend; };
  const auto is_recv = [](const CapRecord& r) { return r.func == CapFunc::kRecv; };
  if (c.ops.size() == 2 && is_send(c.ops[0]) != is_send(c.ops[1]) &&
      (is_recv(c.ops[0]) || is_recv(c.ops[1]))) {  // MPI_Sendrecv(_replace)
    CapRecord rec = is_send(c.ops[0]) ? c.ops[1] : c.ops[0];
    const CapRecord& s = is_send(c.ops[0]) ? c.ops[0] : c.ops[1];
    if (s.comm.handle != rec.comm.handle) fail(c.pos, "'" + c.name + "' sends and receives on two communicators");
    rec.func = name == CapFunc::kSendrecvReplace ? CapFunc::kSendrecvReplace : CapFunc::kSendrecv;
    rec.s_peer = s.s_peer;
    rec.s_tag = s.s_tag;
    rec.s_count = s.s_count;
    rec.s_dt = 1;
    recs.push_back(rec);
  } else {
    for (CapRecord rec : c.ops) {
      // The send mode the region's name says (MPI_Ssend, MPI_Ibsend, ...).
      if (name && (rec.func == CapFunc::kSend || rec.func == CapFunc::kIsend) &&
          cap_class(*name) == cap_class(rec.func))
        rec.func = *name;
      recs.push_back(rec);
    }
  }
  if (c.collective) {
    CapRecord rec = c.coll;
    if (cap_class(rec.func) == CapClass::kCreation) {
      if (c.created) {
        rec.newcomm = c.newcomm;
        rec.has_newcomm = true;
        // Split form: colour = the parent rank of the new communicator's rank 0, key = the new rank.
        const auto& members = defs_.comms.at(static_cast<uint64_t>(c.newcomm.handle)).members;
        const auto& parent = defs_.comms.at(static_cast<uint64_t>(rec.comm.handle)).members;
        auto at = members.empty() ? parent.end() : std::find(parent.begin(), parent.end(), members[0]);
        if (at == parent.end())
          fail(c.pos, "'" + c.name + "' made communicator " + std::to_string(c.newcomm.handle) +
                          " from communicator " + std::to_string(rec.comm.handle) + ", which does not hold its rank 0");
        rec.color = static_cast<int32_t>(at - parent.begin());
        rec.key = c.newcomm.rank;
      } else {
        rec.color = kCapUndefined;
        if (rec.func == CapFunc::kCommDup) fail(c.pos, "'" + c.name + "' made no communicator (no CommCreate event)");
      }
    }
    recs.push_back(rec);
  }
  if (!c.dones.empty()) {
    CapRecord rec;
    rec.func = name && cap_class(*name) == CapClass::kCompletion ? *name : CapFunc::kWaitall;
    rec.done_begin = static_cast<uint32_t>(out_.done.size());
    rec.done_count = static_cast<uint32_t>(c.dones.size());
    rec.n = c.dones.size();
    rec.flag = true;
    out_.done.insert(out_.done.end(), c.dones.begin(), c.dones.end());
    recs.push_back(rec);
  }
  if (name && (*name == CapFunc::kInit || *name == CapFunc::kInitThread || *name == CapFunc::kFinalize)) {
    CapRecord rec;
    rec.func = *name;
    recs.insert(*name == CapFunc::kFinalize ? recs.end() : recs.begin(), rec);  // completions before finalize
  }
  for (size_t k = 0; k < recs.size(); ++k) {
    CapRecord& rec = recs[k];
    rec.line = static_cast<uint32_t>(std::min<uint64_t>(c.pos, UINT32_MAX));
    rec.call = c.enter;
    rec.ret = k + 1 == recs.size() ? leave : c.enter;
    rec.site = c.site;
    emit(rec);
    if (rec.func == CapFunc::kIrecv) irecvs_[rec.req] = static_cast<uint32_t>(out_.records.size() - 1);
    if (!out_.counters.empty())
      out_.counters.back() = {c.count_enter, k + 1 == recs.size() ? count_leave_ : c.count_enter};
  }
}

void Otf2RankReader::finish() {
  if (call_) fail(call_->pos, "the location ends inside '" + call_->name + "' (a truncated trace?)");
  if (first_ps_ < 0) fail(0, "rank " + std::to_string(rank_) + " has no events");
  if (!finalized_) {
    CapRecord rec;
    rec.func = CapFunc::kFinalize;
    rec.line = out_.records.empty() ? 0 : out_.records.back().line;
    rec.call = rec.ret = last_ps_;
    emit(rec);
    if (!out_.counters.empty()) out_.counters.back() = {count_, count_};  // the counter's last value
  }
}


}  // namespace simfab
