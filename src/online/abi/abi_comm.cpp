// Groups, communicators, attributes and Cartesian topologies (MPI-3.1 chapters 6 and 7).
#include <cstring>
#include <vector>

#include "mpi/call_error.hpp"
#include "online/abi/abi_call.hpp"
#include "online/attributes.hpp"

using simfab::online::AttrKind;
using simfab::online::AttributeStore;
using simfab::online::Call;
using simfab::online::mpi_fatal;
using simfab::online::require_ptr;
namespace mpi = simfab::mpi;

namespace {

std::vector<int32_t> ranks_of(int n, const int* ranks, const char* call) {
  if (n < 0) mpi_fatal(call, "n " + std::to_string(n) + " < 0");
  if (n > 0) require_ptr(ranks, "ranks", call);
  return std::vector<int32_t>(ranks, ranks + n);
}

template <typename F>
auto guarded(const char* call, F f) {
  try {
    return f();
  } catch (const mpi::MpiCallError& e) {
    mpi_fatal(call, e.detail());
  }
}

int cart_rank_of(const simfab::online::OnlineProgram::Cart& cart, const int* coords, const char* call) {
  int rank = 0;
  for (size_t d = 0; d < cart.dims.size(); ++d) {
    int c = coords[d];
    if (cart.periods[d]) c = ((c % cart.dims[d]) + cart.dims[d]) % cart.dims[d];
    else if (c < 0 || c >= cart.dims[d])
      mpi_fatal(call, "coordinate " + std::to_string(coords[d]) + " of dimension " + std::to_string(d) +
                          " is outside 0.." + std::to_string(cart.dims[d] - 1) + " (not periodic)");
    rank = rank * cart.dims[d] + c;
  }
  return rank;
}

// MPI_Group_range_incl/excl: the ranks first, first + stride, ... up to last of each triple.
std::vector<int> range_ranks(int n, int ranges[][3], const char* call) {
  if (n < 0) mpi_fatal(call, "n " + std::to_string(n) + " < 0");
  std::vector<int> out;
  for (int i = 0; i < n; ++i) {
    const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    if (stride == 0) mpi_fatal(call, "range " + std::to_string(i) + " has a stride of 0");
    for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) out.push_back(r);
  }
  return out;
}

}  // namespace

extern "C" {

int MPI_Comm_size(MPI_Comm comm, int* size) {
  Call c("MPI_Comm_size");
  require_ptr(size, "size", c.name());
  *size = c->comm(comm, c.name()).size;
  return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  Call c("MPI_Comm_rank");
  require_ptr(rank, "rank", c.name());
  *rank = c->comm(comm, c.name()).rank;
  return MPI_SUCCESS;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  Call c("MPI_Comm_dup");
  require_ptr(newcomm, "newcomm", c.name());
  *newcomm = c->comm_create(comm, mpi::CreationKind::kDup, 0, 0, {}, c.name());
  AttributeStore::instance().copied(c->me(), AttrKind::kComm, comm, *newcomm, c.name());
  return MPI_SUCCESS;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  Call c("MPI_Comm_split");
  require_ptr(newcomm, "newcomm", c.name());
  *newcomm = c->comm_create(comm, mpi::CreationKind::kSplit, color, key, {}, c.name());
  return MPI_SUCCESS;
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info, MPI_Comm* newcomm) {
  Call c("MPI_Comm_split_type");
  require_ptr(newcomm, "newcomm", c.name());
  if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
    mpi_fatal(c.name(), "split_type " + std::to_string(split_type) + " is neither MPI_COMM_TYPE_SHARED nor MPI_UNDEFINED");
  // One colour per host: the ranks that share a simulated node.
  int color = MPI_UNDEFINED;
  if (split_type == MPI_COMM_TYPE_SHARED) color = static_cast<int>(std::hash<std::string>{}(c->host_name()) & 0x3fffffff);
  *newcomm = c->comm_create(comm, mpi::CreationKind::kSplit, color, key, {}, c.name());
  return MPI_SUCCESS;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  Call c("MPI_Comm_create");
  require_ptr(newcomm, "newcomm", c.name());
  const simfab::online::OnlineProgram::CommRef parent = c->comm(comm, c.name());
  const mpi::Group& g = c->group(group, c.name());
  std::vector<int32_t> local;  // the group as ranks of the parent
  for (int32_t i = 0; i < g.size(); ++i) {
    const int32_t l = parent.local(g.world_rank(i));
    if (l == mpi::kUndefined) mpi_fatal(c.name(), "the group holds a process that is not in the communicator");
    local.push_back(l);
  }
  *newcomm = c->comm_create(comm, mpi::CreationKind::kCreate, 0, 0, local, c.name());
  return MPI_SUCCESS;
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  Call c("MPI_Comm_idup");
  require_ptr(newcomm, "newcomm", c.name());
  require_ptr(request, "request", c.name());
  *newcomm = c->comm_create(comm, mpi::CreationKind::kDup, 0, 0, {}, c.name(), request);
  AttributeStore::instance().copied(c->me(), AttrKind::kComm, comm, *newcomm, c.name());
  return MPI_SUCCESS;
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  Call c("MPI_Comm_create_group");
  require_ptr(newcomm, "newcomm", c.name());
  *newcomm = c->comm_create_group(comm, c->group(group, c.name()), tag, c.name());
  return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm* comm) {
  Call c("MPI_Comm_free");
  require_ptr(comm, "comm", c.name());
  c->comm(*comm, c.name());
  AttributeStore::instance().erased(c->me(), AttrKind::kComm, *comm, c.name());
  c->comm_free(comm, c.name());
  return MPI_SUCCESS;
}

int MPI_Comm_compare(MPI_Comm a, MPI_Comm b, int* result) {
  Call c("MPI_Comm_compare");
  require_ptr(result, "result", c.name());
  *result = c->comm_compare(a, b, c.name());
  return MPI_SUCCESS;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  Call c("MPI_Comm_group");
  require_ptr(group, "group", c.name());
  *group = c->group_of(comm, c.name());
  return MPI_SUCCESS;
}

int MPI_Comm_set_name(MPI_Comm comm, const char* name) {
  Call c("MPI_Comm_set_name");
  require_ptr(name, "name", c.name());
  c->set_comm_name(comm, std::string(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1)), c.name());
  return MPI_SUCCESS;
}

