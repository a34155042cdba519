// build_ti_collective: which algorithm of mpi/coll/ each TI collective expands to (the table in
// ti_trace.hpp), and with which sizes.
#include "core/error.hpp"
#include "mpi/coll/binomial.hpp"
#include "mpi/coll/dissemination.hpp"
#include "mpi/coll/linear.hpp"
#include "mpi/coll/reduce_scatter.hpp"
#include "mpi/coll/scan_algorithms.hpp"
#include "mpi/coll/registry.hpp"
#include "replay/ti_program.hpp"

namespace simfab {

coll::CollOp ti_coll_op(TiKind kind) {
  switch (kind) {
    case TiKind::kBarrier: return coll::CollOp::kBarrier;
    case TiKind::kBcast: return coll::CollOp::kBcast;
    case TiKind::kReduce: return coll::CollOp::kReduce;
    case TiKind::kAllreduce: return coll::CollOp::kAllreduce;
    case TiKind::kAllgather: return coll::CollOp::kAllgather;
    case TiKind::kAlltoall: return coll::CollOp::kAlltoall;
    case TiKind::kGather: return coll::CollOp::kGather;
    case TiKind::kScatter: return coll::CollOp::kScatter;
    case TiKind::kScan: return coll::CollOp::kScan;
    case TiKind::kExscan: return coll::CollOp::kExscan;
    case TiKind::kAllgatherv: return coll::CollOp::kAllgatherv;
    case TiKind::kGatherv: return coll::CollOp::kGatherv;
    case TiKind::kScatterv: return coll::CollOp::kScatterv;
    case TiKind::kAlltoallv: return coll::CollOp::kAlltoallv;
    case TiKind::kReducescatter: return coll::CollOp::kReduceScatter;
    default: return coll::CollOp::kCount;
  }
}

namespace {

// The configurable collective a TI action is, with its CollCall; kCount when it has none.
// type_size is the action's first datatype (the rank's default when none is given): the
// datatype of `bytes` for every collective here but scatter, whose receive-side bytes2 may use
// a second datatype (no scatter algorithm or rule looks at its element count). The v-variants
// and reduce_scatter pass their per-rank counts (registry.hpp's CollCall::counts).
coll::CollOp configurable(const TiAction& a, RankId r, int p, std::span<const Bytes> counts, coll::CollCall& call) {
  call = coll::CollCall{r, p, 0, a.bytes};
  call.type_size = a.dt_size;
  const auto per_rank = [&](size_t first) {
    SIMFAB_CHECK(counts.size() >= first + static_cast<size_t>(p), "build_ti_collective: counts too short");
    return counts.subspan(first, static_cast<size_t>(p));
  };
  const coll::CollOp op = ti_coll_op(a.kind);
  switch (op) {
    case coll::CollOp::kBcast:
    case coll::CollOp::kReduce:
    case coll::CollOp::kGather: call.root = a.peer; break;
    case coll::CollOp::kScatter: call.root = a.peer; call.bytes = a.bytes2; break;
    case coll::CollOp::kAllgatherv:
    case coll::CollOp::kReduceScatter: call.counts = per_rank(0); break;
    case coll::CollOp::kGatherv: call.root = a.peer; call.counts = per_rank(0); break;
    case coll::CollOp::kScatterv:
      call.root = a.peer;
      call.bytes = a.bytes2;
      call.counts = per_rank(0);
      break;
    case coll::CollOp::kAlltoallv:
      call.counts = per_rank(0);
      call.counts2 = per_rank(static_cast<size_t>(p));
      break;
    default: break;
  }
  return op;
}

}  // namespace

const char* build_ti_collective(coll::Fragment& f, const TiAction& a, RankId r, int num_ranks,
                                std::span<const Bytes> counts, SimTime closing, const coll::CollChoice& choice,
                                bool* smp_ready) {
  const int p = num_ranks;
  coll::CollCall call;
  const coll::CollOp op = configurable(a, r, p, counts, call);
  call.smp_ready = smp_ready;
  if (const coll::CollAlgorithm* chosen = op != coll::CollOp::kCount ? choice.build(op, f, call) : nullptr) {
    f.close(closing);
    return chosen->name;
  }
  const auto per_rank = [&](size_t first) {
    SIMFAB_CHECK(counts.size() >= first + static_cast<size_t>(p), "build_ti_collective: counts too short");
    return counts.subspan(first, static_cast<size_t>(p));
  };
  const char* algorithm = "";  // Schedgen's patterns (ti_trace.hpp's table)
  switch (a.kind) {
    case TiKind::kBarrier: coll::dissemination(f, r, p, 1); algorithm = "dissemination"; break;
    case TiKind::kBcast: coll::binomial_bcast(f, r, p, a.peer, a.bytes); algorithm = "binomial"; break;
    case TiKind::kReduce: coll::binomial_reduce(f, r, p, a.peer, a.bytes); algorithm = "binomial"; break;
    case TiKind::kAllreduce: coll::dissemination(f, r, p, a.bytes); algorithm = "dissemination"; break;
    case TiKind::kAlltoall: coll::linear_alltoall(f, r, p, a.bytes, a.bytes2); algorithm = "linear"; break;
    case TiKind::kAlltoallv: coll::linear_alltoallv(f, r, p, per_rank(0), per_rank(static_cast<size_t>(p))); algorithm = "linear"; break;
    case TiKind::kGather: coll::linear_gather(f, r, p, a.peer, a.bytes, a.bytes2); algorithm = "linear"; break;
    case TiKind::kGatherv: coll::linear_gatherv(f, r, p, a.peer, a.bytes, per_rank(0)); algorithm = "linear"; break;
    case TiKind::kAllgather: coll::dissemination(f, r, p, a.bytes); algorithm = "dissemination"; break;
    case TiKind::kAllgatherv: coll::linear_allgatherv(f, r, p, a.bytes, per_rank(0)); algorithm = "linear"; break;
    case TiKind::kScatter: coll::linear_scatter(f, r, p, a.peer, a.bytes, a.bytes2); algorithm = "linear"; break;
    case TiKind::kScatterv: coll::linear_scatterv(f, r, p, a.peer, per_rank(0), a.bytes2); algorithm = "linear"; break;
    case TiKind::kReducescatter: coll::reduce_scatter_reduce_then_scatterv(f, r, p, per_rank(0), a.bytes); algorithm = "reduce_then_scatterv"; break;
    case TiKind::kScan: coll::scan_recursive_doubling(f, r, p, a.bytes, {}); algorithm = "recursive_doubling"; break;
    case TiKind::kExscan: coll::exscan_recursive_doubling(f, r, p, a.bytes, {}); algorithm = "recursive_doubling"; break;
    default: SIMFAB_CHECK(false, "build_ti_collective: not a collective action");
  }
  f.close(closing);
  return algorithm;
}

CollSignature ti_coll_signature(const TiAction& a, RankId local, std::span<const Bytes> counts) {
  CollSignature sig;
  sig.name = a.nonblocking ? ti_nonblocking_name(a.kind) : ti_action_name(a.kind);
  const bool root = local == a.peer;
  switch (a.kind) {
    case TiKind::kBcast:
    case TiKind::kReduce:
      sig.root = a.peer;
      sig.bytes = a.bytes;
      break;
    case TiKind::kAllreduce:
    case TiKind::kScan:
    case TiKind::kExscan: sig.bytes = a.bytes; break;
    case TiKind::kAllgather:
    case TiKind::kAlltoall: sig.bytes2 = a.bytes2; break;  // the send side may be MPI_IN_PLACE
    case TiKind::kGather:  // every sender's size = the size the root receives from each
      sig.root = a.peer;
      sig.bytes = root ? a.bytes2 : a.bytes;
      break;
    case TiKind::kScatter:  // every receiver's size = the size the root sends to each
      sig.root = a.peer;
      sig.bytes2 = root ? a.bytes : a.bytes2;
      break;
    case TiKind::kGatherv:
      sig.root = a.peer;
      if (root) sig.counts = counts;
      else sig.own = a.bytes;
      break;
    case TiKind::kScatterv:
      sig.root = a.peer;
      if (root) sig.counts = counts;
      else sig.own = a.bytes2;
      break;
    case TiKind::kAllgatherv:
    case TiKind::kReducescatter: sig.counts = counts; break;
    default: break;  // barrier; alltoallv (see coll_match.hpp)
  }
  return sig;
}

}  // namespace simfab
