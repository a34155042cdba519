// One-sided communication (MPI-3.1 chapter 11): thin wrappers over online/rma.hpp.
#include "online/abi/abi_call.hpp"
#include "online/attributes.hpp"
#include "online/rma.hpp"

using simfab::online::Call;
using simfab::online::require_ptr;
using Rma = simfab::online::Rma;

namespace {

Rma& rma() { return Rma::instance(); }

int access(Call& c, MPI_Win win, const Rma::Transfer& t, MPI_Request* request = nullptr) {
  if (request) require_ptr(request, "request", c.name());
  rma().access(c.get(), win, t, c.name(), request);
  return MPI_SUCCESS;
}

// An access of `kind` to `count` elements of `type` at displacement `disp` of `target`'s window.
Rma::Transfer at_target(Rma::Access kind, int target, MPI_Aint disp, int count, MPI_Datatype type) {
  Rma::Transfer t;
  t.kind = kind;
  t.target = target;
  t.disp = disp;
  t.target_count = count;
  t.target_type = type;
  return t;
}

void from_origin(Rma::Transfer& t, const void* origin, int count, MPI_Datatype type) {
  t.origin = origin;
  t.origin_count = count;
  t.origin_type = type;
}

void into_result(Rma::Transfer& t, void* result, int count, MPI_Datatype type) {
  t.result = result;
  t.result_count = count;
  t.result_type = type;
}

}  // namespace

extern "C" {

int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, MPI_Win* win) {
  Call c("MPI_Win_create");
  require_ptr(win, "win", c.name());
  *win = rma().create(c.get(), base, size, disp_unit, comm, false, nullptr, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  Call c("MPI_Win_allocate");
  require_ptr(win, "win", c.name());
  require_ptr(baseptr, "baseptr", c.name());
  *win = rma().create(c.get(), nullptr, size, disp_unit, comm, true, static_cast<void**>(baseptr), c.name());
  return MPI_SUCCESS;
}

int MPI_Win_free(MPI_Win* win) {
  Call c("MPI_Win_free");
  require_ptr(win, "win", c.name());
  simfab::online::AttributeStore::instance().erased(c->me(), simfab::online::AttrKind::kWin, *win, c.name());
  rma().free(c.get(), win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_fence(int, MPI_Win win) {
  Call c("MPI_Win_fence");
  rma().fence(c.get(), win, c.name());
  return MPI_SUCCESS;
}

int MPI_Put(const void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp, int target_count,
            MPI_Datatype target_type, MPI_Win win) {
  Call c("MPI_Put");
  Rma::Transfer t = at_target(Rma::Access::kPut, target, disp, target_count, target_type);
  from_origin(t, origin, origin_count, origin_type);
  return access(c, win, t);
}

int MPI_Get(void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp, int target_count,
            MPI_Datatype target_type, MPI_Win win) {
  Call c("MPI_Get");
  Rma::Transfer t = at_target(Rma::Access::kGet, target, disp, target_count, target_type);
  into_result(t, origin, origin_count, origin_type);
  return access(c, win, t);
}

int MPI_Accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                   int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win) {
  Call c("MPI_Accumulate");
  Rma::Transfer t = at_target(Rma::Access::kAccumulate, target, disp, target_count, target_type);
  from_origin(t, origin, origin_count, origin_type);
  t.op = op;
  return access(c, win, t);
}

int MPI_Get_accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, void* result, int result_count,
                       MPI_Datatype result_type, int target, MPI_Aint disp, int target_count, MPI_Datatype target_type,
                       MPI_Op op, MPI_Win win) {
  Call c("MPI_Get_accumulate");
  Rma::Transfer t = at_target(Rma::Access::kGetAccumulate, target, disp, target_count, target_type);
  from_origin(t, origin, origin_count, origin_type);
  into_result(t, result, result_count, result_type);
  t.op = op;
  return access(c, win, t);
}

int MPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op op,
                     MPI_Win win) {
  Call c("MPI_Fetch_and_op");
  Rma::Transfer t = at_target(Rma::Access::kGetAccumulate, target, disp, 1, type);
  from_origin(t, origin, op == MPI_NO_OP ? 0 : 1, type);
  into_result(t, result, 1, type);
  t.op = op;
  return access(c, win, t);
}

int MPI_Compare_and_swap(const void* origin, const void* compare, void* result, MPI_Datatype type, int target,
                         MPI_Aint disp, MPI_Win win) {
  Call c("MPI_Compare_and_swap");
  require_ptr(origin, "origin_addr", c.name());
  require_ptr(compare, "compare_addr", c.name());
  require_ptr(result, "result_addr", c.name());
  Rma::Transfer t = at_target(Rma::Access::kCompareAndSwap, target, disp, 1, type);
  t.origin = origin;
  t.compare = compare;
  t.result = result;
  return access(c, win, t);
}

