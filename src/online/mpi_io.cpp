#include "online/mpi_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "online/datatype.hpp"
#include "online/mpi_fatal.hpp"
#include "online/typemap.hpp"

namespace simfab::online {

namespace {

int open_flags(int amode) {
  int f = (amode & MPI_MODE_RDWR) ? O_RDWR : (amode & MPI_MODE_WRONLY) ? O_WRONLY : O_RDONLY;
  if (amode & MPI_MODE_CREATE) f |= O_CREAT;
  if (amode & MPI_MODE_APPEND) f |= O_APPEND;
  return f | O_CLOEXEC;
}

// MPI-3.1 §13.2.1: exactly one of RDONLY, RDWR, WRONLY; no CREATE or EXCL with RDONLY; no
// SEQUENTIAL with RDWR.
bool valid_amode(int amode) {
  const int access = (amode & MPI_MODE_RDONLY ? 1 : 0) + (amode & MPI_MODE_RDWR ? 1 : 0) + (amode & MPI_MODE_WRONLY ? 1 : 0);
  if (access != 1) return false;
  if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL))) return false;
  return !((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL));
}

int errno_code(int err) {
  switch (err) {
    case ENOENT: return MPI_ERR_NO_SUCH_FILE;
    case EEXIST: return MPI_ERR_FILE_EXISTS;
    case EACCES: case EPERM: return MPI_ERR_ACCESS;
    case EROFS: return MPI_ERR_READ_ONLY;
    case ENOSPC: return MPI_ERR_NO_SPACE;
    default: return MPI_ERR_IO;
  }
}

void set_status(MPI_Status* status, int64_t bytes) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_PROC_NULL;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->simfab_cancelled = 0;
  status->simfab_count = bytes;
}

}  // namespace

MpiIo& MpiIo::instance() {
  static MpiIo io;
  return io;
}

MpiIo::Handle& MpiIo::handle(OnlineProgram& p, MPI_File fh, const char* call) {
  if (fh <= 0 || fh > static_cast<MPI_File>(handles_.size()) || !handles_[static_cast<size_t>(fh - 1)].live ||
      handles_[static_cast<size_t>(fh - 1)].rank != p.me())
    mpi_fatal(call, "invalid file handle " + std::to_string(fh) + " (not opened by this rank, or closed)");
  return handles_[static_cast<size_t>(fh - 1)];
}

IoCosts io_costs(const Config& cfg, const Platform& platform) {
  IoCosts c{cfg.time("io/latency"), cfg.per_byte("io/read-bandwidth"), cfg.per_byte("io/write-bandwidth"), {}};
  const bool read_set = cfg.is_explicit("io/read-bandwidth"), write_set = cfg.is_explicit("io/write-bandwidth");
  for (const Disk& d : platform.disks()) {
    if (c.host_ps_per_byte.empty()) c.host_ps_per_byte.assign(static_cast<size_t>(platform.host_count()), {0, 0});
    auto& h = c.host_ps_per_byte[static_cast<size_t>(d.host)];
    if (h.first > 0 || h.second > 0) continue;  // its first disk holds the files
    h = {read_set ? 0 : 1e12 / d.read_Bps, write_set ? 0 : 1e12 / d.write_Bps};
  }
  return c;
}

void MpiIo::charge(OnlineProgram& p, bool write, int64_t bytes) {
  double per_byte = write ? costs_.write_ps_per_byte : costs_.read_ps_per_byte;
  const size_t host = static_cast<size_t>(p.host_of(p.me()));
  if (host < costs_.host_ps_per_byte.size()) {
    const auto& [r, w] = costs_.host_ps_per_byte[host];
    if ((write ? w : r) > 0) per_byte = write ? w : r;
  }
  p.compute_seconds(costs_.latency.seconds() + static_cast<double>(bytes) * per_byte * 1e-12);
}

