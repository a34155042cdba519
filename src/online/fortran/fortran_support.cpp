#include "online/fortran/fortran_support.hpp"

#include "online/online_program.hpp"

namespace simfab::online {

const FortranSentinels& fortran_sentinels() {
  static const FortranSentinels kNone;
  const OnlineProgram* p = OnlineProgram::active();
  return p && p->me() >= 0 ? p->fortran_sentinels() : kNone;
}

FortranStatus::FortranStatus(int* f, bool in_only)
    : f_(f && f != fortran_sentinels().status_ignore && f != fortran_sentinels().statuses_ignore ? f : nullptr),
      in_only_(in_only) {
  if (f_) std::memcpy(&c_, f_, sizeof c_);
}

FortranStatus::~FortranStatus() {
  if (f_ && !in_only_) std::memcpy(f_, &c_, sizeof c_);
}

FortranStatuses::FortranStatuses(int* f, int n)
    : f_(f && f != fortran_sentinels().statuses_ignore && f != fortran_sentinels().status_ignore ? f : nullptr) {
  n_ = f_ && n > 0 ? static_cast<size_t>(n) : 0;
  c_.resize(n_ + 1);  // never empty: a valid pointer for a count of 0
  if (n_ > 0) std::memcpy(c_.data(), f_, n_ * sizeof(MPI_Status));
}

FortranStatuses::~FortranStatuses() {
  if (n_ > 0) std::memcpy(f_, c_.data(), n_ * sizeof(MPI_Status));
}

std::string f_string_in(const char* f, size_t len) {
  if (!f) return {};
  while (len > 0 && (f[len - 1] == ' ' || f[len - 1] == '\0')) --len;
  return std::string(f, len);
}

}  // namespace simfab::online
