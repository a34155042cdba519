// crash_guard: turns a rank's crash (segmentation fault, bus error, arithmetic fault, illegal
// instruction, abort) or stack overflow into one line naming the rank, and a distinct exit status.
//
// How it works. install_crash_guard() installs, once per process, a handler for SIGSEGV, SIGBUS,
// SIGFPE, SIGILL and SIGABRT that runs on an alternate signal stack (sigaltstack), so it still runs
// when the fault is a fiber overflowing its stack into its guard region. Every live Fiber owns a
// GuardedStack record (its name as a fixed char buffer, its stack and guard ranges) linked into a
// process-wide intrusive list, and Fiber::resume() publishes the running one (a relaxed atomic
// store, no syscall). On a fault the handler decides:
//   - the faulting address is in a fiber's guard region, or the running fiber's stack pointer is
//     below its stack (x86-64, AArch64):
//       simfab: rank 3 overflowed its stack (65536 bytes); raise it with --cfg online/stack-size=128KiB
//   - a fiber is running:  simfab: rank 3 crashed: SIGSEGV (segmentation fault) at address 0x10
//                          simfab: rank 3 aborted (SIGABRT)
//   then _exit(kExitRankCrash): no atexit handlers, no stdio flush (neither is async-signal-safe,
//   and the heap or stdio may be what is broken), so what the program left in a stdio buffer is
//   lost; the runtime should make the ranks' stdout line-buffered if that matters.
//   - no fiber is running (simfab's own code on the main stack): "simfab: crashed: SIGSEGV ..." and
//     the signal is re-raised with its default action, so simfab dies by the signal as it would
//     without the guard (core dump, death by SIGABRT for an internal check) rather than claiming
//     that a rank crashed.
// The handler only reads the records, formats into a stack buffer and calls write(2) and _exit(2):
// it takes no lock and allocates nothing. Exit statuses of `simfab exec`: 0 success, 2 bad input or
// an MPI usage error (mpi_fatal.hpp), 3 deadlock, 4 a rank crashed (kExitRankCrash).
//
// Limits. One thread: fibers are created, run and destroyed on the thread that called
// install_crash_guard() (the alternate stack is per thread, the list is not locked). A fault in
// simfab's own code while a rank's fiber is running (an MPI function called by the rank) is
// reported as that rank's crash. A frame larger than the guard region can jump over it into other
// memory; the stack-pointer check catches that case when the handler can read the register. A
// handler another library installs later for these signals replaces this one.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace simfab::online {

inline constexpr int kExitRankCrash = 4;

// What the handler knows about one fiber stack. The owner fills it, registers it while the stack
// exists, and unregisters it before freeing the stack. Plain data: the handler reads no std::string.
struct GuardedStack {
  static constexpr size_t kNameBytes = 64;
  uintptr_t guard_begin = 0;  // [guard_begin, guard_end): PROT_NONE, just below the stack
  uintptr_t guard_end = 0;
  uintptr_t stack_begin = 0;  // [stack_begin, stack_end): usable stack (grows down from the end)
  uintptr_t stack_end = 0;
  size_t stack_bytes = 0;       // as reported to the user
  char name[kNameBytes] = {};   // e.g. "rank 3", NUL-terminated, truncated to fit
  GuardedStack* prev = nullptr;  // intrusive list of live stacks
  GuardedStack* next = nullptr;
};

// Installs the handlers and this thread's alternate signal stack. Idempotent; call it once before
// running fibers (the online runtime does it at start-up).
void install_crash_guard();

void register_stack(GuardedStack* stack);
// Reports that `stack` overflowed (the message a fault in its guard region gives), removes pending
// outputs and exits with kExitRankCrash. For overflows found without a fault (a pooled stack's
// canary, fiber.hpp).
[[noreturn]] void stack_overflow_exit(const GuardedStack& stack);
void unregister_stack(GuardedStack* stack);

namespace detail {
inline std::atomic<const GuardedStack*> running_stack{nullptr};
}  // namespace detail

// The stack now executing (nullptr: the thread's own stack). Called on every fiber switch.
inline void set_running_stack(const GuardedStack* stack) {
  detail::running_stack.store(stack, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

}  // namespace simfab::online
