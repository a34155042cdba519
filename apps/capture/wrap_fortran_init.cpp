// The Fortran bindings' MPI_INIT and MPI_INIT_THREAD (mpif.h and `use mpi`), in the four spellings
// Fortran compilers use (mpi_init_, mpi_init__, mpi_init, MPI_INIT). They call the MPI library's
// own binding (dlsym RTLD_NEXT), then CaptureState::check_fortran_program(): Open MPI's Fortran
// MPI_INIT does not go through the C MPI_Init, and the library wraps only the C bindings, so a
// Fortran program would otherwise run uncaptured and unchecked. Now it is refused at MPI_INIT with
// the Fortran calls it makes (exit 2), or with SIMFAB_CAPTURE_ALLOW_UNRECORDED=1 runs uncaptured
// with a warning. `use mpi_f08` (other symbol names) is not covered. Exported explicitly: mpi.h gives
// the C wrappers default visibility, these have no declaration there.
#include <dlfcn.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#include "capture_state.hpp"

namespace {

using InitFn = void (*)(MPI_Fint*);
using InitThreadFn = void (*)(MPI_Fint*, MPI_Fint*, MPI_Fint*);

// The next definition of `name` after this library (the MPI library's binding).
template <class Fn>
Fn next(const char* name) {
  auto fn = reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, name));
  if (fn == nullptr) {
    std::fprintf(stderr, "simfab-capture: the MPI library has no Fortran binding '%s'\n", name);
    std::_Exit(2);
  }
  return fn;
}

void after_init(const MPI_Fint* ierr) {
  if (*ierr == MPI_SUCCESS) simfab::capture::capture_state().check_fortran_program();
}

}  // namespace

#define SIMFAB_FORTRAN_INIT(name)                                        \
  extern "C" [[gnu::visibility("default")]] void name(MPI_Fint* ierr) {   \
    static const InitFn real = next<InitFn>(#name);                      \
    real(ierr);                                                          \
    after_init(ierr);                                                    \
  }
#define SIMFAB_FORTRAN_INIT_THREAD(name)                                                     \
  extern "C" [[gnu::visibility("default")]] void name(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) { \
    static const InitThreadFn real = next<InitThreadFn>(#name);                              \
    real(required, provided, ierr);                                                          \
    after_init(ierr);                                                                        \
  }

SIMFAB_FORTRAN_INIT(mpi_init_)
SIMFAB_FORTRAN_INIT(mpi_init__)
SIMFAB_FORTRAN_INIT(mpi_init)
SIMFAB_FORTRAN_INIT(MPI_INIT)
SIMFAB_FORTRAN_INIT_THREAD(mpi_init_thread_)
SIMFAB_FORTRAN_INIT_THREAD(mpi_init_thread__)
SIMFAB_FORTRAN_INIT_THREAD(mpi_init_thread)
SIMFAB_FORTRAN_INIT_THREAD(MPI_INIT_THREAD)
