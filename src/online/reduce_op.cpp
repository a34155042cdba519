#include "online/reduce_op.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "online/basic_types.hpp"
#include "online/datatype.hpp"
#include "online/handle_table.hpp"
#include "online/mpi_fatal.hpp"

namespace simfab::online {

namespace {

constexpr std::array<const char*, MPI_NO_OP + 1> kBuiltinNames{
    "MPI_OP_NULL", "MPI_MAX",    "MPI_MIN",    "MPI_SUM",     "MPI_PROD",
    "MPI_LAND",    "MPI_BAND",   "MPI_LOR",    "MPI_BOR",     "MPI_LXOR",
    "MPI_BXOR",    "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};

struct UserOp {
  MPI_User_function* fn;
  bool commutative;
  bool user_freed = false;
  int32_t retains = 0;
};

HandleTable<UserOp>& user_ops() {
  static HandleTable<UserOp> table(kFirstUserOp);
  return table;
}

bool is_builtin(MPI_Op op) { return op > MPI_OP_NULL && op <= MPI_NO_OP; }

enum class OpUse : uint8_t { kQuery, kApply };

// nullptr for a built-in operation; stops the run on an invalid handle.
UserOp* lookup(MPI_Op op, const char* call, OpUse use) {
  if (op == MPI_OP_NULL) mpi_fatal(call, "MPI_OP_NULL is not a reduction operation");
  if (is_builtin(op)) return nullptr;
  UserOp* u = user_ops().find(op);
  if (u == nullptr || (u->user_freed && use == OpUse::kQuery)) {
    mpi_fatal(call, "invalid reduction operation " + std::to_string(op) +
                        (op >= kFirstUserOp ? " (freed, or never created)" : " (no such handle)"));
  }
  return u;
}

void erase_if_unused(MPI_Op op, const UserOp& u) {
  if (u.user_freed && u.retains == 0) user_ops().erase(op);
}

[[noreturn]] void undefined(MPI_Op op, MPI_Datatype t, const Typemap& map, const char* call) {
  std::string what = op_name(op) + " is not defined on ";
  if (map.element == kMixedElements) {
    what += std::string(type_name(t)) +
            ", which mixes several basic types (only MPI_REPLACE and MPI_NO_OP apply)";
  } else {
    what += basic_type(map.element)->name;
    if (t != map.element) what += std::string(" (the basic type of ") + type_name(t) + ")";
    if (op == MPI_MINLOC || op == MPI_MAXLOC)
      what += "; it takes a pair type such as MPI_DOUBLE_INT";
  }
  mpi_fatal(call, what);
}

void reduce_builtin(MPI_Op op, const std::byte* in, std::byte* inout, int64_t count, MPI_Datatype t,
                    const char* call) {
  const Typemap& map = type_layout(t, call, TypeUse::kCommunicate);
  if (op == MPI_NO_OP) return;
  if (op == MPI_REPLACE) {
    if (count > 0 && map.size > 0) std::memmove(inout, in, static_cast<size_t>(count * map.size));
    return;
  }
  if (map.element == kNoElements) return;
  const ReduceKernel kernel =
      map.element == kMixedElements ? nullptr : basic_type(map.element)->kernel(op);
  if (kernel == nullptr) undefined(op, t, map, call);
  kernel(in, inout, count * map.element_count);
}

// Calls fn on native-layout buffers, INT_MAX elements at a time.
void call_user(const UserOp& u, void* in, void* inout, int64_t count, int64_t extent,
               MPI_Datatype t) {
  for (int64_t done = 0; done < count;) {
    int n = static_cast<int>(std::min<int64_t>(count - done, INT_MAX));
    MPI_Datatype dt = t;
    u.fn(static_cast<std::byte*>(in) + done * extent,
         static_cast<std::byte*>(inout) + done * extent, &n, &dt);
    done += std::min<int64_t>(count - done, INT_MAX);
  }
}

// A native-layout buffer for `count` instances of `map`: the bytes they span, and where instance
// 0 starts in it.
struct NativeBuffer {
  std::vector<std::byte> bytes;
  std::byte* base;
  NativeBuffer(const Typemap& map, int64_t count) {
    const int64_t last = (count - 1) * map.extent();
    const int64_t lo = std::min<int64_t>(0, last) + map.true_lb;
    const int64_t hi = std::max<int64_t>(0, last) + map.true_ub;
    bytes.resize(static_cast<size_t>(hi - lo));
    base = bytes.data() - lo;
  }
};

void reduce_user(const UserOp& u, const void* in, void* inout, int64_t count, MPI_Datatype t,
                 const char* call) {
  const Typemap& map = type_layout(t, call, TypeUse::kCommunicate);
  if (count == 0) return;
  if (map.contiguous()) {
    call_user(u, const_cast<void*>(in), inout, count, map.extent(), t);
    return;
  }
  NativeBuffer a(map, count);
  NativeBuffer b(map, count);
  unpack(in, count, t, a.base);
  unpack(inout, count, t, b.base);
  call_user(u, a.base, b.base, count, map.extent(), t);
  pack(b.base, count, t, inout);
}

}  // namespace

void reduce_packed(MPI_Op op, const void* in, void* inout, int64_t count, MPI_Datatype t,
                   const char* call) {
  const UserOp* u = lookup(op, call, OpUse::kApply);
  if (u != nullptr) {
    reduce_user(*u, in, inout, count, t, call);
  } else {
    reduce_builtin(op, static_cast<const std::byte*>(in), static_cast<std::byte*>(inout), count, t,
                   call);
  }
}

void reduce_native(MPI_Op op, const void* in, void* inout, int64_t count, MPI_Datatype t,
                   const char* call) {
  const Typemap& map = type_layout(t, call, TypeUse::kCommunicate);
  const UserOp* u = lookup(op, call, OpUse::kQuery);
  if (u != nullptr) {
    if (count > 0) call_user(*u, const_cast<void*>(in), inout, count, map.extent(), t);
    return;
  }
  if (map.contiguous()) {
    reduce_packed(op, in, inout, count, t, call);
    return;
  }
  const size_t bytes = static_cast<size_t>(count * map.size);
  std::vector<std::byte> a(bytes);
  std::vector<std::byte> b(bytes);
  pack(in, count, t, a.data());
  pack(inout, count, t, b.data());
  reduce_packed(op, a.data(), b.data(), count, t, call);
  unpack(b.data(), count, t, inout);
}

bool op_is_commutative(MPI_Op op, const char* call) {
  const UserOp* u = lookup(op, call, OpUse::kApply);
  return u == nullptr || u->commutative;
}

void op_retain(MPI_Op op) {
  if (UserOp* u = lookup(op, "op_retain", OpUse::kApply)) ++u->retains;
}

void op_release(MPI_Op op) {
  UserOp* u = lookup(op, "op_release", OpUse::kApply);
  if (u == nullptr) return;
  SIMFAB_CHECK(u->retains > 0, "op_release without op_retain");
  --u->retains;
  erase_if_unused(op, *u);
}

MPI_Op op_create(MPI_User_function* fn, bool commutative, const char* call) {
  if (fn == nullptr) mpi_fatal(call, "user_fn is NULL");
  return user_ops().insert({fn, commutative});
}

void op_free(MPI_Op op, const char* call) {
  UserOp* u = lookup(op, call, OpUse::kQuery);
  if (u == nullptr) mpi_fatal(call, "cannot free the predefined operation " + op_name(op));
  u->user_freed = true;
  erase_if_unused(op, *u);
}

std::string op_name(MPI_Op op) {
  if (op >= 0 && op <= MPI_NO_OP) return kBuiltinNames[static_cast<size_t>(op)];
  return "user operation " + std::to_string(op);
}

}  // namespace simfab::online
