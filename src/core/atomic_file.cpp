#include "core/atomic_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/error.hpp"
#include "core/signal_safe_line.hpp"

namespace simfab {

namespace {

struct PendingOutput {
  std::string path;
  bool directory;
  uint64_t archive_locations = 0;  // > 0: an OTF2 archive's directory
};

void remove_archive(const PendingOutput& p) noexcept {
  SignalSafeLine path;
  const auto file = [&](const char* name) -> const char* {
    path.clear();
    return path.str(p.path.c_str()).str("/").str(name).c_str();
  };
  ::unlink(file("traces.otf2"));
  ::unlink(file("traces.def"));
  for (uint64_t l = 0; l < p.archive_locations; ++l)
    for (const char* suffix : {".evt", ".def"}) {
      path.clear();
      ::unlink(path.str(p.path.c_str()).str("/traces/").dec(l).str(suffix).c_str());
    }
  ::rmdir(file("traces"));
  ::rmdir(p.path.c_str());
}

std::vector<PendingOutput>& pending() {
  static std::vector<PendingOutput> list;
  return list;
}

}  // namespace

void register_pending_output(const std::string& path, bool directory) {
  pending().push_back({path, directory});
}

void register_pending_archive(const std::string& dir, uint64_t locations) {
  pending().push_back({dir, true, locations > 0 ? locations : 1});
}

void unregister_pending_output(const std::string& path) {
  auto& v = pending();
  v.erase(std::remove_if(v.begin(), v.end(), [&](const PendingOutput& p) { return p.path == path; }), v.end());
}

namespace {
void (*g_exit_flush)() noexcept = nullptr;
}

void set_exit_flush(void (*flush)() noexcept) noexcept { g_exit_flush = flush; }

void remove_pending_outputs() noexcept {
  if (g_exit_flush) g_exit_flush();
  for (const PendingOutput& p : pending()) {
    if (p.archive_locations > 0) remove_archive(p);
    else if (p.directory) ::rmdir(p.path.c_str());
    else ::unlink(p.path.c_str());
  }
}

AtomicFile::AtomicFile(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)), tmp_(path_ + ".tmp." + std::to_string(::getpid())) {
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec))
    throw InputError(SourceLoc{path_, 0, 0}, "cannot write " + what_ + ": it is a directory");
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) throw InputError(SourceLoc{path_, 0, 0}, "cannot write " + what_);
  register_pending_output(tmp_);
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  out_.close();
  std::remove(tmp_.c_str());
  unregister_pending_output(tmp_);
}

void AtomicFile::commit() {
  out_.flush();
  const bool ok = static_cast<bool>(out_);
  out_.close();
  if (!ok || std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw InputError(SourceLoc{path_, 0, 0}, "cannot write " + what_);
  committed_ = true;
  unregister_pending_output(tmp_);
}

void write_file_atomically(const std::string& path, const std::string& what,
                           const std::function<void(std::ostream&)>& write) {
  AtomicFile f(path, what);
  write(f.stream());
  f.commit();
}

}  // namespace simfab
