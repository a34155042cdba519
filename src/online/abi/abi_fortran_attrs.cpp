// Fortran's attribute caching (MPI-3.1 §6.7 and §17.2.7): keyvals whose copy and delete callbacks
// are Fortran subroutines, and attribute values that are integers, not pointers.
//
// Fortran passes every argument by reference. MPI_{COMM,TYPE,WIN}_CREATE_KEYVAL's callbacks
//   COPY(OLDOBJ, KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN, ATTRIBUTE_VAL_OUT, FLAG, IERROR)
//   DELETE(OBJ, KEYVAL, ATTRIBUTE_VAL, EXTRA_STATE, IERROR)
// take INTEGER(KIND=MPI_ADDRESS_KIND) values and extra state and a LOGICAL flag; MPI-1's
// MPI_KEYVAL_CREATE's the same with default INTEGERs. A Fortran keyval is a C keyval of the
// AttributeStore whose callbacks are the adapters below: its extra state points to a FortranKeyval
// (the Fortran callbacks, the Fortran extra state, which integer kind), and the attribute's value
// is stored as the integer itself (MPI_{COMM,TYPE,WIN}_SET_ATTR, MPI_ATTR_PUT). A C program that
// reads such an attribute gets that integer as its void*, and a Fortran one that reads an
// attribute C stored gets the address as an integer, as the standard says for mixed languages.
// The predefined callbacks MPI_*_NULL_COPY_FN, MPI_*_DUP_FN, MPI_*_NULL_DELETE_FN (and MPI-1's
// MPI_NULL_COPY_FN, MPI_DUP_FN, MPI_NULL_DELETE_FN) are Fortran subroutines here, declared
// EXTERNAL in mpif.h. MPI_COMM_GET_ATTR and MPI_ATTR_GET live in abi_fortran.cpp.
#include <simfab/mpi.h>

#include <cstdint>
#include <deque>

#include "online/fortran/fortran_support.hpp"

using simfab::online::f_set;

namespace {

template <class V>  // MPI_Aint (MPI-2 keyvals) or MPI_Fint (MPI-1's MPI_KEYVAL_CREATE)
using FCopy = void (*)(MPI_Fint* handle, MPI_Fint* keyval, V* extra, V* in, V* out, MPI_Fint* flag, MPI_Fint* ierr);
template <class V>
using FDelete = void (*)(MPI_Fint* handle, MPI_Fint* keyval, V* value, V* extra, MPI_Fint* ierr);

struct FortranKeyval {
  void* copy;  // FCopy<MPI_Aint> or FCopy<MPI_Fint>, as `integer` says
  void* del;
  MPI_Aint extra;
  bool integer;  // MPI-1: default INTEGER values and extra state
};

std::deque<FortranKeyval>& keyvals() {  // stable addresses; keyvals are never reused
  static std::deque<FortranKeyval> all;
  return all;
}

template <class V>
int copy_as(const FortranKeyval& k, int handle, int keyval, void* in, void* out, int* flag) {
  MPI_Fint h = handle, kv = keyval, f = 0, ierr = MPI_SUCCESS;
  V extra = static_cast<V>(k.extra), value_in = static_cast<V>(reinterpret_cast<intptr_t>(in)), value_out = 0;
  reinterpret_cast<FCopy<V>>(k.copy)(&h, &kv, &extra, &value_in, &value_out, &f, &ierr);
  *flag = f != 0;
  if (*flag) *static_cast<void**>(out) = reinterpret_cast<void*>(static_cast<intptr_t>(value_out));
  return ierr;
}

template <class V>
int delete_as(const FortranKeyval& k, int handle, int keyval, void* value) {
  MPI_Fint h = handle, kv = keyval, ierr = MPI_SUCCESS;
  V extra = static_cast<V>(k.extra), v = static_cast<V>(reinterpret_cast<intptr_t>(value));
  reinterpret_cast<FDelete<V>>(k.del)(&h, &kv, &v, &extra, &ierr);
  return ierr;
}

int copy_adapter(int handle, int keyval, void* extra, void* in, void* out, int* flag) {
  const auto& k = *static_cast<const FortranKeyval*>(extra);
  return k.integer ? copy_as<MPI_Fint>(k, handle, keyval, in, out, flag)
                   : copy_as<MPI_Aint>(k, handle, keyval, in, out, flag);
}

int delete_adapter(int handle, int keyval, void* value, void* extra) {
  const auto& k = *static_cast<const FortranKeyval*>(extra);
  return k.integer ? delete_as<MPI_Fint>(k, handle, keyval, value) : delete_as<MPI_Aint>(k, handle, keyval, value);
}

template <class CKeyvalFn>
void create_keyval(CKeyvalFn create, void* copy, void* del, MPI_Fint* keyval, MPI_Aint extra, bool integer,
                   MPI_Fint* ierr) {
  keyvals().push_back({copy, del, extra, integer});
  f_set(ierr, create(copy_adapter, delete_adapter, keyval, &keyvals().back()));
}

void* as_value(MPI_Aint v) { return reinterpret_cast<void*>(static_cast<intptr_t>(v)); }

template <class V>
void null_copy(V*, V*, MPI_Fint* flag, MPI_Fint* ierr) {
  *flag = 0;
  *ierr = MPI_SUCCESS;
}
template <class V>
void dup(V* in, V* out, MPI_Fint* flag, MPI_Fint* ierr) {
  *out = *in;
  *flag = 1;  // gfortran's .TRUE.
  *ierr = MPI_SUCCESS;
}

}  // namespace

