// Otf2Writer: writing a predicted run as an OTF2 archive (see otf2_writer.hpp).
#include "otf2/otf2_writer.hpp"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <unordered_map>

#include <otf2/otf2.h>

#include "core/error.hpp"
#include "otf2/otf2_archive_writer.hpp"
#include "otf2/otf2_reader.hpp"
#include "otf2/otf2_sizes.hpp"
#include "sim/simulation.hpp"

namespace simfab {

namespace {

namespace fs = std::filesystem;

constexpr uint64_t kWorldRef = 0, kSelfRef = 1;

// The MPI function a TI action is ("" for actions that are no MPI call).
std::string mpi_region(const std::string& name) {
  static const std::unordered_map<std::string, std::string> special = {
      {"reducescatter", "MPI_Reduce_scatter"}, {"comm_split", "MPI_Comm_split"}, {"comm_dup", "MPI_Comm_dup"},
      {"comm_free", "MPI_Comm_free"},          {"comm_create", "MPI_Comm_create"}};
  static const char* const kNotMpi[] = {"compute", "sleep", "location", "set_pstate", "migrate", "switch",
                                        "wtime",   "host_off", "host_on", "comm_size"};
  if (auto it = special.find(name); it != special.end()) return it->second;
  for (const char* n : kNotMpi)
    if (name == n) return "";
  std::string out = "MPI_" + name;
  out[4] = static_cast<char>(out[4] - 'a' + 'A');
  return out;
}

std::optional<OTF2_CollectiveOp> collective_op(const std::string& name) {
  static const std::unordered_map<std::string, OTF2_CollectiveOp> ops = {
      {"barrier", OTF2_COLLECTIVE_OP_BARRIER},     {"bcast", OTF2_COLLECTIVE_OP_BCAST},
      {"reduce", OTF2_COLLECTIVE_OP_REDUCE},       {"allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE},
      {"alltoall", OTF2_COLLECTIVE_OP_ALLTOALL},   {"alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV},
      {"gather", OTF2_COLLECTIVE_OP_GATHER},       {"gatherv", OTF2_COLLECTIVE_OP_GATHERV},
      {"allgather", OTF2_COLLECTIVE_OP_ALLGATHER}, {"allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV},
      {"scatter", OTF2_COLLECTIVE_OP_SCATTER},     {"scatterv", OTF2_COLLECTIVE_OP_SCATTERV},
      {"reducescatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER}, {"scan", OTF2_COLLECTIVE_OP_SCAN},
      {"exscan", OTF2_COLLECTIVE_OP_EXSCAN}};
  auto it = ops.find(name);
  if (it == ops.end()) return std::nullopt;
  return it->second;
}

// One rank's events, kept until the archive is written: an OTF2 event writer open per rank would
// hold a 256 KiB chunk each (16 GiB at 65,536 ranks); 48 B per event instead.
class EventBuffer {
 public:
  struct Event {
    enum Kind : uint8_t {
      kEnter, kLeave, kSend, kIsend, kIsendComplete, kIrecvRequest, kRecv, kIrecv, kCollBegin, kCollEnd,
      kCommCreate, kCommDestroy,
    };
    Kind kind;
    uint64_t t, a, b, c, d, e;
  };
  void add(Event::Kind k, uint64_t t, uint64_t a = 0, uint64_t b = 0, uint64_t c = 0, uint64_t d = 0,
           uint64_t e = 0) {
    events_.push_back(Event{k, t, a, b, c, d, e});
  }
  void write(OTF2_EvtWriter* w, const Otf2ArchiveWriter& out) const {
    const auto u32 = [](uint64_t v) { return static_cast<uint32_t>(v); };
    for (const Event& v : events_) {
      OTF2_ErrorCode s = OTF2_SUCCESS;
      switch (v.kind) {
        case Event::kEnter: s = OTF2_EvtWriter_Enter(w, nullptr, v.t, u32(v.a)); break;
        case Event::kLeave: s = OTF2_EvtWriter_Leave(w, nullptr, v.t, u32(v.a)); break;
        case Event::kSend: s = OTF2_EvtWriter_MpiSend(w, nullptr, v.t, u32(v.a), v.b, u32(v.c), v.d); break;
        case Event::kIsend: s = OTF2_EvtWriter_MpiIsend(w, nullptr, v.t, u32(v.a), v.b, u32(v.c), v.d, v.e); break;
        case Event::kIsendComplete: s = OTF2_EvtWriter_MpiIsendComplete(w, nullptr, v.t, v.a); break;
        case Event::kIrecvRequest: s = OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, v.t, v.a); break;
        case Event::kRecv: s = OTF2_EvtWriter_MpiRecv(w, nullptr, v.t, u32(v.a), v.b, u32(v.c), v.d); break;
        case Event::kIrecv: s = OTF2_EvtWriter_MpiIrecv(w, nullptr, v.t, u32(v.a), v.b, u32(v.c), v.d, v.e); break;
        case Event::kCollBegin: s = OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, v.t); break;
        case Event::kCollEnd:
          s = OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, v.t, static_cast<OTF2_CollectiveOp>(v.a), v.b, u32(v.c), v.d, v.e);
          break;
        case Event::kCommCreate: s = OTF2_EvtWriter_CommCreate(w, nullptr, v.t, v.a); break;
        case Event::kCommDestroy: s = OTF2_EvtWriter_CommDestroy(w, nullptr, v.t, v.a); break;
      }
      out.check(s, "an event");
    }
  }

 private:
  std::vector<Event> events_;
};

uint32_t tag_of(int32_t t) { return t >= 0 ? static_cast<uint32_t>(t) : 0; }

}  // namespace

struct Otf2Writer::Impl {
  struct Request {
    uint64_t id = 0;
    uint64_t comm = 0;
    int32_t src = 0, dst = 0, tag = 0;  // TI's key
    bool irecv = false;
    uint64_t bytes = 0;
  };
  struct Rank {
    EventBuffer events;
    uint64_t next_request = 1;
    std::deque<Request> open;
    std::unordered_map<int32_t, uint64_t> comms{{0, kWorldRef}};  // TI id -> comm ref
    std::unordered_map<uint64_t, uint32_t> creations;            // parent ref -> creations so far
  };
  struct Comm {
    std::string name;
    uint64_t parent = kWorldRef;
    std::vector<std::pair<int32_t, RankId>> joined;  // (key, world rank) of each member's creation
    std::vector<RankId> members;                     // by rank in the communicator (at finish)
  };

