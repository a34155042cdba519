#include "mpi/coll/reduce_algorithms.hpp"

#include <utility>
#include <vector>

#include "core/error.hpp"
#include "mpi/coll/split.hpp"
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

int rabenseifner_chunks(int size) {
  int q = 1;
  while (q <= size / 2) q *= 2;
  return q;
}

void rabenseifner_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, const ReduceCost& cost) {
  SIMFAB_CHECK(rank >= 0 && rank < size && root >= 0 && root < size, "rabenseifner_reduce: rank out of range");
  const int q = rabenseifner_chunks(size), rem = size - q;
  const auto uq = static_cast<uint32_t>(q);
  const auto real = [&](int nr) { return static_cast<RankId>(nr < rem ? 2 * nr : nr + rem); };
  const auto number = [&](RankId r) { return r < 2 * rem ? r / 2 : r - rem; };  // q of r, or of r-1
  const auto range_bytes = [&](uint32_t lo, uint32_t hi) {
    return share_offset(bytes, uq, hi) - share_offset(bytes, uq, lo);
  };
  const auto segs = [](uint32_t lo, uint32_t hi) { return Segs{lo, hi - lo}; };
  const RankId gather_root = real(number(root));
  if (rank < 2 * rem && rank % 2 == 1) {  // excluded: fold in, and receive the result if root
    f.send(rank - 1, bytes, segs(0, uq));
    if (rank == root) f.recv(gather_root, bytes, segs(0, uq));
    return;
  }
  std::vector<uint32_t> last;  // the ops ending the previous step (blocking steps)
  const auto after_last = [&](uint32_t op) {
    for (uint32_t l : last) f.require(op, l);
    return op;
  };
  if (rank < 2 * rem)
    last.push_back(reduce_after(f, f.recv(rank + 1, bytes, segs(0, uq), Combine::kReduce), bytes, cost));
  const int me = number(rank);
  // Recursive halving: lo_hi[t] = my range before step t (mask 2^t).
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
  uint32_t lo = 0, hi = uq;
  for (int m = 1; m < q; m <<= 1) {
    ranges.push_back({lo, hi});
    const uint32_t mid = lo + (hi - lo) / 2;
    const RankId peer = real(me ^ m);
    const bool lower = me < (me ^ m);
    const uint32_t give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
    lo = lower ? lo : mid;
    hi = lower ? mid : hi;
    const uint32_t send = after_last(f.send(peer, range_bytes(give_lo, give_hi), segs(give_lo, give_hi)));
    const uint32_t recv = after_last(f.recv(peer, range_bytes(lo, hi), segs(lo, hi), Combine::kReduce));
    last = {send, reduce_after(f, recv, range_bytes(lo, hi), cost)};
  }
  // Binomial gather to the root's number, undoing the halving steps in reverse.
  const int target = number(root);
  for (int t = static_cast<int>(ranges.size()) - 1; t >= 0; --t) {
    const int m = 1 << t;
    const RankId peer = real(me ^ m);
    if ((me & m) != (target & m)) {  // I send my range and am done
      after_last(f.send(peer, range_bytes(lo, hi), segs(lo, hi)));
      return;
    }
    const auto [all_lo, all_hi] = ranges[static_cast<size_t>(t)];
    const uint32_t other_lo = lo == all_lo ? hi : all_lo, other_hi = lo == all_lo ? all_hi : lo;
    last = {after_last(f.recv(peer, range_bytes(other_lo, other_hi), segs(other_lo, other_hi)))};
    lo = all_lo;
    hi = all_hi;
  }
  if (rank != root) after_last(f.send(root, bytes, segs(0, uq)));  // root was excluded: hand over
}

}  // namespace simfab::coll
