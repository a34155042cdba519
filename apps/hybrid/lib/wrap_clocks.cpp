// The application's own clocks in a hybrid run. Many benchmarks time themselves with gettimeofday
// or clock_gettime rather than MPI_Wtime (NetPIPE does): between MPI_Init and MPI_Finalize, when
// the call comes from the application's executable, these return the rank's virtual time (the
// MPI_Wtime wrapper's, so the computation before is accounted first): gettimeofday and
// clock_gettime(CLOCK_REALTIME) as E + t (E: the real time of the first such call, in whole
// seconds), clock_gettime(CLOCK_MONOTONIC) as t. Calls from any other object (the MPI library's
// timers, libc, this library) and other clocks get the real ones: only the application's code is
// in the simulated machine. (A program whose timing code lives in a shared library of its own
// keeps real time there.)
#include <dlfcn.h>
#include <mpi.h>
#include <sys/auxv.h>
#include <sys/time.h>
#include <time.h>

#include <cstdint>

#include "hybrid_state.hpp"

using simfab::hybrid::state;

namespace {

// Whether `caller` lies in the main executable (the application).
bool from_application(void* caller) {
  static void* const main_base = [] {
    Dl_info info{};
    return dladdr(reinterpret_cast<void*>(getauxval(AT_PHDR)), &info) ? info.dli_fbase : nullptr;
  }();
  Dl_info info{};
  return main_base && dladdr(caller, &info) && info.dli_fbase == main_base;
}

bool virtual_clock(void* caller) { return state().active() && state().depth_ == 0 && from_application(caller); }

int64_t virtual_ns() { return static_cast<int64_t>(MPI_Wtime() * 1e9 + 0.5); }

int64_t epoch_ns() {
  static const int64_t e = static_cast<int64_t>(::time(nullptr)) * 1'000'000'000;
  return e;
}

template <class F>
F next(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int gettimeofday(struct timeval* tv, void* tz) {
  static const auto real = next<int (*)(struct timeval*, void*)>("gettimeofday");
  if (!virtual_clock(__builtin_return_address(0))) return real(tv, tz);
  const int64_t ns = epoch_ns() + virtual_ns();
  *tv = {static_cast<time_t>(ns / 1000000000), static_cast<suseconds_t>(ns % 1000000000 / 1000)};  // nonnull in glibc
  return 0;
}

extern "C" __attribute__((visibility("default"))) int clock_gettime(clockid_t id, struct timespec* ts) {
  static const auto real = next<int (*)(clockid_t, struct timespec*)>("clock_gettime");
  if ((id != CLOCK_REALTIME && id != CLOCK_MONOTONIC) || !virtual_clock(__builtin_return_address(0)))
    return real(id, ts);
  const int64_t ns = (id == CLOCK_REALTIME ? epoch_ns() : 0) + virtual_ns();
  *ts = {static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  return 0;
}
