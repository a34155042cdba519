#include "online/flush_output.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <iostream>

namespace simfab::online {

namespace {

// gfortran's FLUSH of every unit (_gfortran_flush_i4(NULL)); nullptr while libgfortran is not
// loaded (it comes with a Fortran program's first copy, so look again until it is there).
using FortranFlush = void (*)(int*);
FortranFlush fortran_flush() {
  static FortranFlush flush = nullptr;
  if (!flush)
    if (void* lib = ::dlopen("libgfortran.so.5", RTLD_LAZY | RTLD_NOLOAD)) {
      flush = reinterpret_cast<FortranFlush>(::dlsym(lib, "_gfortran_flush_i4"));
      ::dlclose(lib);
    }
  return flush;
}

}  // namespace

void flush_program_output() {
  std::cout.flush();
  std::clog.flush();
  std::fflush(nullptr);
  if (const FortranFlush flush = fortran_flush()) flush(nullptr);
}

}  // namespace simfab::online
