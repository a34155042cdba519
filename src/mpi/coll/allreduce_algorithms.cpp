#include "mpi/coll/allreduce_algorithms.hpp"

#include "core/error.hpp"
#include "mpi/coll/binomial.hpp"
#include "mpi/coll/pof2_fold.hpp"
#include "mpi/coll/recursive_halving.hpp"
#include "mpi/coll/ring_passes.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

namespace {

void check(RankId rank, int size) {
  SIMFAB_CHECK(size >= 1 && rank >= 0 && rank < size, "allreduce: rank out of range");
}

}  // namespace

uint32_t allreduce_rabenseifner_segments(int size) { return static_cast<uint32_t>(Pof2Fold(size).pof2()); }
uint32_t allreduce_ring_segments(int size, uint32_t segments) { return static_cast<uint32_t>(size) * segments; }

void allreduce_recursive_doubling(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost) {
  check(rank, size);
  const Pof2Fold fold(size);
  const Segs all{0, 1};
  After prev = fold_in(f, fold, rank, bytes, all, cost);
  if (const int v = fold.vrank(rank); v >= 0) {
    for (int mask = 1; mask < fold.pof2(); mask <<= 1) {
      const Side peer{fold.rank_of(v ^ mask), bytes, all};
      prev = sendrecv_step(f, prev, peer, peer, Combine::kReduce, cost);
    }
  }
  fold_out(f, fold, rank, bytes, all, prev);
}

void allreduce_rabenseifner(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost) {
  check(rank, size);
  const Pof2Fold fold(size);
  const auto pof2 = static_cast<uint32_t>(fold.pof2());
  const HalvingChunks chunks{pof2, bytes, 1, 0};
  ChunkRange held;
  After prev = fold_and_halve(f, fold, rank, chunks, MaskOrder::kNearFirst, cost, held);
  if (const int v = fold.vrank(rank); v >= 0)
    prev = doubling_allgather(f, fold, v, chunks, MaskOrder::kNearFirst, held, prev);
  fold_out(f, fold, rank, bytes, Segs{0, pof2}, prev);
}

void allreduce_ring(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost) {
  allreduce_ring_segmented(f, rank, size, bytes, cost, 1);
}

void allreduce_ring_segmented(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost,
                              uint32_t segments) {
  check(rank, size);
  SIMFAB_CHECK(segments >= 1, "allreduce_ring_segmented: segments must be >= 1");
  const RingBlocks blocks{bytes, static_cast<uint32_t>(size), segments, segments};
  After prev;
  for (uint32_t ph = 0; ph < segments; ++ph) prev = ring_reduce_scatter_pass(f, rank, size, blocks, ph, rank, cost, prev);
  ring_allgather_pass(f, rank, size, blocks, rank + 1, prev);
}

void allreduce_reduce_bcast(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost) {
  check(rank, size);
  const Segs all{0, 1};
  const uint32_t begin = f.size();
  binomial_reduce(f, rank, size, 0, bytes, all);
  const uint32_t reduce_end = f.size();
  // binomial_reduce charges no reduction: add one calc per receive, before the send to the parent.
  uint32_t send = kNoOp;
  for (uint32_t i = begin; i < reduce_end; ++i)
    if (f.op(i).kind == OpKind::kSend) send = i;
  for (uint32_t i = begin; i < reduce_end; ++i) {
    if (f.op(i).kind != OpKind::kRecv) continue;
    const uint32_t reduced = reduce_after(f, i, bytes, cost);
    if (reduced != i && send != kNoOp) f.require(send, reduced);
  }
  const uint32_t bcast_begin = f.size();
  binomial_bcast(f, rank, size, 0, bytes, all);
  // end_ops() returns a view of a scratch buffer that require() does not touch.
  std::span<const uint32_t> ends = f.end_ops(begin, bcast_begin);
  for (uint32_t op = bcast_begin; op < f.size(); ++op)
    for (uint32_t e : ends) f.require(op, e);
}

}  // namespace simfab::coll
