// fiber_bench: what online mode pays per rank for running on fibers.
//   switch   a round trip main -> fiber -> main (resume() + Fiber::yield()), averaged over 10^6
//   memory   resident memory per fiber: RSS growth for 4096 fibers with 64 KiB stacks, each resumed
//            once (so each has touched the top of its stack) and suspended in yield()
// Plain output, no assertions: `fiber_bench [round_trips] [fibers]`.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <vector>

#include "online/fiber.hpp"

using simfab::online::Fiber;

namespace {

long resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * ::sysconf(_SC_PAGESIZE);
}

}  // namespace

int main(int argc, char** argv) {
  const long round_trips = argc > 1 ? std::atol(argv[1]) : 1000000;
  const int fibers = argc > 2 ? std::atoi(argv[2]) : 4096;
  constexpr size_t kStack = 64 * 1024;

  {
    bool stop = false;
    Fiber f(kStack, [&] {
      while (!stop) Fiber::yield();
    }, "bench");
    for (int i = 0; i < 1000; ++i) f.resume();  // warm up
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < round_trips; ++i) f.resume();
    const auto end = std::chrono::steady_clock::now();
    stop = true;
    f.resume();
    const double ns = std::chrono::duration<double, std::nano>(end - start).count();
    std::printf("switch: %.1f ns per round trip (resume + yield), %.1f ns per switch, over %ld round trips\n",
                ns / static_cast<double>(round_trips), ns / static_cast<double>(2 * round_trips), round_trips);
  }

  {
    std::vector<std::unique_ptr<Fiber>> all;
    all.reserve(static_cast<size_t>(fibers));
    const long before = resident_bytes();
    for (int i = 0; i < fibers; ++i)
      all.push_back(std::make_unique<Fiber>(kStack, [] {
        volatile char frame[256];
        frame[0] = 1;
        Fiber::yield();
        (void)frame[0];
      }, "rank " + std::to_string(i)));
    for (auto& f : all) f->resume();
    const long after = resident_bytes();
    const double per_fiber = static_cast<double>(after - before) / fibers;
    std::printf("memory: %.1f KiB resident per fiber (%d fibers, %zu KiB stacks + %zu KiB guard of address space each)\n",
                per_fiber / 1024.0, fibers, kStack / 1024, Fiber::kGuardBytes / 1024);
    for (auto& f : all) f->resume();
  }
  return 0;
}