extern "C" {

void mpi_comm_create_keyval_(void* copy, void* del, MPI_Fint* keyval, MPI_Aint* extra, MPI_Fint* ierr) {
  create_keyval([](auto c, auto d, int* k, void* e) { return MPI_Comm_create_keyval(c, d, k, e); }, copy, del, keyval,
                *extra, false, ierr);
}
void mpi_type_create_keyval_(void* copy, void* del, MPI_Fint* keyval, MPI_Aint* extra, MPI_Fint* ierr) {
  create_keyval([](auto c, auto d, int* k, void* e) { return MPI_Type_create_keyval(c, d, k, e); }, copy, del, keyval,
                *extra, false, ierr);
}
void mpi_win_create_keyval_(void* copy, void* del, MPI_Fint* keyval, MPI_Aint* extra, MPI_Fint* ierr) {
  create_keyval([](auto c, auto d, int* k, void* e) { return MPI_Win_create_keyval(c, d, k, e); }, copy, del, keyval,
                *extra, false, ierr);
}
void mpi_keyval_create_(void* copy, void* del, MPI_Fint* keyval, MPI_Fint* extra, MPI_Fint* ierr) {
  create_keyval([](auto c, auto d, int* k, void* e) { return MPI_Keyval_create(c, d, k, e); }, copy, del, keyval,
                *extra, true, ierr);
}

void mpi_comm_set_attr_(MPI_Fint* comm, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* ierr) {
  f_set(ierr, MPI_Comm_set_attr(*comm, *keyval, as_value(*value)));
}
void mpi_type_set_attr_(MPI_Fint* type, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* ierr) {
  f_set(ierr, MPI_Type_set_attr(*type, *keyval, as_value(*value)));
}
void mpi_win_set_attr_(MPI_Fint* win, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* ierr) {
  f_set(ierr, MPI_Win_set_attr(*win, *keyval, as_value(*value)));
}
void mpi_attr_put_(MPI_Fint* comm, MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* ierr) {
  f_set(ierr, MPI_Comm_set_attr(*comm, *keyval, as_value(*value)));
}

void mpi_type_get_attr_(MPI_Fint* type, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag, MPI_Fint* ierr) {
  void* v = nullptr;
  f_set(ierr, MPI_Type_get_attr(*type, *keyval, &v, flag));
  if (*flag) *value = static_cast<MPI_Aint>(reinterpret_cast<intptr_t>(v));
}
void mpi_win_get_attr_(MPI_Fint* win, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag, MPI_Fint* ierr) {
  void* v = nullptr;
  f_set(ierr, MPI_Win_get_attr(*win, *keyval, &v, flag));
  if (*flag) *value = static_cast<MPI_Aint>(reinterpret_cast<intptr_t>(v));
}

// The predefined callbacks, as Fortran subroutines (by reference; values of either kind).
#define SIMFAB_FORTRAN_CALLBACKS(prefix, V)                                                                    \
  void prefix##null_copy_fn_(MPI_Fint*, MPI_Fint*, V*, V* in, V* out, MPI_Fint* flag, MPI_Fint* ierr) {     \
    null_copy(in, out, flag, ierr);                                                                         \
  }                                                                                                          \
  void prefix##dup_fn_(MPI_Fint*, MPI_Fint*, V*, V* in, V* out, MPI_Fint* flag, MPI_Fint* ierr) {           \
    dup(in, out, flag, ierr);                                                                               \
  }                                                                                                          \
  void prefix##null_delete_fn_(MPI_Fint*, MPI_Fint*, V*, V*, MPI_Fint* ierr) { *ierr = MPI_SUCCESS; }
SIMFAB_FORTRAN_CALLBACKS(mpi_comm_, MPI_Aint)
SIMFAB_FORTRAN_CALLBACKS(mpi_type_, MPI_Aint)
SIMFAB_FORTRAN_CALLBACKS(mpi_win_, MPI_Aint)
SIMFAB_FORTRAN_CALLBACKS(mpi_, MPI_Fint)
#undef SIMFAB_FORTRAN_CALLBACKS

}  // extern "C"
