// Reading one capture trace file (docs/capture-format.md) into records: the per-rank half of
// `simfab convert` (capture_run.hpp aligns the ranks).
//
// DIALECTS, told apart by the first line:
//   `# simfab-capture 1`             simfab's capture library: headers `# key: value` (run, rank,
//                                    size, world, self, time-unit, speed, ...), records, then
//                                    `# end` after MPI_Finalize
//   `# htor's PMPI Tracer 0.9 ...`   liballprof (seed 004 §2.4, thesis Appendix C): times in µs,
//                                    no rank/size/world headers, no `# end`. The world size is the
//                                    number of files (ReadOptions::world_size); the rank and the
//                                    world's handle come from the first `comm` field of that size
//                                    (or, with none, from the last number of the file name).
//                                    Requests are addresses; Recv/Probe statuses and Wait's
//                                    arguments are pointers. Calls Schedgen ignores (MPI_Test*,
//                                    MPI_Iprobe, MPI_Get_count) are skipped whatever their fields.
// `#` lines may appear anywhere (liballprof writes `# Finalize clockdiff` before MPI_Finalize);
// blank lines are skipped; a trailing CR or spaces are ignored.
//
// CHECKS (InputError at file:line, the line echoed, saying what was expected): an unknown first
// line; a missing or malformed header; an unknown function; a function the dialect does not
// record; the wrong number of fields; a field that is not what its kind needs (integers, lists of
// the communicator's size, `id,size,extent` datatypes, `id,rank,size` communicators, done
// entries `req/src/tag/bytes`); peers, roots and tags out of range; a `comm` field of the world
// whose rank or size disagrees with the file's (lines of two ranks interleaved); `-` times
// anywhere but MPI_Init's call and MPI_Finalize's return; times going backwards (a call before
// the previous return, a return before its call); a record before MPI_Init or after
// MPI_Finalize; a file that ends without MPI_Finalize or (simfab) `# end`; a last line without
// its newline (a record cut mid-line).
// With ReadOptions::salvage the first error in a record (or at the end) is not thrown: the
// records before it are kept and RankCapture::damage says where and what.
//
// Cost: O(bytes) time; memory O(records + list entries). Thread-safety: none.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "capture/capture_record.hpp"

namespace simfab {

enum class CapDialect : uint8_t { kSimfab, kLiballprof };

struct CaptureHeader {
  CapDialect dialect = CapDialect::kSimfab;
  std::string run;            // simfab: 16 hex digits; liballprof: empty
  int32_t rank = -1;          // MPI_COMM_WORLD rank
  int32_t size = -1;          // MPI_COMM_WORLD size
  int64_t world = 0;          // the handle of MPI_COMM_WORLD in comm fields
  bool has_world = false;
  int64_t self = 0;           // the handle of MPI_COMM_SELF
  bool has_self = false;
  int64_t ps_per_unit = 1000; // `# time-unit:` (ns: 1000; liballprof µs: 10^6)
  double speed = 0;           // `# speed:` flop/s, 0 = not given
  std::string hostname;
  std::string library;        // `# library:` MPI_Get_library_version's first line ("" unknown)
};

struct ReadOptions {
  bool salvage = false;
  int32_t world_size = 0;     // liballprof: the number of files (its size is not in the file)
};

struct RankCapture {
  std::string path;
  CaptureHeader header;
  std::vector<CapRecord> records;  // MPI_Init first; MPI_Finalize last unless damaged
  std::vector<uint64_t> counts;    // pool of `counts` lists (CapRecord::s_counts / r_counts)
  std::vector<CapDone> done;       // pool of done entries
  std::vector<std::string> sites;  // call sites (`@` lines), in first-seen order
  // A floating-point operation counter at each record's call and return (OTF2 archives with
  // PAPI_FP_OPS-like metrics; kNoCounter: not recorded there); empty when the trace has none.
  static constexpr uint64_t kNoCounter = UINT64_MAX;
  std::vector<std::pair<uint64_t, uint64_t>> counters;
  // Salvage: the first problem (line, message); damage_line 0 = none.
  uint32_t damage_line = 0;
  std::string damage;
  uint32_t record_lines = 0;       // record lines in the file, good or bad (for warnings)
  bool finalized() const { return !records.empty() && records.back().func == CapFunc::kFinalize; }
};

// Parses `text` (the file's content; `path` names it in errors). Throws InputError.
RankCapture read_capture(const std::string& path, std::string_view text, const ReadOptions& options);
// Maps and parses the file at `path`.
RankCapture read_capture_file(const std::string& path, const ReadOptions& options);

// The dialect of a file from its first line, or false if it is neither.
bool detect_capture_dialect(std::string_view text, CapDialect& dialect);

}  // namespace simfab
