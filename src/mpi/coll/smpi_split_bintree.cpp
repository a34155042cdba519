#include "mpi/coll/smpi_split_bintree.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "mpi/coll/smpi_bcast_large.hpp"
#include "mpi/coll/step.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

constexpr Bytes kSmallSegment = 1024, kLargeSegment = 8192, kLargeMessage = 370728;

struct Halves {
  Bytes ts = 1;
  Bytes seg = 1;          // elements per segment
  Bytes count[2] = {0, 0};  // elements per half
  uint32_t n[2] = {0, 0};   // segments per half
  bool splits = false;
};

Halves halves_of(const CollCall& c) {
  Halves h;
  h.ts = std::max<Bytes>(1, c.type_size);
  const Bytes count = c.elements();
  const Bytes segsize = std::max(h.ts, h.ts * count < kLargeMessage ? kSmallSegment : kLargeSegment);
  h.seg = segsize / h.ts;
  h.count[0] = (count + 1) / 2;
  h.count[1] = count - h.count[0];
  for (int i = 0; i < 2; ++i) h.n[i] = static_cast<uint32_t>((h.count[i] + h.seg - 1) / h.seg);
  h.splits = h.count[1] > 0 && segsize <= h.count[1] * h.ts;  // half 1 is never the larger one
  return h;
}

SegmentRun run_of(const Halves& h, int half) {
  const Bytes seg_bytes = h.seg * h.ts;
  const uint32_t n = h.n[half];
  return SegmentRun{n, seg_bytes, h.count[half] * h.ts - seg_bytes * (n - 1), half == 0 ? 0 : h.n[0]};
}

Segs half_segs(const Halves& h, int half) { return half == 0 ? Segs{0, h.n[0]} : Segs{h.n[0], h.n[1]}; }

}  // namespace

SplitSegments smpi_split_bintree_segments(const CollCall& c) {
  const Halves h = halves_of(c);
  if (!h.splits) return {};
  return SplitSegments{h.n[0], h.n[1]};
}

bool smpi_split_bintree_splits(const CollCall& c) { return halves_of(c).splits; }

void smpi_split_bintree_bcast(Fragment& f, const CollCall& c) {
  SIMFAB_CHECK(c.rank >= 0 && c.rank < c.size && c.root >= 0 && c.root < c.size,
               "smpi split-bintree bcast: rank out of range");
  if (c.size <= 1) return;
  const Halves h = halves_of(c);
  SIMFAB_CHECK(h.splits, "smpi split-bintree bcast: a half is smaller than a segment");
  TreeNode node;
  tree_node(TreeSpec{TreeShape::kKary, 2}, c.rank, c.size, c.root, node);
  const RankId v = vrank_of(c.rank, c.root, c.size);
  const int lr = static_cast<int>((v + 1) % 2);  // the root counts as half 1
  // Step 1: the halves down the two subtrees.
  After step;
  if (v == 0) {
    const SegmentRun runs[2] = {run_of(h, 0), run_of(h, 1)};
    const size_t children = std::min<size_t>(node.children.size(), 2);
    for (uint32_t s = 0; s < h.n[0]; ++s)
      for (size_t i = 0; i < children; ++i)
        if (s < runs[i].n) step = send_step(f, step, Side{node.children[i], runs[i].bytes(s), Segs{runs[i].first + s, 1}});
  } else if (!node.children.empty()) {
    step = smpi_relay_segments(f, node.parent, node.children, run_of(h, lr));
  } else {
    const SegmentRun run = run_of(h, lr);
    for (uint32_t s = 0; s < run.n; ++s)
      step = recv_step(f, step, Side{node.parent, run.bytes(s), Segs{run.first + s, 1}}, Combine::kReplace, ReduceCost{});
  }
  // Step 2: the other half from the pair.
  const RankId pair = lr == 0 ? (c.rank + 1) % c.size : (c.rank + c.size - 1) % c.size;
  const Side mine{pair, h.count[lr] * h.ts, half_segs(h, lr)};
  const Side theirs{pair, h.count[1 - lr] * h.ts, half_segs(h, 1 - lr)};
  const RankId last = (c.root + c.size - 1) % c.size;
  if (c.size % 2 != 0) {
    if (v != 0) sendrecv_step(f, step, mine, theirs, Combine::kReplace, ReduceCost{});
  } else if (v == 0) {
    send_step(f, step, Side{last, h.count[1] * h.ts, half_segs(h, 1)});
  } else if (c.rank == last) {
    recv_step(f, step, Side{c.root, h.count[1] * h.ts, half_segs(h, 1)}, Combine::kReplace, ReduceCost{});
  } else {
    sendrecv_step(f, step, mine, theirs, Combine::kReplace, ReduceCost{});
  }
}

}  // namespace simfab::coll
