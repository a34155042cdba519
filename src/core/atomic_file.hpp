// Writing an output file all or nothing: the content goes to `PATH.tmp.<pid>` and is renamed to
// PATH only once complete, so a failure (bad input found while writing, a full disk) leaves no
// half-written PATH and no temporary file behind; an existing PATH is replaced only on success.
// The rename is atomic on POSIX file systems when the temporary file and PATH share a directory,
// which they do.
//
// Two forms: write_file_atomically for content produced at once, and AtomicFile for content
// streamed over a long run (a timeline): it opens the temporary file at construction, so an
// unwritable path is reported before the run starts, and removes it unless commit() is called.
#pragma once

#include <fstream>
#include <functional>
#include <ostream>
#include <string>

namespace simfab {

class AtomicFile {
 public:
  // Opens PATH.tmp.<pid>; InputError at `path` ("cannot write <what>") when it cannot or when
  // PATH is a directory.
  AtomicFile(std::string path, std::string what);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();  // removes the temporary file unless committed

  std::ostream& stream() { return out_; }
  // Flushes, checks every write succeeded, renames to PATH; InputError otherwise.
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_, what_, tmp_;
  std::ofstream out_;
  bool committed_ = false;
};

// Outputs not complete yet (AtomicFile's temporary files, directories a run created for its
// outputs), for the exits that skip destructors: online mode's MPI errors, MPI_Abort and crash
// guard end the process with _Exit. remove_pending_outputs() unlinks the files and removes the
// directories if empty; it allocates nothing, so a signal handler may call it.
void register_pending_output(const std::string& path, bool directory = false);
// An OTF2 archive being written in directory `dir` (otf2/otf2_archive_writer.hpp): removed with
// its traces.otf2, traces.def and traces/<L>.evt|.def for L < locations.
void register_pending_archive(const std::string& dir, uint64_t locations);
void unregister_pending_output(const std::string& path);
void remove_pending_outputs() noexcept;
// One function the _Exit paths run first, from remove_pending_outputs() (signal-safe, as it):
// simfab exec --tag-output uses it to hand the output it holds to the real stdout and stderr.
void set_exit_flush(void (*flush)() noexcept) noexcept;

// Calls write(stream) and then renames. `what` names the file in errors ("the JSON output file").
// An exception from `write` removes the temporary file and propagates; failing to open, write or
// rename is an InputError at `path`.
void write_file_atomically(const std::string& path, const std::string& what,
                           const std::function<void(std::ostream&)>& write);

}  // namespace simfab
