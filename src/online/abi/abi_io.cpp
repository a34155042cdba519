// MPI-IO's calls (MPI-3.1 chapter 13) over MpiIo (online/mpi_io.hpp): argument checks, the
// collective synchronizations (a barrier for open, close, set_view, set_size, sync and the _all
// forms; an exscan and an allreduce for the _ordered forms), and the files' error handlers
// (MPI_ERRORS_RETURN unless the program sets another).
#include <simfab/mpi.h>

#include "online/abi/abi_call.hpp"
#include "online/abi/abi_errhandlers.hpp"
#include "online/mpi_io.hpp"

using simfab::online::Call;
using simfab::online::MpiIo;
using simfab::online::mpi_fatal;
using simfab::online::require_ptr;

namespace {

MpiIo& io() { return MpiIo::instance(); }

// An error code through the file's error handler (MPI_FILE_NULL's for open and delete).
int raise(MPI_File fh, int code, const char* call) {
  if (code == MPI_SUCCESS) return code;
  simfab::online::OnlineProgram& p = Call::program(call);
  const MPI_Errhandler e = io().errhandler(p, fh, call);
  if (e == MPI_ERRORS_ARE_FATAL) mpi_fatal(call, "error " + std::to_string(code) + " (MPI_ERRORS_ARE_FATAL on the file)");
  if (void* fn = simfab::online::errhandler_function(e)) {
    MPI_File f = fh;
    reinterpret_cast<void (*)(MPI_File*, int*, ...)>(fn)(&f, &code);
  }
  return code;
}

using Pointer = MpiIo::Pointer;

int access(const char* name, MPI_File fh, bool write, Pointer where, MPI_Offset offset, const void* buf, int count,
           MPI_Datatype type, MPI_Status* status, bool collective) {
  int rc;
  MPI_Comm comm;
  {
    Call c(name);
    comm = io().comm(c.get(), fh, name);
    rc = io().access(c.get(), fh, write, where, offset, const_cast<void*>(buf), count, type, status, name);
  }
  if (collective) MPI_Barrier(comm);
  return raise(fh, rc, name);
}

// _ordered: rank r accesses from the shared pointer plus the counts of ranks 0..r-1; the pointer
// then moves past everyone's.
int ordered(const char* name, MPI_File fh, bool write, const void* buf, int count, MPI_Datatype type,
            MPI_Status* status) {
  MPI_Comm comm;
  long long start, mine, before = 0, total = 0;
  int rank;
  {
    Call c(name);
    comm = io().comm(c.get(), fh, name);
    start = io().shared_pointer(c.get(), fh, name);
    int size = 0;
    MPI_Type_size(type, &size);
    mine = static_cast<long long>(count) * size / io().etype_size(c.get(), fh, name);
  }
  MPI_Comm_rank(comm, &rank);
  MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, comm);
  if (rank == 0) before = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
  int rc;
  {
    Call c(name);
    rc = io().access(c.get(), fh, write, Pointer::kExplicit, start + before, const_cast<void*>(buf), count, type, status,
                     name);
    io().shared_pointer(c.get(), fh, name) = start + total;
  }
  return raise(fh, rc, name);
}

// A collective call without data: the call, then a barrier on the file's communicator.
template <class F>
int collective(const char* name, MPI_File fh, F f) {
  int rc;
  MPI_Comm comm;
  {
    Call c(name);
    comm = io().comm(c.get(), fh, name);
    rc = f(c.get());
  }
  MPI_Barrier(comm);
  return raise(fh, rc, name);
}

}  // namespace

extern "C" {

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info, MPI_File* fh) {
  int rc;
  {
    Call c("MPI_File_open");
    require_ptr(filename, "filename", c.name());
    require_ptr(fh, "fh", c.name());
    rc = io().open(c.get(), comm, filename, amode, fh, c.name());
  }
  MPI_Barrier(comm);
  return raise(MPI_FILE_NULL, rc, "MPI_File_open");
}

int MPI_File_close(MPI_File* fh) {
  MPI_Comm comm;
  {
    Call c("MPI_File_close");
    require_ptr(fh, "fh", c.name());
    comm = io().comm(c.get(), *fh, c.name());
    io().close(c.get(), fh, c.name());
  }
  MPI_Barrier(comm);
  return MPI_SUCCESS;
}

int MPI_File_delete(const char* filename, MPI_Info) {
  Call c("MPI_File_delete");
  require_ptr(filename, "filename", c.name());
  const int rc = MpiIo::remove(filename);
  return raise(MPI_FILE_NULL, rc, c.name());
}