int MpiIo::open(OnlineProgram& p, MPI_Comm comm, const char* path, int amode, MPI_File* fh, const char* call) {
  *fh = MPI_FILE_NULL;
  const OnlineProgram::CommRef cr = p.comm(comm, call);
  const uint64_t id = cr.comm ? cr.p2p_context : kSelf + cr.self;
  const uint32_t k = opens_[{p.me(), id}]++;
  auto [it, fresh] = keys_.emplace(std::make_pair(id, k), static_cast<int>(shared_.size()));
  if (fresh) shared_.push_back(Shared{path, amode, 0, 0, 0, MPI_SUCCESS});
  const int index = it->second;
  Shared& s = shared_[static_cast<size_t>(index)];
  if (++s.opened == 1) {  // the first member checks the mode and creates the file
    if (!valid_amode(amode)) {
      s.error = MPI_ERR_AMODE;
    } else {
      const int fd = ::open(path, open_flags(amode) | ((amode & MPI_MODE_EXCL) ? O_EXCL : 0), 0666);
      if (fd < 0) s.error = errno_code(errno);
      else ::close(fd);
    }
  }
  if (s.opened == cr.size) keys_.erase(it);  // every member has come: the key may be reused
  if (s.path != path || s.amode != amode)
    mpi_fatal(call, "the members of the communicator opened different files or modes ('" + s.path + "' and '" +
                        std::string(path) + "')");
  // Other ranks run while this one waits (vectors may grow): only indices survive the wait.
  p.compute_seconds(costs_.latency.seconds());
  if (shared_[static_cast<size_t>(index)].error != MPI_SUCCESS) return shared_[static_cast<size_t>(index)].error;
  const int fd = ::open(path, open_flags(amode & ~MPI_MODE_CREATE), 0666);
  if (fd < 0) return errno_code(errno);
  Handle h;
  h.live = true;
  h.rank = p.me();
  h.comm = comm;
  h.shared = index;
  h.fd = fd;
  h.errhandler = default_errhandler_;
  ++shared_[static_cast<size_t>(index)].members_open;
  handles_.push_back(h);
  *fh = static_cast<MPI_File>(handles_.size());
  return MPI_SUCCESS;
}

int MpiIo::close(OnlineProgram& p, MPI_File* fh, const char* call) {
  Handle& h = handle(p, *fh, call);
  ::close(h.fd);
  h.live = false;
  Shared& s = shared_[static_cast<size_t>(h.shared)];
  if (--s.members_open == 0 && (s.amode & MPI_MODE_DELETE_ON_CLOSE)) ::unlink(s.path.c_str());
  p.compute_seconds(costs_.latency.seconds());
  *fh = MPI_FILE_NULL;
  return MPI_SUCCESS;
}

int MpiIo::remove(const char* path) { return ::unlink(path) == 0 ? MPI_SUCCESS : errno_code(errno); }

int MpiIo::set_view(OnlineProgram& p, MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                    const char* datarep, const char* call) {
  Handle& h = handle(p, fh, call);
  if (datarep && std::strcmp(datarep, "native") != 0)
    mpi_fatal(call, std::string("datarep '") + datarep + "': simfab supports \"native\" only");
  if (disp < 0 && disp != MPI_DISPLACEMENT_CURRENT) mpi_fatal(call, "disp " + std::to_string(disp) + " < 0");
  const int64_t es = type_size(etype, call), fs = type_size(filetype, call);
  if (es <= 0 || fs % es != 0)
    mpi_fatal(call, "the filetype's size (" + std::to_string(fs) + " B) is not a multiple of the etype's (" +
                        std::to_string(es) + " B)");
  h.view = View{disp == MPI_DISPLACEMENT_CURRENT ? h.view.disp : disp, etype, filetype};
  h.pos = 0;
  shared_[static_cast<size_t>(h.shared)].shared_pos = 0;
  return MPI_SUCCESS;
}

void MpiIo::get_view(OnlineProgram& p, MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype,
                     char* datarep, const char* call) {
  const Handle& h = handle(p, fh, call);
  if (disp) *disp = h.view.disp;
  if (etype) *etype = h.view.etype;
  if (filetype) *filetype = h.view.filetype;
  if (datarep) std::strcpy(datarep, "native");
}

template <class F>
void MpiIo::for_each_range(const View& v, int64_t data, int64_t bytes, const char* call, F&& f) const {
  const Typemap& t = type_layout(v.filetype, call);
  const int64_t per_tile = t.size;
  int64_t done = 0;
  while (done < bytes) {
    const int64_t d = data + done;
    const int64_t tile = d / per_tile;
    int64_t within = d % per_tile;
    for (const ByteRun& r : t.runs) {
      if (within >= r.bytes) {
        within -= r.bytes;
        continue;
      }
      const int64_t n = std::min(r.bytes - within, bytes - done);
      f(v.disp + tile * t.extent() + r.offset + within, done, n);
      done += n;
      within = 0;
      if (done == bytes) break;
    }
  }
}

