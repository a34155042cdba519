// Fortran bindings of online mode (issue 26): what the generated `mpi_*_` functions
// (gen_fortran.py, from <simfab/mpi.h>) and the hand-written ones (fortran_special.cpp) share.
//
// The calling convention is gfortran's, which every Fortran MPI library's bindings follow: the
// external name is the Fortran name in lower case plus `_` (MPI_SEND -> mpi_send_); every argument
// is passed by reference; a subroutine's last argument is IERROR; each CHARACTER argument adds a
// hidden length (size_t) after all the others, in order. simfab's handles are C ints, so a
// Fortran INTEGER handle is the C handle itself (MPI_Comm_c2f is the identity), an INTEGER array
// of requests is a C array of MPI_Request, and LOGICAL (4 bytes, .TRUE. = 1) reads as a C int.
//
// What is converted:
//   - MPI_STATUS_SIZE INTEGERs (6) hold a C MPI_Status (24 bytes): MPI_SOURCE, MPI_TAG, MPI_ERROR
//     at Fortran indices 1..3 as in C; the array is only 4-byte aligned, so a binding works on an
//     aligned C copy (FortranStatus) and copies it back;
//   - the sentinels MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are
//     variables of COMMON blocks that mpif.h declares, so the program's copy defines them and each
//     rank's copy has them at its own address (FortranSentinels, looked up at load);
//   - CHARACTER arguments: trailing blanks trimmed on the way in, blank padding on the way out;
//   - the indices Waitany/Testany/Waitsome/Testsome return are 1-based in Fortran.
// Complexity: O(1) per argument, O(n) for arrays of statuses and strings. Thread-safety: none
// (the rank's fiber calls them).
#pragma once

#include <simfab/mpi.h>

#include <cstddef>
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace simfab::online {

// The call site of a Fortran MPI call (mpi/call_sites.hpp): the binding calls the C function,
// whose return address is then inside simfab, so every binding first notes its own caller's
// address; the C function's Call takes it (take()) before anything can switch ranks, and the
// binding's exit forgets it if no Call did.
class FortranCallSite {
 public:
  explicit FortranCallSite(const void* caller) : caller_(caller) { pending_ = caller; }
  ~FortranCallSite() {
    if (pending_ == caller_) pending_ = nullptr;
  }
  FortranCallSite(const FortranCallSite&) = delete;
  FortranCallSite& operator=(const FortranCallSite&) = delete;
  // The noted caller (once), or nullptr.
  static const void* take() {
    const void* c = pending_;
    pending_ = nullptr;
    return c;
  }

 private:
  const void* caller_;
  static inline const void* pending_ = nullptr;
};

inline constexpr int kFortranStatusSize = 6;  // MPI_STATUS_SIZE: sizeof(MPI_Status) / sizeof(INTEGER)
static_assert(sizeof(MPI_Status) == kFortranStatusSize * sizeof(int));

// Where the running rank's copy of the program keeps the COMMON blocks of mpif.h (nullptr for a
// program that has none: C, or Fortran that never includes mpif.h).
struct FortranSentinels {
  const void* bottom = nullptr;
  const void* in_place = nullptr;
  const void* status_ignore = nullptr;
  const void* statuses_ignore = nullptr;
};
// The COMMON block symbols mpif.h declares (gfortran: the block name in lower case plus `_`).
inline constexpr const char* kFortranBottomSymbol = "simfab_f_bottom_";
inline constexpr const char* kFortranInPlaceSymbol = "simfab_f_in_place_";
inline constexpr const char* kFortranStatusIgnoreSymbol = "simfab_f_st_ignore_";
inline constexpr const char* kFortranStatusesIgnoreSymbol = "simfab_f_sts_ignore_";

const FortranSentinels& fortran_sentinels();  // the running rank's

// A choice buffer: MPI_IN_PLACE and MPI_BOTTOM become C's.
inline void* f_buf(const void* p) {
  const FortranSentinels& s = fortran_sentinels();
  if (p != nullptr && p == s.in_place) return MPI_IN_PLACE;
  if (p != nullptr && p == s.bottom) return MPI_BOTTOM;
  return const_cast<void*>(p);
}

// One status argument: get() is MPI_STATUS_IGNORE for Fortran's, else an aligned copy of the
// Fortran array, written back at destruction unless `in_only`.
class FortranStatus {
 public:
  explicit FortranStatus(int* f, bool in_only = false);
  ~FortranStatus();
  FortranStatus(const FortranStatus&) = delete;
  FortranStatus& operator=(const FortranStatus&) = delete;
  MPI_Status* get() { return f_ ? &c_ : MPI_STATUS_IGNORE; }

 private:
  int* f_;
  bool in_only_;
  MPI_Status c_{};
};

// An array of `n` statuses (MPI_STATUSES_IGNORE, or MPI_STATUS_SIZE x n INTEGERs).
class FortranStatuses {
 public:
  FortranStatuses(int* f, int n);
  ~FortranStatuses();
  FortranStatuses(const FortranStatuses&) = delete;
  FortranStatuses& operator=(const FortranStatuses&) = delete;
  MPI_Status* get() { return f_ ? c_.data() : MPI_STATUSES_IGNORE; }

 private:
  int* f_;
  size_t n_ = 0;
  std::vector<MPI_Status> c_;
};

// CHARACTER*(len) in: the text without its trailing blanks.
std::string f_string_in(const char* f, size_t len);
// CHARACTER*(len) out: runs `call(buffer)` with a C buffer big enough for any MPI string (and at
// least len + 1), then copies the result into `f`, blank-padded (truncated to len).
template <class Call>
int f_string_out(char* f, size_t len, Call&& call) {
  std::string c(len + 4096, '\0');
  const int rc = call(c.data());
  const size_t n = std::min(len, std::strlen(c.c_str()));
  std::memcpy(f, c.data(), n);
  std::memset(f + n, ' ', len - n);
  return rc;
}

// Fortran's 1-based request indices.
inline void f_index(int rc, int* index) {
  if (rc == MPI_SUCCESS && index && *index >= 0) *index += 1;
}
inline void f_indices(int rc, const int* outcount, int* indices) {
  if (rc != MPI_SUCCESS || !outcount || *outcount == MPI_UNDEFINED) return;
  for (int i = 0; i < *outcount; ++i) indices[i] += 1;
}

inline void f_set(int* ierr, int rc) {
  if (ierr) *ierr = rc;
}

}  // namespace simfab::online
