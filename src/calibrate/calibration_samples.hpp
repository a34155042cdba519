// The measurements of an MPI calibration run: the CSV that simfab_calibrate writes
// (apps/calibrate/simfab_calibrate.c, printed by `simfab calibrate program`).
//
//   # simfab-calibrate 1                     the first line: format and version
//   # hostname: node-3                       "# key: value" comments: where and how it was measured
//   # np: 2
//   # library: Open MPI v4.1.4, ...          (MPI_Get_library_version's first line)
//   # date: 2024-05-01T10:00:00Z
//   # late-recv-delay: 0.0005                seconds the receiver posts late in late_recv
//   experiment,bytes,seconds                 the column header (optional)
//   pingpong,1420,2.5e-05                    one raw measurement per line, never averaged
//
// Experiments (bytes = message size unless said otherwise; seconds > 0):
//   pingpong   round trip of a k-byte message (rank 0)
//   send       MPI_Send with the receive already posted (rank 0)
//   isend      MPI_Isend alone (rank 0)
//   recv       MPI_Recv of a message sent well before (rank 1)
//   late_recv  MPI_Send while the receive is posted late-recv-delay late (rank 0)
//   gap        per message of a burst of 1000 one-byte MPI_Isend (bytes = 1)
//   oneway     4 MiB one way plus a zero-byte acknowledgement (rank 0)
//   bidir      4 MiB both ways at once (MPI_Sendrecv) plus the acknowledgement (rank 0)
//   compute    a floating-point kernel: bytes = its flop count
//   contention p pairs each sending 4 MiB one way at once: bytes = p x 4 MiB, the slowest pair
//   reduce     MPI_Reduce_local (MPI_SUM) of doubles: bytes = the element count
//   first_call a collective's first call in the process (one double, root 0): bytes = its
//              number in simfab's coll::CollOp order (0 barrier ... 14 exscan)
//   next_call  the same collective's second call
// Other lines are errors at file:line that echo the line and say what was expected: a row
// without three fields, an unknown experiment (with the valid names), a size that is not a whole
// number, a time that is not a finite number > 0. Blank lines are skipped.
// Cost: O(file size); memory 24 B per sample.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/sim_time.hpp"

namespace simfab::calibrate {

enum class Experiment : uint8_t {
  kPingpong, kSend, kIsend, kRecv, kLateRecv, kGap, kOneway, kBidir, kCompute, kContention, kReduce, kFirstCall,
  kNextCall
};
inline constexpr size_t kExperimentCount = 13;
inline constexpr uint64_t kFirstCallCollectives = 15;  // first_call/next_call: bytes = coll::CollOp

const char* experiment_name(Experiment e);

struct Sample {
  Bytes bytes = 0;
  double seconds = 0;
  int line = 0;  // in the CSV, 1-based
};

struct CalibrationSamples {
  std::string source;  // the file name, for messages
  std::vector<std::pair<std::string, std::string>> header;  // "# key: value" lines, in order
  double late_delay_s = 500e-6;
  std::array<std::vector<Sample>, kExperimentCount> by_experiment;

  const std::vector<Sample>& of(Experiment e) const { return by_experiment[static_cast<size_t>(e)]; }
  // The header's value for `key`, or empty.
  std::string header_value(std::string_view key) const;
  size_t total() const;
};

// Parses the CSV `text`; `source` names it in errors. Throws InputError.
CalibrationSamples parse_calibration_samples(std::string_view text, const std::string& source);
// Reads and parses the file at `path`. Throws InputError (also when it cannot be read).
CalibrationSamples read_calibration_samples(const std::string& path);

// Several calibration runs on the same machine as one set of measurements (the fit keeps the best
// repetition across all of them; seed 003 keeps the best of 5 runs). Their headers must agree on
// what was measured: the library, the rank count and the host name (InputError at the later
// file's header otherwise); the late-recv delay is the first run's. The source reads "a.csv +
// b.csv"; the header is the first run's with date and sizes dropped when they differ.
CalibrationSamples merge_calibration_samples(std::vector<CalibrationSamples> runs);

}  // namespace simfab::calibrate
