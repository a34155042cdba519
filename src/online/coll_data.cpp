#include "online/coll_data.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "online/datatype.hpp"
#include "online/mpi_fatal.hpp"
#include "online/reduce_op.hpp"

namespace simfab::online {

namespace {

using Block = std::vector<std::byte>;
using coll::CollOp;

bool in_place(const void* p) { return p == MPI_IN_PLACE; }

const std::byte* at(const void* base, int64_t elements, MPI_Datatype t, const char* call) {
  return static_cast<const std::byte*>(base) + elements * type_extent(t, call);
}
std::byte* at(void* base, int64_t elements, MPI_Datatype t, const char* call) {
  return static_cast<std::byte*>(base) + elements * type_extent(t, call);
}

Block packed(const void* buf, int64_t count, MPI_Datatype t, const char* call) {
  Block b(static_cast<size_t>(count * type_size(t, call)));
  if (count > 0) pack(buf, count, t, b.data());
  return b;
}

void unpacked(const Block& b, void* buf, int64_t count, MPI_Datatype t, const char* call) {
  const int64_t size = type_size(t, call);
  const int64_t n = size == 0 ? 0 : std::min<int64_t>(count, static_cast<int64_t>(b.size()) / size);
  if (static_cast<int64_t>(b.size()) > count * size)
    mpi_fatal(call, "message truncated: " + std::to_string(b.size()) + " B arrive into a buffer of " +
                        std::to_string(count * size) + " B (MPI_ERR_TRUNCATE)");
  if (n > 0) unpack(b.data(), n, t, buf);
}

bool reduction(CollOp op) {
  return op == CollOp::kReduce || op == CollOp::kAllreduce || op == CollOp::kScan || op == CollOp::kExscan ||
         op == CollOp::kReduceScatter;
}

int64_t sum(const int* v, int n) {
  int64_t s = 0;
  for (int i = 0; i < n; ++i) s += v[i];
  return s;
}

// The element count a reduction's members contribute (reduce_scatter: the sum of the blocks).
int64_t reduce_count(const CollArgs& a, int size) {
  if (a.op != CollOp::kReduceScatter) return a.scount;
  return a.block ? a.rcount * size : sum(a.rcounts, size);
}

}  // namespace

CollInstance::CollInstance(const CollArgs& first, int size, uint8_t choice)
    : op_(first.op), root_(first.root), mop_(first.mop), size_(size), first_call_(first.call),
      inputs_(static_cast<size_t>(size)), deposited_(static_cast<size_t>(size), 0), choice_(choice) {}

void CollInstance::deposit(const CollArgs& a, int local) {
  if (a.op != op_ || std::string(a.call) != first_call_)
    mpi_fatal(a.call, "the members of the communicator disagree: another member called " + first_call_ +
                          " as the same collective (collectives must be called in the same order by all members)");
  const bool rooted = op_ == CollOp::kBcast || op_ == CollOp::kReduce || op_ == CollOp::kGather ||
                      op_ == CollOp::kGatherv || op_ == CollOp::kScatter || op_ == CollOp::kScatterv;
  if (rooted && a.root != root_)
    mpi_fatal(a.call, "root " + std::to_string(a.root) + " differs from another member's root " + std::to_string(root_));
  // Built-in operations must agree; user operations are per-rank handles (each rank's
  // MPI_Op_create, in its own copy of the program), so only their kind is compared.
  const bool builtin = a.mop > MPI_OP_NULL && a.mop <= MPI_NO_OP, first_builtin = mop_ > MPI_OP_NULL && mop_ <= MPI_NO_OP;
  if (reduction(op_) && (builtin || first_builtin) && a.mop != mop_)
    mpi_fatal(a.call, "the members pass different reduction operations");
  auto& in = inputs_[static_cast<size_t>(local)];
  const char* call = a.call;
  switch (op_) {
    case CollOp::kBarrier: break;
    case CollOp::kBcast:
      if (local == root_) in.push_back(packed(a.rbuf, a.rcount, a.rtype, call));
      break;
    case CollOp::kReduce:
    case CollOp::kAllreduce:
    case CollOp::kScan:
    case CollOp::kExscan:
    case CollOp::kReduceScatter: {
      const int64_t n = reduce_count(a, size_);
      in.push_back(packed(in_place(a.sbuf) ? a.rbuf : a.sbuf, n, a.stype, call));
      deposited_[static_cast<size_t>(local)] = 1;
      fold(a);
      break;
    }
    case CollOp::kGather:
    case CollOp::kAllgather:
      if (in_place(a.sbuf)) in.push_back(packed(at(a.rbuf, local * a.rcount, a.rtype, call), a.rcount, a.rtype, call));
      else in.push_back(packed(a.sbuf, a.scount, a.stype, call));
      break;
    case CollOp::kGatherv:
    case CollOp::kAllgatherv:
      if (in_place(a.sbuf))
        in.push_back(packed(at(a.rbuf, a.rdispls[local], a.rtype, call), a.rcounts[local], a.rtype, call));
      else in.push_back(packed(a.sbuf, a.scount, a.stype, call));
      break;
    case CollOp::kScatter:
      if (local == root_)
        for (int j = 0; j < size_; ++j) in.push_back(packed(at(a.sbuf, j * a.scount, a.stype, call), a.scount, a.stype, call));
      break;
    case CollOp::kScatterv:
      if (local == root_)
        for (int j = 0; j < size_; ++j)
          in.push_back(packed(at(a.sbuf, a.sdispls[j], a.stype, call), a.scounts[j], a.stype, call));
      break;
    case CollOp::kAlltoall:
      for (int j = 0; j < size_; ++j)
        in.push_back(in_place(a.sbuf) ? packed(at(a.rbuf, j * a.rcount, a.rtype, call), a.rcount, a.rtype, call)
                                      : packed(at(a.sbuf, j * a.scount, a.stype, call), a.scount, a.stype, call));
      break;
    case CollOp::kAlltoallv:
      for (int j = 0; j < size_; ++j)
        in.push_back(in_place(a.sbuf)
                         ? packed(at(a.rbuf, a.rdispls[j], a.rtype, call), a.rcounts[j], a.rtype, call)
                         : packed(at(a.sbuf, a.sdispls[j], a.stype, call), a.scounts[j], a.stype, call));
      break;
    case CollOp::kCount: SIMFAB_CHECK(false, "CollInstance: not a collective");
  }
  deposited_[static_cast<size_t>(local)] = 1;
}

const std::vector<std::byte>& CollInstance::input(int member, size_t block, const char* call) const {
  const auto& in = inputs_[static_cast<size_t>(member)];
  SIMFAB_CHECK(deposited_[static_cast<size_t>(member)] && block < in.size(),
               std::string(call) + ": a member finished before the input of member " + std::to_string(member) +
                   " it depends on was deposited (collective algorithm causality)");
  return in[block];
}

void CollInstance::fold(const CollArgs& a) {
  // acc_ = x_0 op x_1 op ... op x_{folded_-1}, extended as soon as the next member in rank
  // order has deposited (MPI operations are associative, so this is MPI's canonical order); its
  // input is dropped once folded. P members cost O(P n) time in all, and memory only for the
  // inputs that arrived ahead of a missing lower rank (plus, for scans, the prefixes not yet
  // delivered).
  const int64_t n = reduce_count(a, size_);
  const bool scan = op_ == CollOp::kScan || op_ == CollOp::kExscan;
  while (folded_ < size_ && deposited_[static_cast<size_t>(folded_)]) {
    Block x = std::move(inputs_[static_cast<size_t>(folded_)][0]);
    inputs_[static_cast<size_t>(folded_)].clear();
    // With the depositing member's own handles (a user operation runs in that rank's copy).
    if (folded_ > 0) reduce_packed(a.mop, acc_.data(), x.data(), n, a.stype, a.call);  // x = acc op x_j
    acc_ = std::move(x);
    if (scan) prefix_.push_back(acc_);
    ++folded_;
  }
}

const std::vector<std::byte>& CollInstance::prefix(int k, const CollArgs& a) {
  SIMFAB_CHECK(k < folded_, std::string(a.call) + ": a member finished before the inputs of members 0.." +
                                std::to_string(k) + " it depends on were deposited (collective algorithm causality)");
  if (op_ == CollOp::kScan || op_ == CollOp::kExscan) return prefix_[static_cast<size_t>(k)];
  SIMFAB_CHECK(k == size_ - 1, "CollInstance::prefix: only scans keep partial reductions");
  return acc_;
}

bool CollInstance::ready(int local) const {
  const auto all = [&] { return std::all_of(deposited_.begin(), deposited_.end(), [](uint8_t d) { return d != 0; }); };
  switch (op_) {
    case CollOp::kBarrier: return true;
    case CollOp::kBcast:
    case CollOp::kScatter:
    case CollOp::kScatterv: return local == root_ || deposited_[static_cast<size_t>(root_)];
    case CollOp::kReduce: return local != root_ || folded_ == size_;
    case CollOp::kAllreduce:
    case CollOp::kReduceScatter: return folded_ == size_;
    case CollOp::kScan: return folded_ > local;
    case CollOp::kExscan: return folded_ >= local;
    case CollOp::kGather:
    case CollOp::kGatherv: return local != root_ || all();
    case CollOp::kAllgather:
    case CollOp::kAllgatherv:
    case CollOp::kAlltoall:
    case CollOp::kAlltoallv: return all();
    case CollOp::kCount: break;
  }
  return true;
}

bool CollInstance::outputs(const CollArgs& a, int local) {
  const char* call = a.call;
  switch (op_) {
    case CollOp::kBarrier: break;
    case CollOp::kBcast:
      if (local != root_) unpacked(input(root_, 0, call), a.rbuf, a.rcount, a.rtype, call);
      break;
    case CollOp::kReduce:
      if (local == root_) unpacked(prefix(size_ - 1, a), a.rbuf, a.scount, a.stype, call);
      break;
    case CollOp::kAllreduce: unpacked(prefix(size_ - 1, a), a.rbuf, a.scount, a.stype, call); break;
    case CollOp::kScan:
      unpacked(prefix(local, a), a.rbuf, a.scount, a.stype, call);
      prefix_[static_cast<size_t>(local)] = Block{};  // delivered
      break;
    case CollOp::kExscan:
      if (local > 0) {
        unpacked(prefix(local - 1, a), a.rbuf, a.scount, a.stype, call);
        prefix_[static_cast<size_t>(local - 1)] = Block{};  // delivered
      }
      break;
    case CollOp::kReduceScatter: {
      const Block& all = prefix(size_ - 1, a);
      const int64_t es = type_size(a.stype, call);
      const int64_t first = a.block ? local * a.rcount : sum(a.rcounts, local);
      const int64_t mine = a.block ? a.rcount : a.rcounts[local];
      Block part(all.begin() + first * es, all.begin() + (first + mine) * es);
      unpacked(part, a.rbuf, mine, a.stype, call);
      break;
    }
    case CollOp::kGather:
      if (local == root_)
        for (int j = 0; j < size_; ++j)
          if (j != root_ || !in_place(a.sbuf)) unpacked(input(j, 0, call), at(a.rbuf, j * a.rcount, a.rtype, call), a.rcount, a.rtype, call);
      break;
    case CollOp::kAllgather:
      for (int j = 0; j < size_; ++j)
        if (j != local || !in_place(a.sbuf)) unpacked(input(j, 0, call), at(a.rbuf, j * a.rcount, a.rtype, call), a.rcount, a.rtype, call);
      break;
    case CollOp::kGatherv:
      if (local == root_)
        for (int j = 0; j < size_; ++j)
          if (j != root_ || !in_place(a.sbuf))
            unpacked(input(j, 0, call), at(a.rbuf, a.rdispls[j], a.rtype, call), a.rcounts[j], a.rtype, call);
      break;
    case CollOp::kAllgatherv:
      for (int j = 0; j < size_; ++j)
        if (j != local || !in_place(a.sbuf))
          unpacked(input(j, 0, call), at(a.rbuf, a.rdispls[j], a.rtype, call), a.rcounts[j], a.rtype, call);
      break;
    case CollOp::kScatter:
    case CollOp::kScatterv:
      if (local != root_ || !in_place(a.rbuf))
        unpacked(input(root_, static_cast<size_t>(local), call), a.rbuf, a.rcount, a.rtype, call);
      break;
    case CollOp::kAlltoall:
      for (int j = 0; j < size_; ++j)
        unpacked(input(j, static_cast<size_t>(local), call), at(a.rbuf, j * a.rcount, a.rtype, call), a.rcount, a.rtype, call);
      break;
    case CollOp::kAlltoallv:
      for (int j = 0; j < size_; ++j)
        unpacked(input(j, static_cast<size_t>(local), call), at(a.rbuf, a.rdispls[j], a.rtype, call), a.rcounts[j],
                 a.rtype, call);
      break;
    case CollOp::kCount: SIMFAB_CHECK(false, "CollInstance: not a collective");
  }
  return ++left_ == size_;
}

TiAction timing_action(const CollArgs& a, int local, int size, bool nonblocking, std::vector<Bytes>& counts) {
  TiAction t;
  t.nonblocking = nonblocking;
  t.peer = a.root;
  const char* call = a.call;
  const auto bytes = [&](int64_t n, MPI_Datatype ty) { return static_cast<Bytes>(n * type_size(ty, call)); };
  const MPI_Datatype st = in_place(a.sbuf) && a.rtype != MPI_DATATYPE_NULL ? a.rtype : a.stype;
  counts.clear();
  const auto per_rank = [&](const int* v, MPI_Datatype ty) {
    for (int j = 0; j < size; ++j) counts.push_back(bytes(v[j], ty));
  };
  switch (a.op) {
    case CollOp::kBarrier: t.kind = TiKind::kBarrier; break;
    case CollOp::kBcast:
      t.kind = TiKind::kBcast;
      t.bytes = bytes(a.rcount, a.rtype);
      t.dt_size = static_cast<Bytes>(type_size(a.rtype, call));
      break;
    case CollOp::kReduce:
    case CollOp::kAllreduce:
    case CollOp::kScan:
    case CollOp::kExscan:
      t.kind = a.op == CollOp::kReduce      ? TiKind::kReduce
               : a.op == CollOp::kAllreduce ? TiKind::kAllreduce
               : a.op == CollOp::kScan      ? TiKind::kScan
                                            : TiKind::kExscan;
      t.bytes = bytes(a.scount, a.stype);
      t.dt_size = static_cast<Bytes>(type_size(a.stype, call));
      break;
    case CollOp::kReduceScatter:
      t.kind = TiKind::kReducescatter;
      for (int j = 0; j < size; ++j) counts.push_back(bytes(a.block ? a.rcount : a.rcounts[j], a.stype));
      for (Bytes b : counts) t.bytes += b;
      t.dt_size = static_cast<Bytes>(type_size(a.stype, call));
      break;
    case CollOp::kGather:
    case CollOp::kAllgather:
    case CollOp::kAlltoall:
      t.kind = a.op == CollOp::kGather ? TiKind::kGather : a.op == CollOp::kAllgather ? TiKind::kAllgather : TiKind::kAlltoall;
      t.bytes = in_place(a.sbuf) ? bytes(a.rcount, a.rtype) : bytes(a.scount, a.stype);
      t.bytes2 = a.op == CollOp::kGather && local != a.root ? t.bytes : bytes(a.rcount, a.rtype);
      t.dt_size = static_cast<Bytes>(type_size(st, call));
      break;
    case CollOp::kScatter:
      t.kind = TiKind::kScatter;
      t.bytes = local == a.root ? bytes(a.scount, a.stype) : bytes(a.rcount, a.rtype);
      t.bytes2 = in_place(a.rbuf) ? t.bytes : bytes(a.rcount, a.rtype);
      t.dt_size = static_cast<Bytes>(type_size(local == a.root ? a.stype : a.rtype, call));
      break;
    case CollOp::kGatherv:
    case CollOp::kAllgatherv:
      t.kind = a.op == CollOp::kGatherv ? TiKind::kGatherv : TiKind::kAllgatherv;
      t.bytes = in_place(a.sbuf) ? bytes(a.rcounts[local], a.rtype) : bytes(a.scount, a.stype);
      t.dt_size = static_cast<Bytes>(type_size(st, call));
      if (a.op == CollOp::kAllgatherv || local == a.root) per_rank(a.rcounts, a.rtype);
      else counts.assign(static_cast<size_t>(size), t.bytes);  // only the root knows them; senders send theirs
      break;
    case CollOp::kScatterv:
      t.kind = TiKind::kScatterv;
      t.bytes2 = bytes(a.rcount, a.rtype);
      t.dt_size = static_cast<Bytes>(type_size(local == a.root ? a.stype : a.rtype, call));
      if (local == a.root) per_rank(a.scounts, a.stype);
      else counts.assign(static_cast<size_t>(size), t.bytes2);
      break;
    case CollOp::kAlltoallv:
      t.kind = TiKind::kAlltoallv;
      t.dt_size = static_cast<Bytes>(type_size(st, call));
      if (in_place(a.sbuf)) per_rank(a.rcounts, a.rtype);
      else per_rank(a.scounts, a.stype);
      per_rank(a.rcounts, a.rtype);
      break;
    case CollOp::kCount: SIMFAB_CHECK(false, "timing_action: not a collective");
  }
  if (t.dt_size == 0) t.dt_size = 1;
  return t;
}

}  // namespace simfab::online
