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
#include "otf2/otf2_defs.hpp"
#include "sim/simulation.hpp"

namespace simfab {

namespace {

namespace fs = std::filesystem;

constexpr uint64_t kWorldRef = 0, kSelfRef = 1;
constexpr uint64_t kPicosecond = 1000000000000ULL;

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
OTF2_FlushCallbacks kFlush = {pre_flush, post_flush};

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

// Score-P's byte totals of a collective (otf2_reader.hpp, SIZES), sent and received.
std::pair<uint64_t, uint64_t> scorep_totals(OTF2_CollectiveOp op, const CallInfo& c) {
  const auto n = static_cast<uint64_t>(std::max(c.size, 1));
  const auto me = static_cast<uint64_t>(std::max(c.local, 0));
  const bool root = c.local == c.local_peer;
  const uint64_t b = c.bytes, b2 = c.bytes2;
  switch (op) {
    case OTF2_COLLECTIVE_OP_BCAST: return root ? std::pair{n * b, b} : std::pair{uint64_t{0}, b};
    case OTF2_COLLECTIVE_OP_REDUCE: return {b, root ? n * b : 0};
    case OTF2_COLLECTIVE_OP_GATHER: return {b, root ? n * b2 : 0};
    case OTF2_COLLECTIVE_OP_SCATTER: return {root ? n * b : 0, b2};
    case OTF2_COLLECTIVE_OP_ALLREDUCE: return {n * b, n * b};
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLTOALL: return {n * b, n * b2};
    case OTF2_COLLECTIVE_OP_ALLGATHERV: return {n * b, b2};
    case OTF2_COLLECTIVE_OP_GATHERV:
    case OTF2_COLLECTIVE_OP_SCATTERV:
    case OTF2_COLLECTIVE_OP_ALLTOALLV: return {b, b2};
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: return {b, n * b2};
    case OTF2_COLLECTIVE_OP_SCAN: return {(n - me) * b, (me + 1) * b};
    case OTF2_COLLECTIVE_OP_EXSCAN: return {(n - me - 1) * b, me * b};
    default: return {0, 0};
  }
}

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
    OTF2_EvtWriter* writer = nullptr;
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

  std::string dir, partial;
  OTF2_Archive* archive = nullptr;
  std::vector<Rank> ranks;
  std::vector<std::string> hosts;
  std::vector<std::string> regions;  // by ref
  std::unordered_map<std::string, uint32_t> region_refs;
  std::vector<Comm> comms;           // refs 2, 3, ...
  std::map<std::tuple<uint64_t, uint32_t, int32_t>, uint64_t> created;  // (parent, k, colour) -> ref
  bool done = false;

  void check(OTF2_ErrorCode status, const std::string& what) const {
    if (status != OTF2_SUCCESS)
      throw InputError(SourceLoc{dir, 0, 0}, "cannot write the OTF2 archive: " + what + " (libotf2: " +
                                                 (otf2_last_error().empty() ? OTF2_Error_GetDescription(status)
                                                                            : otf2_last_error()) + ")");
  }
  uint32_t region(const std::string& name) {
    auto [it, added] = region_refs.try_emplace(name, static_cast<uint32_t>(regions.size()));
    if (added) regions.push_back(name);
    return it->second;
  }
  uint64_t comm_ref(RankId r, int32_t id) {
    auto& m = ranks[static_cast<size_t>(r)].comms;
    auto it = m.find(id);
    return it == m.end() ? kSelfRef : it->second;
  }
  void complete(OTF2_EvtWriter* w, uint64_t t, const Request& q) {
    if (!q.irecv) {
      check(OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, q.id), "MpiIsendComplete");
    } else if (q.src >= 0) {
      check(OTF2_EvtWriter_MpiIrecv(w, nullptr, t, static_cast<uint32_t>(q.src), q.comm, tag_of(q.tag), q.bytes, q.id),
            "MpiIrecv");
    }
  }
  void creation(RankId r, OTF2_EvtWriter* w, uint64_t t, const CallInfo& c, bool dup);
  void members_of(size_t index);
};