int MPI_File_set_size(MPI_File fh, MPI_Offset size) {
  return collective("MPI_File_set_size", fh, [&](auto& p) { return io().set_size(p, fh, size, "MPI_File_set_size"); });
}
int MPI_File_get_size(MPI_File fh, MPI_Offset* size) {
  Call c("MPI_File_get_size");
  require_ptr(size, "size", c.name());
  *size = io().size(c.get(), fh, c.name());
  return MPI_SUCCESS;
}
int MPI_File_get_amode(MPI_File fh, int* amode) {
  Call c("MPI_File_get_amode");
  require_ptr(amode, "amode", c.name());
  *amode = io().amode(c.get(), fh, c.name());
  return MPI_SUCCESS;
}
int MPI_File_get_group(MPI_File fh, MPI_Group* group) {
  MPI_Comm comm;
  {
    Call c("MPI_File_get_group");
    comm = io().comm(c.get(), fh, c.name());
  }
  return MPI_Comm_group(comm, group);
}
int MPI_File_set_info(MPI_File fh, MPI_Info) {
  Call c("MPI_File_set_info");
  io().comm(c.get(), fh, c.name());
  return MPI_SUCCESS;
}
int MPI_File_get_info(MPI_File fh, MPI_Info* info_used) {
  {
    Call c("MPI_File_get_info");
    io().comm(c.get(), fh, c.name());
  }
  return MPI_Info_create(info_used);
}
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char* datarep,
                      MPI_Info) {
  return collective("MPI_File_set_view", fh, [&](auto& p) {
    return io().set_view(p, fh, disp, etype, filetype, datarep, "MPI_File_set_view");
  });
}
int MPI_File_get_view(MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype, char* datarep) {
  Call c("MPI_File_get_view");
  io().get_view(c.get(), fh, disp, etype, filetype, datarep, c.name());
  return MPI_SUCCESS;
}

int MPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return access("MPI_File_read", fh, false, Pointer::kIndividual, 0, buf, count, datatype, status, false);
}
int MPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return access("MPI_File_write", fh, true, Pointer::kIndividual, 0, buf, count, datatype, status, false);
}
int MPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return access("MPI_File_read_all", fh, false, Pointer::kIndividual, 0, buf, count, datatype, status, true);
}
int MPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return access("MPI_File_write_all", fh, true, Pointer::kIndividual, 0, buf, count, datatype, status, true);
}
int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return access("MPI_File_read_at", fh, false, Pointer::kExplicit, offset, buf, count, datatype, status, false);
}
int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                      MPI_Status* status) {
  return access("MPI_File_write_at", fh, true, Pointer::kExplicit, offset, buf, count, datatype, status, false);
}
int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                         MPI_Status* status) {
  return access("MPI_File_read_at_all", fh, false, Pointer::kExplicit, offset, buf, count, datatype, status, true);
}
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                          MPI_Status* status) {
  return access("MPI_File_write_at_all", fh, true, Pointer::kExplicit, offset, buf, count, datatype, status, true);
}
int MPI_File_read_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return access("MPI_File_read_shared", fh, false, Pointer::kShared, 0, buf, count, datatype, status, false);
}
int MPI_File_write_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return access("MPI_File_write_shared", fh, true, Pointer::kShared, 0, buf, count, datatype, status, false);
}
int MPI_File_read_ordered(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return ordered("MPI_File_read_ordered", fh, false, buf, count, datatype, status);
}
int MPI_File_write_ordered(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return ordered("MPI_File_write_ordered", fh, true, buf, count, datatype, status);
}

int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  Call c("MPI_File_seek");
  return io().seek(c.get(), fh, offset, whence, false, c.name());
}
int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  return collective("MPI_File_seek_shared", fh,
                    [&](auto& p) { return io().seek(p, fh, offset, whence, true, "MPI_File_seek_shared"); });
}
int MPI_File_get_position(MPI_File fh, MPI_Offset* offset) {
  Call c("MPI_File_get_position");
  require_ptr(offset, "offset", c.name());
  *offset = io().position(c.get(), fh, false, c.name());
  return MPI_SUCCESS;
}
int MPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset) {
  Call c("MPI_File_get_position_shared");
  require_ptr(offset, "offset", c.name());
  *offset = io().position(c.get(), fh, true, c.name());
  return MPI_SUCCESS;
}
int MPI_File_sync(MPI_File fh) {
  return collective("MPI_File_sync", fh, [&](auto& p) { return io().sync(p, fh, "MPI_File_sync"); });
}

int MPI_File_create_errhandler(MPI_File_errhandler_function* function, MPI_Errhandler* errhandler) {
  return MPI_Comm_create_errhandler(reinterpret_cast<MPI_Comm_errhandler_function*>(function), errhandler);
}
int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler) {
  Call c("MPI_File_set_errhandler");
  if (!simfab::online::errhandler_valid(errhandler))
    mpi_fatal(c.name(), "invalid error handler " + std::to_string(errhandler));
  io().errhandler(c.get(), file, c.name()) = errhandler;
  return MPI_SUCCESS;
}
int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler* errhandler) {
  Call c("MPI_File_get_errhandler");
  require_ptr(errhandler, "errhandler", c.name());
  *errhandler = io().errhandler(c.get(), file, c.name());
  return MPI_SUCCESS;
}
int MPI_File_call_errhandler(MPI_File fh, int errorcode) {
  raise(fh, errorcode, "MPI_File_call_errhandler");
  return MPI_SUCCESS;
}

}  // extern "C"
