// MpiIo: MPI-IO files in online mode (MPI-3.1 chapter 13), the common calls: open/close/delete,
// views, individual and shared file pointers, explicit offsets, the collective (_all, _ordered)
// forms, sizes, sync.
//
// Data. The file is the real file on the host, so what a program writes it reads back, and other
// programs see it: each rank opens it with open(2) (amode -> O_RDONLY/O_WRONLY/O_RDWR, O_CREAT,
// O_EXCL, O_APPEND) and reads and writes with pread/pwrite through its view.
// Views. A view (disp, etype, filetype) tiles the file from byte disp with copies of filetype;
// only the filetype's data bytes are the rank's. Positions (individual and shared file pointers,
// explicit offsets) count etypes of the view's data. A request for `count` elements of `datatype`
// packs the memory side (datatype engine) and maps the packed bytes onto the view's data bytes:
// data byte d lies in tile d / size(filetype), at that tile's run that holds it:
//   file offset = disp + tile * extent(filetype) + run.offset + (d within the run).
// Time (a simple storage model): each read or write costs the rank
//   io/latency + bytes / io/read-bandwidth (or io/write-bandwidth)
// of simulated time without using its core; a host that declares a disk (SimGrid's <disk
// read_bw write_bw>, platform.hpp) uses its first disk's bandwidths instead, unless the io/*
// bandwidth key is set explicitly; open, close, sync, set_size cost io/latency; no
// contention between ranks. The collective calls (src/online/abi/abi_io.cpp) also synchronize
// the file's communicator: _all, open, close, set_view, set_size and sync with a barrier, _ordered
// with an exscan and an allreduce of the counts (rank order on the shared pointer), as an MPI
// library does, so they cost what those collective algorithms cost.
// Errors. Files' default error handler is MPI_ERRORS_RETURN (MPI-3.1 §13.7): a missing file, an
// existing one under MPI_MODE_EXCL, a bad amode or a write to a read-only file return an error
// code (MPI_ERR_NO_SUCH_FILE, MPI_ERR_FILE_EXISTS, MPI_ERR_AMODE, MPI_ERR_READ_ONLY,
// MPI_ERR_ACCESS, MPI_ERR_IO) and the program may go on; an invalid handle or a negative count is
// MPI misuse and stops the run (mpi_fatal). Reading past the end of the file returns fewer
// elements (MPI_Get_count says how many).
// Ranks run while one waits for its I/O time (compute_seconds yields): the tables are vectors,
// so a method keeps indices, never references, across a wait, and charges time last.
// Not modelled: MPI_MODE_SEQUENTIAL's restrictions, datareps other than "native" (refused),
// atomicity (accesses are applied in simulation order), non-blocking I/O (MPI_File_i*).
// Thread-safety: none.
#pragma once

#include <simfab/mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/config.hpp"
#include "online/online_program.hpp"

namespace simfab::online {

struct IoCosts {
  SimTime latency = SimTime::from_seconds(50e-6);
  double read_ps_per_byte = 1000;   // 1 GB/s
  double write_ps_per_byte = 1000;
  // Per host (index HostId): its disk's ps per byte, read and write; 0 or absent = the above.
  std::vector<std::pair<double, double>> host_ps_per_byte;
};
// The costs from the io/* keys and the platform's disks (the first disk of each host).
IoCosts io_costs(const Config& cfg, const Platform& platform);

class MpiIo {
 public:
  static MpiIo& instance();
  void set_costs(const IoCosts& c) { costs_ = c; }

  int open(OnlineProgram& p, MPI_Comm comm, const char* path, int amode, MPI_File* fh, const char* call);
  int close(OnlineProgram& p, MPI_File* fh, const char* call);
  static int remove(const char* path);

  int set_view(OnlineProgram& p, MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
               const char* datarep, const char* call);
  void get_view(OnlineProgram& p, MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype,
                char* datarep, const char* call);

  enum class Pointer : uint8_t { kExplicit, kIndividual, kShared };
  // One read or write: `offset` (etypes) for kExplicit; the rank's or the shared pointer otherwise
  // (advanced by the elements moved). Fills `status` (may be MPI_STATUS_IGNORE).
  int access(OnlineProgram& p, MPI_File fh, bool write, Pointer where, MPI_Offset offset, void* buf, int count,
             MPI_Datatype type, MPI_Status* status, const char* call);
  // The shared file pointer (etypes), for the ordered forms (abi_io.cpp: the ranks' offsets are
  // an exscan of their counts from it).
  int64_t& shared_pointer(OnlineProgram& p, MPI_File fh, const char* call);
  int64_t etype_size(OnlineProgram& p, MPI_File fh, const char* call);

  int seek(OnlineProgram& p, MPI_File fh, MPI_Offset offset, int whence, bool shared, const char* call);
  MPI_Offset position(OnlineProgram& p, MPI_File fh, bool shared, const char* call);
  MPI_Offset size(OnlineProgram& p, MPI_File fh, const char* call);
  int set_size(OnlineProgram& p, MPI_File fh, MPI_Offset size, const char* call);
  int sync(OnlineProgram& p, MPI_File fh, const char* call);
  int amode(OnlineProgram& p, MPI_File fh, const char* call);
  MPI_Comm comm(OnlineProgram& p, MPI_File fh, const char* call);
  MPI_Errhandler& errhandler(OnlineProgram& p, MPI_File fh, const char* call);  // MPI_FILE_NULL: the default

 private:
  struct View {
    MPI_Offset disp = 0;
    MPI_Datatype etype = MPI_BYTE;
    MPI_Datatype filetype = MPI_BYTE;
  };
  struct Shared {  // what the members of one collective open share
    std::string path;
    int amode = 0;
    int64_t shared_pos = 0;  // etypes
    int members_open = 0;
    int opened = 0;          // members that reached open (the first creates, checks EXCL)
    int error = MPI_SUCCESS; // the first member's open result, everyone's
  };
  struct Handle {
    bool live = false;
    RankId rank = 0;
    MPI_Comm comm = MPI_COMM_NULL;  // the rank's handle of the file's communicator
    int shared = 0;
    int fd = -1;
    View view;
    int64_t pos = 0;  // etypes
    MPI_Errhandler errhandler = MPI_ERRORS_RETURN;
  };
  Handle& handle(OnlineProgram& p, MPI_File fh, const char* call);
  // Maps `bytes` data bytes of the view from data byte `data` onto file ranges.
  template <class F>
  void for_each_range(const View& v, int64_t data, int64_t bytes, const char* call, F&& f) const;
  void charge(OnlineProgram& p, bool write, int64_t bytes);

  IoCosts costs_;
  std::vector<Handle> handles_;  // MPI_File - 1
  std::vector<Shared> shared_;
  // (communicator, k-th open on it) -> shared index; a communicator is its p2p context, or
  // kSelf + the world rank for MPI_COMM_SELF (handles are per rank).
  static constexpr uint64_t kSelf = uint64_t{1} << 40;
  std::map<std::pair<uint64_t, uint32_t>, int> keys_;
  std::map<std::pair<RankId, uint64_t>, uint32_t> opens_;    // opens each rank made per communicator
  MPI_Errhandler default_errhandler_ = MPI_ERRORS_RETURN;
};

}  // namespace simfab::online
