// Attributes (MPI-3.1 §6.7) on communicators, datatypes and windows, and MPI-1's keyval calls:
// thin wrappers over AttributeStore (online/attributes.hpp). The predefined attributes of
// MPI_COMM_WORLD (MPI_TAG_UB, ...) are MPI_Comm_get_attr's (abi_comm.cpp); it asks the store for
// the others.
#include <simfab/mpi.h>

#include "online/abi/abi_call.hpp"
#include "online/attributes.hpp"

using simfab::online::AttrKind;
using simfab::online::AttributeStore;
using simfab::online::Call;
using simfab::online::mpi_fatal;
using simfab::online::require_ptr;

namespace {

AttributeStore& store() { return AttributeStore::instance(); }

int me() { return simfab::online::attribute_rank(); }

template <class Copy, class Delete>
int create_keyval(const char* call, AttrKind kind, Copy copy, Delete del, int* keyval, void* extra) {
  require_ptr(keyval, "keyval", call);
  *keyval = store().create_keyval(kind, reinterpret_cast<AttributeStore::CopyFn>(copy),
                                  reinterpret_cast<AttributeStore::DeleteFn>(del), extra);
  return MPI_SUCCESS;
}

int free_keyval(const char* call, AttrKind kind, int* keyval) {
  require_ptr(keyval, "keyval", call);
  if (!store().free_keyval(kind, keyval)) mpi_fatal(call, "invalid keyval " + std::to_string(*keyval));
  return MPI_SUCCESS;
}

int get_attr(const char* call, AttrKind kind, int object, int keyval, void* value, int* flag) {
  require_ptr(value, "attribute_val", call);
  require_ptr(flag, "flag", call);
  void* v = nullptr;
  *flag = store().get(me(), kind, object, keyval, &v) ? 1 : 0;
  if (*flag) *static_cast<void**>(value) = v;
  return MPI_SUCCESS;
}

int delete_attr(const char* call, AttrKind kind, int object, int keyval) {
  if (!store().remove(me(), kind, object, keyval, call))
    mpi_fatal(call, "no attribute with keyval " + std::to_string(keyval) + " on this object");
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int simfab_null_copy_fn(int, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
int simfab_dup_fn(int, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int simfab_null_delete_fn(int, int, void*, void*) { return MPI_SUCCESS; }

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy_fn, MPI_Comm_delete_attr_function* delete_fn,
                           int* keyval, void* extra_state) {
  Call c("MPI_Comm_create_keyval");
  return create_keyval(c.name(), AttrKind::kComm, copy_fn, delete_fn, keyval, extra_state);
}
int MPI_Comm_free_keyval(int* keyval) {
  Call c("MPI_Comm_free_keyval");
  return free_keyval(c.name(), AttrKind::kComm, keyval);
}
int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void* attribute_val) {
  Call c("MPI_Comm_set_attr");
  c->comm(comm, c.name());
  store().set(c->me(), AttrKind::kComm, comm, keyval, attribute_val, c.name());
  return MPI_SUCCESS;
}
int MPI_Comm_delete_attr(MPI_Comm comm, int keyval) {
  Call c("MPI_Comm_delete_attr");
  c->comm(comm, c.name());
  return delete_attr(c.name(), AttrKind::kComm, comm, keyval);
}

int MPI_Type_create_keyval(MPI_Type_copy_attr_function* copy_fn, MPI_Type_delete_attr_function* delete_fn,
                           int* keyval, void* extra_state) {
  return create_keyval("MPI_Type_create_keyval", AttrKind::kType, copy_fn, delete_fn, keyval, extra_state);
}
int MPI_Type_free_keyval(int* keyval) { return free_keyval("MPI_Type_free_keyval", AttrKind::kType, keyval); }
int MPI_Type_set_attr(MPI_Datatype datatype, int keyval, void* attribute_val) {
  store().set(me(), AttrKind::kType, datatype, keyval, attribute_val, "MPI_Type_set_attr");
  return MPI_SUCCESS;
}
int MPI_Type_get_attr(MPI_Datatype datatype, int keyval, void* attribute_val, int* flag) {
  return get_attr("MPI_Type_get_attr", AttrKind::kType, datatype, keyval, attribute_val, flag);
}
int MPI_Type_delete_attr(MPI_Datatype datatype, int keyval) {
  return delete_attr("MPI_Type_delete_attr", AttrKind::kType, datatype, keyval);
}

int MPI_Win_create_keyval(MPI_Win_copy_attr_function* copy_fn, MPI_Win_delete_attr_function* delete_fn,
                          int* keyval, void* extra_state) {
  return create_keyval("MPI_Win_create_keyval", AttrKind::kWin, copy_fn, delete_fn, keyval, extra_state);
}
int MPI_Win_free_keyval(int* keyval) { return free_keyval("MPI_Win_free_keyval", AttrKind::kWin, keyval); }
int MPI_Win_set_attr(MPI_Win win, int keyval, void* attribute_val) {
  Call c("MPI_Win_set_attr");
  store().set(c->me(), AttrKind::kWin, win, keyval, attribute_val, c.name());
  return MPI_SUCCESS;
}
int MPI_Win_get_attr(MPI_Win win, int keyval, void* attribute_val, int* flag) {
  Call c("MPI_Win_get_attr");
  return get_attr(c.name(), AttrKind::kWin, win, keyval, attribute_val, flag);
}
int MPI_Win_delete_attr(MPI_Win win, int keyval) {
  Call c("MPI_Win_delete_attr");
  return delete_attr(c.name(), AttrKind::kWin, win, keyval);
}

// MPI-1
int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval, void* extra_state) {
  return MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}
int MPI_Keyval_free(int* keyval) { return MPI_Comm_free_keyval(keyval); }
int MPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val) { return MPI_Comm_set_attr(comm, keyval, attribute_val); }
int MPI_Attr_delete(MPI_Comm comm, int keyval) { return MPI_Comm_delete_attr(comm, keyval); }

}  // extern "C"