void Otf2Writer::Impl::creation(RankId r, OTF2_EvtWriter* w, uint64_t t, const CallInfo& c, bool dup) {
  Rank& rk = ranks[static_cast<size_t>(r)];
  const uint64_t parent = comm_ref(r, c.comm);
  const uint32_t k = rk.creations[parent]++;
  check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t), "MpiCollectiveBegin");
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
    check(OTF2_EvtWriter_CommCreate(w, nullptr, t, it->second), "CommCreate");
  }
  check(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t, OTF2_COLLECTIVE_OP_CREATE_HANDLE, parent, OTF2_UNDEFINED_UINT32,
                                        0, 0),
        "MpiCollectiveEnd");
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
  impl_->partial = impl_->dir + ".partial";
  std::error_code ec;
  if (fs::exists(impl_->dir, ec) && !fs::is_directory(impl_->dir, ec))
    throw InputError(SourceLoc{impl_->dir, 0, 0}, "--otf2-out names a file; expected a directory for the archive");
  fs::remove_all(impl_->partial, ec);
  fs::create_directories(impl_->partial, ec);
  if (ec) throw InputError(SourceLoc{impl_->partial, 0, 0}, "cannot create the directory: " + ec.message());
}

Otf2Writer::~Otf2Writer() {
  if (impl_->archive) OTF2_Archive_Close(impl_->archive);
  std::error_code ec;
  fs::remove_all(impl_->partial, ec);
}

void Otf2Writer::start_run(const RunInfo& info) {
  Impl& m = *impl_;
  otf2_quiet_errors();
  m.archive = OTF2_Archive_Open(m.partial.c_str(), "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
                                OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!m.archive) m.check(OTF2_ERROR_INVALID, "cannot create the archive");
  m.check(OTF2_Archive_SetFlushCallbacks(m.archive, &kFlush, nullptr), "flush callbacks");
  m.check(OTF2_Archive_SetSerialCollectiveCallbacks(m.archive), "collective callbacks");
  m.check(OTF2_Archive_SetCreator(m.archive, "simfab " SIMFAB_VERSION), "creator");
  m.check(OTF2_Archive_OpenEvtFiles(m.archive), "event files");
  m.hosts = info.rank_host;
  m.ranks.resize(info.rank_host.size());
  for (size_t r = 0; r < m.ranks.size(); ++r) {
    m.ranks[r].writer = OTF2_Archive_GetEvtWriter(m.archive, r);
    if (!m.ranks[r].writer) m.check(OTF2_ERROR_INVALID, "the event writer of rank " + std::to_string(r));
  }
}

