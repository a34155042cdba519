#include "mpi/coll/tree_shapes.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "mpi/coll/split.hpp"

namespace simfab::coll {

namespace {

// The place value k^i of v's lowest non-zero base-k digit; P (beyond every digit) for v = 0.
int64_t lowest_place(int64_t v, int64_t size, int64_t k) {
  if (v == 0) return size;
  int64_t m = 1;
  while ((v / m) % k == 0) m *= k;
  return m;
}

void knomial(int64_t v, int64_t p, int64_t k, TreeNode& out, RankId root, int size) {
  const int64_t low = lowest_place(v, p, k);
  if (v > 0) out.parent = rank_of_vrank(static_cast<RankId>(v - ((v / low) % k) * low), root, size);
  int64_t top = 1;  // the highest place below `low` that still has a child
  while (top * k < low && v + top * k < p) top *= k;
  for (int64_t m = top; m >= 1 && m < low; m /= k)
    for (int64_t j = 1; j < k && v + j * m < p; ++j)
      out.children.push_back(rank_of_vrank(static_cast<RankId>(v + j * m), root, size));
}

void kary(int64_t v, int64_t p, int64_t f, TreeNode& out, RankId root, int size) {
  int64_t first = 0, width = 1;  // level L starts at vrank `first` and holds `width` = f^L vranks
  while (v >= first + width) {
    first += width;
    width *= f;
  }
  if (v > 0) {
    const int64_t up_width = width / f, up_first = first - up_width;
    out.parent = rank_of_vrank(static_cast<RankId>(up_first + (v - up_first) % up_width), root, size);
  }
  for (int64_t i = 1; i <= f && v + width * i < p; ++i)
    out.children.push_back(rank_of_vrank(static_cast<RankId>(v + width * i), root, size));
}

void chain(int64_t v, int64_t p, int64_t chains, TreeNode& out, RankId root, int size) {
  const Bytes others = static_cast<Bytes>(p - 1);
  const uint32_t c = static_cast<uint32_t>(std::min<int64_t>(chains, std::max<int64_t>(p - 1, 1)));
  if (v == 0) {
    for (uint32_t i = 0; i < c && others > 0; ++i)
      out.children.push_back(rank_of_vrank(static_cast<RankId>(1 + share_offset(others, c, i)), root, size));
    return;
  }
  uint32_t i = 0;  // v's chain: the last one whose head is at or before v
  while (i + 1 < c && 1 + static_cast<int64_t>(share_offset(others, c, i + 1)) <= v) ++i;
  const int64_t head = 1 + static_cast<int64_t>(share_offset(others, c, i));
  const int64_t tail = head + static_cast<int64_t>(share(others, c, i)) - 1;
  out.parent = rank_of_vrank(static_cast<RankId>(v == head ? 0 : v - 1), root, size);
  if (v < tail) out.children.push_back(rank_of_vrank(static_cast<RankId>(v + 1), root, size));
}

Segs piece(Segs data, uint32_t s) { return data.count ? Segs{data.first + s, 1} : Segs{}; }

}  // namespace

void tree_node(TreeSpec spec, RankId rank, int size, RankId root, TreeNode& out) {
  SIMFAB_CHECK(rank >= 0 && rank < size && root >= 0 && root < size, "tree_node: rank out of range");
  SIMFAB_CHECK(spec.arity >= (spec.shape == TreeShape::kChain || spec.shape == TreeShape::kFlat ? 1 : 2),
               "tree_node: radix/fanout must be >= 2, chains >= 1");
  out.parent = -1;
  out.children.clear();
  const int64_t v = vrank_of(rank, root, size), p = size;
  switch (spec.shape) {
    case TreeShape::kFlat:
      if (v > 0) out.parent = root;
      else
        for (int64_t c = 1; c < p; ++c) out.children.push_back(rank_of_vrank(static_cast<RankId>(c), root, size));
      break;
    case TreeShape::kKnomial: knomial(v, p, spec.arity, out, root, size); break;
    case TreeShape::kKary: kary(v, p, spec.arity, out, root, size); break;
    case TreeShape::kChain: chain(v, p, spec.arity, out, root, size); break;
  }
}

int knomial_subtree(RankId v, int size, int radix) {
  return static_cast<int>(std::min<int64_t>(lowest_place(v, size, radix), size - v));
}

void tree_down(Fragment& f, const TreeNode& node, Bytes bytes, Segs data) {
  const uint32_t n = std::max<uint32_t>(data.count, 1);
  int64_t recv = -1;           // the latest recv from the parent
  std::vector<uint32_t> sent;  // the latest send to each child
  for (uint32_t s = 0; s < n; ++s) {
    const Bytes b = share(bytes, n, s);
    if (node.parent >= 0) {
      const uint32_t r = f.recv(node.parent, b, piece(data, s));
      if (recv >= 0) f.irequire(r, static_cast<uint32_t>(recv));  // irecv s after irecv s-1
      recv = r;
    }
    for (size_t i = 0; i < node.children.size(); ++i) {
      const uint32_t send = f.send(node.children[i], b, piece(data, s));
      if (recv >= 0) f.require(send, static_cast<uint32_t>(recv));
      if (s > 0) f.irequire(send, sent[i]);  // isend s to child i after isend s-1 to it
      if (s == 0) sent.push_back(send); else sent[i] = send;
    }
  }
}

void tree_up(Fragment& f, const TreeNode& node, Bytes bytes, Segs data, const ReduceCost& cost) {
  const uint32_t n = std::max<uint32_t>(data.count, 1);
  std::vector<uint32_t> ready;  // per piece: each child's recv, or the reduction calc after it
  std::vector<uint32_t> posted;  // piece s-1's recv from each child
  int64_t sent = -1;             // piece s-1's send to the parent
  for (uint32_t s = 0; s < n; ++s) {
    const Bytes b = share(bytes, n, s);
    ready.clear();
    for (size_t i = 0; i < node.children.size(); ++i) {
      const uint32_t r = f.recv(node.children[i], b, piece(data, s), Combine::kReduce);
      if (s > 0) f.irequire(r, posted[i]);  // irecv s from child i after irecv s-1 from it
      if (s == 0) posted.push_back(r); else posted[i] = r;
      ready.push_back(reduce_after(f, r, b, cost));
    }
    if (node.parent < 0) continue;
    const uint32_t send = f.send(node.parent, b, piece(data, s));
    for (uint32_t r : ready) f.require(send, r);
    if (sent >= 0) f.irequire(send, static_cast<uint32_t>(sent));  // send s after send s-1
    sent = send;
  }
}

void tree_down_blocking(Fragment& f, const TreeNode& node, Bytes bytes, Segs data) {
  int64_t prev = node.parent >= 0 ? static_cast<int64_t>(f.recv(node.parent, bytes, data)) : -1;
  for (RankId c : node.children) {
    const uint32_t send = f.send(c, bytes, data);
    if (prev >= 0) f.require(send, static_cast<uint32_t>(prev));
    prev = send;
  }
}

void then_after(Fragment& f, uint32_t begin, uint32_t mid) {
  const uint32_t end = f.size();
  SIMFAB_CHECK(begin <= mid && mid <= end, "then_after: phases out of order");
  std::vector<uint8_t> has_pred(end - mid, 0);
  for (const FragDep& d : f.deps())
    if (d.succ >= mid && d.succ < end) has_pred[d.succ - mid] = 1;
  // end_ops() returns a view of a scratch buffer that require() does not touch.
  std::span<const uint32_t> ends = f.end_ops(begin, mid);
  size_t heads = 0;
  for (uint8_t h : has_pred) heads += h ? 0 : 1;
  if (ends.size() * heads >= kJoinThreshold) {
    // A zero-time calc joins the phases: ends + heads edges instead of ends x heads (a linear
    // barrier's gather and release on P ranks would otherwise cost P^2 edges at the root).
    const std::vector<uint32_t> copy(ends.begin(), ends.end());
    const uint32_t join = f.calc(SimTime::zero());
    for (uint32_t e : copy) f.require(join, e);
    for (uint32_t i = mid; i < end; ++i)
      if (!has_pred[i - mid]) f.require(i, join);
    return;
  }
  for (uint32_t i = mid; i < end; ++i)
    if (!has_pred[i - mid])
      for (uint32_t e : ends) f.require(i, e);
}

}  // namespace simfab::coll