int MpiIo::access(OnlineProgram& p, MPI_File fh, bool write, Pointer where, MPI_Offset offset, void* buf, int count,
                  MPI_Datatype type, MPI_Status* status, const char* call) {
  Handle& h = handle(p, fh, call);
  Shared& s = shared_[static_cast<size_t>(h.shared)];
  if (count < 0) mpi_fatal(call, "count " + std::to_string(count) + " < 0");
  if (where == Pointer::kExplicit && offset < 0) mpi_fatal(call, "offset " + std::to_string(offset) + " < 0");
  if (write && (s.amode & MPI_MODE_RDONLY)) return MPI_ERR_READ_ONLY;
  if (!write && (s.amode & MPI_MODE_WRONLY)) return MPI_ERR_ACCESS;
  const int64_t es = type_size(h.view.etype, call);
  const int64_t bytes = count * type_size(type, call);
  if (bytes % es != 0)
    mpi_fatal(call, std::to_string(bytes) + " B is not a whole number of the view's etype (" + std::to_string(es) + " B)");
  int64_t& pointer = where == Pointer::kShared ? s.shared_pos : h.pos;
  const int64_t start = (where == Pointer::kExplicit ? offset : pointer) * es;
  std::vector<std::byte> data(static_cast<size_t>(bytes));
  if (write && bytes > 0) pack(buf, count, type, data.data());
  int64_t moved = 0;
  int err = 0;
  for_each_range(h.view, start, bytes, call, [&](int64_t file_off, int64_t data_off, int64_t n) {
    if (err || moved < data_off) return;  // a short read ends the request
    const ssize_t got = write ? ::pwrite(h.fd, data.data() + data_off, static_cast<size_t>(n), file_off)
                              : ::pread(h.fd, data.data() + data_off, static_cast<size_t>(n), file_off);
    if (got < 0) err = errno;
    else moved += got;
  });
  if (err) return errno_code(err);
  const int64_t whole = moved / std::max<int64_t>(1, type_size(type, call)) * type_size(type, call);
  if (!write && whole > 0) unpack(data.data(), whole / std::max<int64_t>(1, type_size(type, call)), type, buf);
  if (where != Pointer::kExplicit) pointer += moved / es;
  set_status(status, whole);
  charge(p, write, moved);
  return MPI_SUCCESS;
}

int64_t& MpiIo::shared_pointer(OnlineProgram& p, MPI_File fh, const char* call) {
  return shared_[static_cast<size_t>(handle(p, fh, call).shared)].shared_pos;
}

int64_t MpiIo::etype_size(OnlineProgram& p, MPI_File fh, const char* call) {
  return type_size(handle(p, fh, call).view.etype, call);
}

int MpiIo::seek(OnlineProgram& p, MPI_File fh, MPI_Offset offset, int whence, bool shared, const char* call) {
  Handle& h = handle(p, fh, call);
  int64_t& pointer = shared ? shared_[static_cast<size_t>(h.shared)].shared_pos : h.pos;
  int64_t base = 0;
  if (whence == MPI_SEEK_CUR) base = pointer;
  else if (whence == MPI_SEEK_END) base = size(p, fh, call) / type_size(h.view.etype, call);  // contiguous views
  else if (whence != MPI_SEEK_SET) mpi_fatal(call, "whence must be MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END");
  if (base + offset < 0) mpi_fatal(call, "the new position " + std::to_string(base + offset) + " is negative");
  pointer = base + offset;
  return MPI_SUCCESS;
}

MPI_Offset MpiIo::position(OnlineProgram& p, MPI_File fh, bool shared, const char* call) {
  Handle& h = handle(p, fh, call);
  return shared ? shared_[static_cast<size_t>(h.shared)].shared_pos : h.pos;
}

MPI_Offset MpiIo::size(OnlineProgram& p, MPI_File fh, const char* call) {
  struct stat st {};
  return ::fstat(handle(p, fh, call).fd, &st) == 0 ? st.st_size : 0;
}

int MpiIo::set_size(OnlineProgram& p, MPI_File fh, MPI_Offset size, const char* call) {
  const int fd = handle(p, fh, call).fd;
  if (size < 0) mpi_fatal(call, "size " + std::to_string(size) + " < 0");
  const int rc = ::ftruncate(fd, size) == 0 ? MPI_SUCCESS : errno_code(errno);
  p.compute_seconds(costs_.latency.seconds());
  return rc;
}

int MpiIo::sync(OnlineProgram& p, MPI_File fh, const char* call) {
  const int rc = ::fsync(handle(p, fh, call).fd) == 0 ? MPI_SUCCESS : errno_code(errno);
  p.compute_seconds(costs_.latency.seconds());
  return rc;
}

int MpiIo::amode(OnlineProgram& p, MPI_File fh, const char* call) {
  return shared_[static_cast<size_t>(handle(p, fh, call).shared)].amode;
}

MPI_Comm MpiIo::comm(OnlineProgram& p, MPI_File fh, const char* call) { return handle(p, fh, call).comm; }

MPI_Errhandler& MpiIo::errhandler(OnlineProgram& p, MPI_File fh, const char* call) {
  return fh == MPI_FILE_NULL ? default_errhandler_ : handle(p, fh, call).errhandler;
}

}  // namespace simfab::online
