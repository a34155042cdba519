// Writing an output file all or nothing: the content goes to `PATH.tmp.<pid>` and is renamed to
// PATH only once complete, so a failure (bad input found while writing, a full disk) leaves no
// half-written PATH and no temporary file behind; an existing PATH is replaced only on success.
// The rename is atomic on POSIX file systems when the temporary file and PATH share a directory,
// which they do.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace simfab {

// Calls write(stream) and then renames. `what` names the file in errors ("the JSON output file").
// An exception from `write` removes the temporary file and propagates; failing to open, write or
// rename is an InputError at `path`.
void write_file_atomically(const std::string& path, const std::string& what,
                           const std::function<void(std::ostream&)>& write);

}  // namespace simfab
