#include "mpi/coll/smpi_reduce.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "mpi/coll/split.hpp"
#include "mpi/coll/step.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

constexpr Bytes K = 1024;

void check(const CollCall& c) {
  SIMFAB_CHECK(c.rank >= 0 && c.rank < c.size && c.root >= 0 && c.root < c.size, "smpi ompi reduce: rank out of range");
}

// Open MPI's in-order binary tree (ompi_coll_tuned_topo_build_in_order_bintree) on real ranks:
// a subtree of the n ranks [delta, delta + n) is rooted at its last rank; its right subtree is its
// n/2 lowest ranks, its left subtree the ranks between them and the root (left child: the rank
// just below the root; right child: the right subtree's last rank). Children: left first.
TreeNode in_order_bintree(RankId rank, int size) {
  TreeNode node;
  int n = size, parent = size - 1, delta = 0;
  RankId me = rank;
  for (;;) {
    const int right = n >> 1;
    const int lchild = n - 1 > 0 ? parent - 1 : -1, rchild = lchild > 0 ? right - 1 : -1;
    if (me == parent) {
      if (lchild >= 0) node.children.push_back(lchild + delta);
      if (rchild >= 0) node.children.push_back(rchild + delta);
      return node;
    }
    if (me > rchild) {  // the left subtree: the ranks above the right one
      if (me == lchild) node.parent = parent + delta;
      n -= right + 1;
      delta += right;
      me -= right;
      parent = n - 1;
    } else {  // the right subtree: the `right` lowest ranks
      if (me == rchild) node.parent = parent + delta;
      n = right;
      parent = rchild;
    }
  }
}

TreeNode tree_of(SmpiReduceTree tree, const CollCall& c) {
  if (tree == SmpiReduceTree::kInOrderBinary) return in_order_bintree(c.rank, c.size);
  TreeSpec spec{TreeShape::kKnomial, 2};
  if (tree == SmpiReduceTree::kChain) spec = TreeSpec{TreeShape::kChain, std::max(1, c.size / 2)};
  if (tree == SmpiReduceTree::kPipeline) spec = TreeSpec{TreeShape::kChain, 1};
  if (tree == SmpiReduceTree::kBinary) spec = TreeSpec{TreeShape::kKary, 2};
  TreeNode node;
  tree_node(spec, c.rank, c.size, c.root, node);
  if (tree == SmpiReduceTree::kBinomial) std::reverse(node.children.begin(), node.children.end());  // nearest first
  return node;
}

// The step boundary of a blocking walk: `prev` (what ended the previous step) and op `also`
// (kNoOp: nothing) have both completed; one zero-time calc joins them when both exist.
After join(Fragment& f, After prev, uint32_t also) {
  if (also == kNoOp) return prev;
  if (prev.a == kNoOp) return After{also};
  const uint32_t j = f.calc(SimTime::zero());
  require_after(f, j, prev);
  f.require(j, also);
  return After{j};
}

}  // namespace

Bytes smpi_ompi_reduce_segsize(SmpiReduceTree tree, int size, Bytes bytes, Bytes type_size) {
  const double p = size, m = static_cast<double>(bytes);
  const Bytes count = bytes / std::max<Bytes>(1, type_size);
  switch (tree) {
    case SmpiReduceTree::kChain: return 64 * K;
    case SmpiReduceTree::kBinary: return 32 * K;
    case SmpiReduceTree::kPipeline:
      if (p > 0.0410 / 1024.0 * m + 9.7128) return 1 * K;
      if (p > 0.0033 / 1024.0 * m + 1.6761) return 32 * K;
      return 64 * K;
    case SmpiReduceTree::kInOrderBinary: return 0;
    case SmpiReduceTree::kBinomial:
      if ((size < 8 && bytes < 20480) || bytes < 2048 || count <= 1) return 0;
      return p > 0.6016 / 1024.0 * m + 1.3496 ? 1 * K : 0;
  }
  return 0;
}

