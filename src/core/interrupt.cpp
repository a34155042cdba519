// SIGINT / SIGTERM handling (see interrupt.hpp).
#include "core/interrupt.hpp"

#include <csignal>
#include <cstdint>
#include <cstring>
#include <atomic>

#include <unistd.h>

#include "core/atomic_file.hpp"
#include "core/engine.hpp"
#include "core/signal_safe_line.hpp"

namespace simfab {

namespace {

std::atomic<const Engine*> g_engine{nullptr};
std::atomic<const char*> g_ending{nullptr};

extern "C" void on_interrupt(int sig) {
  remove_pending_outputs();
  SignalSafeLine line;
  line.str(sig == SIGINT ? "simfab: interrupted by SIGINT" : "simfab: interrupted by SIGTERM");
  if (const Engine* e = g_engine.load(std::memory_order_relaxed))
    line.str(" at simulated time ").dec(static_cast<uint64_t>(e->now().ps())).str(" ps after ").dec(e->events_processed()).str(" events");
  const char* ending = g_ending.load(std::memory_order_relaxed);
  line.str(ending ? ending : "; nothing written\n").write_stderr();
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

void set_interrupt_ending(const char* ending) { g_ending.store(ending, std::memory_order_relaxed); }

}  // namespace simfab
