// Environment calls (MPI-3.1 chapter 8), simfab's extensions (simfab_compute, sampling, shared
// allocations) and the program's exit(), which simfab-cc links as __wrap_exit.
#include <cstring>

#include "online/abi/abi_call.hpp"

using simfab::online::Call;
using simfab::online::mpi_fatal;

namespace {

void copy_string(const std::string& s, char* out, int max, int* len) {
  const size_t n = std::min(s.size(), static_cast<size_t>(max - 1));
  std::memcpy(out, s.data(), n);
  out[n] = '\0';
  if (len) *len = static_cast<int>(n);
}

}  // namespace

extern "C" {

int MPI_Init(int*, char***) {
  Call c("MPI_Init", true);
  c->init(c.name());
  return MPI_SUCCESS;
}

int MPI_Init_thread(int*, char***, int required, int* provided) {
  Call c("MPI_Init_thread", true);
  c->init(c.name());
  if (provided) *provided = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE : required > MPI_THREAD_FUNNELED ? MPI_THREAD_FUNNELED : required;
  return MPI_SUCCESS;
}

int MPI_Initialized(int* flag) {
  Call c("MPI_Initialized", true);
  simfab::online::require_ptr(flag, "flag", c.name());
  *flag = c->initialized();
  return MPI_SUCCESS;
}

int MPI_Finalized(int* flag) {
  Call c("MPI_Finalized", true);
  simfab::online::require_ptr(flag, "flag", c.name());
  *flag = c->finalized();
  return MPI_SUCCESS;
}

int MPI_Finalize(void) {
  Call c("MPI_Finalize");
  c->finalize();
  return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm, int errorcode) {
  Call c("MPI_Abort", true);
  c->abort_run(errorcode);
}

double MPI_Wtime(void) {
  Call c("MPI_Wtime", true);
  return c->now().seconds();
}

double MPI_Wtick(void) { return 1e-12; }

int MPI_Get_processor_name(char* name, int* resultlen) {
  Call c("MPI_Get_processor_name");
  simfab::online::require_ptr(name, "name", c.name());
  copy_string(c->host_name(), name, MPI_MAX_PROCESSOR_NAME, resultlen);
  return MPI_SUCCESS;
}

int MPI_Get_version(int* version, int* subversion) {
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int MPI_Get_library_version(char* version, int* resultlen) {
  copy_string(std::string("simfab ") + SIMFAB_VERSION + " (simulated MPI 3.1)", version, MPI_MAX_LIBRARY_VERSION_STRING,
              resultlen);
  return MPI_SUCCESS;
}

int MPI_Query_thread(int* provided) {
  *provided = MPI_THREAD_FUNNELED;
  return MPI_SUCCESS;
}

int MPI_Is_thread_main(int* flag) {
  *flag = 1;
  return MPI_SUCCESS;
}

int MPI_Pcontrol(const int level, ...) {
  Call c("MPI_Pcontrol", true);
  c->pcontrol(level);
  return MPI_SUCCESS;
}

// ---- simfab's extensions (include/simfab/mpi.h) ----

void simfab_compute(double flops) {
  Call c("simfab_compute", true);
  c->compute_flops(flops);
}

void simfab_sleep(double seconds) {
  Call c("simfab_sleep", true);
  c->compute_seconds(seconds);
}

int simfab_set_pstate(int pstate) {
  Call c("simfab_set_pstate", true);
  c->set_pstate(pstate);
  return 0;
}

int simfab_host_off(const char* host) {
  Call c("simfab_host_off", true);
  c->switch_host(host, false, c.name());
  return 0;
}

int simfab_host_on(const char* host) {
  Call c("simfab_host_on", true);
  c->switch_host(host, true, c.name());
  return 0;
}

int simfab_get_pstate(void) {
  Call c("simfab_get_pstate", true);
  return c->pstate();
}

int simfab_pstate_count(void) {
  Call c("simfab_pstate_count", true);
  return c->pstate_count();
}

void simfab_migrate(void) {
  Call c("simfab_migrate");
  c->migrate_point();
}

void simfab_switch(const char* changes) {
  Call c("simfab_switch", true);
  simfab::online::require_ptr(changes, "the changes", "simfab_switch");
  c->switch_model(changes);
}

void smpi_execute_flops(double flops) { simfab_compute(flops); }
void smpi_execute(double seconds) { simfab_sleep(seconds); }

int simfab_sample_begin(const char* file, int line, int max_runs) {
  return Call::program("SIMFAB_SAMPLE").sample_begin(file, line, max_runs);
}

void simfab_sample_end(const char* file, int line) { Call::program("SIMFAB_SAMPLE").sample_end(file, line); }

void* simfab_shared_malloc(size_t bytes) {
  Call c("simfab_shared_malloc", true);
  return c->shared_malloc(bytes);
}

void simfab_shared_free(void* p) {
  Call c("simfab_shared_free", true);
  c->shared_free(p);
}

// simfab-cc links programs with -Wl,--wrap=exit: their exit() ends their rank, not simfab.
[[noreturn]] void __wrap_exit(int status) {
  Call::program("exit").exit_rank(status);
}

}  // extern "C"