uint32_t smpi_ompi_reduce_segments(SmpiReduceTree tree, const CollCall& c) {
  const Bytes ts = std::max<Bytes>(1, c.type_size), count = c.elements();
  const Bytes segcount = computed_segcount(smpi_ompi_reduce_segsize(tree, c.size, c.bytes, ts), ts, count);
  if (count == 0 || segcount == 0) return 1;
  return static_cast<uint32_t>((count + segcount - 1) / segcount);
}

void smpi_ompi_in_order_binary_reduce(Fragment& f, const CollCall& c) {
  check(c);
  const RankId io_root = c.size - 1;
  const uint32_t begin = f.size();
  smpi_ompi_tree_reduce(f, c, SmpiReduceTree::kInOrderBinary);
  if (io_root == c.root) return;
  const uint32_t fix = f.size();  // the result moves from P-1 to the root (blocking)
  if (c.rank == io_root) f.send(c.root, c.bytes, Segs{0, 1});
  else if (c.rank == c.root) f.recv(io_root, c.bytes, Segs{0, 1});
  then_after(f, begin, fix);
}

void smpi_ompi_tree_reduce(Fragment& f, const CollCall& c, SmpiReduceTree tree) {
  check(c);
  const TreeNode node = tree_of(tree, c);
  const uint32_t n_seg = smpi_ompi_reduce_segments(tree, c);
  const Bytes ts = std::max<Bytes>(1, c.type_size);
  const Bytes full = computed_segcount(smpi_ompi_reduce_segsize(tree, c.size, c.bytes, ts), ts, c.elements()) * ts;
  const auto seg = [&](uint32_t s) { return s + 1 < n_seg ? full : c.bytes - full * (n_seg - 1); };
  if (node.children.empty()) {  // a leaf: blocking sends, segment after segment
    After prev;
    for (uint32_t s = 0; s < n_seg && node.parent >= 0; ++s)
      prev = send_step(f, prev, Side{node.parent, seg(s), Segs{s, 1}});
    return;
  }
  const auto n = static_cast<uint32_t>(node.children.size());
  After step;                 // the end of the previous step
  uint32_t posted = kNoOp;    // the irecv of the previous step, waited for in this one
  for (uint32_t k = 0;; ++k) {
    const uint32_t s = k / n, i = k % n;
    uint32_t r = kNoOp;
    if (s < n_seg) {
      r = f.recv(node.children[i], seg(s), Segs{s, 1}, Combine::kReduce);
      require_after(f, r, step);
      if (posted != kNoOp) f.irequire(r, posted);  // posted after it (FIFO matching from one child)
    }
    step = join(f, step, posted);
    posted = r;
    if (i != 0 || s == 0) continue;
    if (node.parent >= 0) step = send_step(f, step, Side{node.parent, seg(s - 1), Segs{s - 1, 1}});
    if (s == n_seg) break;
  }
}

void smpi_ompi_linear_reduce(Fragment& f, const CollCall& c) {
  check(c);
  if (c.rank != c.root) {
    f.send(c.root, c.bytes, Segs{0, 1});
    return;
  }
  After prev;
  for (RankId r = c.size - 1; r >= 0; --r)
    if (r != c.root) prev = recv_step(f, prev, Side{r, c.bytes, Segs{0, 1}}, Combine::kReduce, ReduceCost{});
}

void smpi_binomial_reduce(Fragment& f, const CollCall& c) {
  check(c);
  const RankId rel = vrank_of(c.rank, c.root, c.size);
  After prev;
  for (RankId mask = 1; mask < c.size; mask <<= 1) {
    if ((mask & rel) == 0) {
      const RankId source = rel | mask;
      if (source < c.size)
        prev = recv_step(f, prev, Side{rank_of_vrank(source, c.root, c.size), c.bytes, Segs{0, 1}}, Combine::kReduce,
                         ReduceCost{});
    } else {
      send_step(f, prev, Side{rank_of_vrank(rel & ~mask, c.root, c.size), c.bytes, Segs{0, 1}});
      break;
    }
  }
}

}  // namespace simfab::coll
