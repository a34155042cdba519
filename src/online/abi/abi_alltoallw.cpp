// MPI_Alltoallw (MPI-3.1 §5.8): per-peer counts, byte displacements and datatypes. Each block is
// packed into a contiguous byte buffer, the bytes go through MPI_Alltoallv on MPI_BYTE (its
// selector's algorithm and time: the bytes moved are the same), and the received blocks are
// unpacked with their datatypes, as MPI libraries implement it. MPI_Ialltoallw runs the same
// exchange to its end before returning a completed request (a program that needs it to overlap
// with point-to-point messages it depends on would deadlock: none known).
// Cost: O(bytes) extra copying; MPI_IN_PLACE is not supported (an error).
#include <simfab/mpi.h>

#include <vector>

#include "online/abi/abi_call.hpp"

using simfab::online::mpi_fatal;
using simfab::online::require_ptr;

namespace {

int alltoallw(const char* call, const void* sbuf, const int* scounts, const int* sdispls, const MPI_Datatype* stypes,
              void* rbuf, const int* rcounts, const int* rdispls, const MPI_Datatype* rtypes, MPI_Comm comm) {
  if (sbuf == MPI_IN_PLACE) mpi_fatal(call, "MPI_IN_PLACE is not supported by simfab's MPI_Alltoallw");
  for (const void* p : {static_cast<const void*>(scounts), static_cast<const void*>(sdispls),
                        static_cast<const void*>(stypes), static_cast<const void*>(rcounts),
                        static_cast<const void*>(rdispls), static_cast<const void*>(rtypes)})
    require_ptr(p, "a counts, displacements or types array", call);
  int n = 0;
  MPI_Comm_size(comm, &n);
  std::vector<int> sb(static_cast<size_t>(n)), rb(static_cast<size_t>(n)), so(static_cast<size_t>(n)),
      ro(static_cast<size_t>(n));
  int stotal = 0, rtotal = 0;
  for (int j = 0; j < n; ++j) {
    int ssize = 0, rsize = 0;
    MPI_Type_size(stypes[j], &ssize);
    MPI_Type_size(rtypes[j], &rsize);
    sb[static_cast<size_t>(j)] = scounts[j] * ssize;
    rb[static_cast<size_t>(j)] = rcounts[j] * rsize;
    so[static_cast<size_t>(j)] = stotal;
    ro[static_cast<size_t>(j)] = rtotal;
    stotal += sb[static_cast<size_t>(j)];
    rtotal += rb[static_cast<size_t>(j)];
  }
  std::vector<char> out(static_cast<size_t>(stotal) + 1), in(static_cast<size_t>(rtotal) + 1);
  for (int j = 0; j < n; ++j) {
    int position = so[static_cast<size_t>(j)];
    if (scounts[j] > 0)
      MPI_Pack(static_cast<const char*>(sbuf) + sdispls[j], scounts[j], stypes[j], out.data(), stotal, &position, comm);
  }
  const int rc = MPI_Alltoallv(out.data(), sb.data(), so.data(), MPI_BYTE, in.data(), rb.data(), ro.data(), MPI_BYTE, comm);
  for (int j = 0; j < n; ++j) {
    int position = ro[static_cast<size_t>(j)];
    if (rcounts[j] > 0)
      MPI_Unpack(in.data(), rtotal, &position, static_cast<char*>(rbuf) + rdispls[j], rcounts[j], rtypes[j], comm);
  }
  return rc;
}

}  // namespace

extern "C" {

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm) {
  return alltoallw("MPI_Alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                   comm);
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Request* request) {
  require_ptr(request, "request", "MPI_Ialltoallw");
  const int rc = alltoallw("MPI_Ialltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes, comm);
  // A request that is already complete: a send to MPI_PROC_NULL.
  MPI_Isend(nullptr, 0, MPI_BYTE, MPI_PROC_NULL, 0, comm, request);
  return rc;
}

}  // extern "C"
