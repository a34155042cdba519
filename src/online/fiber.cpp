#include "online/fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <cxxabi.h>
#include <fstream>
#include <utility>

#include "core/error.hpp"
#include "online/asan_unpoison.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define SIMFAB_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIMFAB_ASAN_FIBERS 1
#endif
#endif
#if defined(SIMFAB_ASAN_FIBERS)
#include <sanitizer/common_interface_defs.h>
#endif

namespace simfab::online {

namespace {

thread_local Fiber* t_current = nullptr;

size_t page_bytes() {
  static const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

size_t round_up(size_t n, size_t unit) { return (n + unit - 1) / unit * unit; }

std::string max_map_count() {
  std::ifstream in("/proc/sys/vm/max_map_count");
  std::string value;
  if (!(in >> value)) value = "unknown";
  return value;
}

// Hands boost the stack the Fiber mapped; the Fiber unmaps it, so deallocate does nothing (which
// is also what lets an abandoned fiber skip boost's teardown).
struct BorrowedStack {
  boost::context::stack_context stack;
  boost::context::stack_context allocate() { return stack; }
  void deallocate(boost::context::stack_context&) noexcept {}
};

// Exception state save/restore: libstdc++ and libc++abi share this layout on the supported ABIs
// (Itanium C++ ABI, not ARM EHABI, which adds a field).
#if (defined(__GLIBCXX__) || defined(_LIBCPPABI_VERSION)) && !defined(__ARM_EABI_UNWINDER__)
constexpr bool kSwapExceptionState = true;
#else
constexpr bool kSwapExceptionState = false;
#endif

}  // namespace

Fiber::Fiber(size_t stack_bytes, std::function<void()> body, std::string name)
    : body_(std::move(body)), name_(std::move(name)) {
  const size_t page = page_bytes();
  stack_bytes_ = round_up(stack_bytes < kMinStackBytes ? kMinStackBytes : stack_bytes, page);
  const size_t guard = round_up(kGuardBytes, page);
  mapping_bytes_ = guard + stack_bytes_;
  void* map = ::mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (map == MAP_FAILED || ::mprotect(map, guard, PROT_NONE) != 0) {
    const int err = errno;
    if (map != MAP_FAILED) ::munmap(map, mapping_bytes_);
    throw InputError(SourceLoc{}, "cannot map the stack of " + name_ + " (" +
                                      std::to_string(stack_bytes_) + " bytes): " + std::strerror(err) +
                                      "; every rank's stack takes 2 memory mappings and the system allows " +
                                      max_map_count() +
                                      " (vm.max_map_count): run fewer ranks, lower --cfg online/stack-size, "
                                      "or raise vm.max_map_count");
  }
  mapping_ = map;
  const auto base = reinterpret_cast<uintptr_t>(map);
  guard_.guard_begin = base;
  guard_.guard_end = base + guard;
  start(base + guard);
}

Fiber::Fiber(const StackPool& pool, size_t index, std::function<void()> body, std::string name)
    : body_(std::move(body)), name_(std::move(name)) {
  stack_bytes_ = pool.stack_bytes();
  const auto base = reinterpret_cast<uintptr_t>(pool.stack(index));
  guard_.guard_begin = guard_.guard_end = base;  // no guard region: the canary stands in for it
  start(base);
}

void Fiber::start(uintptr_t stack_begin) {
  guard_.stack_begin = stack_begin;
  guard_.stack_end = stack_begin + stack_bytes_;
  guard_.stack_bytes = stack_bytes_;
  const size_t n = std::min(name_.size(), GuardedStack::kNameBytes - 1);
  std::memcpy(guard_.name, name_.data(), n);
  guard_.name[n] = '\0';
  register_stack(&guard_);

  boost::context::stack_context stack;
  stack.size = stack_bytes_;
  stack.sp = reinterpret_cast<void*>(guard_.stack_end);
  new (&suspended_.context) boost::context::fiber(
      std::allocator_arg, BorrowedStack{stack},
      [this](boost::context::fiber&& caller) { return run(std::move(caller)); });
}

void Fiber::check_canary() const {
  const auto* bottom = reinterpret_cast<const unsigned char*>(guard_.stack_begin);
  for (size_t i = 0; i < kCanaryBytes; ++i)
    if (bottom[i] != 0) stack_overflow_exit(guard_);
}

StackPool::StackPool(size_t count, size_t stack_bytes) : count_(count) {
  stack_bytes_ = round_up(stack_bytes < Fiber::kMinStackBytes ? Fiber::kMinStackBytes : stack_bytes, page_bytes());
  void* map = ::mmap(nullptr, count_ * stack_bytes_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (map == MAP_FAILED)
    throw InputError(SourceLoc{}, "cannot map the stacks of " + std::to_string(count_) + " ranks (" +
                                      std::to_string(count_ * stack_bytes_) + " bytes): " + std::strerror(errno) +
                                      "; lower --cfg online/stack-size");
  unpoison_mapping(map, count_ * stack_bytes_);
  mapping_ = map;
}

StackPool::~StackPool() { ::munmap(mapping_, count_ * stack_bytes_); }

Fiber::~Fiber() {
  // A finished fiber's context is empty; an unfinished one is abandoned: its boost context is not
  // destroyed (that would unwind the stack), and nothing it owns lives outside the stack.
  if (finished_) suspended_.context.~fiber();
  unregister_stack(&guard_);
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_bytes_);
}

boost::context::fiber Fiber::run(boost::context::fiber&& caller) {
  caller_ = std::move(caller);
#if defined(SIMFAB_ASAN_FIBERS)
  __sanitizer_finish_switch_fiber(nullptr, &caller_stack_, &caller_stack_bytes_);
#endif
  try {
    body_();
  } catch (...) {
    error_ = std::current_exception();
  }
  finished_ = true;
#if defined(SIMFAB_ASAN_FIBERS)
  __sanitizer_start_switch_fiber(nullptr, caller_stack_, caller_stack_bytes_);
#endif
  return std::move(caller_);
}

void Fiber::swap_exception_state() {
  if constexpr (kSwapExceptionState) {
    // The thread's state never moves: look it up once (a call through the PLT and a TLS lookup).
    thread_local EhState* const globals = reinterpret_cast<EhState*>(abi::__cxa_get_globals());
    std::swap(*globals, eh_);
  }
}

bool Fiber::resume() {
  SIMFAB_CHECK(!finished_, "resume() of a finished fiber (" + name_ + ")");
  SIMFAB_CHECK(t_current != this, "a fiber resumed itself (" + name_ + ")");
  resumer_ = t_current;
  t_current = this;
  set_running_stack(&guard_);
  swap_exception_state();
#if defined(SIMFAB_ASAN_FIBERS)
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, reinterpret_cast<const void*>(guard_.stack_begin),
                                 stack_bytes_);
#endif
  suspended_.context = std::move(suspended_.context).resume();
#if defined(SIMFAB_ASAN_FIBERS)
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
  swap_exception_state();
  if (mapping_ == nullptr) check_canary();
  t_current = resumer_;
  set_running_stack(resumer_ != nullptr ? &resumer_->guard_ : nullptr);
  resumer_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return finished_;
}

void Fiber::yield() {
  Fiber* self = t_current;
  SIMFAB_CHECK(self != nullptr, "Fiber::yield() outside a fiber");
#if defined(SIMFAB_ASAN_FIBERS)
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, self->caller_stack_, self->caller_stack_bytes_);
#endif
  self->caller_ = std::move(self->caller_).resume();
#if defined(SIMFAB_ASAN_FIBERS)
  __sanitizer_finish_switch_fiber(fake_stack, &self->caller_stack_, &self->caller_stack_bytes_);
#endif
}

Fiber* Fiber::current() { return t_current; }

}  // namespace simfab::online
