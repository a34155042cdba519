// Otf2ArchiveWriter: the mechanics of writing an OTF2 archive, shared by the prediction writer
// (`simfab run --otf2-out`, otf2_writer.hpp) and the capture writer (`simfab convert --otf2-out`,
// otf2_capture_writer.hpp).
//
// LAYOUT written: DIR/traces.otf2 (anchor), DIR/traces.def, DIR/traces/<L>.evt|.def; location L
// = rank L, in process "MPI Rank L" on the system-tree node of its host; timer resolution 10^12
// ticks/s (ticks are picoseconds); Score-P's MPI definitions: the COMM_LOCATIONS group of the
// ranks and one COMM_GROUP (or COMM_SELF) group per communicator. Regions are made on first use:
// MPI_* names in the MPI paradigm, any other name (a call site, a code region) in the user one.
// ATOMICITY: everything goes to DIR.partial; commit() moves the three entries into DIR (replacing
// an archive named traces there), the anchor last; the destructor removes DIR.partial, so an
// error or an unfinished run leaves no archive. libotf2's errors become InputErrors naming DIR.
// Memory: one event chunk (256 KiB, OTF2's minimum) per open location; chunks are flushed as they
// fill, and a location's chunk is freed when it is closed.
// Thread-safety: none.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <otf2/otf2.h>

namespace simfab {

class Otf2ArchiveWriter {
 public:
  struct Comm {
    std::string name;
    uint64_t parent = OTF2_UNDEFINED_COMM;
    std::vector<int32_t> members;  // world ranks by rank in the communicator
    bool self = false;             // MPI_COMM_SELF (members unused)
    bool created = false;          // made during the run: its CommCreate events are in the archive
  };

  // Checks DIR (creating DIR.partial) and opens the archive for `locations` ranks. Throws InputError.
  Otf2ArchiveWriter(std::string dir, const std::string& creator, size_t locations);
  ~Otf2ArchiveWriter();
  Otf2ArchiveWriter(const Otf2ArchiveWriter&) = delete;
  Otf2ArchiveWriter& operator=(const Otf2ArchiveWriter&) = delete;

  const std::string& dir() const { return dir_; }
  // Location `l`'s event writer: open it, write its events, close it (its chunk is flushed and
  // freed), one location after the other; a location never opened has no events.
  OTF2_EvtWriter* open_events(size_t l);
  void close_events(size_t l, OTF2_EvtWriter* w);
  uint32_t region(const std::string& name);
  // An archive property ("SIMFAB::MPI_LIBRARY"); before close().
  void property(const std::string& name, const std::string& value);
  // Throws InputError("cannot write the OTF2 archive: <what> (libotf2: ...)") unless OTF2_SUCCESS.
  void check(OTF2_ErrorCode status, const std::string& what) const;

  // Closes the event files and writes the definitions: `hosts` (one per location), `comms` (ref =
  // index), the clock (`offset` ticks = time zero, `length` ticks of trace).
  void close(const std::vector<std::string>& hosts, const std::vector<Comm>& comms, uint64_t offset,
             uint64_t length);
  // Moves the closed archive into DIR. Throws InputError.
  void commit();

 private:
  std::string dir_, partial_;
  OTF2_Archive* archive_ = nullptr;
  std::vector<uint64_t> events_;      // per location, counted at close_events
  std::vector<std::string> regions_;  // by ref
  std::map<std::string, uint32_t> region_refs_;
  bool closed_ = false;
};

}  // namespace simfab
