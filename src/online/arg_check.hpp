// arg_check: the argument checks shared by the MPI calls of online mode, each stopping the run
// through mpi_fatal with a message naming the argument and its value:
//   check_count(call, "count", -3)   ->  "count -3 < 0"
//   check_pointer(call, "newtype", p)  ->  "newtype is NULL"
//   check_array(call, "array_of_displacements", p, n)  ->  NULL with n > 0 entries to read
// Complexity: O(1).
#pragma once

#include <cstdint>
#include <string>

#include "online/mpi_fatal.hpp"

namespace simfab::online {

inline void check_count(const char* call, const char* what, int64_t n) {
  if (n < 0) mpi_fatal(call, std::string(what) + " " + std::to_string(n) + " < 0");
}

inline void check_pointer(const char* call, const char* what, const void* p) {
  if (p == nullptr) mpi_fatal(call, std::string(what) + " is NULL");
}

template <class T>
void check_array(const char* call, const char* what, const T* p, int64_t n) {
  if (p == nullptr && n > 0) {
    mpi_fatal(call, std::string(what) + " is NULL but " + std::to_string(n) + " entries are read");
  }
}

}  // namespace simfab::online
