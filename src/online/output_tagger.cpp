#include "online/output_tagger.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "online/flush_output.hpp"

namespace simfab::online {

namespace {

int g_real[2] = {-1, -1};
int g_mem[2] = {-1, -1};

void write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<size_t>(w);
  }
}

// The exit paths: what the memfds hold goes out as it is, then the descriptors are restored.
void exit_flush() noexcept {
  static char buf[65536];
  for (int s = 0; s < 2; ++s) {
    if (g_mem[s] < 0) continue;
    const off_t end = ::lseek(g_mem[s], 0, SEEK_CUR);
    for (off_t at = 0; at < end;) {
      const ssize_t n = ::pread(g_mem[s], buf, sizeof buf, at);
      if (n <= 0) break;
      write_all(g_real[s], buf, static_cast<size_t>(n));
      at += n;
    }
    ::dup2(g_real[s], s + 1);
    g_mem[s] = -1;
  }
}

}  // namespace

OutputTagger::OutputTagger() {
  std::fflush(nullptr);
  for (int s = 0; s < 2; ++s) {
    real_[s] = ::dup(s + 1);
    mem_[s] = ::memfd_create(s == 0 ? "simfab-stdout" : "simfab-stderr", MFD_CLOEXEC);
    if (real_[s] < 0 || mem_[s] < 0 || ::dup2(mem_[s], s + 1) < 0)
      throw InputError(SourceLoc{"--tag-output", 0, 0}, "cannot redirect the ranks' output (dup/memfd_create failed)");
    g_real[s] = real_[s];
    g_mem[s] = mem_[s];
  }
  set_exit_flush(&exit_flush);
}

OutputTagger::~OutputTagger() {
  std::fflush(nullptr);
  for (int s = 0; s < 2; ++s) {
    drain(s, -1);
    for (auto& [rank, line] : partial_[s]) {  // lines never ended: out with a newline
      const std::string tag = "[1," + std::to_string(rank) + (s == 0 ? "]<stdout>:" : "]<stderr>:");
      const std::string out = tag + line + "\n";
      write_all(real_[s], out.data(), out.size());
    }
    ::dup2(real_[s], s + 1);
    ::close(real_[s]);
    ::close(mem_[s]);
    g_mem[s] = -1;
  }
  set_exit_flush(nullptr);
}

void OutputTagger::before_slice() {
  std::fflush(nullptr);
  drain(0, -1);
  drain(1, -1);
}

void OutputTagger::after_slice(int rank) {
  flush_program_output();
  drain(0, rank);
  drain(1, rank);
}

void OutputTagger::drain(int s, int rank) {
  const off_t end = ::lseek(mem_[s], 0, SEEK_CUR);
  if (end <= 0) return;
  std::vector<char> bytes(static_cast<size_t>(end));
  const ssize_t n = ::pread(mem_[s], bytes.data(), bytes.size(), 0);
  ::ftruncate(mem_[s], 0);
  ::lseek(mem_[s], 0, SEEK_SET);  // fd 1 / 2 share this offset (dup2)
  if (n <= 0) return;
  if (rank < 0) {
    write_all(real_[s], bytes.data(), static_cast<size_t>(n));
    return;
  }
  std::string& line = partial_[s][rank];
  std::string out;
  const std::string tag = "[1," + std::to_string(rank) + (s == 0 ? "]<stdout>:" : "]<stderr>:");
  for (ssize_t i = 0; i < n; ++i) {
    line += bytes[static_cast<size_t>(i)];
    if (bytes[static_cast<size_t>(i)] == '\n') {
      out += tag;
      out += line;
      line.clear();
    }
  }
  if (line.empty()) partial_[s].erase(rank);
  write_all(real_[s], out.data(), out.size());
}

}  // namespace simfab::online
