// The Fortran bindings of a hybrid run (mpif.h and `use mpi`, gfortran's names: mpi_send_, ...).
// Open MPI's Fortran bindings call PMPI_* directly, so a C wrapper never sees a Fortran program's
// calls: these entry points take the calls first, convert the handles (MPI_Comm_f2c, ...), the
// sentinels (MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS(ES)_IGNORE are Open MPI's common blocks) and
// statuses, and call the C wrappers, which record them. Every other Fortran binding taking a
// communicator gets a generated forwarder (gen_hide_world.py) that only hides the simulator
// (MPI_COMM_WORLD's Fortran handle becomes the application's world) and calls Open MPI's own.
// Not covered by name: `use mpi_f08` (its bindings are other symbols).
#include <mpi.h>

#include <vector>

#include "hybrid_state.hpp"

extern "C" {
// Open MPI's Fortran sentinels (libmpi.so): their addresses are MPI_IN_PLACE & co in Fortran.
extern int mpi_fortran_in_place_;
extern int mpi_fortran_bottom_;
extern int mpi_fortran_status_ignore_;
extern int mpi_fortran_statuses_ignore_;
}

namespace {

// MPI_STATUS_SIZE of Open MPI's Fortran bindings: the C status in Fortran integers.
constexpr size_t kStatusSize = sizeof(MPI_Status) / sizeof(MPI_Fint);

const void* cbuf(const void* p) {
  if (p == &mpi_fortran_in_place_) return MPI_IN_PLACE;
  if (p == &mpi_fortran_bottom_) return MPI_BOTTOM;
  return p;
}
void* buf(void* p) { return const_cast<void*>(cbuf(p)); }
MPI_Comm comm(const MPI_Fint* c) { return PMPI_Comm_f2c(*c); }
MPI_Datatype type(const MPI_Fint* t) { return PMPI_Type_f2c(*t); }
MPI_Op op(const MPI_Fint* o) { return PMPI_Op_f2c(*o); }
bool ignore(const MPI_Fint* status) { return static_cast<const void*>(status) == &mpi_fortran_status_ignore_; }
void status_out(const MPI_Status& c, MPI_Fint* f) {
  if (!ignore(f)) PMPI_Status_c2f(&c, f);
}

}  // namespace

