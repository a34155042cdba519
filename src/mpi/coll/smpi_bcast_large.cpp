#include "mpi/coll/smpi_bcast_large.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "core/error.hpp"
#include "mpi/coll/gather_scatter_algorithms.hpp"
#include "mpi/coll/split.hpp"
#include "mpi/coll/step.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

constexpr Bytes K = 1024;

void check(const CollCall& c) {
  SIMFAB_CHECK(c.rank >= 0 && c.rank < c.size && c.root >= 0 && c.root < c.size, "smpi large bcast: rank out of range");
}

}  // namespace

After smpi_relay_segments(Fragment& f, RankId parent, std::span<const RankId> children, const SegmentRun& run) {
  std::vector<uint32_t> recv(run.n);
  const auto segs = [&](uint32_t s) { return Segs{run.first + s, 1}; };
  // Blocking sends of segment s to every child in turn, after `step`.
  const auto forward = [&](uint32_t s, After step, uint32_t posted) {
    for (RankId child : children) {
      const uint32_t send = f.send(child, run.bytes(s), segs(s));
      f.require(send, recv[s]);
      require_after(f, send, step);
      if (posted != kNoOp) f.irequire(send, posted);
      step = After{send};
    }
    return step;
  };
  After step;  // what the loop's previous iteration waited for
  for (uint32_t s = 0; s < run.n; ++s) {
    recv[s] = f.recv(parent, run.bytes(s), segs(s));
    require_after(f, recv[s], step);
    if (s == 0) continue;
    f.irequire(recv[s], recv[s - 1]);  // posted after it (FIFO matching from the parent)
    step = children.empty() ? After{recv[s - 1]} : forward(s - 1, step, recv[s]);
  }
  if (children.empty()) return After{step.a, recv[run.n - 1]};
  return forward(run.n - 1, step, kNoOp);
}

Bytes smpi_ompi_pipeline_segsize(int size, Bytes bytes) {
  const double p = size, m = static_cast<double>(bytes);
  if (p < 1.6134e-6 * m + 2.1102) return 128 * K;
  if (p < 2.3679e-6 * m + 1.1787) return 64 * K;
  if (p < 3.2118e-6 * m + 8.7936) return 16 * K;
  return 128 * K;
}

void smpi_ompi_pipeline_bcast(Fragment& f, const CollCall& c) {
  check(c);
  const Bytes ts = std::max<Bytes>(1, c.type_size), count = c.elements();
  if (c.size <= 1 || count == 0) return;
  const Bytes segcount = computed_segcount(smpi_ompi_pipeline_segsize(c.size, c.bytes), ts, count);
  const auto n_seg = static_cast<uint32_t>((count + segcount - 1) / segcount);
  const SegmentRun run{n_seg, segcount * ts, c.bytes - segcount * ts * (n_seg - 1), 0};
  const RankId v = vrank_of(c.rank, c.root, c.size);
  const RankId parent = v == 0 ? -1 : rank_of_vrank(v - 1, c.root, c.size);
  const RankId child = v + 1 < c.size ? rank_of_vrank(v + 1, c.root, c.size) : -1;
  if (parent < 0) {  // the root: isend and wait, segment after segment
    After prev;
    for (uint32_t s = 0; s < n_seg; ++s) prev = send_step(f, prev, Side{child, run.bytes(s), Segs{s, 1}});
    return;
  }
  if (child < 0) smpi_relay_segments(f, parent, {}, run);
  else smpi_relay_segments(f, parent, std::span<const RankId>(&child, 1), run);
}

void smpi_scatter_rdb_allgather_bcast(Fragment& f, const CollCall& c) {
  check(c);
  if (c.size <= 1 || c.bytes == 0) return;
  const uint32_t begin = f.size();
  binomial_blocks(f, c.rank, c.size, c.root, c.bytes, BlockFlow::kScatter, BlockNaming::kCeilChunks,
                  BlockOrder::kFarFirstBlocking);
  const uint32_t doubling = f.size();
  const auto p = static_cast<uint32_t>(c.size);
  const auto v = static_cast<uint32_t>(vrank_of(c.rank, c.root, c.size));
  const Bytes chunk = (c.bytes + p - 1) / p;
  // The chunks [first, first + n) that exist: their bytes and their segments.
  const auto held = [&](uint32_t first, uint32_t n) {
    return std::min(c.bytes, chunk * (first + n)) - std::min(c.bytes, chunk * first);
  };
  const auto segs = [&](uint32_t first, uint32_t n) { return Segs{first, std::min(first + n, p) - std::min(first, p)}; };
  const auto real = [&](uint32_t w) { return rank_of_vrank(static_cast<RankId>(w), c.root, c.size); };
  After prev;
  for (uint32_t mask = 1; mask < p; mask <<= 1) {
    const uint32_t partner = v ^ mask, mine = v & ~(mask - 1), theirs = partner & ~(mask - 1);
    if (partner < p)
      prev = sendrecv_step(f, prev, Side{real(partner), held(mine, mask), segs(mine, mask)},
                           Side{real(partner), held(theirs, mask), segs(theirs, mask)}, Combine::kReplace, ReduceCost{});
    if (theirs + mask <= p) continue;
    // The partner subtree is cut short: its chunks, which the first `done` ranks of this subtree
    // received, go to the others by recursive halving.
    const uint32_t done = p - mine - mask;
    const Bytes rest = held(mine + mask, mask);
    const Segs rest_segs = segs(mine + mask, mask);
    for (uint32_t m = mask >> 1, k = static_cast<uint32_t>(std::countr_zero(mask)); m > 0; m >>= 1, --k) {
      const uint32_t dst = v ^ m, root = v >> k << k;
      if (dst > v && v < root + done && dst >= root + done)
        prev = send_step(f, prev, Side{real(dst), rest, rest_segs});
      else if (dst < v && dst < root + done && v >= root + done)
        prev = recv_step(f, prev, Side{real(dst), rest, rest_segs}, Combine::kReplace, ReduceCost{});
    }
  }
  then_after(f, begin, doubling);
}

void smpi_scatter_lr_allgather_bcast(Fragment& f, const CollCall& c) {
  check(c);
  if (c.size <= 1) return;
  const uint32_t begin = f.size();
  binomial_blocks(f, c.rank, c.size, c.root, c.bytes, BlockFlow::kScatter, BlockNaming::kCeilChunks,
                  BlockOrder::kFarFirstBlocking);
  const uint32_t ring = f.size();
  const int p = c.size;
  const Bytes chunk = (c.bytes + static_cast<Bytes>(p) - 1) / static_cast<Bytes>(p);
  // The chunk of the rank whose vrank is (rank - root) mod P.
  const auto chunk_of = [&](RankId rank) {
    const RankId v = vrank_of(rank, c.root, p);
    return Side{0, std::min(c.bytes, chunk * (static_cast<Bytes>(v) + 1)) - std::min(c.bytes, chunk * static_cast<Bytes>(v)),
                Segs{static_cast<uint32_t>(v), 1}};
  };
  const RankId left = (c.rank + p - 1) % p, right = (c.rank + 1) % p;
  After prev;
  for (RankId i = 1, src = c.rank; i < p; ++i, src = (src + p - 1) % p) {
    Side out = chunk_of(src), in = chunk_of((src + p - 1) % p);
    out.peer = right;
    in.peer = left;
    prev = sendrecv_step(f, prev, out, in, Combine::kReplace, ReduceCost{});
  }
  then_after(f, begin, ring);
}

}  // namespace simfab::coll
