// The start and end of a hybrid run on the ranks' side: the last process of the job becomes the
// simulator; the others wrap MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Wtime and MPI_Wtick.
//
// THE SIMULATOR. The launcher starts N + 1 copies of the application (`mpirun -np N+1`, srun, or
// `simfab hybrid`). When the library is loaded (a constructor, before the application's main),
// the process whose rank in the job is the last one (OMPI_COMM_WORLD_RANK / PMI_RANK /
// PMIX_RANK / SLURM_PROCID against the job's size) replaces itself with the simulator
// (execv of simfab-hybrid-sim, next to this library, or $SIMFAB_HYBRID_SIM), before it calls
// MPI_Init, so none of the application's code runs there and MPI sees an ordinary process. The
// library is taken out of the simulator's LD_PRELOAD. SIMFAB_HYBRID_ROLE marks the processes so
// that programs the ranks themselves start (system(), popen()) are left alone.
//
// MPI_Wtime returns the rank's virtual time (HybridState::wtime) between MPI_Init and
// MPI_Finalize; before, the real clock; after, the last virtual time it returned.
#include <dlfcn.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "hybrid_state.hpp"

namespace {

using simfab::hybrid::CallScope;
using simfab::hybrid::state;

long env_long(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return -1;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return *end == '\0' ? n : -1;
}

// This process's rank in the job and the job's size, from the launcher's environment.
bool job_position(long& rank, long& size) {
  static const char* const kPairs[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                                          {"PMIX_RANK", "OMPI_UNIVERSE_SIZE"},
                                          {"PMI_RANK", "PMI_SIZE"},
                                          {"SLURM_PROCID", "SLURM_NTASKS"}};
  for (const auto& p : kPairs) {
    rank = env_long(p[0]);
    size = env_long(p[1]);
    if (rank >= 0 && size > 0) return true;
  }
  return false;
}

// LD_PRELOAD without `self`.
std::string preload_without(const char* self) {
  const char* v = std::getenv("LD_PRELOAD");
  if (!v) return {};
  std::string out, item;
  const std::string all = v;
  size_t i = 0;
  while (i <= all.size()) {
    const size_t j = all.find_first_of(": ", i);
    item = all.substr(i, j == std::string::npos ? std::string::npos : j - i);
    if (!item.empty() && item != self && item.find("libsimfab-hybrid") == std::string::npos)
      out += (out.empty() ? "" : ":") + item;
    if (j == std::string::npos) break;
    i = j + 1;
  }
  return out;
}

__attribute__((constructor)) void become_simulator() {
  if (std::getenv("SIMFAB_HYBRID_ROLE")) return;  // a program a rank started, or the simulator
  long rank = -1, size = -1;
  if (!job_position(rank, size)) return;  // not started by an MPI launcher
  if (size < 2 || rank != size - 1) {
    setenv("SIMFAB_HYBRID_ROLE", "rank", 1);
    return;
  }
  Dl_info info{};
  dladdr(reinterpret_cast<void*>(&become_simulator), &info);
  std::string sim;
  if (const char* s = std::getenv("SIMFAB_HYBRID_SIM")) sim = s;
  else if (info.dli_fname) {
    sim = info.dli_fname;
    const size_t slash = sim.rfind('/');
    sim = (slash == std::string::npos ? std::string(".") : sim.substr(0, slash)) + "/simfab-hybrid-sim";
  }
  const std::string preload = preload_without(info.dli_fname ? info.dli_fname : "");
  if (preload.empty()) unsetenv("LD_PRELOAD");
  else setenv("LD_PRELOAD", preload.c_str(), 1);
  setenv("SIMFAB_HYBRID_ROLE", "simulator", 1);
  char* const argv[] = {const_cast<char*>(sim.c_str()), nullptr};
  execv(sim.c_str(), argv);
  std::fprintf(stderr, "simfab-hybrid: cannot start the simulator '%s': %s (set SIMFAB_HYBRID_SIM to simfab-hybrid-sim)\n",
               sim.c_str(), std::strerror(errno));
  _exit(2);
}

template <class Call>
int init(Call&& call) {
  const bool first = !state().active();
  const int rc = call();
  if (first && rc == MPI_SUCCESS) state().begin();
  return rc;
}

double last_virtual = 0;

}  // namespace

extern "C" int MPI_Init(int* argc, char*** argv) {
  return init([&] { return PMPI_Init(argc, argv); });
}

extern "C" int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = init([&] { return PMPI_Init_thread(argc, argv, required, provided); });
  if (rc == MPI_SUCCESS && *provided == MPI_THREAD_MULTIPLE && state().active() && state().rank() == 0)
    std::fprintf(stderr, "simfab-hybrid: warning: MPI_THREAD_MULTIPLE: the library records one thread's calls "
                         "at a time; concurrent MPI calls from several threads corrupt the simulation\n");
  return rc;
}

extern "C" int MPI_Finalize() {
  {
    CallScope scope;
    if (scope) state().finish();
  }
  return PMPI_Finalize();
}

extern "C" double MPI_Wtime() {
  CallScope scope;
  if (!scope) return state().active() || last_virtual == 0 ? PMPI_Wtime() : last_virtual;
  last_virtual = state().wtime();
  return last_virtual;
}

extern "C" double MPI_Wtick() { return 1e-12; }
