// Otf2Archive: opening an archive and reading its global definitions (see otf2_defs.hpp).
#include "otf2/otf2_defs.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "core/error.hpp"

namespace simfab {

namespace {

std::string& last_error() {
  static std::string message;
  return message;
}

// libotf2 prints its errors unless a callback takes them: keep the message for the InputError.
OTF2_ErrorCode keep_message(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* format,
                            va_list va) {
  char text[512];
  std::vsnprintf(text, sizeof text, format, va);
  last_error() = text;
  return code;
}

// What the callbacks collect before the ranks are known.
struct RawDefs {
  std::unordered_map<uint64_t, std::string> strings;
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> location_groups;  // ref -> (type, system-tree node)
  std::unordered_map<uint64_t, uint64_t> node_names;                  // system-tree node -> name string
  std::map<uint64_t, uint64_t> locations;                            // location -> its group (ordered)
  struct Group {
    OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
    OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
    std::vector<uint64_t> members;
  };
  std::unordered_map<uint64_t, Group> groups;
  struct Comm {
    uint64_t name = 0, group = 0, parent = 0;
  };
  std::map<uint64_t, Comm> comms;
  std::unordered_map<uint64_t, std::string> members;             // metric member -> name (its string)
  std::unordered_map<uint64_t, std::vector<uint64_t>> classes;   // metric class -> members
  struct Region {
    uint64_t name = 0;
    OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
  };
  std::unordered_map<uint64_t, Region> regions;
  uint64_t resolution = 0, offset = 0;
  bool clock = false;
};

OTF2_CallbackCode on_string(void* u, OTF2_StringRef self, const char* s) {
  static_cast<RawDefs*>(u)->strings[self] = s ? s : "";
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_clock(void* u, uint64_t resolution, uint64_t offset, uint64_t, uint64_t) {
  auto* d = static_cast<RawDefs*>(u);
  d->resolution = resolution;
  d->offset = offset;
  d->clock = true;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_region(void* u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t,
                            uint32_t) {
  static_cast<RawDefs*>(u)->regions[self] = RawDefs::Region{name, paradigm};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_node(void* u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name, OTF2_StringRef,
                          OTF2_SystemTreeNodeRef) {
  static_cast<RawDefs*>(u)->node_names[self] = name;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location_group(void* u, OTF2_LocationGroupRef self, OTF2_StringRef, OTF2_LocationGroupType type,
                                    OTF2_SystemTreeNodeRef node, OTF2_LocationGroupRef) {
  static_cast<RawDefs*>(u)->location_groups[self] = {type, node};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_location(void* u, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, uint64_t,
                              OTF2_LocationGroupRef group) {
  static_cast<RawDefs*>(u)->locations[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_group(void* u, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm paradigm,
                           OTF2_GroupFlag, uint32_t n, const uint64_t* members) {
  static_cast<RawDefs*>(u)->groups[self] = RawDefs::Group{type, paradigm, std::vector<uint64_t>(members, members + n)};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_comm(void* u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef parent,
                          OTF2_CommFlag) {
  static_cast<RawDefs*>(u)->comms[self] = RawDefs::Comm{name, group, parent};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_metric_member(void* u, OTF2_MetricMemberRef self, OTF2_StringRef name, OTF2_StringRef,
                                   OTF2_MetricType, OTF2_MetricMode mode, OTF2_Type, OTF2_Base, int64_t, OTF2_StringRef) {
  auto* d = static_cast<RawDefs*>(u);
  // Only counters that accumulate from a start value give the flops of an interval by difference.
  if ((mode & OTF2_METRIC_VALUE_MASK) == OTF2_METRIC_VALUE_ACCUMULATED)
    d->members[self] = d->strings.count(name) ? d->strings[name] : std::string();
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_metric_class(void* u, OTF2_MetricRef self, uint8_t n, const OTF2_MetricMemberRef* members,
                                  OTF2_MetricOccurrence, OTF2_RecorderKind) {
  static_cast<RawDefs*>(u)->classes[self] = std::vector<uint64_t>(members, members + n);
  return OTF2_CALLBACK_SUCCESS;
}

bool is_flop_counter(const std::string& name) {
  return name == "PAPI_FP_OPS" || name == "PAPI_DP_OPS" || name == "PAPI_SP_OPS";
}

bool starts_with_mpi(const std::string& name) {
  return name.size() > 4 && (name.compare(0, 4, "MPI_") == 0 || name.compare(0, 4, "mpi_") == 0);
}

}  // namespace

std::string otf2_last_error() { return last_error(); }

void otf2_quiet_errors() {
  OTF2_Error_RegisterCallback(keep_message, nullptr);
  last_error().clear();
}

int64_t Otf2Defs::ps(uint64_t t) const {
  if (t <= offset) return 0;
  const unsigned __int128 ticks = t - offset;
  return static_cast<int64_t>(ticks * 1000000000000ULL / resolution);
}

Otf2Archive::Otf2Archive(const std::string& anchor) : path_(anchor) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(anchor, ec))
    throw InputError(SourceLoc{anchor, 0, 0}, "no such file (expected an OTF2 archive's anchor file, <name>.otf2)");
  otf2_quiet_errors();
  reader_ = OTF2_Reader_Open(anchor.c_str());
  if (!reader_)
    throw InputError(SourceLoc{anchor, 0, 0}, "cannot open this as an OTF2 archive (expected the anchor file "
                                              "<name>.otf2 beside <name>.def and the <name>/ directory)" +
                                                  (last_error().empty() ? std::string() : ": " + last_error()));
  try {
    check(OTF2_Reader_SetSerialCollectiveCallbacks(reader_), "cannot set up the reader");
    char* creator = nullptr;
    if (OTF2_Reader_GetCreator(reader_, &creator) == OTF2_SUCCESS && creator) {
      defs_.creator = creator;
      free(creator);
    }
    char* library = nullptr;
    if (OTF2_Reader_GetProperty(reader_, kOtf2LibraryProperty, &library) == OTF2_SUCCESS && library) {
      defs_.library = library;
      free(library);
    }
    last_error().clear();  // a missing property is no error
    read_definitions();
  } catch (...) {
    OTF2_Reader_Close(reader_);
    throw;
  }
}

Otf2Archive::~Otf2Archive() {
  if (reader_) OTF2_Reader_Close(reader_);
}

void Otf2Archive::check(OTF2_ErrorCode status, const std::string& what) const {
  if (status == OTF2_SUCCESS) return;
  const std::string detail = last_error().empty() ? OTF2_Error_GetDescription(status) : last_error();
  throw InputError(SourceLoc{path_, 0, 0}, what + " (libotf2: " + detail + ")");
}

void Otf2Archive::read_definitions() {
  RawDefs raw;
  OTF2_GlobalDefReader* gdr = OTF2_Reader_GetGlobalDefReader(reader_);
  if (!gdr) check(OTF2_ERROR_INVALID, "cannot read the global definitions");
  OTF2_GlobalDefReaderCallbacks* cbs = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cbs, on_string);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cbs, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cbs, on_region);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cbs, on_node);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cbs, on_location_group);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cbs, on_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cbs, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cbs, on_comm);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cbs, on_metric_member);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cbs, on_metric_class);
  OTF2_ErrorCode status = OTF2_Reader_RegisterGlobalDefCallbacks(reader_, gdr, cbs, &raw);
  OTF2_GlobalDefReaderCallbacks_Delete(cbs);
  check(status, "cannot read the global definitions");
  uint64_t n = 0;
  check(OTF2_Reader_ReadAllGlobalDefinitions(reader_, gdr, &n), "the global definitions are damaged");

  const SourceLoc at{path_, 0, 0};
  const auto text = [&](uint64_t ref, const std::string& of) {
    auto it = raw.strings.find(ref);
    if (it == raw.strings.end())
      throw InputError(at, of + " names string " + std::to_string(ref) + ", which the definitions never define");
    return it->second;
  };
  if (!raw.clock || raw.resolution == 0)
    throw InputError(at, "the definitions give no clock properties (a timer resolution of 1 tick/s or more)");
  defs_.resolution = raw.resolution;
  defs_.offset = raw.offset;
  for (const auto& [ref, r] : raw.regions) {
    Otf2Region region;
    region.name = text(r.name, "region " + std::to_string(ref));
    region.mpi = r.paradigm == OTF2_PARADIGM_MPI || starts_with_mpi(region.name);
    defs_.regions.emplace(ref, std::move(region));
  }

  for (const auto& [ref, members] : raw.classes)
    for (size_t i = 0; i < members.size() && i < 256; ++i) {
      auto m = raw.members.find(members[i]);
      if (m != raw.members.end() && is_flop_counter(m->second)) {
        defs_.flop_metrics.emplace(ref, static_cast<uint8_t>(i));
        break;
      }
    }

  // Ranks: the MPI COMM_LOCATIONS group, else one per process.
  const RawDefs::Group* ranks = nullptr;
  for (const auto& [ref, g] : raw.groups)
    if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && g.paradigm == OTF2_PARADIGM_MPI &&
        (!ranks || g.members.size() > ranks->members.size()))
      ranks = &g;
  if (ranks) {
    defs_.rank_location = ranks->members;
  } else {
    for (const auto& [group, info] : raw.location_groups) {
      if (info.first != OTF2_LOCATION_GROUP_TYPE_PROCESS) continue;
      for (const auto& [loc, g] : raw.locations)
        if (g == group) {
          defs_.rank_location.push_back(loc);
          break;
        }
    }
  }
  if (defs_.rank_location.empty())
    throw InputError(at, "the archive defines no MPI ranks (no COMM_LOCATIONS group of the MPI paradigm and no "
                         "process with a location)");
  for (uint64_t loc : defs_.rank_location) {
    auto it = raw.locations.find(loc);
    if (it == raw.locations.end())
      throw InputError(at, "rank " + std::to_string(defs_.rank_host.size()) + " is location " + std::to_string(loc) +
                               ", which the definitions never define");
    std::string host;
    auto g = raw.location_groups.find(it->second);
    if (g != raw.location_groups.end()) {
      auto node = raw.node_names.find(g->second.second);
      if (node != raw.node_names.end()) host = text(node->second, "system-tree node");
    }
    defs_.rank_host.push_back(host);
  }

