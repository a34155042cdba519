// Fiber: a function running on its own stack, switched to and from explicitly (a coroutine with a
// stack). Online mode runs each simulated rank's `main` on one fiber; an MPI call that must wait
// yields back to the simulator's event loop, which resumes the rank when the call can complete.
//
// How it works. The stack is one private anonymous mapping (MAP_NORESERVE: pages cost memory only
// once touched) whose lowest kGuardBytes are PROT_NONE: running off the bottom of the stack faults
// in the guard region instead of writing over other memory, and the crash guard (crash_guard.hpp)
// reports it as a stack overflow of the fiber's named rank. Switching is boost::context::fiber
// (fcontext: a hand-written assembly routine that saves the callee-saved registers and swaps the
// stack pointer, no system call, no signal mask), plus a few stores: the running fiber, the crash
// guard's running stack, and the C++ runtime's per-thread exception state (the "currently caught
// exceptions" chain), which is saved and restored per fiber so that a rank that yields inside a
// catch block does not see another rank's exceptions.
//
// Invariants. resume() runs the fiber until it calls Fiber::yield() or its body returns; resume()
// returns true once the body has returned, and must not be called again after that. A body that
// throws is caught at the top of its stack and the exception is rethrown from the resume() that
// ran it (the fiber is then finished). Fibers may resume other fibers (yield returns to the most
// recent resume() of the yielding fiber). A Fiber destroyed before its body returned is ABANDONED:
// its stack is unmapped without unwinding it, so destructors of objects living on that stack do
// not run (their heap memory leaks; no rank code runs during teardown). All fibers of a process are
// used from one thread.
//
// Costs. A round trip (resume + yield) is a few tens of nanoseconds (bench/fiber_bench.cpp).
// Memory: the pages the fiber touched (typically 8-16 KiB for a short-lived body), rounded to
// pages, plus the Fiber object; address space: stack_bytes + kGuardBytes. Each fiber holds two
// memory mappings (stack, guard), so vm.max_map_count (65530 by default) bounds live fibers near
// 32,000 by itself; the constructor says so when mmap fails.
//
// Pooled stacks (StackPool, for runs of more ranks than guarded stacks allow: memory_maps.hpp).
// The stacks of all fibers are one mapping, side by side, with no guard region: a fiber running
// off its stack writes into its neighbour's. Instead, the lowest kCanaryBytes of each stack must
// still read zero (the pages are never touched otherwise, so checking costs no memory) when the
// fiber switches back to its resumer; if not, the run stops with the same "rank N overflowed its
// stack" report as a guard fault (crash_guard.hpp). A frame that writes below its stack without
// touching those bytes, or an overflow that corrupts the neighbour before the switch, is not caught.
#pragma once
#pragma once

#include <boost/context/fiber.hpp>
#include <cstddef>
#include <exception>
#include <functional>
#include <string>

#include "online/crash_guard.hpp"

namespace simfab::online {

// One mapping holding `count` stacks of `stack_bytes` (rounded up to pages) without guard regions;
// pages cost memory only once touched (MAP_NORESERVE).
class StackPool {
 public:
  StackPool(size_t count, size_t stack_bytes);
  ~StackPool();
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  // The lowest address of stack `i`.
  void* stack(size_t i) const { return static_cast<char*>(mapping_) + i * stack_bytes_; }
  size_t stack_bytes() const { return stack_bytes_; }

 private:
  void* mapping_ = nullptr;
  size_t count_ = 0;
  size_t stack_bytes_ = 0;
};

class Fiber {
 public:
  // The PROT_NONE region below every stack (address space only). Larger than one page so that a
  // function with a big frame (a local array) still lands in it rather than jumping over it.
  static constexpr size_t kGuardBytes = 64 * 1024;
  static constexpr size_t kMinStackBytes = 16 * 1024;
  static constexpr size_t kCanaryBytes = 256;  // pooled stacks: the bottom bytes that must stay zero

  // `body` runs on its own stack of `stack_bytes` (at least kMinStackBytes, rounded up to pages;
  // plus the guard region). `name` ("rank 3") names the fiber in crash reports. InputError when the
  // stack cannot be mapped (out of memory or of mappings).
  Fiber(size_t stack_bytes, std::function<void()> body, std::string name);
  // The same on stack `index` of `pool` (no guard region; see above).
  Fiber(const StackPool& pool, size_t index, std::function<void()> body, std::string name);
  // Unmaps the stack; an unfinished fiber is abandoned (see above), never unwound.
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Switches to the fiber until it calls Fiber::yield() or its body returns; true once the body has
  // returned. Rethrows what the body threw. REQUIRES: !finished(), and not the running fiber.
  bool resume();
  // From inside a fiber: back to the caller of resume(). REQUIRES: current() != nullptr.
  static void yield();
  // The running fiber; nullptr on the thread's own stack.
  static Fiber* current();

  bool finished() const { return finished_; }
  const std::string& name() const { return name_; }
  // Usable stack bytes (the request rounded up to pages).
  size_t stack_bytes() const { return stack_bytes_; }

 private:
  // The C++ runtime's per-thread exception state (__cxa_eh_globals), kept per fiber.
  struct EhState {
    void* caught = nullptr;
    unsigned int uncaught = 0;
  };
  // Holds the suspended boost fiber without destroying it implicitly: boost would unwind an
  // unfinished fiber in its destructor, which an abandoned fiber must not do.
  union Suspended {
    Suspended() {}
    ~Suspended() {}
    boost::context::fiber context;
  };

  boost::context::fiber run(boost::context::fiber&& caller);
  void start(uintptr_t stack_begin);
  void swap_exception_state();
  void check_canary() const;

  std::function<void()> body_;
  std::string name_;
  size_t stack_bytes_ = 0;
  void* mapping_ = nullptr;  // guard region, then the stack; nullptr for a pooled stack
  size_t mapping_bytes_ = 0;
  Suspended suspended_;            // the fiber's context while it is not running
  boost::context::fiber caller_;   // while running: where yield() and the end of body go
  Fiber* resumer_ = nullptr;       // the fiber current() when resume() was called
  std::exception_ptr error_;
  bool finished_ = false;
  EhState eh_;
  GuardedStack guard_;
  // AddressSanitizer's view of the stack being left (only used when built with ASan).
  const void* caller_stack_ = nullptr;
  size_t caller_stack_bytes_ = 0;
};

}  // namespace simfab::online
