// ProgressMeter: one status line on a terminal while a long simulation runs, e.g.
//   simfab: 12.5 ms simulated, 3.2 M events/s, 24/64 ranks finished, 41 % of the application, ~18 s left
// It is an Engine::Monitor: the event loop polls it every 65,536 events; it reads the wall clock
// there, draws at the first poll and then at most twice a second, so it costs one clock read per
// 65,536 events. The
// estimate of what is left is linear in the fraction of the application done (Program::progress:
// bytes of a TI trace read, ops of a GOAL schedule completed), shown only once a second has passed
// and the fraction is known.
// The CLI enables it only when stderr is a terminal (or --progress always), so logs and pipes
// stay clean; done() erases the line.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "core/engine.hpp"
#include "mpi/program.hpp"

namespace simfab {

// A wall-clock duration for a status line: "42 s", "12 min", "1.5 h".
std::string progress_duration(double seconds);

// One line on a terminal, redrawn in place ("\r\033[K" then the text) at most twice a second;
// erase() (and the destructor) clears it, so a message after it starts a clean line. Shared by
// ProgressMeter and report/sweep_progress.hpp.
class StatusLine {
 public:
  explicit StatusLine(std::FILE* out) : out_(out), start_(std::chrono::steady_clock::now()), last_(start_) {}
  ~StatusLine() { erase(); }
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;
  // Whether to draw now: nothing drawn yet, 0.5 s since the last draw, or `force` (out == nullptr: never).
  bool due(bool force = false);
  void draw(const std::string& text);
  void erase();
  double elapsed_s() const;

 private:
  std::FILE* out_;
  std::chrono::steady_clock::time_point start_, last_;
  bool drawn_ = false;
};

class ProgressMeter final : public Engine::Monitor {
 public:
  ProgressMeter(const Program& program, std::FILE* out);
  // The destructor erases the line too, also when the run ends in an error.
  void poll(SimTime now, uint64_t events) override;
  // Erases the status line (if one was drawn).
  void done();
  // The status text for these figures (tests check it); fraction < 0: unknown.
  static std::string status(SimTime now, double events_per_s, int finished, int ranks, double fraction,
                            double elapsed_s);

 private:
  const Program& program_;
  StatusLine line_;
};

}  // namespace simfab
