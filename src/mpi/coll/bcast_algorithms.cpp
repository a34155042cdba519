#include "mpi/coll/bcast_algorithms.hpp"

#include "core/error.hpp"
#include "mpi/coll/gather_scatter_algorithms.hpp"
#include "mpi/coll/split.hpp"
#include "mpi/coll/step.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

void tree_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, TreeSpec spec, uint32_t segments) {
  SIMFAB_CHECK(segments >= 1, "bcast: segments must be >= 1");
  TreeNode node;
  tree_node(spec, rank, size, root, node);
  tree_down(f, node, bytes, Segs{0, segments});
}

}  // namespace

void linear_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes) {
  tree_bcast(f, rank, size, root, bytes, TreeSpec{TreeShape::kFlat, 1}, 1);
}

void knomial_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, int radix, uint32_t segments) {
  tree_bcast(f, rank, size, root, bytes, TreeSpec{TreeShape::kKnomial, radix}, segments);
}

void binary_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, uint32_t segments) {
  tree_bcast(f, rank, size, root, bytes, TreeSpec{TreeShape::kKary, 2}, segments);
}

void chain_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, uint32_t segments, int chains) {
  tree_bcast(f, rank, size, root, bytes, TreeSpec{TreeShape::kChain, chains}, segments);
}

void split_binary_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, uint32_t segments) {
  SIMFAB_CHECK(segments >= 1, "split_binary_bcast: segments must be >= 1");
  TreeNode node;
  tree_node(TreeSpec{TreeShape::kKary, 2}, rank, size, root, node);
  const RankId v = vrank_of(rank, root, size);
  // Half h: segments [h*S, h*S + S), share(bytes, 2, h) bytes. Odd vranks hold half 0.
  const auto half = [&](RankId vr) { return static_cast<uint32_t>(vr % 2 == 1 ? 0 : 1); };
  const auto segs = [&](uint32_t h) { return Segs{h * segments, segments}; };
  const auto half_bytes = [&](uint32_t h) { return share(bytes, 2, h); };
  if (v == 0) {
    for (RankId c : node.children) {  // each subtree gets its own half
      const uint32_t h = half(vrank_of(c, root, size));
      tree_down(f, TreeNode{-1, {c}}, half_bytes(h), segs(h));
    }
  } else {
    tree_down(f, node, half_bytes(half(v)), segs(half(v)));
  }
  const uint32_t exchange = f.size();
  const RankId last = size - 1;
  if (size % 2 == 0 && v == 0 && size > 1) {
    f.send(rank_of_vrank(last, root, size), half_bytes(1), segs(1));
  } else if (size % 2 == 0 && v == last && v > 0) {
    f.recv(root, half_bytes(1), segs(1));
  } else if (v > 0) {
    const RankId pair = rank_of_vrank(v % 2 == 1 ? v + 1 : v - 1, root, size);
    f.send(pair, half_bytes(half(v)), segs(half(v)));
    f.recv(pair, half_bytes(1 - half(v)), segs(1 - half(v)));
  }
  then_after(f, 0, exchange);
}

void scatter_allgather_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes) {
  binomial_blocks(f, rank, size, root, bytes, BlockFlow::kScatter, BlockNaming::kChunks);
  const uint32_t ring = f.size();
  const int64_t p = size, v = vrank_of(rank, root, size);
  const RankId right = rank_of_vrank(static_cast<RankId>((v + 1) % p), root, size);
  const RankId left = rank_of_vrank(static_cast<RankId>((v - 1 + p) % p), root, size);
  // One MPIC_Sendrecv per step (step.hpp's edges): both halves of step i follow both of step i-1,
  // which orders the sends to `right` and the receives from `left` as MPI's matching needs.
  After prev;
  for (int64_t i = 0; i + 1 < p; ++i) {
    const auto out = static_cast<uint32_t>((v - i + p) % p), in = static_cast<uint32_t>((v - i - 1 + 2 * p) % p);
    prev = sendrecv_step(f, prev, Side{right, share(bytes, static_cast<uint32_t>(p), out), Segs{out, 1}},
                         Side{left, share(bytes, static_cast<uint32_t>(p), in), Segs{in, 1}}, Combine::kReplace,
                         ReduceCost{});
  }
  then_after(f, 0, ring);
}

}  // namespace simfab::coll
