// The extern "C" info-object calls, on top of online/info.hpp.
#include <simfab/mpi.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "online/arg_check.hpp"
#include "online/info.hpp"

using namespace simfab::online;

extern "C" {

int MPI_Info_create(MPI_Info* info) {
  check_pointer("MPI_Info_create", "info", info);
  *info = info_create();
  return MPI_SUCCESS;
}

int MPI_Info_set(MPI_Info info, const char* key, const char* value) {
  info_set(info, key, value, "MPI_Info_set");
  return MPI_SUCCESS;
}

int MPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  const char* call = "MPI_Info_get";
  check_count(call, "valuelen", valuelen);
  check_pointer(call, "value", value);
  check_pointer(call, "flag", flag);
  const auto v = info_get(info, key, call);
  *flag = v.has_value() ? 1 : 0;
  if (v) {  // at most valuelen characters, then the terminating NUL (value holds valuelen + 1)
    const size_t n = std::min(v->size(), static_cast<size_t>(valuelen));
    std::memcpy(value, v->data(), n);
    value[n] = '\0';
  }
  return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  const char* call = "MPI_Info_get_valuelen";
  check_pointer(call, "valuelen", valuelen);
  check_pointer(call, "flag", flag);
  const auto v = info_get(info, key, call);
  *flag = v.has_value() ? 1 : 0;
  if (v) *valuelen = static_cast<int>(v->size());
  return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  const char* call = "MPI_Info_get_nkeys";
  check_pointer(call, "nkeys", nkeys);
  *nkeys = info_nkeys(info, call);
  return MPI_SUCCESS;
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  const char* call = "MPI_Info_get_nthkey";
  check_pointer(call, "key", key);
  const std::string& k = info_nthkey(info, n, call);
  std::memcpy(key, k.c_str(), k.size() + 1);
  return MPI_SUCCESS;
}

int MPI_Info_delete(MPI_Info info, const char* key) {
  info_delete(info, key, "MPI_Info_delete");
  return MPI_SUCCESS;
}

int MPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  const char* call = "MPI_Info_dup";
  check_pointer(call, "newinfo", newinfo);
  *newinfo = info_dup(info, call);
  return MPI_SUCCESS;
}

int MPI_Info_free(MPI_Info* info) {
  const char* call = "MPI_Info_free";
  check_pointer(call, "info", info);
  info_free(*info, call);
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"
