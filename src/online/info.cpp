#include "online/info.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "online/arg_check.hpp"
#include "online/handle_table.hpp"

namespace simfab::online {

namespace {

using InfoEntries = std::vector<std::pair<std::string, std::string>>;

HandleTable<InfoEntries>& infos() {
  static HandleTable<InfoEntries> table(kFirstUserInfo);
  return table;
}

const InfoEntries& env_info() {
  static const InfoEntries empty;
  return empty;
}

InfoEntries& user_info(MPI_Info info, const char* call) {
  if (info == MPI_INFO_NULL) mpi_fatal(call, "MPI_INFO_NULL is not an info object");
  InfoEntries* e = infos().find(info);
  if (e == nullptr)
    mpi_fatal(call, "invalid info " + std::to_string(info) + " (freed, or never created)");
  return *e;
}

const InfoEntries& read(MPI_Info info, const char* call) {
  return info == MPI_INFO_ENV ? env_info() : user_info(info, call);
}

InfoEntries& write(MPI_Info info, const char* call) {
  if (info == MPI_INFO_ENV) mpi_fatal(call, "MPI_INFO_ENV is read-only");
  return user_info(info, call);
}

std::string check_key(const char* key, const char* call) {
  check_pointer(call, "key", key);
  const size_t n = std::strlen(key);
  if (n == 0 || n > MPI_MAX_INFO_KEY) {
    mpi_fatal(call, "info key of " + std::to_string(n) + " characters (1 .. " +
                        std::to_string(MPI_MAX_INFO_KEY) + " allowed)");
  }
  return key;
}

template <class Entries>
auto find_key(Entries& e, const std::string& key) {
  return std::find_if(e.begin(), e.end(), [&](const auto& kv) { return kv.first == key; });
}

}  // namespace

MPI_Info info_create() { return infos().insert({}); }

MPI_Info info_dup(MPI_Info info, const char* call) {
  InfoEntries copy = read(info, call);
  return infos().insert(std::move(copy));
}

void info_free(MPI_Info info, const char* call) {
  write(info, call);
  infos().erase(info);
}

void info_set(MPI_Info info, const char* key, const char* value, const char* call) {
  InfoEntries& e = write(info, call);
  const std::string k = check_key(key, call);
  check_pointer(call, "value", value);
  if (std::strlen(value) > MPI_MAX_INFO_VAL) {
    mpi_fatal(call, "info value of " + std::to_string(std::strlen(value)) +
                        " characters (at most " + std::to_string(MPI_MAX_INFO_VAL) + ")");
  }
  const auto it = find_key(e, k);
  if (it != e.end()) {
    it->second = value;
  } else {
    e.emplace_back(k, value);
  }
}

std::optional<std::string> info_get(MPI_Info info, const char* key, const char* call) {
  const InfoEntries& e = read(info, call);
  const auto it = find_key(e, check_key(key, call));
  if (it == e.end()) return std::nullopt;
  return it->second;
}

void info_delete(MPI_Info info, const char* key, const char* call) {
  InfoEntries& e = write(info, call);
  const std::string k = check_key(key, call);
  const auto it = find_key(e, k);
  if (it == e.end()) mpi_fatal(call, "no key \"" + k + "\" in info " + std::to_string(info));
  e.erase(it);
}

int info_nkeys(MPI_Info info, const char* call) {
  return static_cast<int>(read(info, call).size());
}

const std::string& info_nthkey(MPI_Info info, int n, const char* call) {
  const InfoEntries& e = read(info, call);
  if (n < 0 || static_cast<size_t>(n) >= e.size()) {
    mpi_fatal(call, "key index " + std::to_string(n) + " outside 0 .. " +
                        std::to_string(static_cast<int>(e.size()) - 1));
  }
  return e[static_cast<size_t>(n)].first;
}

}  // namespace simfab::online