void Otf2Writer::call_interval(RankId r, SimTime begin, SimTime end, const CallInfo& c) {
  Impl& m = *impl_;
  const std::string name = c.name;
  const std::string region = mpi_region(name);
  if (region.empty()) return;
  Impl::Rank& rk = m.ranks[static_cast<size_t>(r)];
  OTF2_EvtWriter* w = rk.writer;
  const auto t0 = static_cast<uint64_t>(begin.ps()), t1 = static_cast<uint64_t>(end.ps());
  const uint32_t ref = m.region(region);
  m.check(OTF2_EvtWriter_Enter(w, nullptr, t0, ref), "Enter");
  const uint64_t comm = m.comm_ref(r, c.comm);
  const bool isend = name == "isend" || name == "issend" || name == "ibsend" || name == "irsend";
  if (name == "send" || name == "ssend" || name == "bsend" || name == "rsend" || name == "sendrecv") {
    if (c.local_peer >= 0)
      m.check(OTF2_EvtWriter_MpiSend(w, nullptr, t0, static_cast<uint32_t>(c.local_peer), comm, tag_of(c.tag), c.bytes),
              "MpiSend");
    const int32_t src = name == "sendrecv" ? c.peer2 : -1;
    if (src >= 0)
      m.check(OTF2_EvtWriter_MpiRecv(w, nullptr, t1, static_cast<uint32_t>(src), comm, tag_of(c.tag2), c.bytes2),
              "MpiRecv");
  } else if (isend && c.local_peer >= 0) {
    const uint64_t id = rk.next_request++;
    m.check(OTF2_EvtWriter_MpiIsend(w, nullptr, t0, static_cast<uint32_t>(c.local_peer), comm, tag_of(c.tag), c.bytes, id),
            "MpiIsend");
    rk.open.push_back(Impl::Request{id, comm, c.local, c.local_peer, c.tag, false, c.bytes});
  } else if (name == "recv" && c.local_peer >= 0) {
    m.check(OTF2_EvtWriter_MpiRecv(w, nullptr, t1, static_cast<uint32_t>(c.local_peer), comm, tag_of(c.tag), c.bytes),
            "MpiRecv");
  } else if (name == "irecv" && c.local_peer >= 0) {
    const uint64_t id = rk.next_request++;
    m.check(OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t0, id), "MpiIrecvRequest");
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
    m.check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t0), "MpiCollectiveBegin");
    m.check(OTF2_EvtWriter_CommDestroy(w, nullptr, t0, freed), "CommDestroy");
    m.check(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t0, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, freed,
                                            OTF2_UNDEFINED_UINT32, 0, 0),
            "MpiCollectiveEnd");
    rk.comms.erase(c.new_comm);
  } else if (auto op = collective_op(name)) {
    const auto [sent, received] = scorep_totals(*op, c);
    const uint32_t root = c.local_peer >= 0 ? static_cast<uint32_t>(c.local_peer) : OTF2_UNDEFINED_UINT32;
    m.check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t0), "MpiCollectiveBegin");
    m.check(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t1, *op, comm, root, sent, received), "MpiCollectiveEnd");
  }
  m.check(OTF2_EvtWriter_Leave(w, nullptr, t1, ref), "Leave");
}