int MPI_Comm_get_name(MPI_Comm comm, char* name, int* resultlen) {
  Call c("MPI_Comm_get_name");
  require_ptr(name, "name", c.name());
  const std::string s = c->comm_name(comm, c.name());
  const size_t n = std::min<size_t>(s.size(), MPI_MAX_OBJECT_NAME - 1);
  std::memcpy(name, s.data(), n);
  name[n] = '\0';
  if (resultlen) *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}

int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  Call c("MPI_Comm_get_attr");
  require_ptr(flag, "flag", c.name());
  require_ptr(attribute_val, "attribute_val", c.name());
  c->comm(comm, c.name());
  static int tag_ub = simfab::online::kTagUpperBound;
  static int wtime_global = 1;
  static int host = MPI_PROC_NULL;
  static int io = MPI_ANY_SOURCE;
  static int universe = 0;
  static int appnum = 0;
  int* v = nullptr;
  if (keyval == MPI_TAG_UB) v = &tag_ub;
  else if (keyval == MPI_WTIME_IS_GLOBAL) v = &wtime_global;
  else if (keyval == MPI_HOST) v = &host;
  else if (keyval == MPI_IO) v = &io;
  else if (keyval == MPI_APPNUM) v = &appnum;
  else if (keyval == MPI_UNIVERSE_SIZE) {
    universe = c->num_ranks();
    v = &universe;
  }
  *flag = v != nullptr;
  if (v) *static_cast<int**>(attribute_val) = v;
  void* user = nullptr;  // an attribute the program set (abi_attributes.cpp)
  if (!v && AttributeStore::instance().get(c->me(), AttrKind::kComm, comm, keyval, &user)) {
    *flag = 1;
    *static_cast<void**>(attribute_val) = user;
  }
  return MPI_SUCCESS;
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  return MPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}

// ---- groups ----

int MPI_Group_size(MPI_Group group, int* size) {
  Call c("MPI_Group_size");
  *size = c->group(group, c.name()).size();
  return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group group, int* rank) {
  Call c("MPI_Group_rank");
  const int32_t r = c->group(group, c.name()).local_rank(c->me());
  *rank = r == mpi::kUndefined ? MPI_UNDEFINED : r;
  return MPI_SUCCESS;
}