// The library builds with hidden visibility; the bindings are its interface.
#pragma GCC visibility push(default)
extern "C" {

void mpi_init_(MPI_Fint* ierr) { *ierr = MPI_Init(nullptr, nullptr); }
void mpi_init_thread_(const MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  int p = 0;
  *ierr = MPI_Init_thread(nullptr, nullptr, *required, &p);
  *provided = p;
}
void mpi_finalize_(MPI_Fint* ierr) { *ierr = MPI_Finalize(); }
double mpi_wtime_() { return MPI_Wtime(); }
double mpi_wtick_() { return MPI_Wtick(); }

void mpi_comm_size_(const MPI_Fint* c, MPI_Fint* size, MPI_Fint* ierr) {
  int s = 0;
  *ierr = PMPI_Comm_size(simfab::hybrid::app_comm(comm(c)), &s);
  *size = s;
}
void mpi_comm_rank_(const MPI_Fint* c, MPI_Fint* rank, MPI_Fint* ierr) {
  int r = 0;
  *ierr = PMPI_Comm_rank(simfab::hybrid::app_comm(comm(c)), &r);
  *rank = r;
}
void mpi_abort_(const MPI_Fint* c, const MPI_Fint* code, MPI_Fint* ierr) {
  *ierr = PMPI_Abort(simfab::hybrid::app_comm(comm(c)), *code);
}

void mpi_send_(const void* b, const MPI_Fint* n, const MPI_Fint* t, const MPI_Fint* dest, const MPI_Fint* tag,
               const MPI_Fint* c, MPI_Fint* ierr) {
  *ierr = MPI_Send(cbuf(b), *n, type(t), *dest, *tag, comm(c));
}
void mpi_ssend_(const void* b, const MPI_Fint* n, const MPI_Fint* t, const MPI_Fint* dest, const MPI_Fint* tag,
                const MPI_Fint* c, MPI_Fint* ierr) {
  *ierr = MPI_Ssend(cbuf(b), *n, type(t), *dest, *tag, comm(c));
}
void mpi_recv_(void* b, const MPI_Fint* n, const MPI_Fint* t, const MPI_Fint* src, const MPI_Fint* tag,
               const MPI_Fint* c, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Status s;
  *ierr = MPI_Recv(buf(b), *n, type(t), *src, *tag, comm(c), &s);
  if (*ierr == MPI_SUCCESS) status_out(s, status);
}
void mpi_isend_(const void* b, const MPI_Fint* n, const MPI_Fint* t, const MPI_Fint* dest, const MPI_Fint* tag,
                const MPI_Fint* c, MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Request r = MPI_REQUEST_NULL;
  *ierr = MPI_Isend(cbuf(b), *n, type(t), *dest, *tag, comm(c), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}
void mpi_irecv_(void* b, const MPI_Fint* n, const MPI_Fint* t, const MPI_Fint* src, const MPI_Fint* tag,
                const MPI_Fint* c, MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Request r = MPI_REQUEST_NULL;
  *ierr = MPI_Irecv(buf(b), *n, type(t), *src, *tag, comm(c), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}
void mpi_wait_(MPI_Fint* request, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Request r = PMPI_Request_f2c(*request);
  MPI_Status s;
  *ierr = MPI_Wait(&r, &s);
  if (*ierr != MPI_SUCCESS) return;
  *request = PMPI_Request_c2f(r);
  status_out(s, status);
}
void mpi_waitall_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses, MPI_Fint* ierr) {
  const int n = *count;
  std::vector<MPI_Request> r(static_cast<size_t>(n));
  std::vector<MPI_Status> s(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) r[static_cast<size_t>(i)] = PMPI_Request_f2c(requests[i]);
  *ierr = MPI_Waitall(n, r.data(), s.data());
  if (*ierr != MPI_SUCCESS) return;
  const bool keep = static_cast<const void*>(statuses) != &mpi_fortran_statuses_ignore_;
  for (int i = 0; i < n; ++i) {
    requests[i] = PMPI_Request_c2f(r[static_cast<size_t>(i)]);
    if (keep) PMPI_Status_c2f(&s[static_cast<size_t>(i)], statuses + static_cast<size_t>(i) * kStatusSize);
  }
}
void mpi_sendrecv_(const void* sb, const MPI_Fint* sn, const MPI_Fint* st, const MPI_Fint* dest, const MPI_Fint* stag,
                   void* rb, const MPI_Fint* rn, const MPI_Fint* rt, const MPI_Fint* src, const MPI_Fint* rtag,
                   const MPI_Fint* c, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Status s;
  *ierr = MPI_Sendrecv(cbuf(sb), *sn, type(st), *dest, *stag, buf(rb), *rn, type(rt), *src, *rtag, comm(c), &s);
  if (*ierr == MPI_SUCCESS) status_out(s, status);
}

void mpi_barrier_(const MPI_Fint* c, MPI_Fint* ierr) { *ierr = MPI_Barrier(comm(c)); }
void mpi_bcast_(void* b, const MPI_Fint* n, const MPI_Fint* t, const MPI_Fint* root, const MPI_Fint* c,
                MPI_Fint* ierr) {
  *ierr = MPI_Bcast(buf(b), *n, type(t), *root, comm(c));
}
void mpi_reduce_(const void* sb, void* rb, const MPI_Fint* n, const MPI_Fint* t, const MPI_Fint* o,
                 const MPI_Fint* root, const MPI_Fint* c, MPI_Fint* ierr) {
  *ierr = MPI_Reduce(cbuf(sb), buf(rb), *n, type(t), op(o), *root, comm(c));
}
void mpi_allreduce_(const void* sb, void* rb, const MPI_Fint* n, const MPI_Fint* t, const MPI_Fint* o,
                    const MPI_Fint* c, MPI_Fint* ierr) {
  *ierr = MPI_Allreduce(cbuf(sb), buf(rb), *n, type(t), op(o), comm(c));
}
void mpi_allgather_(const void* sb, const MPI_Fint* sn, const MPI_Fint* st, void* rb, const MPI_Fint* rn,
                    const MPI_Fint* rt, const MPI_Fint* c, MPI_Fint* ierr) {
  *ierr = MPI_Allgather(cbuf(sb), *sn, type(st), buf(rb), *rn, type(rt), comm(c));
}
void mpi_alltoall_(const void* sb, const MPI_Fint* sn, const MPI_Fint* st, void* rb, const MPI_Fint* rn,
                   const MPI_Fint* rt, const MPI_Fint* c, MPI_Fint* ierr) {
  *ierr = MPI_Alltoall(cbuf(sb), *sn, type(st), buf(rb), *rn, type(rt), comm(c));
}
void mpi_gather_(const void* sb, const MPI_Fint* sn, const MPI_Fint* st, void* rb, const MPI_Fint* rn,
                 const MPI_Fint* rt, const MPI_Fint* root, const MPI_Fint* c, MPI_Fint* ierr) {
  *ierr = MPI_Gather(cbuf(sb), *sn, type(st), buf(rb), *rn, type(rt), *root, comm(c));
}
void mpi_scatter_(const void* sb, const MPI_Fint* sn, const MPI_Fint* st, void* rb, const MPI_Fint* rn,
                  const MPI_Fint* rt, const MPI_Fint* root, const MPI_Fint* c, MPI_Fint* ierr) {
  *ierr = MPI_Scatter(cbuf(sb), *sn, type(st), buf(rb), *rn, type(rt), *root, comm(c));
}

void mpi_comm_split_(const MPI_Fint* c, const MPI_Fint* color, const MPI_Fint* key, MPI_Fint* out, MPI_Fint* ierr) {
  MPI_Comm n = MPI_COMM_NULL;
  *ierr = MPI_Comm_split(comm(c), *color, *key, &n);
  if (*ierr == MPI_SUCCESS) *out = PMPI_Comm_c2f(n);
}
void mpi_comm_dup_(const MPI_Fint* c, MPI_Fint* out, MPI_Fint* ierr) {
  MPI_Comm n = MPI_COMM_NULL;
  *ierr = MPI_Comm_dup(comm(c), &n);
  if (*ierr == MPI_SUCCESS) *out = PMPI_Comm_c2f(n);
}
void mpi_comm_free_(MPI_Fint* c, MPI_Fint* ierr) {
  MPI_Comm n = PMPI_Comm_f2c(*c);
  *ierr = MPI_Comm_free(&n);
  if (*ierr == MPI_SUCCESS) *c = PMPI_Comm_c2f(n);
}

}  // extern "C"
#pragma GCC visibility pop
