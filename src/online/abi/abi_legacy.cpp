// MPI-1 names that MPI-3 removed but old programs still call (MPI_Address, MPI_Type_extent,
// MPI_Type_struct, ...), each the MPI-2 function it was renamed to; Fortran 90's parameterized
// types; info hints on communicators and windows (accepted, ignored: MPI_*_get_info returns a new
// empty info); window names; MPI_Comm_dup_with_info and MPI_Comm_disconnect.
#include <simfab/mpi.h>

#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "online/abi/abi_call.hpp"

using simfab::online::Call;
using simfab::online::mpi_fatal;
using simfab::online::require_ptr;

namespace {

int lb_ub(const char* call, MPI_Datatype type, MPI_Aint* out, bool upper) {
  require_ptr(out, "displacement", call);
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(type, &lb, &extent);
  *out = upper ? lb + extent : lb;
  return MPI_SUCCESS;
}

// The predefined type of the smallest kind with precision p (decimal digits) and range r (decimal
// exponent), as gfortran's SELECTED_REAL_KIND / SELECTED_INT_KIND choose them; `absent` (MPI_UNDEFINED)
// arguments do not constrain.
int f90_type(const char* call, MPI_Datatype* newtype, MPI_Datatype t) {
  require_ptr(newtype, "newtype", call);
  if (t == MPI_DATATYPE_NULL) mpi_fatal(call, "no predefined type has that precision and range");
  *newtype = t;
  return MPI_SUCCESS;
}
bool within(int v, int limit) { return v == MPI_UNDEFINED || v <= limit; }

std::map<std::pair<int, MPI_Win>, std::string>& win_names() {
  static std::map<std::pair<int, MPI_Win>, std::string> names;
  return names;
}

}  // namespace

extern "C" {

int MPI_Address(const void* location, MPI_Aint* address) { return MPI_Get_address(location, address); }
int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint* extent) {
  MPI_Aint lb = 0;
  return MPI_Type_get_extent(datatype, &lb, extent);
}
int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint* displacement) {
  return lb_ub("MPI_Type_lb", datatype, displacement, false);
}
int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint* displacement) {
  return lb_ub("MPI_Type_ub", datatype, displacement, true);
}
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return MPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}
int MPI_Type_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return MPI_Type_create_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype, newtype);
}
int MPI_Type_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                    const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return MPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements, array_of_types, newtype);
}

int MPI_Type_create_f90_integer(int r, MPI_Datatype* newtype) {
  const MPI_Datatype t = within(r, 2) ? MPI_INTEGER1 : within(r, 4) ? MPI_INTEGER2 : within(r, 9) ? MPI_INTEGER4
                         : within(r, 18) ? MPI_INTEGER8 : MPI_DATATYPE_NULL;
  return f90_type("MPI_Type_create_f90_integer", newtype, t);
}
int MPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype) {
  const MPI_Datatype t = within(p, 6) && within(r, 37) ? MPI_REAL : within(p, 15) && within(r, 307) ? MPI_DOUBLE_PRECISION
                                                                                                : MPI_DATATYPE_NULL;
  return f90_type("MPI_Type_create_f90_real", newtype, t);
}
int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype) {
  const MPI_Datatype t = within(p, 6) && within(r, 37) ? MPI_COMPLEX : within(p, 15) && within(r, 307) ? MPI_DOUBLE_COMPLEX
                                                                                                   : MPI_DATATYPE_NULL;
  return f90_type("MPI_Type_create_f90_complex", newtype, t);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info, MPI_Comm* newcomm) { return MPI_Comm_dup(comm, newcomm); }
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info) {
  Call c("MPI_Comm_set_info");
  c->comm(comm, c.name());
  return MPI_SUCCESS;
}
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  {
    Call c("MPI_Comm_get_info");
    c->comm(comm, c.name());
  }
  return MPI_Info_create(info_used);
}
int MPI_Win_set_info(MPI_Win, MPI_Info) { return MPI_SUCCESS; }
int MPI_Win_get_info(MPI_Win, MPI_Info* info_used) { return MPI_Info_create(info_used); }

int MPI_Win_set_name(MPI_Win win, const char* win_name) {
  Call c("MPI_Win_set_name");
  require_ptr(win_name, "win_name", c.name());
  win_names()[{c->me(), win}] = std::string(win_name).substr(0, MPI_MAX_OBJECT_NAME - 1);
  return MPI_SUCCESS;
}
int MPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen) {
  Call c("MPI_Win_get_name");
  require_ptr(win_name, "win_name", c.name());
  require_ptr(resultlen, "resultlen", c.name());
  const auto it = win_names().find({c->me(), win});
  const std::string name = it == win_names().end() ? std::string() : it->second;
  std::memcpy(win_name, name.c_str(), name.size() + 1);
  *resultlen = static_cast<int>(name.size());
  return MPI_SUCCESS;
}

int MPI_Comm_disconnect(MPI_Comm* comm) { return MPI_Comm_free(comm); }

}  // extern "C"
