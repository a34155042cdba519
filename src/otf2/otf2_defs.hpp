// Otf2Archive: an OTF2 archive opened for reading (Debian's libotf2, OTF2 3.0) and its global
// definitions, the half of the OTF2 front-end that knows who is who (otf2_reader.hpp reads events).
//
// An archive is an anchor file (`traces.otf2`), the global definitions (`traces.def`) and a
// directory of per-location files (`traces/<L>.evt`, `.def`). OTF2 names everything by reference
// numbers into its definitions; the ones simfab uses:
//   String          the text of every name
//   ClockProperties timer resolution (ticks per second) and global offset: an event at tick t
//                   happened (t - offset) / resolution seconds into the run; simfab turns ticks
//                   into integer picoseconds with 128-bit arithmetic (exact for any resolution
//                   that divides 10^12, rounded down otherwise)
//   Region          a code region: its name ("MPI_Send", "main", "solve") and paradigm; a region is
//                   an MPI call when its paradigm is MPI or its name starts with "MPI_"
//   LocationGroup   a process (its system-tree node: the host name); Location: a thread of one
//   Group           COMM_LOCATIONS: the MPI ranks, member i = the location of MPI_COMM_WORLD rank
//                   i (Score-P's definition); COMM_GROUP: a communicator's members as world ranks
//                   (indices into COMM_LOCATIONS), in communicator rank order; COMM_SELF
//   Comm            a communicator: its group and parent
//   MetricMember, MetricClass   a PAPI floating-point operation counter (PAPI_FP_OPS, PAPI_DP_OPS,
//                   PAPI_SP_OPS) recorded with the events: the flops between MPI calls
// and the archive's creator, and the property SIMFAB::MPI_LIBRARY (kOtf2LibraryProperty) that
// `simfab convert --otf2-out` sets from a capture's `# library:` header.
// RANKS: world rank i is member i of the MPI COMM_LOCATIONS group. An archive without one (a
// writer that records no MPI paradigm groups) gives one rank per process location group, in the
// order of their references, each at its first location. Threads other than a rank's MPI location
// are not read: their work is inside the MPI location's gaps between calls (folded onto the rank).
// MPI_COMM_WORLD is the parentless communicator of every rank; MPI_COMM_SELF one whose group is
// COMM_SELF.
//
// ERRORS: libotf2's own messages are caught (nothing is printed) and become InputErrors naming the
// anchor file: not an archive, a missing definitions file, a definition that refers to one never
// defined, a group member that is not a location. Cost: O(definitions). Thread-safety: none (the
// library's error callback is process-wide).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <otf2/otf2.h>

namespace simfab {

inline constexpr const char* kOtf2LibraryProperty = "SIMFAB::MPI_LIBRARY";

struct Otf2Region {
  std::string name;
  bool mpi = false;
};

struct Otf2Comm {
  std::string name;
  std::vector<int32_t> members;  // world ranks by rank in the communicator
  uint64_t parent = OTF2_UNDEFINED_COMM;
  bool self = false;             // MPI_COMM_SELF's group
};

struct Otf2Defs {
  uint64_t resolution = 0;  // ticks per second
  uint64_t offset = 0;
  std::unordered_map<uint64_t, Otf2Region> regions;
  std::unordered_map<uint64_t, Otf2Comm> comms;
  // Metric classes with a floating-point operation counter (PAPI_FP_OPS, PAPI_DP_OPS or
  // PAPI_SP_OPS, accumulated): class ref -> that member's index in the class's values.
  std::unordered_map<uint64_t, uint8_t> flop_metrics;
  std::vector<uint64_t> rank_location;  // the location of each world rank
  std::vector<std::string> rank_host;   // its system-tree node's name ("" when none)
  std::string creator;  // the archive's creator ("simfab 0.1.0", "Score-P 8.1", ...)
  std::string library;  // the property SIMFAB::MPI_LIBRARY: the MPI library of a converted capture
  uint64_t world = OTF2_UNDEFINED_COMM;
  uint64_t self = OTF2_UNDEFINED_COMM;
  // Picoseconds since the start of the run of tick t (0 before the offset).
  int64_t ps(uint64_t t) const;
};

// Makes libotf2 keep its error messages instead of printing them (otf2_last_error returns the last).
void otf2_quiet_errors();
// The library's message of the last failed call (empty when it said nothing).
std::string otf2_last_error();

class Otf2Archive {
 public:
  // Opens the anchor file and reads the global definitions. Throws InputError.
  explicit Otf2Archive(const std::string& anchor);
  ~Otf2Archive();
  Otf2Archive(const Otf2Archive&) = delete;
  Otf2Archive& operator=(const Otf2Archive&) = delete;

  const std::string& path() const { return path_; }
  const Otf2Defs& defs() const { return defs_; }
  OTF2_Reader* reader() const { return reader_; }
  // Throws InputError(path, what + the library's message) when `status` is not OTF2_SUCCESS.
  void check(OTF2_ErrorCode status, const std::string& what) const;

 private:
  void read_definitions();

  std::string path_;
  OTF2_Reader* reader_ = nullptr;
  Otf2Defs defs_;
};

}  // namespace simfab
