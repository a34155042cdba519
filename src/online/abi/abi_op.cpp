// The extern "C" reduction-operation calls, on top of online/reduce_op.hpp.
#include <simfab/mpi.h>

#include "online/arg_check.hpp"
#include "online/reduce_op.hpp"

using namespace simfab::online;

extern "C" {

int MPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  const char* call = "MPI_Op_create";
  check_pointer(call, "op", op);
  *op = op_create(user_fn, commute != 0, call);
  return MPI_SUCCESS;
}

int MPI_Op_free(MPI_Op* op) {
  const char* call = "MPI_Op_free";
  check_pointer(call, "op", op);
  op_free(*op, call);
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

int MPI_Op_commutative(MPI_Op op, int* commute) {
  const char* call = "MPI_Op_commutative";
  check_pointer(call, "commute", commute);
  *commute = op_is_commutative(op, call) ? 1 : 0;
  return MPI_SUCCESS;
}

int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype,
                     MPI_Op op) {
  const char* call = "MPI_Reduce_local";
  check_count(call, "count", count);
  if (count > 0) {
    check_pointer(call, "inbuf", inbuf);
    check_pointer(call, "inoutbuf", inoutbuf);
  }
  reduce_native(op, inbuf, inoutbuf, count, datatype, call);
  return MPI_SUCCESS;
}

}  // extern "C"
