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
  const auto seg = [&](uint32_t s) { return s + 1 < n_seg ? segcount * ts : c.bytes - segcount * ts * (n_seg - 1); };
  const RankId v = vrank_of(c.rank, c.root, c.size);
  const RankId parent = v == 0 ? -1 : rank_of_vrank(v - 1, c.root, c.size);
  const RankId child = v + 1 < c.size ? rank_of_vrank(v + 1, c.root, c.size) : -1;
  if (parent < 0) {  // the root: isend and wait, segment after segment
    After prev;
    for (uint32_t s = 0; s < n_seg; ++s) prev = send_step(f, prev, Side{child, seg(s), Segs{s, 1}});
    return;
  }
  std::vector<uint32_t> recv(n_seg);
  After step;  // what the loop's previous iteration waited for
  for (uint32_t s = 0; s < n_seg; ++s) {
    recv[s] = f.recv(parent, seg(s), Segs{s, 1});
    require_after(f, recv[s], step);
    if (s == 0) continue;
    f.irequire(recv[s], recv[s - 1]);  // posted after it (FIFO matching from the parent)
    if (child < 0) {  // a leaf waits for the previous segment
      step = After{recv[s - 1]};
      continue;
    }
    const uint32_t send = f.send(child, seg(s - 1), Segs{s - 1, 1});
    f.require(send, recv[s - 1]);
    require_after(f, send, step);
    f.irequire(send, recv[s]);
    step = After{send};  // the send waited for, so its receive too
  }
  if (child >= 0) {
    const uint32_t send = f.send(child, seg(n_seg - 1), Segs{n_seg - 1, 1});
    f.require(send, recv[n_seg - 1]);
    require_after(f, send, step);
  }
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

}  // namespace simfab::coll
