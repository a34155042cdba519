// The extern "C" calls of MPI's small utilities: error strings, MPI_Dims_create, addresses and
// MPI_Alloc_mem.
#include <simfab/mpi.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "online/arg_check.hpp"
#include "online/dims_create.hpp"
#include "online/error_classes.hpp"

using namespace simfab::online;

namespace {

const char* checked_error_string(int errorcode, const char* call) {
  const char* s = error_string(errorcode);
  if (s == nullptr) {
    mpi_fatal(call, "invalid error code " + std::to_string(errorcode) + " (0 .. " +
                        std::to_string(MPI_ERR_LASTCODE) + ")");
  }
  return s;
}

}  // namespace

extern "C" {

int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  const char* call = "MPI_Error_string";
  check_pointer(call, "string", string);
  check_pointer(call, "resultlen", resultlen);
  const char* s = checked_error_string(errorcode, call);
  const size_t n = std::strlen(s);
  std::memcpy(string, s, n + 1);
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int* errorclass) {
  const char* call = "MPI_Error_class";
  check_pointer(call, "errorclass", errorclass);
  checked_error_string(errorcode, call);
  *errorclass = errorcode;
  return MPI_SUCCESS;
}

int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  dims_create(nnodes, ndims, dims, "MPI_Dims_create");
  return MPI_SUCCESS;
}

int MPI_Get_address(const void* location, MPI_Aint* address) {
  check_pointer("MPI_Get_address", "address", address);
  *address = static_cast<MPI_Aint>(reinterpret_cast<std::intptr_t>(location));
  return MPI_SUCCESS;
}

MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) { return base + disp; }

MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) { return addr1 - addr2; }

int MPI_Alloc_mem(MPI_Aint size, MPI_Info, void* baseptr) {
  const char* call = "MPI_Alloc_mem";
  check_count(call, "size", size);
  check_pointer(call, "baseptr", baseptr);
  void* p = std::malloc(size > 0 ? static_cast<size_t>(size) : 1);
  if (p == nullptr) mpi_fatal(call, "out of memory allocating " + std::to_string(size) + " bytes");
  std::memcpy(baseptr, &p, sizeof p);  // baseptr is a void** passed as void*
  return MPI_SUCCESS;
}

int MPI_Free_mem(void* base) {
  std::free(base);
  return MPI_SUCCESS;
}

}  // extern "C"
