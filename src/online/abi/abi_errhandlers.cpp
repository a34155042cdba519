// Error handlers (MPI-3.1 §8.3) for communicators and windows, and MPI-1's MPI_Errhandler_*.
// simfab applies MPI_ERRORS_ARE_FATAL to every error whatever handler a program sets
// (online/mpi_fatal.hpp: the run stops with the error named), so a handler is only stored,
// returned by the get calls, and run by MPI_{Comm,Win}_call_errhandler: a user handler is called
// with the object and the code, MPI_ERRORS_RETURN does nothing (the call returns MPI_SUCCESS, as
// Open MPI's), MPI_ERRORS_ARE_FATAL stops the run.
#include <simfab/mpi.h>

#include <map>
#include <tuple>
#include <vector>

#include "online/abi/abi_call.hpp"
#include "online/abi/abi_errhandlers.hpp"

using simfab::online::Call;
using simfab::online::mpi_fatal;
using simfab::online::require_ptr;

namespace {

enum class Kind : int { kComm, kWin };

struct Handlers {
  std::vector<void*> created;                       // handle kFirst + i; nullptr once freed
  std::map<std::tuple<int, Kind, int>, MPI_Errhandler> set;  // (rank, kind, object)
  static constexpr MPI_Errhandler kFirst = 3;
};
Handlers& handlers() {
  static Handlers h;
  return h;
}

bool valid(MPI_Errhandler e) {
  if (e == MPI_ERRORS_ARE_FATAL || e == MPI_ERRORS_RETURN) return true;
  const int i = e - Handlers::kFirst;
  return i >= 0 && i < static_cast<int>(handlers().created.size()) && handlers().created[static_cast<size_t>(i)];
}

int create(const char* call, void* fn, MPI_Errhandler* errhandler) {
  require_ptr(errhandler, "errhandler", call);
  require_ptr(fn, "function", call);
  handlers().created.push_back(fn);
  *errhandler = Handlers::kFirst + static_cast<int>(handlers().created.size()) - 1;
  return MPI_SUCCESS;
}

int set(Call& c, Kind kind, int object, MPI_Errhandler e) {
  if (!valid(e)) mpi_fatal(c.name(), "invalid error handler " + std::to_string(e));
  handlers().set[{c->me(), kind, object}] = e;
  return MPI_SUCCESS;
}

int get(Call& c, Kind kind, int object, MPI_Errhandler* e) {
  require_ptr(e, "errhandler", c.name());
  const auto it = handlers().set.find({c->me(), kind, object});
  *e = it == handlers().set.end() ? MPI_ERRORS_ARE_FATAL : it->second;
  return MPI_SUCCESS;
}

template <class Object>
int call_handler(Call& c, Kind kind, Object object, int code) {
  MPI_Errhandler e = MPI_ERRORS_ARE_FATAL;
  get(c, kind, object, &e);
  if (e == MPI_ERRORS_RETURN) return MPI_SUCCESS;  // the handler "ran" (as Open MPI: MPI-3.1 §8.3.6)
  if (e == MPI_ERRORS_ARE_FATAL) mpi_fatal(c.name(), "error code " + std::to_string(code) + " (MPI_ERRORS_ARE_FATAL)");
  using Fn = void (*)(Object*, int*, ...);
  reinterpret_cast<Fn>(handlers().created[static_cast<size_t>(e - Handlers::kFirst)])(&object, &code);
  return MPI_SUCCESS;
}

}  // namespace

namespace simfab::online {
void* errhandler_function(MPI_Errhandler e) {
  return e >= Handlers::kFirst && valid(e) ? handlers().created[static_cast<size_t>(e - Handlers::kFirst)] : nullptr;
}
bool errhandler_valid(MPI_Errhandler e) { return valid(e); }
}  // namespace simfab::online

extern "C" {

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler) {
  Call c("MPI_Comm_create_errhandler");
  return create(c.name(), reinterpret_cast<void*>(function), errhandler);
}
int MPI_Win_create_errhandler(MPI_Win_errhandler_function* function, MPI_Errhandler* errhandler) {
  Call c("MPI_Win_create_errhandler");
  return create(c.name(), reinterpret_cast<void*>(function), errhandler);
}
int MPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  return MPI_Comm_create_errhandler(function, errhandler);
}

int MPI_Errhandler_free(MPI_Errhandler* errhandler) {
  Call c("MPI_Errhandler_free");
  require_ptr(errhandler, "errhandler", c.name());
  if (!valid(*errhandler)) mpi_fatal(c.name(), "invalid error handler " + std::to_string(*errhandler));
  // Objects keep a freed handler (MPI-3.1 §8.3.4); only the handle becomes invalid for new uses.
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  Call c("MPI_Comm_set_errhandler");
  c->comm(comm, c.name());
  return set(c, Kind::kComm, comm, errhandler);
}
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  Call c("MPI_Comm_get_errhandler");
  c->comm(comm, c.name());
  return get(c, Kind::kComm, comm, errhandler);
}
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) { return MPI_Comm_set_errhandler(comm, errhandler); }
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) { return MPI_Comm_get_errhandler(comm, errhandler); }
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  Call c("MPI_Comm_call_errhandler");
  c->comm(comm, c.name());
  return call_handler(c, Kind::kComm, comm, errorcode);
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  Call c("MPI_Win_set_errhandler");
  return set(c, Kind::kWin, win, errhandler);
}
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  Call c("MPI_Win_get_errhandler");
  return get(c, Kind::kWin, win, errhandler);
}
int MPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  Call c("MPI_Win_call_errhandler");
  return call_handler(c, Kind::kWin, win, errorcode);
}

}  // extern "C"
