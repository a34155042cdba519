// SignalSafeLine: a fixed buffer that formats text and numbers without allocating, for the code
// that runs in signal handlers and on _Exit paths (online/crash_guard, core/interrupt,
// core/atomic_file's pending outputs): only plain stores into the buffer and write(2).
// Text beyond the buffer (4 KiB) is cut.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>

namespace simfab {

class SignalSafeLine {
 public:
  SignalSafeLine& str(const char* s) {
    while (*s != '\0' && len_ < sizeof(buf_)) buf_[len_++] = *s++;
    return *this;
  }
  SignalSafeLine& dec(uint64_t v) {
    char tmp[24];
    size_t n = 0;
    do {
      tmp[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0 && len_ < sizeof(buf_)) buf_[len_++] = tmp[--n];
    return *this;
  }
  SignalSafeLine& hex(uint64_t v) {
    char tmp[20];
    size_t n = 0;
    do {
      tmp[n++] = "0123456789abcdef"[v & 15];
      v >>= 4;
    } while (v != 0);
    str("0x");
    while (n > 0 && len_ < sizeof(buf_)) buf_[len_++] = tmp[--n];
    return *this;
  }
  // A size as --cfg accepts it: "128KiB" when a whole number of KiB, else bytes.
  SignalSafeLine& size(uint64_t bytes) {
    if (bytes % (1024 * 1024) == 0) return dec(bytes / (1024 * 1024)).str("MiB");
    if (bytes % 1024 == 0) return dec(bytes / 1024).str("KiB");
    return dec(bytes);
  }
  const char* c_str() {
    buf_[len_ < sizeof(buf_) ? len_ : sizeof(buf_) - 1] = '\0';
    return buf_;
  }
  void clear() { len_ = 0; }
  void write_stderr() {
    size_t done = 0;
    while (done < len_) {
      const ssize_t n = ::write(STDERR_FILENO, buf_ + done, len_ - done);
      if (n <= 0) return;
      done += static_cast<size_t>(n);
    }
  }

 private:
  char buf_[4096];  // a path fits (PATH_MAX)
  size_t len_ = 0;
};

}  // namespace simfab
