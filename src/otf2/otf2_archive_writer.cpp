// Otf2ArchiveWriter (see otf2_archive_writer.hpp).
#include "otf2/otf2_archive_writer.hpp"

#include <filesystem>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "otf2/otf2_defs.hpp"

namespace simfab {

namespace {

namespace fs = std::filesystem;

constexpr uint64_t kPicosecond = 1000000000000ULL;

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
OTF2_FlushCallbacks kFlush = {pre_flush, post_flush};

}  // namespace

Otf2ArchiveWriter::Otf2ArchiveWriter(std::string dir, const std::string& creator, size_t locations)
    : dir_(std::move(dir)), partial_(dir_ + ".partial") {
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec))
    throw InputError(SourceLoc{dir_, 0, 0}, "names a file; expected a directory for the OTF2 archive");
  fs::remove_all(partial_, ec);
  fs::create_directories(partial_, ec);
  if (ec) throw InputError(SourceLoc{partial_, 0, 0}, "cannot create the directory: " + ec.message());
  register_pending_archive(partial_, locations);  // an interrupt or _Exit removes it too
  otf2_quiet_errors();
  archive_ = OTF2_Archive_Open(partial_.c_str(), "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
                               OTF2_CHUNK_SIZE_MIN, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!archive_) check(OTF2_ERROR_INVALID, "cannot create the archive");
  check(OTF2_Archive_SetFlushCallbacks(archive_, &kFlush, nullptr), "flush callbacks");
  check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "collective callbacks");
  check(OTF2_Archive_SetCreator(archive_, creator.c_str()), "creator");
  check(OTF2_Archive_OpenEvtFiles(archive_), "event files");
  events_.assign(locations, 0);
}

OTF2_EvtWriter* Otf2ArchiveWriter::open_events(size_t l) {
  OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive_, l);
  if (!w) check(OTF2_ERROR_INVALID, "the event writer of location " + std::to_string(l));
  return w;
}

void Otf2ArchiveWriter::close_events(size_t l, OTF2_EvtWriter* w) {
  OTF2_EvtWriter_GetNumberOfEvents(w, &events_[l]);
  check(OTF2_Archive_CloseEvtWriter(archive_, w), "closing the events of location " + std::to_string(l));
}

Otf2ArchiveWriter::~Otf2ArchiveWriter() {
  if (archive_) OTF2_Archive_Close(archive_);
  std::error_code ec;
  fs::remove_all(partial_, ec);
  unregister_pending_output(partial_);
}

void Otf2ArchiveWriter::check(OTF2_ErrorCode status, const std::string& what) const {
  if (status != OTF2_SUCCESS)
    throw InputError(SourceLoc{dir_, 0, 0}, "cannot write the OTF2 archive: " + what + " (libotf2: " +
                                                (otf2_last_error().empty() ? OTF2_Error_GetDescription(status)
                                                                           : otf2_last_error()) + ")");
}

uint32_t Otf2ArchiveWriter::region(const std::string& name) {
  auto [it, added] = region_refs_.try_emplace(name, static_cast<uint32_t>(regions_.size()));
  if (added) regions_.push_back(name);
  return it->second;
}

void Otf2ArchiveWriter::property(const std::string& name, const std::string& value) {
  check(OTF2_Archive_SetProperty(archive_, name.c_str(), value.c_str(), true), "the property " + name);
}

