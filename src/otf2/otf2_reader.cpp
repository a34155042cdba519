// OTF2 events -> capture records, one location at a time (see otf2_reader.hpp).
#include "otf2/otf2_reader.hpp"

#include <cstring>
#include <exception>
#include <fstream>

#include "core/error.hpp"
#include "otf2/otf2_defs.hpp"
#include "otf2/otf2_rank_reader.hpp"
#include "otf2/otf2_sizes.hpp"

namespace simfab {

namespace {

// Runs `body` for a callback; an exception is kept for after the library returns (it must not
// cross libotf2's C frames) and the read is interrupted.
struct Reading {
  Otf2RankReader* rank = nullptr;
  std::exception_ptr error;
};

template <typename Body>
OTF2_CallbackCode guard(void* u, Body body) {
  auto* r = static_cast<Reading*>(u);
  try {
    body(*r->rank);
    return OTF2_CALLBACK_SUCCESS;
  } catch (...) {
    r->error = std::current_exception();
    return OTF2_CALLBACK_INTERRUPT;
  }
}

OTF2_EvtReaderCallbacks* event_callbacks() {
  OTF2_EvtReaderCallbacks* cbs = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, OTF2_RegionRef region) {
        return guard(u, [&](Otf2RankReader& r) { r.enter(pos, t, region); });
      });
  OTF2_EvtReaderCallbacks_SetLeaveCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, OTF2_RegionRef region) {
        return guard(u, [&](Otf2RankReader& r) { r.leave(pos, t, region); });
      });
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, uint32_t peer,
              OTF2_CommRef comm, uint32_t tag, uint64_t bytes) {
        return guard(u, [&](Otf2RankReader& r) { r.send(pos, t, peer, comm, tag, bytes, false, 0); });
      });
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, uint32_t peer,
              OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t req) {
        return guard(u, [&](Otf2RankReader& r) { r.send(pos, t, peer, comm, tag, bytes, true, req); });
      });
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, uint64_t req) {
        return guard(u, [&](Otf2RankReader& r) { r.isend_done(pos, t, req); });
      });
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, uint64_t req) {
        return guard(u, [&](Otf2RankReader& r) { r.irecv_request(pos, t, req); });
      });
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, uint32_t peer,
              OTF2_CommRef comm, uint32_t tag, uint64_t bytes) {
        return guard(u, [&](Otf2RankReader& r) { r.recv(pos, t, peer, comm, tag, bytes); });
      });
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, uint32_t peer,
              OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t req) {
        return guard(u, [&](Otf2RankReader& r) { r.irecv_done(pos, t, peer, comm, tag, bytes, req); });
      });
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, uint64_t req) {
        return guard(u, [&](Otf2RankReader& r) { r.cancelled(pos, t, req); });
      });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, OTF2_CollectiveOp op,
              OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t received) {
        return guard(u, [&](Otf2RankReader& r) { r.collective(pos, t, op, comm, root, sent, received); });
      });
  OTF2_EvtReaderCallbacks_SetCommCreateCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, OTF2_CommRef comm) {
        return guard(u, [&](Otf2RankReader& r) { r.comm_create(pos, t, comm); });
      });
  OTF2_EvtReaderCallbacks_SetCommDestroyCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, OTF2_CommRef comm) {
        return guard(u, [&](Otf2RankReader& r) { r.comm_destroy(pos, t, comm); });
      });
  OTF2_EvtReaderCallbacks_SetMetricCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp t, uint64_t pos, void* u, OTF2_AttributeList*, OTF2_MetricRef metric,
              uint8_t n, const OTF2_Type* types, const OTF2_MetricValue* values) {
        return guard(u, [&](Otf2RankReader& r) {
          const auto it = r.defs().flop_metrics.find(metric);
          if (it == r.defs().flop_metrics.end() || it->second >= n) return;
          const OTF2_MetricValue v = values[it->second];
          const OTF2_Type type = types[it->second];
          const uint64_t count = type == OTF2_TYPE_UINT64 ? v.unsigned_int
                                 : type == OTF2_TYPE_INT64 ? static_cast<uint64_t>(v.signed_int < 0 ? 0 : v.signed_int)
                                 : v.floating_point > 0 ? static_cast<uint64_t>(v.floating_point) : 0;
          r.flop_counter(pos, t, count);
        });
      });
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(
      cbs, [](OTF2_LocationRef, OTF2_TimeStamp, uint64_t pos, void* u, OTF2_AttributeList*, uint64_t) {
        return guard(u, [&](Otf2RankReader& r) {
          r.fail(pos, "a non-blocking collective (NonBlockingCollectiveRequest): not supported yet");
        });
      });
  return cbs;
}

}  // namespace

