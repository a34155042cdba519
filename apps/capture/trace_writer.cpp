// TraceWriter: buffered append-only output with write(2); see trace_writer.hpp.
#include "trace_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace simfab::capture {

TraceWriter::~TraceWriter() {
  if (fd_ >= 0) ::close(fd_);
}

bool TraceWriter::open(const std::string& path) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) return false;
  size_ = 0;
  if (capacity_ < 2 * kFlushBytes) grow(2 * kFlushBytes);
  return true;
}

bool TraceWriter::flush() {
  const char* p = buf_.get();
  std::size_t left = size_;
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  size_ = 0;
  return true;
}

void TraceWriter::grow(std::size_t n) {
  std::size_t capacity = capacity_ == 0 ? 2 * kFlushBytes : capacity_;
  while (capacity < size_ + n) capacity *= 2;
  std::unique_ptr<char[]> bigger(new char[capacity]);
  if (size_ > 0) std::memcpy(bigger.get(), buf_.get(), size_);
  buf_ = std::move(bigger);
  capacity_ = capacity;
}

bool TraceWriter::close() {
  if (fd_ < 0) return true;
  const bool flushed = flush();
  const int saved = errno;
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  if (!flushed) errno = saved;
  return flushed && closed;
}

}  // namespace simfab::capture