int MPI_Group_incl(MPI_Group group, int n, const int* ranks, MPI_Group* newgroup) {
  Call c("MPI_Group_incl");
  const std::vector<int32_t> v = ranks_of(n, ranks, c.name());
  *newgroup = c->add_group(guarded(c.name(), [&] { return c->group(group, c.name()).incl(v); }));
  return MPI_SUCCESS;
}

int MPI_Group_excl(MPI_Group group, int n, const int* ranks, MPI_Group* newgroup) {
  Call c("MPI_Group_excl");
  const std::vector<int32_t> v = ranks_of(n, ranks, c.name());
  *newgroup = c->add_group(guarded(c.name(), [&] { return c->group(group, c.name()).excl(v); }));
  return MPI_SUCCESS;
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  const std::vector<int> v = range_ranks(n, ranges, "MPI_Group_range_incl");
  return MPI_Group_incl(group, static_cast<int>(v.size()), v.data(), newgroup);
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  const std::vector<int> v = range_ranks(n, ranges, "MPI_Group_range_excl");
  return MPI_Group_excl(group, static_cast<int>(v.size()), v.data(), newgroup);
}

int MPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group* newgroup) {
  Call c("MPI_Group_union");
  *newgroup = c->add_group(mpi::group_union(c->group(a, c.name()), c->group(b, c.name())));
  return MPI_SUCCESS;
}

int MPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group* newgroup) {
  Call c("MPI_Group_intersection");
  *newgroup = c->add_group(mpi::group_intersection(c->group(a, c.name()), c->group(b, c.name())));
  return MPI_SUCCESS;
}

int MPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group* newgroup) {
  Call c("MPI_Group_difference");
  *newgroup = c->add_group(mpi::group_difference(c->group(a, c.name()), c->group(b, c.name())));
  return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group a, MPI_Group b, int* result) {
  Call c("MPI_Group_compare");
  switch (mpi::compare(c->group(a, c.name()), c->group(b, c.name()))) {
    case mpi::Comparison::kIdent: *result = MPI_IDENT; break;
    case mpi::Comparison::kSimilar: *result = MPI_SIMILAR; break;
    default: *result = MPI_UNEQUAL; break;
  }
  return MPI_SUCCESS;
}

int MPI_Group_translate_ranks(MPI_Group a, int n, const int* ranks_a, MPI_Group b, int* ranks_b) {
  Call c("MPI_Group_translate_ranks");
  const std::vector<int32_t> v = ranks_of(n, ranks_a, c.name());
  const std::vector<int32_t> out =
      guarded(c.name(), [&] { return mpi::translate_ranks(c->group(a, c.name()), v, c->group(b, c.name())); });
  for (int i = 0; i < n; ++i) ranks_b[i] = out[static_cast<size_t>(i)] == mpi::kUndefined ? MPI_UNDEFINED : out[static_cast<size_t>(i)];
  return MPI_SUCCESS;
}

int MPI_Group_free(MPI_Group* group) {
  Call c("MPI_Group_free");
  require_ptr(group, "group", c.name());
  c->free_group(group, c.name());
  return MPI_SUCCESS;
}

// ---- Cartesian topologies ----

int MPI_Cart_create(MPI_Comm comm, int ndims, const int* dims, const int* periods, int reorder, MPI_Comm* newcomm) {
  Call c("MPI_Cart_create");
  (void)reorder;  // simfab keeps the ranks in place (allowed by MPI)
  if (ndims < 0) mpi_fatal(c.name(), "ndims " + std::to_string(ndims) + " < 0");
  require_ptr(newcomm, "comm_cart", c.name());
  if (ndims > 0) {
    require_ptr(dims, "dims", c.name());
    require_ptr(periods, "periods", c.name());
  }
  int64_t n = 1;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] <= 0) mpi_fatal(c.name(), "dims[" + std::to_string(d) + "] = " + std::to_string(dims[d]) + " must be > 0");
    n *= dims[d];
  }
  const auto parent = c->comm(comm, c.name());
  if (n > parent.size)
    mpi_fatal(c.name(), "the grid has " + std::to_string(n) + " points but the communicator only " +
                            std::to_string(parent.size) + " ranks");
  *newcomm = c->comm_create(comm, mpi::CreationKind::kSplit, parent.rank < n ? 0 : MPI_UNDEFINED, parent.rank, {}, c.name());
  if (*newcomm != MPI_COMM_NULL)
    c->set_cart(*newcomm, {std::vector<int>(dims, dims + ndims), std::vector<int>(periods, periods + ndims)});
  return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  Call c("MPI_Cartdim_get");
  *ndims = static_cast<int>(c->cart(comm, c.name()).dims.size());
  return MPI_SUCCESS;
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int* dims, int* periods, int* coords) {
  Call c("MPI_Cart_get");
  const auto& cart = c->cart(comm, c.name());
  int rank = c->comm(comm, c.name()).rank;
  const int n = static_cast<int>(cart.dims.size());
  for (int d = n - 1; d >= 0; --d) {
    if (d < maxdims) {
      dims[d] = cart.dims[static_cast<size_t>(d)];
      periods[d] = cart.periods[static_cast<size_t>(d)];
      coords[d] = rank % cart.dims[static_cast<size_t>(d)];
    }
    rank /= cart.dims[static_cast<size_t>(d)];
  }
  return MPI_SUCCESS;
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int* coords) {
  Call c("MPI_Cart_coords");
  const auto& cart = c->cart(comm, c.name());
  const int size = c->comm(comm, c.name()).size;
  if (rank < 0 || rank >= size) mpi_fatal(c.name(), "rank " + std::to_string(rank) + " is not in the grid");
  for (int d = static_cast<int>(cart.dims.size()) - 1; d >= 0; --d) {
    if (d < maxdims) coords[d] = rank % cart.dims[static_cast<size_t>(d)];
    rank /= cart.dims[static_cast<size_t>(d)];
  }
  return MPI_SUCCESS;
}

