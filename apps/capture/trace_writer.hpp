// TraceWriter: the capture library's output file, an append-only text buffer written with plain
// write(2) (no stdio, no locks, no allocation per record once the buffer has grown).
//
// Records are appended to an in-memory buffer (a plain array: appending a field is a bounds check
// and a memcpy or to_chars); flush_if_full() writes it out once it holds
// kFlushBytes or more, flush() writes whatever is there. A record is never split across two
// flushes unless it alone exceeds the buffer, so a crashed run leaves whole lines except, at
// most, the last one.
//
// Errors: open/flush/close return false and leave errno set; the caller (CaptureState) reports
// them with the path and aborts the MPI job.
// Cost: O(bytes appended); memory: the buffer, about 2 * kFlushBytes.
// Thread-safety: none.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace simfab::capture {

class TraceWriter {
 public:
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

  TraceWriter() = default;
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;
  ~TraceWriter();

  // Creates (or truncates) `path` for writing.
  bool open(const std::string& path);
  bool is_open() const { return fd_ >= 0; }

  void put(std::string_view text) {
    reserve(text.size());
    std::memcpy(buf_.get() + size_, text.data(), text.size());
    size_ += text.size();
  }
  void put(char c) {
    reserve(1);
    buf_[size_++] = c;
  }
  void put_int(std::int64_t v) {
    reserve(kMaxNumberChars);
    size_ = static_cast<std::size_t>(std::to_chars(buf_.get() + size_, buf_.get() + capacity_, v).ptr - buf_.get());
  }
  void put_uint(std::uint64_t v) {
    reserve(kMaxNumberChars);
    size_ = static_cast<std::size_t>(std::to_chars(buf_.get() + size_, buf_.get() + capacity_, v).ptr - buf_.get());
  }

  bool flush_if_full() { return size_ < kFlushBytes || flush(); }
  bool flush();
  // Flushes and closes; the writer can be opened again.
  bool close();

 private:
  static constexpr std::size_t kMaxNumberChars = 24;

  // Makes room for `n` more bytes (the buffer only grows, for a record longer than it).
  void reserve(std::size_t n) {
    if (size_ + n > capacity_) grow(n);
  }
  void grow(std::size_t n);

  std::unique_ptr<char[]> buf_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  int fd_ = -1;
};

}  // namespace simfab::capture
