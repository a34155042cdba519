#include "mpi/coll/reduce_algorithms.hpp"

#include "core/error.hpp"
#include "mpi/coll/pof2_fold.hpp"
#include "mpi/coll/recursive_halving.hpp"
#include "mpi/coll/step.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

void tree_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, TreeSpec spec, uint32_t segments,
                 const ReduceCost& cost) {
  SIMFAB_CHECK(segments >= 1, "reduce: segments must be >= 1");
  TreeNode node;
  tree_node(spec, rank, size, root, node);
  tree_up(f, node, bytes, Segs{0, segments}, cost);
}

}  // namespace

void linear_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, const ReduceCost& cost) {
  tree_reduce(f, rank, size, root, bytes, TreeSpec{TreeShape::kFlat, 1}, 1, cost);
}

void knomial_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, int radix, uint32_t segments,
                    const ReduceCost& cost) {
  tree_reduce(f, rank, size, root, bytes, TreeSpec{TreeShape::kKnomial, radix}, segments, cost);
}

void binary_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, uint32_t segments,
                   const ReduceCost& cost) {
  tree_reduce(f, rank, size, root, bytes, TreeSpec{TreeShape::kKary, 2}, segments, cost);
}

void chain_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, uint32_t segments, int chains,
                  const ReduceCost& cost) {
  tree_reduce(f, rank, size, root, bytes, TreeSpec{TreeShape::kChain, chains}, segments, cost);
}

int rabenseifner_chunks(int size) { return Pof2Fold(size).pof2(); }

void rabenseifner_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, const ReduceCost& cost) {
  SIMFAB_CHECK(rank >= 0 && rank < size && root >= 0 && root < size, "rabenseifner_reduce: rank out of range");
  const Pof2Fold fold(size, FoldKeeps::kEven);
  const auto pof2 = static_cast<uint32_t>(fold.pof2());
  const HalvingChunks chunks{pof2, bytes, 1, 0};
  ChunkRange held;
  After prev = fold_and_halve(f, fold, rank, chunks, MaskOrder::kNearFirst, cost, held);
  // The gather goes to the root's survivor (root - 1 for a root that sat out), which then hands
  // the result to a root that sat out.
  const RankId gather_root = fold.sits_out(root) ? fold.partner(root) : root;
  if (const int v = fold.vrank(rank); v >= 0)
    prev = doubling_gather(f, fold, v, chunks, MaskOrder::kNearFirst, held, fold.vrank(gather_root), prev);
  if (root != gather_root && (rank == root || rank == gather_root))
    fold_out(f, fold, rank, bytes, Segs{0, pof2}, prev);
}

}  // namespace simfab::coll
