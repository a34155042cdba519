// SweepProgress: the status line of a sweep (`simfab sweep`) on stderr, over the whole sweep:
//   simfab sweep: 37/120 points (2 failed), 2 running, 14.3 points/min, ~5 min left
// The estimate is the points still to run at this invocation's rate so far (points finished here
// over wall time), so it accounts for -j and for points a resumed sweep skips; it appears after the
// first point finishes. Drawn at most twice a second, erased by done() (and the destructor; report/progress_meter.hpp's StatusLine), as
// report/progress_meter.hpp's line for one run; the command enables it when stderr is a terminal
// or with --progress always. Cost: one clock read per call. Thread-safety: none.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

#include "report/progress_meter.hpp"

namespace simfab {

class SweepProgress {
 public:
  // `total` points, `done_before` of them already in the output; out == nullptr draws nothing.
  SweepProgress(size_t total, size_t done_before, std::FILE* out);
  SweepProgress(const SweepProgress&) = delete;
  SweepProgress& operator=(const SweepProgress&) = delete;

  void point_done(bool ok);
  // Redraws the line (at most every 0.5 s unless `force`).
  void draw(size_t running, bool force = false);
  void done();

  // The status text (tests check it). done_here: points finished by this invocation.
  static std::string status(size_t done, size_t total, size_t failed, size_t running, size_t done_here,
                            double elapsed_s);

 private:
  size_t total_, done_, done_here_ = 0, failed_ = 0;
  StatusLine line_;
};

}  // namespace simfab