void Otf2ArchiveWriter::close(const std::vector<std::string>& hosts, const std::vector<Comm>& comms, uint64_t offset,
                              uint64_t length) {
  const std::vector<uint64_t>& events = events_;
  check(OTF2_Archive_CloseEvtFiles(archive_), "closing the event files");
  check(OTF2_Archive_OpenDefFiles(archive_), "local definition files");
  for (size_t l = 0; l < events_.size(); ++l)
    check(OTF2_Archive_CloseDefWriter(archive_, OTF2_Archive_GetDefWriter(archive_, l)), "local definitions");
  check(OTF2_Archive_CloseDefFiles(archive_), "closing the local definition files");

  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive_);
  if (!g) check(OTF2_ERROR_INVALID, "global definitions");
  uint32_t next_string = 0;
  const auto str = [&](const std::string& s) {
    check(OTF2_GlobalDefWriter_WriteString(g, next_string, s.c_str()), "a string");
    return next_string++;
  };
  check(OTF2_GlobalDefWriter_WriteClockProperties(g, kPicosecond, offset, length, OTF2_UNDEFINED_TIMESTAMP),
        "clock properties");
  const uint32_t empty = str("");
  for (size_t i = 0; i < regions_.size(); ++i) {
    const uint32_t name = str(regions_[i]);
    const bool mpi = regions_[i].rfind("MPI_", 0) == 0;
    check(OTF2_GlobalDefWriter_WriteRegion(g, static_cast<uint32_t>(i), name, name, empty, OTF2_REGION_ROLE_FUNCTION,
                                           mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, empty,
                                           0, 0),
          "a region");
  }
  // System tree: the machine, one node per host (in order of first use).
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, str("simfab platform"), str("machine"),
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "the machine");
  std::map<std::string, uint32_t> nodes;
  std::vector<uint32_t> node_of(events_.size());
  const uint32_t node_class = str("node");
  for (size_t l = 0; l < events_.size(); ++l) {
    const std::string host = l < hosts.size() && !hosts[l].empty() ? hosts[l] : "unknown";
    auto [it, fresh] = nodes.try_emplace(host, static_cast<uint32_t>(nodes.size() + 1));
    if (fresh) check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, it->second, str(host), node_class, 0), "a node");
    node_of[l] = it->second;
  }
  const uint32_t thread = str("Master thread");
  for (size_t l = 0; l < events_.size(); ++l) {
    check(OTF2_GlobalDefWriter_WriteLocationGroup(g, l, str("MPI Rank " + std::to_string(l)),
                                                  OTF2_LOCATION_GROUP_TYPE_PROCESS, node_of[l],
                                                  OTF2_UNDEFINED_LOCATION_GROUP),
          "a process");
    check(OTF2_GlobalDefWriter_WriteLocation(g, l, thread, OTF2_LOCATION_TYPE_CPU_THREAD, events[l], l), "a location");
  }
  std::vector<uint64_t> all(events_.size());
  for (size_t l = 0; l < all.size(); ++l) all[l] = l;
  uint32_t next_group = 0;
  const auto group = [&](const std::string& name, OTF2_GroupType type, const std::vector<uint64_t>& members) {
    check(OTF2_GlobalDefWriter_WriteGroup(g, next_group, str(name), type, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                          static_cast<uint32_t>(members.size()), members.data()),
          "a group");
    return next_group++;
  };
  group("MPI locations", OTF2_GROUP_TYPE_COMM_LOCATIONS, all);
  for (size_t c = 0; c < comms.size(); ++c) {
    const Comm& cm = comms[c];
    const std::vector<uint64_t> members(cm.members.begin(), cm.members.end());
    const uint32_t grp = cm.self ? group(cm.name, OTF2_GROUP_TYPE_COMM_SELF, {})
                                 : group(cm.name, OTF2_GROUP_TYPE_COMM_GROUP, members);
    check(OTF2_GlobalDefWriter_WriteComm(g, c, str(cm.name), grp, cm.parent,
                                         cm.created ? OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS : OTF2_COMM_FLAG_NONE),
          "a communicator");
  }
  check(OTF2_Archive_CloseGlobalDefWriter(archive_, g), "closing the global definitions");
  check(OTF2_Archive_Close(archive_), "closing the archive");
  archive_ = nullptr;
  closed_ = true;
}

void Otf2ArchiveWriter::commit() {
  SIMFAB_CHECK(closed_, "Otf2ArchiveWriter::commit before close");
  std::error_code ec;
  fs::create_directories(dir_, ec);
  for (const char* name : {"traces.otf2", "traces.def", "traces"}) fs::remove_all(fs::path(dir_) / name, ec);
  for (const char* name : {"traces", "traces.def", "traces.otf2"}) {  // the anchor last
    fs::rename(fs::path(partial_) / name, fs::path(dir_) / name, ec);
    if (ec) throw InputError(SourceLoc{dir_, 0, 0}, std::string("cannot move the archive into place: ") + ec.message());
  }
  fs::remove_all(partial_, ec);
}

}  // namespace simfab