  std::string dir;
  std::unique_ptr<Otf2ArchiveWriter> out;
  std::vector<Rank> ranks;
  std::vector<std::string> hosts;
  std::vector<Comm> comms;           // refs 2, 3, ...
  std::map<std::tuple<uint64_t, uint32_t, int32_t>, uint64_t> created;  // (parent, k, colour) -> ref

  void check(OTF2_ErrorCode status, const std::string& what) const { out->check(status, what); }
  uint64_t comm_ref(RankId r, int32_t id) {
    auto& m = ranks[static_cast<size_t>(r)].comms;
    auto it = m.find(id);
    return it == m.end() ? kSelfRef : it->second;
  }
  void complete(EventBuffer& w, uint64_t t, const Request& q) {
    if (!q.irecv) {
      w.add(EventBuffer::Event::kIsendComplete, t, q.id);
    } else if (q.src >= 0) {
      w.add(EventBuffer::Event::kIrecv, t, static_cast<uint32_t>(q.src), q.comm, tag_of(q.tag), q.bytes, q.id);
    }
  }
  void creation(RankId r, EventBuffer& w, uint64_t t, const CallInfo& c, bool dup);
  void members_of(size_t index);
};

void Otf2Writer::Impl::creation(RankId r, EventBuffer& w, uint64_t t, const CallInfo& c, bool dup) {
  Rank& rk = ranks[static_cast<size_t>(r)];
  const uint64_t parent = comm_ref(r, c.comm);
  const uint32_t k = rk.creations[parent]++;
  w.add(EventBuffer::Event::kCollBegin, t);
  if (c.new_comm >= 0) {
    const int32_t color = dup ? 0 : c.color;
    auto [it, fresh] = created.try_emplace(std::make_tuple(parent, k, color), 2 + comms.size());
    if (fresh) {
      Comm cm;
      cm.name = "communicator " + std::to_string(comms.size() + 2) + " (" + (dup ? "MPI_Comm_dup" : "MPI_Comm_split") + ")";
      cm.parent = parent;
      comms.push_back(std::move(cm));
    }
    comms[it->second - 2].joined.emplace_back(dup ? c.local : c.key, r);
    rk.comms[c.new_comm] = it->second;
    w.add(EventBuffer::Event::kCommCreate, t, it->second);
  }
  w.add(EventBuffer::Event::kCollEnd, t, OTF2_COLLECTIVE_OP_CREATE_HANDLE, parent, OTF2_UNDEFINED_UINT32, 0, 0);
}

// MPI_Comm_split's order: by key, then by rank in the parent (whose members are known already:
// parents have smaller refs).
void Otf2Writer::Impl::members_of(size_t index) {
  Comm& cm = comms[index];
  const std::vector<RankId>* parent = cm.parent >= 2 ? &comms[cm.parent - 2].members : nullptr;
  const auto parent_rank = [&](RankId w) -> int64_t {
    if (!parent) return w;
    auto it = std::find(parent->begin(), parent->end(), w);
    return it - parent->begin();
  };
  std::vector<std::tuple<int32_t, int64_t, RankId>> order;
  for (const auto& [key, w] : cm.joined) order.emplace_back(key, parent_rank(w), w);
  std::sort(order.begin(), order.end());
  for (const auto& e : order) cm.members.push_back(std::get<2>(e));
}

Otf2Writer::Otf2Writer(std::string dir) : impl_(std::make_unique<Impl>()) {
  impl_->dir = std::move(dir);
  std::error_code ec;
  if (fs::exists(impl_->dir, ec) && !fs::is_directory(impl_->dir, ec))
    throw InputError(SourceLoc{impl_->dir, 0, 0}, "--otf2-out names a file; expected a directory for the archive");
}

Otf2Writer::~Otf2Writer() = default;

void Otf2Writer::start_run(const RunInfo& info) {
  Impl& m = *impl_;
  m.out = std::make_unique<Otf2ArchiveWriter>(m.dir, kOtf2PredictionCreator, info.rank_host.size());
  m.hosts = info.rank_host;
  m.ranks.resize(info.rank_host.size());
}

void Otf2Writer::call_interval(RankId r, SimTime begin, SimTime end, const CallInfo& c) {
  Impl& m = *impl_;
  const std::string name = c.name;
  const std::string region = mpi_region(name);
  if (region.empty()) return;
  Impl::Rank& rk = m.ranks[static_cast<size_t>(r)];
  EventBuffer& w = rk.events;
  const auto t0 = static_cast<uint64_t>(begin.ps()), t1 = static_cast<uint64_t>(end.ps());
  const uint32_t ref = m.out->region(region);
  w.add(EventBuffer::Event::kEnter, t0, ref);
  const uint64_t comm = m.comm_ref(r, c.comm);
  const bool isend = name == "isend" || name == "issend" || name == "ibsend" || name == "irsend";
  if (name == "send" || name == "ssend" || name == "bsend" || name == "rsend" || name == "sendrecv") {
    if (c.local_peer >= 0)
      w.add(EventBuffer::Event::kSend, t0, static_cast<uint32_t>(c.local_peer), comm, tag_of(c.tag), c.bytes);
    const int32_t src = name == "sendrecv" ? c.peer2 : -1;
    if (src >= 0)
      w.add(EventBuffer::Event::kRecv, t1, static_cast<uint32_t>(src), comm, tag_of(c.tag2), c.bytes2);
  } else if (isend && c.local_peer >= 0) {
    const uint64_t id = rk.next_request++;
    w.add(EventBuffer::Event::kIsend, t0, static_cast<uint32_t>(c.local_peer), comm, tag_of(c.tag), c.bytes, id);
    rk.open.push_back(Impl::Request{id, comm, c.local, c.local_peer, c.tag, false, c.bytes});
  } else if (name == "recv" && c.local_peer >= 0) {
    w.add(EventBuffer::Event::kRecv, t1, static_cast<uint32_t>(c.local_peer), comm, tag_of(c.tag), c.bytes);
  } else if (name == "irecv" && c.local_peer >= 0) {
    const uint64_t id = rk.next_request++;
    w.add(EventBuffer::Event::kIrecvRequest, t0, id);
    rk.open.push_back(Impl::Request{id, comm, c.local_peer, c.local, c.tag, true, c.bytes});
  } else if (name == "wait") {
    auto it = std::find_if(rk.open.begin(), rk.open.end(), [&](const Impl::Request& q) {
      return q.comm == comm && q.src == c.local_peer && q.dst == c.peer2 && q.tag == c.tag;
    });
    if (it != rk.open.end()) {
      m.complete(w, t1, *it);
      rk.open.erase(it);
    }
  } else if (name == "waitall" || name == "finalize") {
    for (const Impl::Request& q : rk.open) m.complete(w, t1, q);
    rk.open.clear();
  } else if (name == "comm_split" || name == "comm_dup") {
    m.creation(r, w, t0, c, name == "comm_dup");
  } else if (name == "comm_free") {
    const uint64_t freed = m.comm_ref(r, c.new_comm);
    w.add(EventBuffer::Event::kCollBegin, t0);
    w.add(EventBuffer::Event::kCommDestroy, t0, freed);
    w.add(EventBuffer::Event::kCollEnd, t0, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, freed, OTF2_UNDEFINED_UINT32, 0, 0);
    rk.comms.erase(c.new_comm);
  } else if (auto op = collective_op(name)) {
    const auto [sent, received] = scorep_totals(*op, c.size, c.local, c.local_peer, c.bytes, c.bytes2);
    const uint32_t root = c.local_peer >= 0 ? static_cast<uint32_t>(c.local_peer) : OTF2_UNDEFINED_UINT32;
    w.add(EventBuffer::Event::kCollBegin, t0);
    w.add(EventBuffer::Event::kCollEnd, t1, *op, comm, root, sent, received);
  }
  w.add(EventBuffer::Event::kLeave, t1, ref);
}

void Otf2Writer::finish(const RunResult& result) {
  Impl& m = *impl_;
  std::vector<Otf2ArchiveWriter::Comm> comms(2 + m.comms.size());
  comms[kWorldRef].name = "MPI_COMM_WORLD";
  for (size_t r = 0; r < m.ranks.size(); ++r) comms[kWorldRef].members.push_back(static_cast<int32_t>(r));
  comms[kSelfRef].name = "MPI_COMM_SELF";
  comms[kSelfRef].self = true;
  for (size_t i = 0; i < m.comms.size(); ++i) {
    m.members_of(i);
    Otf2ArchiveWriter::Comm& c = comms[2 + i];
    c.name = m.comms[i].name;
    c.parent = m.comms[i].parent;
    c.members.assign(m.comms[i].members.begin(), m.comms[i].members.end());
    c.created = true;
  }
  for (size_t r = 0; r < m.ranks.size(); ++r) {  // one location at a time: one chunk in memory
    OTF2_EvtWriter* w = m.out->open_events(r);
    m.ranks[r].events.write(w, *m.out);
    m.out->close_events(r, w);
    m.ranks[r].events = EventBuffer{};
  }
  m.out->close(m.hosts, comms, 0, static_cast<uint64_t>(result.exec.makespan.ps()));
}

void Otf2Writer::commit() { impl_->out->commit(); }

}  // namespace simfab
