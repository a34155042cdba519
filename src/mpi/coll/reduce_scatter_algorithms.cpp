#include "mpi/coll/reduce_scatter_algorithms.hpp"

#include "core/error.hpp"
#include "mpi/coll/pof2_fold.hpp"
#include "mpi/coll/recursive_halving.hpp"
#include "mpi/coll/ring_passes.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

namespace {

void check(RankId rank, int size) {
  SIMFAB_CHECK(size >= 1 && rank >= 0 && rank < size, "reduce_scatter: rank out of range");
}

Segs block_segs(RankId b) { return Segs{static_cast<uint32_t>(b), 1}; }

}  // namespace

void reduce_scatter_recursive_halving(Fragment& f, RankId rank, int size, Bytes block, const ReduceCost& cost) {
  check(rank, size);
  const Pof2Fold fold(size);
  const auto p = static_cast<uint32_t>(size);
  const Bytes total = block * p;
  ChunkRange held;
  const After prev = fold_and_halve(f, fold, rank, HalvingChunks{p, total, 1, static_cast<uint32_t>(fold.rem())},
                                    MaskOrder::kFarFirst, cost, held);
  if (fold.folded(rank)) {
    const RankId sitter = fold.sits_out(rank) ? rank : fold.partner(rank);
    fold_out(f, fold, rank, block, block_segs(sitter), prev);
  }
}

void reduce_scatter_ring(Fragment& f, RankId rank, int size, Bytes block, const ReduceCost& cost) {
  check(rank, size);
  const auto p = static_cast<uint32_t>(size);
  ring_reduce_scatter_pass(f, rank, size, RingBlocks{block * p, p, 1, 1}, 0, rank - 1, cost, After{});
}

void reduce_scatter_pairwise(Fragment& f, RankId rank, int size, Bytes block, const ReduceCost& cost) {
  check(rank, size);
  After prev;
  for (int i = 1; i < size; ++i) {
    const RankId dst = (rank + i) % size, src = (rank - i + size) % size;
    prev = sendrecv_step(f, prev, Side{dst, block, block_segs(dst)}, Side{src, block, block_segs(rank)},
                         Combine::kReduce, cost);
  }
}

}  // namespace simfab::coll
