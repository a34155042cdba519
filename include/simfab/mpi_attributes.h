/* simfab/mpi_attributes.h: attributes and keyvals, error handlers, and the MPI-1 names MPI-3 removed.
 * A part of <simfab/mpi.h>, which includes it inside its extern "C" block after the handle types
 * and constants: include <mpi.h> (or <simfab/mpi.h>), not this file. */
#ifndef SIMFAB_MPI_ATTRIBUTES_H
#define SIMFAB_MPI_ATTRIBUTES_H

/* ---- attributes (MPI-3.1 §6.7): keyvals and values on communicators, datatypes, windows ---- */
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval, void* extra_state, void* attribute_val_in,
                                        void* attribute_val_out, int* flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval, void* attribute_val, void* extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int keyval, void* extra_state, void* attribute_val_in,
                                        void* attribute_val_out, int* flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype type, int keyval, void* attribute_val, void* extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int keyval, void* extra_state, void* attribute_val_in,
                                       void* attribute_val_out, int* flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int keyval, void* attribute_val, void* extra_state);
typedef MPI_Comm_copy_attr_function MPI_Copy_function;     /* MPI-1 names */
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
/* The predefined callbacks: copy nothing / copy the value; delete nothing. */
int simfab_null_copy_fn(int handle, int keyval, void* extra_state, void* in, void* out, int* flag);
int simfab_dup_fn(int handle, int keyval, void* extra_state, void* in, void* out, int* flag);
int simfab_null_delete_fn(int handle, int keyval, void* attribute_val, void* extra_state);
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function*)simfab_null_copy_fn)
#define MPI_COMM_DUP_FN ((MPI_Comm_copy_attr_function*)simfab_dup_fn)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function*)simfab_null_delete_fn)
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function*)simfab_null_copy_fn)
#define MPI_TYPE_DUP_FN ((MPI_Type_copy_attr_function*)simfab_dup_fn)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function*)simfab_null_delete_fn)
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function*)simfab_null_copy_fn)
#define MPI_WIN_DUP_FN ((MPI_Win_copy_attr_function*)simfab_dup_fn)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function*)simfab_null_delete_fn)
#define MPI_NULL_COPY_FN MPI_COMM_NULL_COPY_FN
#define MPI_DUP_FN MPI_COMM_DUP_FN
#define MPI_NULL_DELETE_FN MPI_COMM_NULL_DELETE_FN
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy_fn, MPI_Comm_delete_attr_function* delete_fn,
                           int* keyval, void* extra_state);
int MPI_Comm_free_keyval(int* keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void* attribute_val);
int MPI_Comm_delete_attr(MPI_Comm comm, int keyval);
int MPI_Type_create_keyval(MPI_Type_copy_attr_function* copy_fn, MPI_Type_delete_attr_function* delete_fn,
                           int* keyval, void* extra_state);
int MPI_Type_free_keyval(int* keyval);
int MPI_Type_set_attr(MPI_Datatype datatype, int keyval, void* attribute_val);
int MPI_Type_get_attr(MPI_Datatype datatype, int keyval, void* attribute_val, int* flag);
int MPI_Type_delete_attr(MPI_Datatype datatype, int keyval);
int MPI_Win_create_keyval(MPI_Win_copy_attr_function* copy_fn, MPI_Win_delete_attr_function* delete_fn,
                          int* keyval, void* extra_state);
int MPI_Win_free_keyval(int* keyval);
int MPI_Win_set_attr(MPI_Win win, int keyval, void* attribute_val);
int MPI_Win_get_attr(MPI_Win win, int keyval, void* attribute_val, int* flag);
int MPI_Win_delete_attr(MPI_Win win, int keyval);
int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval, void* extra_state);
int MPI_Keyval_free(int* keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val);
int MPI_Attr_delete(MPI_Comm comm, int keyval);

/* ---- error handlers (MPI-3.1 §8.3). Every error stops the run (MPI_ERRORS_ARE_FATAL's
 * behaviour) whatever handler is set: a user handler runs only through MPI_*_call_errhandler. -- */
typedef void MPI_Comm_errhandler_function(MPI_Comm* comm, int* error_code, ...);
typedef void MPI_Win_errhandler_function(MPI_Win* win, int* error_code, ...);
typedef MPI_Comm_errhandler_function MPI_Handler_function; /* MPI-1 name */
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
int MPI_Win_create_errhandler(MPI_Win_errhandler_function* function, MPI_Errhandler* errhandler);
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler);
int MPI_Win_call_errhandler(MPI_Win win, int errorcode);
int MPI_Errhandler_free(MPI_Errhandler* errhandler);
int MPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler);
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler);

/* ---- MPI-1 names removed in MPI-3 that old programs still use, and small additions --------- */
int MPI_Address(const void* location, MPI_Aint* address);
int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint* extent);
int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint* displacement);
int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint* displacement);
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype);
int MPI_Type_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype* newtype);
int MPI_Type_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                    const MPI_Datatype array_of_types[], MPI_Datatype* newtype);
/* Fortran 90's parameterized types: the predefined type with at least that precision and range. */
int MPI_Type_create_f90_integer(int r, MPI_Datatype* newtype);
int MPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype);
int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype);
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup);
/* Info hints are accepted and ignored: get_info returns a new, empty info object. */
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used);
int MPI_Win_set_info(MPI_Win win, MPI_Info info);
int MPI_Win_get_info(MPI_Win win, MPI_Info* info_used);
int MPI_Win_set_name(MPI_Win win, const char* win_name);
int MPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen);
/* MPI_Comm_free for an intra-communicator. */
int MPI_Comm_disconnect(MPI_Comm* comm);

#endif /* SIMFAB_MPI_ATTRIBUTES_H */