  const int32_t world_size = static_cast<int32_t>(defs_.rank_location.size());
  for (const auto& [ref, c] : raw.comms) {
    Otf2Comm comm;
    comm.name = text(c.name, "communicator " + std::to_string(ref));
    comm.parent = c.parent;
    auto g = raw.groups.find(c.group);
    if (g == raw.groups.end())
      throw InputError(at, "communicator " + std::to_string(ref) + " ('" + comm.name + "') has group " +
                               std::to_string(c.group) + ", which the definitions never define");
    comm.self = g->second.type == OTF2_GROUP_TYPE_COMM_SELF;
    if (comm.self) {
      if (defs_.self == OTF2_UNDEFINED_COMM) defs_.self = ref;
    } else {
      for (uint64_t m : g->second.members) {
        if (m >= static_cast<uint64_t>(world_size))
          throw InputError(at, "communicator " + std::to_string(ref) + " ('" + comm.name + "') has member " +
                                   std::to_string(m) + ", but the run has " + std::to_string(world_size) +
                                   " ranks (members are MPI_COMM_WORLD ranks)");
        comm.members.push_back(static_cast<int32_t>(m));
      }
      if (c.parent == OTF2_UNDEFINED_COMM && comm.members.size() == static_cast<size_t>(world_size) &&
          defs_.world == OTF2_UNDEFINED_COMM)
        defs_.world = ref;
    }
    defs_.comms.emplace(ref, std::move(comm));
  }
}

}  // namespace simfab
