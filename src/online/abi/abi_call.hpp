// The one call point between a rank and the kernel (ARCHITECTURE.md): every extern "C" MPI_*
// function of online mode opens a Call, which finds the running OnlineProgram, checks the call is
// allowed (after MPI_Init, before MPI_Finalize, unless `any_time`), notes the call's site (its
// return address: mpi/call_sites.hpp), charges the computation the rank did since its previous
// call, and on exit restarts the rank's computation clock so the
// call's own CPU time is not charged as the program's.
#pragma once

#include <simfab/mpi.h>

#include "online/mpi_fatal.hpp"
#include "online/online_program.hpp"

namespace simfab::online {

class Call {
 public:
  // Inlined into the MPI function, so that the return address is the program's call site.
  [[gnu::always_inline]] explicit Call(const char* name, bool any_time = false) : p_(program(name)), name_(name) {
    p_.enter(name, any_time, __builtin_return_address(0));
  }
  ~Call() { p_.leave(); }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  OnlineProgram* operator->() const { return &p_; }
  OnlineProgram& get() const { return p_; }
  const char* name() const { return name_; }

  static OnlineProgram& program(const char* call) {
    OnlineProgram* p = OnlineProgram::active();
    if (!p || p->me() < 0) mpi_fatal(call, "called outside a rank of a simfab exec run");
    return *p;
  }

 private:
  OnlineProgram& p_;
  const char* name_;
};

// Argument checks shared by the MPI functions.
inline void require_ptr(const void* p, const char* what, const char* call) {
  if (!p) mpi_fatal(call, std::string(what) + " is NULL");
}

}  // namespace simfab::online
