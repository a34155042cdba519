// Errors at simfab's boundaries.
//
// InputError: the user's input (trace, schedule, platform, configuration, command line) is wrong.
// It carries the location (file, line, column; 0 when unknown), the offending text echoed back, and
// what was expected. The command prints it and exits with status 2, writing nothing else.
//
// SIMFAB_CHECK: a broken internal invariant (a simfab bug, never bad input). It is on in release
// builds and aborts with file:line, so a bug never becomes a silent wrong answer.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace simfab {

struct SourceLoc {
  std::string file;  // empty when the input has no file (e.g. --cfg on the command line)
  int line = 0;      // 1-based; 0 = unknown
  int column = 0;    // 1-based; 0 = unknown
};

// A host or link of the platform failed under the run (SimGrid's state profiles,
// sim/host_failures.hpp, net/flow): the run stops there, as MPI aborts a job whose process or
// communication dies; simfab exits with status 5. `at_ps`: when, in picoseconds.
class PlatformFailure : public std::runtime_error {
 public:
  PlatformFailure(const std::string& what, int64_t at_ps) : std::runtime_error(what), at_ps_(at_ps) {}
  int64_t at_ps() const { return at_ps_; }

 private:
  int64_t at_ps_;
};

class InputError : public std::runtime_error {
 public:
  // `text` is the offending input echoed back (may be empty); `what` says what is wrong and what
  // was expected.
  InputError(SourceLoc loc, std::string what, std::string text = {});
  const SourceLoc& loc() const { return loc_; }
  const std::string& text() const { return text_; }
  const std::string& message() const { return message_; }

 private:
  SourceLoc loc_;
  std::string message_;
  std::string text_;
};

// Formats "file:line:col: error: message" followed by the echoed text, as printed to stderr.
std::string format_error(const InputError& e);

[[noreturn]] void check_failed(const char* cond, const char* file, int line, const std::string& msg);

}  // namespace simfab

#define SIMFAB_CHECK(cond, msg)                                                  \
  do {                                                                           \
    if (!(cond)) ::simfab::check_failed(#cond, __FILE__, __LINE__, (msg));       \
  } while (0)
