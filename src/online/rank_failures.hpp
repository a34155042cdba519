// RankFailures: the ranks of a `simfab exec` run that ended it badly, and the one line that
// reports them when the run stops (OnlineProgram).
//
// A failure is a rank that exited with a non-zero status (main's return value, exit(), Fortran's
// STOP n / ERROR STOP n), called MPI_Abort, or returned 0 after MPI_Init without calling
// MPI_Finalize. As with mpirun, the run does not stop at the first failure: the other ranks go on
// until each has ended or waits on another rank (OnlineProgram: a wait begun after the first
// failure is never resumed, so ranks still talking to each other stop at their next wait), and
// then, when the engine has nothing left to do, the program's output is flushed
// (flush_program_output) and this line goes to stderr. So every rank that would print its
// explanation and exit at about the same point does, whatever order the host ran the ranks in.
//
// The line is the same for a given set of failures, whatever order they came in: the failures in
// rank order, one clause per kind and status (ordered by its lowest rank), consecutive ranks as
// ranges (at most kMaxRanges of them, then "... (N ranks)"), e.g.
//   simfab: rank 2 exited with status 5; the run stops
//   simfab: ranks 0-2 exited with status 2; the run stops
//   simfab: rank 0 exited with status 2; ranks 1, 3 exited with status 3; rank 2 called MPI_Abort
//     with error code 7; the run stops                                           (one line)
//   simfab: rank 1 called MPI_Init but ended without calling MPI_Finalize; the run stops
// The run's exit status is the lowest failing rank's: its status (& 0xff), its MPI_Abort code
// (1 for code 0), or 1 for a missing MPI_Finalize.
//
// Cost: O(log failures) per failure; the report O(failures).
#pragma once

#include <map>
#include <string>

#include "core/sim_time.hpp"

namespace simfab::online {

class RankFailures {
 public:
  enum class Kind { kExit, kAbort, kNoFinalize };

  // Rank r ended by `kind`; `code`: its exit status or MPI_Abort's error code (unused for
  // kNoFinalize). A rank fails at most once.
  void add(RankId r, Kind kind, int code);
  bool any() const { return !by_rank_.empty(); }
  // The report line, without its newline: "simfab: ...; the run stops". Requires any().
  std::string report() const;
  // The exit status of `simfab exec` (the lowest failing rank's; see above). Requires any().
  int exit_status() const;

 private:
  static constexpr size_t kMaxRanges = 16;
  struct Failure {
    Kind kind;
    int code;
    bool operator==(const Failure& o) const { return kind == o.kind && code == o.code; }
  };
  std::map<RankId, Failure> by_rank_;
};

}  // namespace simfab::online