bool is_otf2_anchor(const std::string& path) {
  // libotf2's anchor files start with a length byte, the byte order ('B' or 'L') and "OTF2".
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  in.read(head, sizeof head);
  return in.gcount() == sizeof head && (head[1] == 'B' || head[1] == 'L') && std::memcmp(head + 2, "OTF2", 4) == 0;
}

std::vector<RankCapture> read_otf2_ranks(const std::string& anchor, std::string* creator) {
  Otf2Archive archive(anchor);
  const Otf2Defs& defs = archive.defs();
  if (creator) *creator = defs.creator;
  OTF2_Reader* reader = archive.reader();
  for (uint64_t loc : defs.rank_location)
    archive.check(OTF2_Reader_SelectLocation(reader, loc), "cannot select location " + std::to_string(loc));
  // Local definitions hold the id mappings libotf2 applies to the events.
  if (OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS) {
    for (uint64_t loc : defs.rank_location) {
      OTF2_DefReader* dr = OTF2_Reader_GetDefReader(reader, loc);
      if (!dr) continue;
      uint64_t n = 0;
      archive.check(OTF2_Reader_ReadAllLocalDefinitions(reader, dr, &n),
                    "the local definitions of location " + std::to_string(loc) + " are damaged");
      OTF2_Reader_CloseDefReader(reader, dr);
    }
    OTF2_Reader_CloseDefFiles(reader);
  }
  archive.check(OTF2_Reader_OpenEvtFiles(reader), "cannot open the event files");
  std::vector<RankCapture> ranks(defs.rank_location.size());
  OTF2_EvtReaderCallbacks* cbs = event_callbacks();
  try {
    for (size_t r = 0; r < ranks.size(); ++r) {
      const uint64_t loc = defs.rank_location[r];
      Otf2RankReader rank(defs, anchor, static_cast<int32_t>(r), ranks[r]);
      Reading reading{&rank, nullptr};
      OTF2_EvtReader* er = OTF2_Reader_GetEvtReader(reader, loc);
      if (!er) archive.check(OTF2_ERROR_INVALID, "cannot read the events of location " + std::to_string(loc));
      archive.check(OTF2_Reader_RegisterEvtCallbacks(reader, er, cbs, &reading), "cannot set up the event reader");
      uint64_t n = 0;
      const OTF2_ErrorCode status = OTF2_Reader_ReadAllLocalEvents(reader, er, &n);
      OTF2_Reader_CloseEvtReader(reader, er);
      if (reading.error) std::rethrow_exception(reading.error);
      if (status != OTF2_SUCCESS)
        rank.fail(n + 1, "the events of location " + std::to_string(loc) + " are damaged or truncated (libotf2: " +
                             (otf2_last_error().empty() ? OTF2_Error_GetDescription(status) : otf2_last_error()) + ")");
      rank.finish();
    }
  } catch (...) {
    OTF2_EvtReaderCallbacks_Delete(cbs);
    throw;
  }
  OTF2_EvtReaderCallbacks_Delete(cbs);
  std::unordered_map<int64_t, std::vector<int32_t>> members;
  for (const auto& [ref, comm] : defs.comms)
    if (!comm.self) members.emplace(static_cast<int64_t>(ref), comm.members);
  decode_collective_sizes(ranks, members);
  return ranks;
}

CaptureRun load_otf2_run(const std::string& anchor, std::string* creator) {
  return CaptureRun::align(read_otf2_ranks(anchor, creator), CaptureRun::Options{});
}

ConvertOptions otf2_convert_defaults(const std::string& creator) {
  ConvertOptions o;
  o.reduce_flops = 0.125;
  o.measured_creation = creator != kOtf2PredictionCreator;
  return o;
}

}  // namespace simfab
