#include "core/atomic_file.hpp"

#include <unistd.h>

#include <cstdio>

#include "core/error.hpp"

namespace simfab {

AtomicFile::AtomicFile(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)), tmp_(path_ + ".tmp." + std::to_string(::getpid())) {
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) throw InputError(SourceLoc{path_, 0, 0}, "cannot write " + what_);
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  out_.close();
  std::remove(tmp_.c_str());
}

void AtomicFile::commit() {
  out_.flush();
  const bool ok = static_cast<bool>(out_);
  out_.close();
  if (!ok || std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw InputError(SourceLoc{path_, 0, 0}, "cannot write " + what_);
  committed_ = true;
}

void write_file_atomically(const std::string& path, const std::string& what,
                           const std::function<void(std::ostream&)>& write) {
  AtomicFile f(path, what);
  write(f.stream());
  f.commit();
}

}  // namespace simfab
