// The Fortran bindings whose form differs from the C function's (the others are generated from
// <simfab/mpi.h> by src/online/fortran/gen_fortran.py; conventions in fortran_support.hpp), the
// C<->Fortran handle conversions, and gfortran's STOP statements, which simfab-fc links as
// __wrap__gfortran_* so that they end the rank, not the simulator (as __wrap_exit for C).
#include <simfab/mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "online/abi/abi_call.hpp"
#include "online/attributes.hpp"
#include "online/fortran/fortran_support.hpp"

using simfab::online::Call;
using simfab::online::f_set;

namespace {

// MPI_COMM_GET_ATTR's ATTRIBUTE_VAL is the value itself (INTEGER(KIND=MPI_ADDRESS_KIND));
// MPI_ATTR_GET's an INTEGER. simfab's predefined attributes (MPI_TAG_UB, ...) are C ints the C
// call points to; a user keyval's value is the integer Fortran stored (abi_fortran_attrs.cpp).
template <class T>
void get_attr(MPI_Comm* comm, int* keyval, T* value, int* flag, int* ierr) {
  void* p = nullptr;
  const int rc = MPI_Comm_get_attr(*comm, *keyval, &p, flag);
  if (rc == MPI_SUCCESS && *flag) {
    if (*keyval < simfab::online::AttributeStore::kFirstKeyval) {
      if (p) *value = static_cast<T>(*static_cast<int*>(p));
    } else {
      *value = static_cast<T>(reinterpret_cast<intptr_t>(p));
    }
  }
  f_set(ierr, rc);
}

// STOP and ERROR STOP print as gfortran does (on stderr, unless QUIET=.TRUE.), then end the rank.
[[noreturn]] void stop(const char* what, const std::string& code, bool quiet, int status) {
  if (!quiet && !code.empty()) std::fprintf(stderr, "%s %s\n", what, code.c_str());
  else if (!quiet && std::strcmp(what, "ERROR STOP") == 0) std::fprintf(stderr, "%s\n", what);
  std::fflush(stderr);
  Call::program(what).exit_rank(status);
}

}  // namespace

extern "C" {

// ---- C <-> Fortran handles: simfab's handles are INTEGERs in both languages ----------------
MPI_Fint MPI_Comm_c2f(MPI_Comm h) { return h; }
MPI_Comm MPI_Comm_f2c(MPI_Fint h) { return h; }
MPI_Fint MPI_Type_c2f(MPI_Datatype h) { return h; }
MPI_Datatype MPI_Type_f2c(MPI_Fint h) { return h; }
MPI_Fint MPI_Group_c2f(MPI_Group h) { return h; }
MPI_Group MPI_Group_f2c(MPI_Fint h) { return h; }
MPI_Fint MPI_Op_c2f(MPI_Op h) { return h; }
MPI_Op MPI_Op_f2c(MPI_Fint h) { return h; }
MPI_Fint MPI_Request_c2f(MPI_Request h) { return h; }
MPI_Request MPI_Request_f2c(MPI_Fint h) { return h; }
MPI_Fint MPI_Win_c2f(MPI_Win h) { return h; }
MPI_Win MPI_Win_f2c(MPI_Fint h) { return h; }
MPI_Fint MPI_Info_c2f(MPI_Info h) { return h; }
MPI_Info MPI_Info_f2c(MPI_Fint h) { return h; }
MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler h) { return h; }
MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint h) { return h; }
MPI_Fint MPI_Message_c2f(MPI_Message h) { return h; }
MPI_Fint MPI_File_c2f(MPI_File h) { return h; }
MPI_File MPI_File_f2c(MPI_Fint h) { return h; }
MPI_Message MPI_Message_f2c(MPI_Fint h) { return h; }
int MPI_Status_c2f(const MPI_Status* c, MPI_Fint* f) {
  std::memcpy(f, c, sizeof *c);
  return MPI_SUCCESS;
}
int MPI_Status_f2c(const MPI_Fint* f, MPI_Status* c) {
  std::memcpy(c, f, sizeof *c);
  return MPI_SUCCESS;
}

// ---- Fortran bindings ----------------------------------------------------------------------
void mpi_init_(int* ierr) { f_set(ierr, MPI_Init(nullptr, nullptr)); }
void mpi_init_thread_(int* required, int* provided, int* ierr) {
  f_set(ierr, MPI_Init_thread(nullptr, nullptr, *required, provided));
}
void mpi_pcontrol_(int* level) { MPI_Pcontrol(*level); }
void mpi_comm_get_attr_(MPI_Comm* comm, int* keyval, MPI_Aint* value, int* flag, int* ierr) {
  get_attr(comm, keyval, value, flag, ierr);
}
void mpi_attr_get_(MPI_Comm* comm, int* keyval, int* value, int* flag, int* ierr) {
  get_attr(comm, keyval, value, flag, ierr);
}
// MPI_BUFFER_DETACH(BUFFER_ADDR, SIZE, IERROR): Fortran cannot receive the address.
void mpi_buffer_detach_(void*, int* size, int* ierr) {
  void* address = nullptr;
  f_set(ierr, MPI_Buffer_detach(&address, size));
}

// ---- gfortran's STOP, ERROR STOP and CALL EXIT (simfab-fc: -Wl,--wrap=...) ------------------
[[noreturn]] void __wrap__gfortran_stop_numeric(int code, bool quiet) {
  stop("STOP", std::to_string(code), quiet, code);
}
[[noreturn]] void __wrap__gfortran_stop_string(const char* text, size_t len, bool quiet) {
  stop("STOP", text ? std::string(text, len) : std::string(), quiet, 0);
}
[[noreturn]] void __wrap__gfortran_error_stop_numeric(int code, bool quiet) {
  stop("ERROR STOP", std::to_string(code), quiet, code);
}
[[noreturn]] void __wrap__gfortran_error_stop_string(const char* text, size_t len, bool quiet) {
  stop("ERROR STOP", text ? std::string(text, len) : std::string(), quiet, 1);
}
[[noreturn]] void __wrap__gfortran_exit_i4(const int* status) {
  Call::program("EXIT").exit_rank(status ? *status : 0);
}
[[noreturn]] void __wrap__gfortran_exit_i8(const long* status) {
  Call::program("EXIT").exit_rank(status ? static_cast<int>(*status) : 0);
}

}  // extern "C"
