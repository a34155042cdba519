// MappedFile: a read-only memory map of an input file (trace, schedule), RAII.
//
// Front-ends parse straight from the mapping, so a trace is never copied into the heap: the
// kernel pages it in as replay reaches it and may drop clean pages under memory pressure, which
// is what lets a replayed rank cost a cursor (bytes), not a buffer (kilobytes).
// An empty file maps to an empty view. Errors opening or mapping are InputError (exit 2).
#pragma once

#include <string>
#include <string_view>

namespace simfab {

class MappedFile {
 public:
  explicit MappedFile(std::string path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  MappedFile(MappedFile&& o) noexcept;

  std::string_view text() const { return {data_, size_}; }
  // The text before `pos` has been read: its pages leave the resident set (MADV_DONTNEED on a
  // read-only file mapping; a later read faults them back in from the file, so any position
  // stays readable). Acts once per 64 MiB, so a parser may call it after every block; this keeps
  // a multi-gigabyte schedule from counting twice (text and parsed ops) in the peak memory.
  void done_before(size_t pos);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const char* data_ = nullptr;
  size_t size_ = 0;
  size_t released_ = 0;  // done_before: pages below this are given back
};

}  // namespace simfab
