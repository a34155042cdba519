// Virtual clocks (issue 26): simfab-cc and simfab-cxx link programs with --wrap for libc's clocks
// and sleeps (and C++'s steady_clock / system_clock), so that a program that times itself with
// them, as many benchmarks do instead of MPI_Wtime, reports simulated time:
//   gettimeofday, time, clock_gettime(CLOCK_REALTIME*)   E + t  (E: the host's real time when the
//                                                        run began, in whole seconds; t: the
//                                                        rank's simulated time)
//   clock_gettime(CLOCK_MONOTONIC*, CLOCK_BOOTTIME), clock(), steady_clock   t
//   system_clock                                         E + t
//   sleep, usleep, nanosleep                              advance t, as simfab_sleep (no core used)
// Reading a clock is a call like MPI_Wtime: the computation since the previous call is charged
// first (measured mode), so t includes it. With online/virtual-clocks=no, before the first rank
// runs, or for clocks not listed (the CPU-time clocks CLOCK_PROCESS_CPUTIME_ID and
// CLOCK_THREAD_CPUTIME_ID, CLOCK_TAI, ...), the host's clock answers. Under
// online/compute=declared, a loop that waits for a clock to move never ends (no computation is
// charged), as with MPI_Wtime.
#include <simfab/mpi.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>

#include "online/abi/abi_call.hpp"

using simfab::SimTime;
using simfab::online::Call;
using simfab::online::OnlineProgram;

namespace {

bool virtual_clock() {
  const OnlineProgram* p = OnlineProgram::active();
  return p && p->me() >= 0 && p->virtual_clocks();
}

int64_t rank_ns(const char* call) {
  Call c(call, true);
  return c->now().ps() / 1000;
}

// The host's real time when the first clock was read, in whole seconds (so that time()'s
// differences depend on simulated time only): the epoch of the realtime clocks, in ns.
int64_t epoch_ns() {
  static const int64_t e = static_cast<int64_t>(::time(nullptr)) * 1'000'000'000;
  return e;
}

timespec to_timespec(int64_t ns) { return {static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)}; }

bool realtime(clockid_t id) { return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE; }
bool rank_clock(clockid_t id) {
  return id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW || id == CLOCK_MONOTONIC_COARSE || id == CLOCK_BOOTTIME;
}

}  // namespace

extern "C" {

int __wrap_gettimeofday(struct timeval* tv, void* tz) {
  if (!virtual_clock()) return ::gettimeofday(tv, static_cast<struct timezone*>(tz));
  const int64_t ns = epoch_ns() + rank_ns("gettimeofday");
  if (tv) *tv = {static_cast<time_t>(ns / 1'000'000'000), static_cast<suseconds_t>(ns % 1'000'000'000 / 1000)};
  return 0;
}

int __wrap_clock_gettime(clockid_t id, struct timespec* ts) {
  if (!virtual_clock() || !(realtime(id) || rank_clock(id))) return ::clock_gettime(id, ts);
  const int64_t t = rank_ns("clock_gettime");
  if (ts) *ts = to_timespec(realtime(id) ? epoch_ns() + t : t);
  return 0;
}

time_t __wrap_time(time_t* out) {
  if (!virtual_clock()) return ::time(out);
  const auto s = static_cast<time_t>((epoch_ns() + rank_ns("time")) / 1'000'000'000);
  if (out) *out = s;
  return s;
}

clock_t __wrap_clock() {
  if (!virtual_clock()) return ::clock();
  return static_cast<clock_t>(rank_ns("clock") / (1'000'000'000 / CLOCKS_PER_SEC));
}

unsigned __wrap_sleep(unsigned seconds) {
  if (!virtual_clock()) return ::sleep(seconds);
  simfab_sleep(seconds);
  return 0;
}

int __wrap_usleep(useconds_t us) {
  if (!virtual_clock()) return ::usleep(us);
  simfab_sleep(us * 1e-6);
  return 0;
}

int __wrap_nanosleep(const struct timespec* req, struct timespec* rem) {
  if (!virtual_clock()) return ::nanosleep(req, rem);
  if (req) simfab_sleep(static_cast<double>(req->tv_sec) + req->tv_nsec * 1e-9);
  if (rem) *rem = {0, 0};
  return 0;
}

// C++ (simfab-cxx): std::chrono::steady_clock::now() and system_clock::now() (libstdc++'s
// _V2 names; high_resolution_clock is system_clock). Both return a count of nanoseconds.
int64_t __wrap__ZNSt6chrono3_V212steady_clock3nowEv() {
  if (!virtual_clock()) return std::chrono::steady_clock::now().time_since_epoch().count();
  return rank_ns("steady_clock::now");
}
int64_t __wrap__ZNSt6chrono3_V212system_clock3nowEv() {
  if (!virtual_clock()) return std::chrono::system_clock::now().time_since_epoch().count();
  return epoch_ns() + rank_ns("system_clock::now");
}

}  // extern "C"