int MPI_Cart_rank(MPI_Comm comm, const int* coords, int* rank) {
  Call c("MPI_Cart_rank");
  *rank = cart_rank_of(c->cart(comm, c.name()), coords, c.name());
  return MPI_SUCCESS;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  Call c("MPI_Cart_sub");
  require_ptr(remain_dims, "remain_dims", c.name());
  require_ptr(newcomm, "newcomm", c.name());
  const auto cart = c->cart(comm, c.name());  // a copy: creating the new communicator may grow the table
  int rank = c->comm(comm, c.name()).rank;
  // Colour: the coordinates along the dropped dimensions; key: the rank, so the kept dimensions
  // stay in row-major order.
  std::vector<int> coords(cart.dims.size());
  for (size_t d = cart.dims.size(); d-- > 0;) {
    coords[d] = rank % cart.dims[d];
    rank /= cart.dims[d];
  }
  int color = 0;
  simfab::online::OnlineProgram::Cart sub;
  for (size_t d = 0; d < cart.dims.size(); ++d) {
    if (remain_dims[d]) {
      sub.dims.push_back(cart.dims[d]);
      sub.periods.push_back(cart.periods[d]);
    } else {
      color = color * cart.dims[d] + coords[d];
    }
  }
  *newcomm = c->comm_create(comm, mpi::CreationKind::kSplit, color, c->comm(comm, c.name()).rank, {}, c.name());
  if (sub.dims.empty()) {  // MPI: a zero-dimensional grid of one process
    sub.dims.push_back(1);
    sub.periods.push_back(0);
  }
  c->set_cart(*newcomm, sub);
  return MPI_SUCCESS;
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* source, int* dest) {
  Call c("MPI_Cart_shift");
  const auto& cart = c->cart(comm, c.name());
  const int n = static_cast<int>(cart.dims.size());
  if (direction < 0 || direction >= n)
    mpi_fatal(c.name(), "direction " + std::to_string(direction) + " is outside 0.." + std::to_string(n - 1));
  std::vector<int> coords(static_cast<size_t>(n));
  int rank = c->comm(comm, c.name()).rank;
  for (int d = n - 1; d >= 0; --d) {
    coords[static_cast<size_t>(d)] = rank % cart.dims[static_cast<size_t>(d)];
    rank /= cart.dims[static_cast<size_t>(d)];
  }
  auto neighbour = [&](int delta) {
    std::vector<int> x = coords;
    const int dim = cart.dims[static_cast<size_t>(direction)];
    int v = x[static_cast<size_t>(direction)] + delta;
    if (!cart.periods[static_cast<size_t>(direction)] && (v < 0 || v >= dim)) return MPI_PROC_NULL;
    x[static_cast<size_t>(direction)] = ((v % dim) + dim) % dim;
    return cart_rank_of(cart, x.data(), "MPI_Cart_shift");
  };
  *source = neighbour(-disp);
  *dest = neighbour(disp);
  return MPI_SUCCESS;
}

}  // extern "C"
