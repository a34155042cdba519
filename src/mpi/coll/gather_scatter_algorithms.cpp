#include "mpi/coll/gather_scatter_algorithms.hpp"

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "mpi/coll/split.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

// The segments and bytes of the run of vranks [v, v + m).
struct Run {
  std::vector<uint32_t> ids;
  Bytes bytes = 0;
};

void run_of(RankId v, int m, int size, RankId root, Bytes bytes, BlockNaming naming, Run& out) {
  out.ids.clear();
  for (RankId u = v; u < v + m; ++u)
    out.ids.push_back(static_cast<uint32_t>(naming == BlockNaming::kRanks ? rank_of_vrank(u, root, size) : u));
  const auto p = static_cast<uint32_t>(size);
  if (naming == BlockNaming::kCeilChunks) {
    const Bytes chunk = (bytes + p - 1) / p, begin = chunk * v, end = std::min<Bytes>(bytes, chunk * (v + m));
    out.bytes = end > begin ? end - begin : 0;  // chunks past the buffer's end are empty
    return;
  }
  out.bytes = naming == BlockNaming::kRanks
                  ? bytes * static_cast<Bytes>(m)
                  : share_offset(bytes, p, static_cast<uint32_t>(v + m - 1)) + share(bytes, p, static_cast<uint32_t>(v + m - 1)) -
                        share_offset(bytes, p, static_cast<uint32_t>(v));
}

}  // namespace

void binomial_blocks(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, BlockFlow flow, BlockNaming naming,
                     BlockOrder order) {
  TreeNode node;
  tree_node(TreeSpec{TreeShape::kKnomial, 2}, rank, size, root, node);
  const bool blocking = order != BlockOrder::kFarFirst;
  if (order == BlockOrder::kNearFirstBlocking) std::reverse(node.children.begin(), node.children.end());
  const RankId v = vrank_of(rank, root, size);
  const bool gather = flow == BlockFlow::kGather;
  Run run;
  int64_t up = -1;  // the message to or from the parent
  const bool skip_empty = naming == BlockNaming::kCeilChunks;
  if (node.parent >= 0 && !gather) {
    run_of(v, knomial_subtree(v, size, 2), size, root, bytes, naming, run);
    if (run.bytes > 0 || !skip_empty) up = f.recv(node.parent, run.bytes, run.ids);
  }
  const uint32_t first_child = f.size();
  for (RankId c : node.children) {
    const RankId cv = vrank_of(c, root, size);
    run_of(cv, knomial_subtree(cv, size, 2), size, root, bytes, naming, run);
    if (run.bytes == 0 && skip_empty) continue;
    const uint32_t op = gather ? f.recv(c, run.bytes, run.ids) : f.send(c, run.bytes, run.ids);
    if (up >= 0) f.require(op, static_cast<uint32_t>(up));
    if (blocking) up = op;  // each call waits for the previous one
  }
  if (node.parent >= 0 && gather) {
    const uint32_t children_end = f.size();
    run_of(v, knomial_subtree(v, size, 2), size, root, bytes, naming, run);
    const uint32_t send = f.send(node.parent, run.bytes, run.ids);
    for (uint32_t i = first_child; i < children_end; ++i) f.require(send, i);
  }
}

void binomial_gather(Fragment& f, RankId rank, int size, RankId root, Bytes block) {
  binomial_blocks(f, rank, size, root, block, BlockFlow::kGather, BlockNaming::kRanks);
}

void binomial_scatter(Fragment& f, RankId rank, int size, RankId root, Bytes block) {
  binomial_blocks(f, rank, size, root, block, BlockFlow::kScatter, BlockNaming::kRanks);
}

void linear_sync_gather(Fragment& f, RankId rank, int size, RankId root, Bytes block, Bytes first_segment) {
  SIMFAB_CHECK(rank >= 0 && rank < size && root >= 0 && root < size, "linear_sync_gather: rank out of range");
  const Bytes first = std::min(first_segment, block), rest = block - first;
  const auto seg = [](RankId r, uint32_t part) { return Segs{static_cast<uint32_t>(r) * 2 + part, 1}; };
  if (rank != root) {
    const uint32_t sync = f.recv(root, 0);
    const uint32_t head = f.send(root, first, seg(rank, 0));
    f.require(head, sync);
    f.require(f.send(root, rest, seg(rank, 1)), head);
    return;
  }
  int64_t prev_first = -1;  // the previous rank's first-segment recv, which the root waits for
  for (RankId i = 0; i < size; ++i) {
    if (i == root) continue;
    // OpenMPI's program order: irecv head, blocking MPI_Send of the sync, irecv tail. The tail's
    // recv follows the head's (FIFO matching, check.hpp) through the sync it waits for.
    const uint32_t head = f.recv(i, first, seg(i, 0));
    const uint32_t sync = f.send(i, 0);
    f.irequire(sync, head);
    const uint32_t tail = f.recv(i, rest, seg(i, 1));
    f.require(tail, sync);
    if (prev_first >= 0)
      for (uint32_t op : {head, sync, tail}) f.require(op, static_cast<uint32_t>(prev_first));
    prev_first = head;
  }
}

}  // namespace simfab::coll
