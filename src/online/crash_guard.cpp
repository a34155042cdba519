#include "online/crash_guard.hpp"

#include "core/atomic_file.hpp"
#include "core/signal_safe_line.hpp"

#include <stdio.h>

#include <signal.h>
#include <sys/resource.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace simfab::online {

namespace {

using simfab::SignalSafeLine;
using Line = SignalSafeLine;

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr size_t kAltStackBytes = 64 * 1024;

GuardedStack* g_stacks = nullptr;  // head of the intrusive list of live stacks
bool g_installed = false;
alignas(16) char g_alt_stack[kAltStackBytes];


const char* signal_text(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV (segmentation fault)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT";
    default: return "signal";
  }
}

uintptr_t stack_pointer(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
  if (uc == nullptr) return 0;
#if defined(__x86_64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.sp);
#else
  return 0;
#endif
}

// The stack whose guard region holds `addr`, or the running stack when its stack pointer is below
// its usable range (a frame that jumped over the guard); nullptr when this is no overflow.
const GuardedStack* overflowed(uintptr_t addr, const GuardedStack* running, uintptr_t sp) {
  for (const GuardedStack* s = g_stacks; s != nullptr; s = s->next)
    if (addr >= s->guard_begin && addr < s->guard_end) return s;
  if (running != nullptr && sp != 0 && sp < running->stack_begin && sp + (1u << 20) >= running->guard_begin)
    return running;
  return nullptr;
}

// The stack a process gets here (ulimit -s, read at install time; 8 MiB when unlimited): a
// program that runs under mpirun fits in it, so it is the first size worth suggesting.
uint64_t g_process_stack = uint64_t{8} << 20;

// One suggestion that works at once rather than a doubling per attempt: the process stack, or
// twice the depth the overflow reached (a frame may have jumped the guard), rounded up to a power
// of two; four times the current size when that is no larger.
uint64_t suggested_stack(const GuardedStack& s, uint64_t depth) {
  uint64_t want = 1;
  while (want < 2 * depth) want <<= 1;
  want = want > g_process_stack ? want : g_process_stack;
  return want > s.stack_bytes ? want : 4 * uint64_t{s.stack_bytes};
}

void overflow_line(Line& line, const GuardedStack& s, uint64_t depth) {
  line.str(s.name).str(" overflowed its stack (").dec(s.stack_bytes);
  line.str(" bytes); raise it with --cfg online/stack-size=").size(suggested_stack(s, depth)).str("\n");
}

// How deep the stack had grown at the fault: from its top down to the lower of the faulting address
// and the stack pointer.
uint64_t fault_depth(const GuardedStack& s, uintptr_t addr, uintptr_t sp) {
  uintptr_t low = s.stack_begin;
  if (addr != 0 && addr < low) low = addr;
  if (sp != 0 && sp < low) low = sp;
  return s.stack_end - low;
}

void on_fault(int sig, siginfo_t* info, void* context) {
  const GuardedStack* running = detail::running_stack.load(std::memory_order_relaxed);
  const uintptr_t addr = reinterpret_cast<uintptr_t>(info != nullptr ? info->si_addr : nullptr);
  const bool has_addr = sig != SIGABRT;
  Line line;
  line.str("simfab: ");
  const uintptr_t sp = stack_pointer(context);
  if (const GuardedStack* s = has_addr ? overflowed(addr, running, sp) : nullptr) {
    overflow_line(line, *s, fault_depth(*s, addr, s == running ? sp : 0));
  } else {
    if (running != nullptr) line.str(running->name).str(" ");
    if (sig == SIGABRT) {
      line.str("aborted (SIGABRT)\n");
    } else {
      line.str("crashed: ").str(signal_text(sig)).str(" at address ").hex(addr).str("\n");
    }
  }
  // The rank's output so far: best effort, without stdio's locks (the fault may have happened
  // inside stdio, holding one); a fault while flushing lands here again and skips this.
  static volatile sig_atomic_t flushing = 0;
  if (running != nullptr && !flushing) {
    flushing = 1;
    fflush_unlocked(stdout);
    fflush_unlocked(stderr);
  }
  line.write_stderr();
  remove_pending_outputs();  // no half-written outputs, whoever crashed
  if (running != nullptr) ::_exit(kExitRankCrash);
  // simfab's own code: die by the signal as without the guard. A synchronous fault re-executes the
  // faulting instruction on return; abort() and raise() are re-raised here.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  if (info == nullptr || info->si_code <= 0) ::raise(sig);
}

}  // namespace

void install_crash_guard() {
  if (g_installed) return;
  g_installed = true;
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur >= (1u << 20))
    g_process_stack = limit.rlim_cur;
  stack_t alt{};
  alt.ss_sp = g_alt_stack;
  alt.ss_size = sizeof(g_alt_stack);
  alt.ss_flags = 0;
  ::sigaltstack(&alt, nullptr);
  struct sigaction action {};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int sig : kSignals) ::sigaction(sig, &action, nullptr);
}

void stack_overflow_exit(const GuardedStack& stack) {
  Line line;
  line.str("simfab: ");
  overflow_line(line, stack, stack.stack_bytes);
  std::fflush(stdout);
  std::fflush(stderr);
  line.write_stderr();
  remove_pending_outputs();
  ::_exit(kExitRankCrash);
}

void register_stack(GuardedStack* stack) {
  stack->prev = nullptr;
  stack->next = g_stacks;
  if (g_stacks != nullptr) g_stacks->prev = stack;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  g_stacks = stack;
}

void unregister_stack(GuardedStack* stack) {
  if (stack->prev != nullptr) {
    stack->prev->next = stack->next;
  } else if (g_stacks == stack) {
    g_stacks = stack->next;
  }
  if (stack->next != nullptr) stack->next->prev = stack->prev;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  stack->prev = stack->next = nullptr;
}

}  // namespace simfab::online
