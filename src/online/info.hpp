// info: MPI info objects (MPI 3.1 §9), ordered (key, value) string pairs that a program passes
// as hints. simfab acts on no hint; it keeps them so that a program reads back what it set.
//
// Keys keep the order they were first set in (MPI_Info_get_nthkey's order); setting a key again
// replaces its value in place. Keys are 1 .. MPI_MAX_INFO_KEY characters, values at most
// MPI_MAX_INFO_VAL. MPI_INFO_ENV (handle 1) is an empty, read-only info; user infos get handles
// >= kFirstUserInfo. Errors (invalid handle, deleting a missing key, too long a key) stop the run.
// Complexity: O(keys) per access (infos hold a few hints). Thread-safety: none.
#pragma once

#include <simfab/mpi.h>

#include <optional>
#include <string>

namespace simfab::online {

inline constexpr MPI_Info kFirstUserInfo = 16;

MPI_Info info_create();
MPI_Info info_dup(MPI_Info info, const char* call);
void info_free(MPI_Info info, const char* call);
void info_set(MPI_Info info, const char* key, const char* value, const char* call);
std::optional<std::string> info_get(MPI_Info info, const char* key, const char* call);
void info_delete(MPI_Info info, const char* key, const char* call);
int info_nkeys(MPI_Info info, const char* call);
const std::string& info_nthkey(MPI_Info info, int n, const char* call);

}  // namespace simfab::online
