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
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace simfab