int MPI_Rput(const void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
             int target_count, MPI_Datatype target_type, MPI_Win win, MPI_Request* request) {
  Call c("MPI_Rput");
  Rma::Transfer t = at_target(Rma::Access::kPut, target, disp, target_count, target_type);
  from_origin(t, origin, origin_count, origin_type);
  return access(c, win, t, request);
}

int MPI_Rget(void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp, int target_count,
             MPI_Datatype target_type, MPI_Win win, MPI_Request* request) {
  Call c("MPI_Rget");
  Rma::Transfer t = at_target(Rma::Access::kGet, target, disp, target_count, target_type);
  into_result(t, origin, origin_count, origin_type);
  return access(c, win, t, request);
}

int MPI_Raccumulate(const void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                    int target_count, MPI_Datatype target_type, MPI_Op op, MPI_Win win, MPI_Request* request) {
  Call c("MPI_Raccumulate");
  Rma::Transfer t = at_target(Rma::Access::kAccumulate, target, disp, target_count, target_type);
  from_origin(t, origin, origin_count, origin_type);
  t.op = op;
  return access(c, win, t, request);
}

int MPI_Rget_accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, void* result,
                        int result_count, MPI_Datatype result_type, int target, MPI_Aint disp, int target_count,
                        MPI_Datatype target_type, MPI_Op op, MPI_Win win, MPI_Request* request) {
  Call c("MPI_Rget_accumulate");
  Rma::Transfer t = at_target(Rma::Access::kGetAccumulate, target, disp, target_count, target_type);
  from_origin(t, origin, origin_count, origin_type);
  into_result(t, result, result_count, result_type);
  t.op = op;
  return access(c, win, t, request);
}

int MPI_Win_create_dynamic(MPI_Info, MPI_Comm comm, MPI_Win* win) {
  Call c("MPI_Win_create_dynamic");
  require_ptr(win, "win", c.name());
  *win = rma().create(c.get(), nullptr, 0, 1, comm, false, nullptr, c.name(), true);
  return MPI_SUCCESS;
}

int MPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  Call c("MPI_Win_attach");
  rma().attach(c.get(), win, base, size, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_detach(MPI_Win win, const void* base) {
  Call c("MPI_Win_detach");
  rma().detach(c.get(), win, base, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  return MPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
}

int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  Call c("MPI_Win_shared_query");
  require_ptr(size, "size", c.name());
  require_ptr(disp_unit, "disp_unit", c.name());
  require_ptr(baseptr, "baseptr", c.name());
  rma().shared_query(c.get(), win, rank, size, disp_unit, baseptr, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_lock(int lock_type, int rank, int, MPI_Win win) {
  Call c("MPI_Win_lock");
  rma().lock(c.get(), lock_type, rank, win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_unlock(int rank, MPI_Win win) {
  Call c("MPI_Win_unlock");
  rma().unlock(c.get(), rank, win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_lock_all(int, MPI_Win win) {
  Call c("MPI_Win_lock_all");
  rma().lock_all(c.get(), win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_unlock_all(MPI_Win win) {
  Call c("MPI_Win_unlock_all");
  rma().unlock_all(c.get(), win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_flush(int rank, MPI_Win win) {
  Call c("MPI_Win_flush");
  rma().flush(c.get(), rank, win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_flush_all(MPI_Win win) {
  Call c("MPI_Win_flush_all");
  rma().flush(c.get(), -1, win, c.name());
  return MPI_SUCCESS;
}

// simfab copies an access's data when it is made, so local completion is remote completion.
int MPI_Win_flush_local(int rank, MPI_Win win) {
  Call c("MPI_Win_flush_local");
  rma().flush(c.get(), rank, win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_flush_local_all(MPI_Win win) {
  Call c("MPI_Win_flush_local_all");
  rma().flush(c.get(), -1, win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_sync(MPI_Win win) {  // one address space: public and private copies are the same memory
  Call c("MPI_Win_sync");
  MPI_Group g = rma().group(c.get(), win, c.name());  // validates the window
  c->free_group(&g, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_post(MPI_Group group, int, MPI_Win win) {
  Call c("MPI_Win_post");
  rma().post(c.get(), group, win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_start(MPI_Group group, int, MPI_Win win) {
  Call c("MPI_Win_start");
  rma().start(c.get(), group, win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_complete(MPI_Win win) {
  Call c("MPI_Win_complete");
  rma().complete(c.get(), win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_wait(MPI_Win win) {
  Call c("MPI_Win_wait");
  rma().wait(c.get(), win, c.name());
  return MPI_SUCCESS;
}

int MPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  Call c("MPI_Win_get_group");
  require_ptr(group, "group", c.name());
  *group = rma().group(c.get(), win, c.name());
  return MPI_SUCCESS;
}

}  // extern "C"
