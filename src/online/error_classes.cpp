#include "online/error_classes.hpp"

#include <simfab/mpi.h>

#include <array>

namespace simfab::online {

namespace {

constexpr std::array<const char*, MPI_ERR_LASTCODE + 1> kStrings{
    "MPI_SUCCESS: no errors",
    "MPI_ERR_BUFFER: invalid buffer pointer",
    "MPI_ERR_COUNT: invalid count argument",
    "MPI_ERR_TYPE: invalid datatype",
    "MPI_ERR_TAG: invalid tag",
    "MPI_ERR_COMM: invalid communicator",
    "MPI_ERR_RANK: invalid rank",
    "MPI_ERR_ROOT: invalid root",
    "MPI_ERR_GROUP: invalid group",
    "MPI_ERR_OP: invalid reduction operation",
    "MPI_ERR_TOPOLOGY: invalid topology",
    "MPI_ERR_DIMS: invalid dimension argument",
    "MPI_ERR_ARG: invalid argument of some other kind",
    "MPI_ERR_UNKNOWN: unknown error",
    "MPI_ERR_TRUNCATE: message truncated",
    "MPI_ERR_OTHER: known error not in this list",
    "MPI_ERR_INTERN: internal error",
    "MPI_ERR_IN_STATUS: error code is in status",
    "MPI_ERR_PENDING: pending request",
    "MPI_ERR_REQUEST: invalid request",
    "MPI_ERR_ACCESS: permission denied",
    "MPI_ERR_AMODE: invalid file access mode",
    "MPI_ERR_BAD_FILE: invalid file name",
    "MPI_ERR_CONVERSION: data conversion error",
    "MPI_ERR_DUP_DATAREP: data representation already defined",
    "MPI_ERR_FILE_EXISTS: file exists",
    "MPI_ERR_FILE_IN_USE: file in use",
    "MPI_ERR_FILE: invalid file handle",
    "MPI_ERR_INFO: invalid info object",
    "MPI_ERR_INFO_KEY: info key too long",
    "MPI_ERR_INFO_VALUE: info value too long",
    "MPI_ERR_INFO_NOKEY: no such info key",
    "MPI_ERR_IO: I/O error",
    "MPI_ERR_NAME: invalid service name",
    "MPI_ERR_NO_MEM: out of memory",
    "MPI_ERR_NOT_SAME: collective arguments differ between processes",
    "MPI_ERR_NO_SPACE: not enough space",
    "MPI_ERR_NO_SUCH_FILE: no such file",
    "MPI_ERR_PORT: invalid port name",
    "MPI_ERR_QUOTA: quota exceeded",
    "MPI_ERR_READ_ONLY: read-only file or file system",
    "MPI_ERR_SERVICE: invalid service",
    "MPI_ERR_SPAWN: could not spawn processes",
    "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation",
    "MPI_ERR_UNSUPPORTED_OPERATION: unsupported operation",
    "MPI_ERR_WIN: invalid window",
    "MPI_ERR_BASE: invalid base address",
    "MPI_ERR_LOCKTYPE: invalid lock type",
    "MPI_ERR_KEYVAL: invalid attribute key",
    "MPI_ERR_RMA_CONFLICT: conflicting accesses to a window",
    "MPI_ERR_RMA_SYNC: wrong synchronization of RMA calls",
    "MPI_ERR_SIZE: invalid size",
    "MPI_ERR_DISP: invalid displacement",
    "MPI_ERR_ASSERT: invalid assertion",
    "MPI_ERR_RMA_RANGE: target memory outside the window",
    "MPI_ERR_RMA_ATTACH: memory cannot be attached",
    "MPI_ERR_RMA_SHARED: memory cannot be shared",
    "MPI_ERR_RMA_FLAVOR: wrong window flavor",
};

}  // namespace

const char* error_string(int code) {
  if (code < 0 || code > MPI_ERR_LASTCODE) return nullptr;
  return kStrings[static_cast<size_t>(code)];
}

}  // namespace simfab::online
