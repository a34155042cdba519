// SIGINT / SIGTERM handling (see interrupt.hpp).
#include "core/interrupt.hpp"

#include <csignal>
#include <cstdint>
#include <cstring>
#include <atomic>

#include <unistd.h>

#include "core/atomic_file.hpp"
#include "core/engine.hpp"

namespace simfab {

namespace {

std::atomic<const Engine*> g_engine{nullptr};

// Appends `s` to buf[pos..], bounded by `cap`.
void put(char* buf, size_t& pos, size_t cap, const char* s) {
  for (; *s != '\0' && pos + 1 < cap; ++s) buf[pos++] = *s;
}

void put_uint(char* buf, size_t& pos, size_t cap, uint64_t v) {
  char digits[24];
  size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0 && pos + 1 < cap) buf[pos++] = digits[--n];
}

extern "C" void on_interrupt(int sig) {
  remove_pending_outputs();
  char buf[256];
  size_t pos = 0;
  put(buf, pos, sizeof buf, sig == SIGINT ? "simfab: interrupted by SIGINT" : "simfab: interrupted by SIGTERM");
  if (const Engine* e = g_engine.load(std::memory_order_relaxed)) {
    put(buf, pos, sizeof buf, " at simulated time ");
    put_uint(buf, pos, sizeof buf, static_cast<uint64_t>(e->now().ps()));
    put(buf, pos, sizeof buf, " ps after ");
    put_uint(buf, pos, sizeof buf, e->events_processed());
    put(buf, pos, sizeof buf, " events");
  }
  put(buf, pos, sizeof buf, "; nothing written\n");
  ssize_t ignored = ::write(STDERR_FILENO, buf, pos);
  (void)ignored;
  ::_exit(128 + sig);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

void set_interrupt_engine(const Engine* engine) { g_engine.store(engine, std::memory_order_relaxed); }

}  // namespace simfab
