// Fibers (online mode): switching order, nesting, exceptions, abandonment, many fibers at once, and
// the crash guard's reports of a stack overflow and of a crash inside a fiber.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "online/crash_guard.hpp"
#include "online/fiber.hpp"
#include "online/memory_maps.hpp"

namespace simfab::online {
namespace {

constexpr size_t kStack = 64 * 1024;

TEST(OnlineFiber, PingPongBetweenTwoFibersAndMain) {
  std::vector<std::string> log;
  Fiber a(kStack, [&] {
    log.push_back("a1");
    Fiber::yield();
    log.push_back("a2");
    Fiber::yield();
    log.push_back("a3");
  }, "rank 0");
  Fiber b(kStack, [&] {
    log.push_back("b1");
    Fiber::yield();
    log.push_back("b2");
  }, "rank 1");
  EXPECT_EQ(Fiber::current(), nullptr);
  EXPECT_FALSE(a.resume());
  log.push_back("m1");
  EXPECT_FALSE(b.resume());
  EXPECT_FALSE(a.resume());
  log.push_back("m2");
  EXPECT_TRUE(b.resume());
  EXPECT_TRUE(b.finished());
  EXPECT_FALSE(a.finished());
  EXPECT_TRUE(a.resume());
  EXPECT_TRUE(a.finished());
  EXPECT_EQ(log, (std::vector<std::string>{"a1", "m1", "b1", "a2", "m2", "b2", "a3"}));
  EXPECT_EQ(Fiber::current(), nullptr);
}

TEST(OnlineFiber, CurrentNameAndStackSize) {
  Fiber* seen = nullptr;
  Fiber f(kStack + 1, [&] { seen = Fiber::current(); }, "rank 7");
  EXPECT_EQ(f.name(), "rank 7");
  EXPECT_EQ(f.stack_bytes() % 4096, 0u);
  EXPECT_GT(f.stack_bytes(), kStack);
  EXPECT_TRUE(f.resume());
  EXPECT_EQ(seen, &f);
  Fiber tiny(1, [] {}, "tiny");
  EXPECT_EQ(tiny.stack_bytes(), Fiber::kMinStackBytes);
}

TEST(OnlineFiber, NestedResumeReturnsToTheInnerCaller) {
  std::vector<std::string> log;
  Fiber inner(kStack, [&] {
    log.push_back("inner1");
    Fiber::yield();
    log.push_back("inner2");
  }, "inner");
  Fiber outer(kStack, [&] {
    log.push_back("outer1");
    EXPECT_FALSE(inner.resume());
    EXPECT_EQ(Fiber::current()->name(), "outer");
    log.push_back("outer2");
    Fiber::yield();
    EXPECT_TRUE(inner.resume());
    log.push_back("outer3");
  }, "outer");
  EXPECT_FALSE(outer.resume());
  EXPECT_EQ(Fiber::current(), nullptr);
  EXPECT_TRUE(outer.resume());
  EXPECT_EQ(log, (std::vector<std::string>{"outer1", "inner1", "outer2", "inner2", "outer3"}));
}

TEST(OnlineFiber, ExceptionPropagatesFromResume) {
  int step = 0;
  Fiber f(kStack, [&] {
    step = 1;
    Fiber::yield();
    step = 2;
    throw std::runtime_error("boom in rank 2");
  }, "rank 2");
  EXPECT_FALSE(f.resume());
  try {
    f.resume();
    FAIL() << "resume() did not rethrow";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "boom in rank 2");
  }
  EXPECT_EQ(step, 2);
  EXPECT_TRUE(f.finished());
}

// A fiber that yields inside a catch block keeps its own caught exception while others throw.
TEST(OnlineFiber, CaughtExceptionStateIsPerFiber) {
  std::string rethrown;
  Fiber f(kStack, [&] {
    try {
      throw std::runtime_error("fiber's");
    } catch (...) {
      Fiber::yield();
      try {
        throw;
      } catch (const std::runtime_error& e) {
        rethrown = e.what();
      }
    }
  }, "rank 0");
  EXPECT_FALSE(f.resume());
  EXPECT_EQ(std::current_exception(), nullptr);
  try {
    throw std::logic_error("main's");
  } catch (const std::logic_error&) {
    EXPECT_TRUE(f.resume());
    EXPECT_NE(std::current_exception(), nullptr);
  }
  EXPECT_EQ(rethrown, "fiber's");
  EXPECT_EQ(std::current_exception(), nullptr);
}

struct Tracker {
  int* destroyed;
  ~Tracker() { ++*destroyed; }
};

TEST(OnlineFiber, AbandonedFiberIsNotUnwound) {
  int destroyed = 0;
  bool after_yield = false;
  {
    Fiber f(kStack, [&] {
      Tracker t{&destroyed};
      Fiber::yield();
      after_yield = true;
    }, "rank 1");
    EXPECT_FALSE(f.resume());
    Fiber never_started(kStack, [&] { after_yield = true; }, "rank 2");
  }
  EXPECT_EQ(destroyed, 0);
  EXPECT_FALSE(after_yield);
}

TEST(OnlineFiber, TenThousandFibersAliveAtOnce) {
  constexpr int kFibers = 10000;
  std::vector<int> count(kFibers, 0);
  std::vector<std::unique_ptr<Fiber>> fibers;
  fibers.reserve(kFibers);
  for (int i = 0; i < kFibers; ++i)
    fibers.push_back(std::make_unique<Fiber>(kStack, [&count, i] {
      volatile char frame[1024];
      frame[0] = 1;
      count[static_cast<size_t>(i)] += frame[0];
      Fiber::yield();
      count[static_cast<size_t>(i)] += 10;
    }, "rank " + std::to_string(i)));
  for (auto& f : fibers) EXPECT_FALSE(f->resume());
  for (auto& f : fibers) EXPECT_TRUE(f->resume());
  for (int c : count) ASSERT_EQ(c, 11);
}

// Pooled stacks: 20,000 fibers in one mapping, each with its own stack.
TEST(OnlineFiber, PooledFibersShareOneMapping) {
  constexpr int kFibers = 20000;
  const size_t before = mappings_in_use();
  StackPool pool(kFibers, 16 * 1024);
  std::vector<int> count(kFibers, 0);
  std::vector<std::unique_ptr<Fiber>> fibers;
  fibers.reserve(kFibers);
  for (int i = 0; i < kFibers; ++i)
    fibers.push_back(std::make_unique<Fiber>(pool, static_cast<size_t>(i), [&count, i] {
      volatile char frame[1024];
      frame[0] = static_cast<char>(i % 7);
      Fiber::yield();
      count[static_cast<size_t>(i)] += frame[0] + 10;
    }, "rank " + std::to_string(i)));
  for (auto& f : fibers) EXPECT_FALSE(f->resume());
  // One mapping for all stacks (guarded stacks: 40,000), plus what the allocator maps for the
  // Fiber objects (a few dozen under AddressSanitizer).
  EXPECT_LE(mappings_in_use(), before + 64);
  for (auto& f : fibers) EXPECT_TRUE(f->resume());
  for (int i = 0; i < kFibers; ++i) ASSERT_EQ(count[static_cast<size_t>(i)], i % 7 + 10);
}

TEST(OnlineFiber, MappingPlanPoolsBeyondHalfTheFreeMappings) {
  const MappingPlan few = plan_mappings(1000, 60000);
  EXPECT_FALSE(few.pooled_stacks);
  EXPECT_EQ(few.copies_per_mapping, 1u);
  const MappingPlan many = plan_mappings(65536, 65000);  // half: 32,500 mappings for copies
  EXPECT_TRUE(many.pooled_stacks);
  EXPECT_EQ(many.copies_per_mapping, 3u);
  EXPECT_EQ(plan_mappings(10, 0).copies_per_mapping, 10u);  // no free mapping: all copies in one
}

// --- crash guard -----------------------------------------------------------------------------

volatile bool g_stop_recursion = false;

[[gnu::noinline]] int recurse(volatile char* up) {
  volatile char frame[512];
  frame[0] = static_cast<char>(up[0] + 1);
  if (g_stop_recursion) return frame[0];
  return recurse(frame) + frame[1];
}

void overflow_in_fiber() {
  install_crash_guard();
  Fiber f(kStack, [] {
    volatile char start[1] = {0};
    recurse(start);
  }, "rank 3");
  f.resume();
}

// A pooled stack has no guard region: rank 1 recurses 8 KiB past the bottom of its 16 KiB stack
// (into rank 0's), then yields; the canary check at the switch stops the run.
[[gnu::noinline]] int recurse_to(int depth, volatile char* up) {
  volatile char frame[512];
  frame[0] = static_cast<char>(up[0] + 1);
  return depth == 0 ? frame[0] : recurse_to(depth - 1, frame) + frame[1];
}

void overflow_pooled_stack() {
  install_crash_guard();
  StackPool pool(2, 16 * 1024);
  Fiber f0(pool, 0, [] { Fiber::yield(); }, "rank 0");
  Fiber f1(pool, 1, [] {
    volatile char start[1] = {0};
    recurse_to(24 * 1024 / 512, start);
    Fiber::yield();
  }, "rank 1");
  f0.resume();
  f1.resume();
}

// A store to address 16: a fault like a null dereference, which UBSan's null check (in the
// sanitizer build) does not intercept first.
volatile int* bad_address() {
  static volatile uintptr_t address = 16;  // opaque to the optimiser
  return reinterpret_cast<volatile int*>(address);
}

void null_dereference_in_fiber() {
  install_crash_guard();
  Fiber f(kStack, [] { *bad_address() = 42; }, "rank 5");
  f.resume();
}

void abort_in_fiber() {
  install_crash_guard();
  Fiber f(kStack, [] { std::abort(); }, "rank 2");
  f.resume();
}

void null_dereference_outside_fibers() {
  install_crash_guard();
  *bad_address() = 42;
}

TEST(OnlineCrashGuardDeathTest, StackOverflowInFiberExits4) {
  EXPECT_EXIT(overflow_in_fiber(), ::testing::ExitedWithCode(kExitRankCrash),
              "simfab: rank 3 overflowed its stack \\(65536 bytes\\); raise it with --cfg "
              "online/stack-size=8MiB");
}

TEST(OnlineCrashGuardDeathTest, PooledStackOverflowIsCaughtByTheCanary) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer stops the overflow itself, at the write into rank 0's poisoned stack";
#endif
  EXPECT_EXIT(overflow_pooled_stack(), ::testing::ExitedWithCode(kExitRankCrash),
              "simfab: rank 1 overflowed its stack \\(16384 bytes\\); raise it with --cfg "
              "online/stack-size=8MiB");
}

TEST(OnlineCrashGuardDeathTest, NullDereferenceInFiberExits4) {
  EXPECT_EXIT(null_dereference_in_fiber(), ::testing::ExitedWithCode(kExitRankCrash),
              "simfab: rank 5 crashed: SIGSEGV \\(segmentation fault\\) at address 0x10");
}

TEST(OnlineCrashGuardDeathTest, AbortInFiberExits4) {
  EXPECT_EXIT(abort_in_fiber(), ::testing::ExitedWithCode(kExitRankCrash),
              "simfab: rank 2 aborted \\(SIGABRT\\)");
}

TEST(OnlineCrashGuardDeathTest, CrashOutsideFibersDiesByTheSignal) {
  EXPECT_EXIT(null_dereference_outside_fibers(), ::testing::KilledBySignal(SIGSEGV),
              "simfab: crashed: SIGSEGV");
}

}  // namespace
}  // namespace simfab::online
