#include "mpi/coll/smpi_reduce_scatter_gather.hpp"

#include <algorithm>
#include <bit>

#include "core/error.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

namespace {

// The chunks of n elements over pof2 numbers, and the real rank of each number.
struct Layout {
  int pof2 = 1;
  int rem = 0;
  Bytes n = 0;  // elements
  Bytes ts = 1;

  // Chunks [a, b) as a message side (empty when b <= a): n / pof2 elements each, the last chunk
  // (pof2 - 1) the remainder too.
  Side side(RankId peer, int a, int b) const {
    if (b <= a) return Side{peer, 0, Segs{static_cast<uint32_t>(std::max(a, 0)), 0}};
    SIMFAB_CHECK(a >= 0 && b <= pof2, "smpi scatter_gather reduce: chunk range out of bounds");
    const Bytes each = n / static_cast<Bytes>(pof2);
    const Bytes elements = each * static_cast<Bytes>(b - a) + (b == pof2 ? n - each * static_cast<Bytes>(pof2) : 0);
    return Side{peer, elements * ts, Segs{static_cast<uint32_t>(a), static_cast<uint32_t>(b - a)}};
  }
  RankId real(int q) const { return q < rem ? 2 * q : q + rem; }
};

}  // namespace

bool smpi_scatter_gather_truncates(const CollCall& c) {
  return c.elements() > 0 && c.elements() < static_cast<Bytes>(c.size) &&
         !std::has_single_bit(static_cast<unsigned>(c.size));
}

void smpi_scatter_gather_reduce(Fragment& f, const CollCall& c) {
  SIMFAB_CHECK(c.rank >= 0 && c.rank < c.size && c.root >= 0 && c.root < c.size,
               "smpi scatter_gather reduce: rank out of range");
  const Bytes count = c.elements();
  if (count == 0 || c.size <= 1) return;
  Layout l;
  l.pof2 = static_cast<int>(std::bit_floor(static_cast<unsigned>(c.size)));
  l.rem = c.size - l.pof2;
  l.n = std::max<Bytes>(count, static_cast<Bytes>(c.size));
  l.ts = std::max<Bytes>(1, c.type_size);
  const RankId rank = c.rank, root = c.root;
  const ReduceCost none{};
  After step;
  // 1. Fold.
  int q = rank - l.rem;
  if (rank < 2 * l.rem) {
    const Side all = l.side(rank % 2 ? rank - 1 : rank + 1, 0, l.pof2);
    if (rank % 2) {
      step = send_step(f, step, all);
      q = -1;
    } else {
      step = recv_step(f, step, all, Combine::kReduce, none);
      q = rank / 2;
    }
  }
  // 2. Reduce-scatter by recursive halving.
  int send_idx = 0, recv_idx = 0, last_idx = l.pof2;
  if (q >= 0) {
    for (int mask = 1; mask < l.pof2;) {
      const int partner = q ^ mask, half = l.pof2 / (2 * mask);
      const RankId dst = l.real(partner);
      if (q < partner) {
        send_idx = recv_idx + half;
        step = sendrecv_step(f, step, l.side(dst, send_idx, last_idx), l.side(dst, recv_idx, send_idx), Combine::kReduce,
                             none);
      } else {
        recv_idx = send_idx + half;
        step = sendrecv_step(f, step, l.side(dst, send_idx, recv_idx), l.side(dst, recv_idx, last_idx), Combine::kReduce,
                             none);
      }
      send_idx = recv_idx;
      mask <<= 1;
      if (mask < l.pof2) last_idx = recv_idx + l.pof2 / mask;
    }
  }
  // 3. Gather to the root's number.
  const bool odd_root = root < 2 * l.rem && root % 2 != 0;
  int root_q = root < 2 * l.rem ? root / 2 : root - l.rem;
  if (odd_root) {
    root_q = 0;
    if (rank == root) {
      step = recv_step(f, step, l.side(0, 0, 1), Combine::kReplace, none);
      q = 0;
      send_idx = 0;
      last_idx = 2;
    } else if (q == 0) {
      send_step(f, step, l.side(root, 0, 1));
      q = -1;
    }
  }
  if (q < 0) return;
  int j = std::countr_zero(static_cast<unsigned>(l.pof2)) - 1;
  for (int mask = l.pof2 / 2; mask > 0; mask >>= 1, --j) {
    const int partner = q ^ mask, half = l.pof2 / (2 * mask);
    const RankId dst = partner == 0 && odd_root ? root : l.real(partner);
    Side out, in;
    if (q < partner) {
      if (mask != l.pof2 / 2) last_idx += half;
      recv_idx = send_idx + half;
      out = l.side(dst, send_idx, recv_idx);
      in = l.side(dst, recv_idx, last_idx);
    } else {
      recv_idx = send_idx - half;
      out = l.side(dst, send_idx, last_idx);
      in = l.side(dst, recv_idx, send_idx);
    }
    if (partner >> j == root_q >> j) {
      send_step(f, step, out);
      return;
    }
    step = recv_step(f, step, in, Combine::kReplace, none);
    if (q > partner) send_idx = recv_idx;
  }
}

}  // namespace simfab::coll