void Otf2Writer::finish(const RunResult& result) {
  Impl& m = *impl_;
  std::vector<uint64_t> events(m.ranks.size(), 0);
  for (size_t r = 0; r < m.ranks.size(); ++r) {
    OTF2_EvtWriter_GetNumberOfEvents(m.ranks[r].writer, &events[r]);
    m.check(OTF2_Archive_CloseEvtWriter(m.archive, m.ranks[r].writer), "closing the events of rank " + std::to_string(r));
  }
  m.check(OTF2_Archive_CloseEvtFiles(m.archive), "closing the event files");
  m.check(OTF2_Archive_OpenDefFiles(m.archive), "local definition files");
  for (size_t r = 0; r < m.ranks.size(); ++r) {
    OTF2_DefWriter* dw = OTF2_Archive_GetDefWriter(m.archive, r);
    m.check(OTF2_Archive_CloseDefWriter(m.archive, dw), "local definitions");
  }
  m.check(OTF2_Archive_CloseDefFiles(m.archive), "closing the local definition files");

  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(m.archive);
  if (!g) m.check(OTF2_ERROR_INVALID, "global definitions");
  uint32_t next_string = 0;
  const auto str = [&](const std::string& s) {
    m.check(OTF2_GlobalDefWriter_WriteString(g, next_string, s.c_str()), "a string");
    return next_string++;
  };
  m.check(OTF2_GlobalDefWriter_WriteClockProperties(g, kPicosecond, 0, static_cast<uint64_t>(result.exec.makespan.ps()),
                                                    OTF2_UNDEFINED_TIMESTAMP),
          "clock properties");
  const uint32_t empty = str("");
  for (size_t i = 0; i < m.regions.size(); ++i) {
    const uint32_t name = str(m.regions[i]);
    m.check(OTF2_GlobalDefWriter_WriteRegion(g, static_cast<uint32_t>(i), name, name, empty, OTF2_REGION_ROLE_FUNCTION,
                                             OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty, 0, 0),
            "a region");
  }
  // System tree: the machine, one node per host (in order of first use).
  m.check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, str("simfab platform"), str("machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "the machine");
  std::map<std::string, uint32_t> nodes;
  std::vector<uint32_t> node_of(m.ranks.size());
  const uint32_t node_class = str("node");
  for (size_t r = 0; r < m.ranks.size(); ++r) {
    auto [it, fresh] = nodes.try_emplace(m.hosts[r], static_cast<uint32_t>(nodes.size() + 1));
    if (fresh)
      m.check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, it->second, str(m.hosts[r]), node_class, 0), "a node");
    node_of[r] = it->second;
  }
  const uint32_t thread = str("Master thread");
  for (size_t r = 0; r < m.ranks.size(); ++r) {
    m.check(OTF2_GlobalDefWriter_WriteLocationGroup(g, r, str("MPI Rank " + std::to_string(r)),
                                                    OTF2_LOCATION_GROUP_TYPE_PROCESS, node_of[r],
                                                    OTF2_UNDEFINED_LOCATION_GROUP),
            "a process");
    m.check(OTF2_GlobalDefWriter_WriteLocation(g, r, thread, OTF2_LOCATION_TYPE_CPU_THREAD, events[r], r), "a location");
  }
  std::vector<uint64_t> all(m.ranks.size());
  for (size_t r = 0; r < all.size(); ++r) all[r] = r;
  uint32_t next_group = 0;
  const auto group = [&](const std::string& name, OTF2_GroupType type, const std::vector<uint64_t>& members) {
    m.check(OTF2_GlobalDefWriter_WriteGroup(g, next_group, str(name), type, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                            static_cast<uint32_t>(members.size()), members.data()),
            "a group");
    return next_group++;
  };
  group("MPI locations", OTF2_GROUP_TYPE_COMM_LOCATIONS, all);
  m.check(OTF2_GlobalDefWriter_WriteComm(g, kWorldRef, str("MPI_COMM_WORLD"),
                                         group("MPI_COMM_WORLD", OTF2_GROUP_TYPE_COMM_GROUP, all), OTF2_UNDEFINED_COMM,
                                         OTF2_COMM_FLAG_NONE),
          "MPI_COMM_WORLD");
  m.check(OTF2_GlobalDefWriter_WriteComm(g, kSelfRef, str("MPI_COMM_SELF"), group("MPI_COMM_SELF", OTF2_GROUP_TYPE_COMM_SELF, {}),
                                         OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
          "MPI_COMM_SELF");
  for (size_t i = 0; i < m.comms.size(); ++i) {
    m.members_of(i);
    const Impl::Comm& cm = m.comms[i];
    const std::vector<uint64_t> members(cm.members.begin(), cm.members.end());
    m.check(OTF2_GlobalDefWriter_WriteComm(g, 2 + i, str(cm.name), group(cm.name, OTF2_GROUP_TYPE_COMM_GROUP, members),
                                           cm.parent, OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS),
            "a communicator");
  }
  m.check(OTF2_Archive_CloseGlobalDefWriter(m.archive, g), "closing the global definitions");
  m.check(OTF2_Archive_Close(m.archive), "closing the archive");
  m.archive = nullptr;
  m.done = true;
}

void Otf2Writer::commit() {
  Impl& m = *impl_;
  SIMFAB_CHECK(m.done, "Otf2Writer::commit before finish");
  std::error_code ec;
  fs::create_directories(m.dir, ec);
  for (const char* name : {"traces.otf2", "traces.def", "traces"}) fs::remove_all(fs::path(m.dir) / name, ec);
  for (const char* name : {"traces", "traces.def", "traces.otf2"}) {  // the anchor last
    fs::rename(fs::path(m.partial) / name, fs::path(m.dir) / name, ec);
    if (ec) throw InputError(SourceLoc{m.dir, 0, 0}, std::string("cannot move the archive into place: ") + ec.message());
  }
  fs::remove_all(m.partial, ec);
}

}  // namespace simfab
