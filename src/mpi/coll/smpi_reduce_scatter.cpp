#include "mpi/coll/smpi_reduce_scatter.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "mpi/coll/smpi_steps.hpp"

namespace simfab::coll {

namespace {

void check(RankId rank, int size, PerRank blocks) {
  SIMFAB_CHECK(size >= 1 && rank >= 0 && rank < size, "smpi reduce_scatter: rank out of range");
  SIMFAB_CHECK(blocks.v.empty() || blocks.v.size() == static_cast<size_t>(size),
               "smpi reduce_scatter: counts must have one entry per rank");
}

// The bytes of blocks [lo, hi) (clamped to [0, size)).
Bytes range(PerRank blocks, int size, int lo, int hi) {
  Bytes s = 0;
  for (int j = std::max(lo, 0); j < std::min(hi, size); ++j) s += blocks(j);
  return s;
}

// Every block but those of the subtree [root, root + mask).
Bytes outside(PerRank blocks, int size, int root, int mask) {
  return range(blocks, size, 0, root) + range(blocks, size, root + mask, size);
}

// Hacker's Delight's mirror permutation: the low `bits` bits of x in reverse order.
int mirror(int x, int bits) {
  int m = 0;
  for (int i = 0; i < bits; ++i) m |= ((x >> i) & 1) << (bits - 1 - i);
  return m;
}

}  // namespace

void smpi_mpich_rdb_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks) {
  check(rank, size, blocks);
  After prev;
  for (int mask = 1, i = 0; mask < size; mask <<= 1, ++i) {
    const int dst = rank ^ mask;
    const int dst_root = (dst >> i) << i, my_root = (rank >> i) << i;
    const Bytes send = outside(blocks, size, my_root, mask), recv = outside(blocks, size, dst_root, mask);
    if (dst < size) prev = smpi_sendrecv(f, prev, dst, send, dst, recv);
    if (dst_root + mask <= size) continue;
    // Non-power of two: forward the received vector to the subtree's ranks that had no partner.
    const int completed = size - my_root - mask;
    int k = 0;
    for (int j = mask; j > 1; j >>= 1) ++k;
    for (int tmp = mask >> 1; tmp > 0; tmp >>= 1, --k) {
      const int peer = rank ^ tmp, tree_root = (rank >> k) << k;
      if (peer > rank && rank < tree_root + completed && peer >= tree_root + completed)
        prev = send_step(f, prev, Side{peer, recv, {}});
      else if (peer < rank && peer < tree_root + completed && rank >= tree_root + completed)
        prev = recv_step(f, prev, Side{peer, recv, {}}, Combine::kReplace, ReduceCost{});
    }
  }
}

void smpi_mpich_pair_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks) {
  check(rank, size, blocks);
  After prev;
  for (int i = 1; i < size; ++i) {
    const RankId src = (rank - i + size) % size, dst = (rank + i) % size;
    prev = smpi_sendrecv(f, prev, dst, blocks(dst), src, blocks(rank));
  }
}

void smpi_ompi_recursivehalving_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks) {
  check(rank, size, blocks);
  const Bytes total = range(blocks, size, 0, size);
  if (total == 0) return;
  int pof2 = 1;
  while (pof2 * 2 <= size) pof2 <<= 1;
  const int remain = size - pof2;
  After prev;
  int vrank = rank - remain;
  if (rank < 2 * remain) {
    if (rank % 2 == 0) {
      prev = send_step(f, prev, Side{rank + 1, total, {}});
      vrank = -1;
    } else {
      prev = recv_step(f, prev, Side{rank - 1, total, {}}, Combine::kReplace, ReduceCost{});
      vrank = rank / 2;
    }
  }
  if (vrank >= 0) {
    // Virtual rank v's block: both folded ranks' blocks for v < remain.
    const auto vblock = [&](int v) { return v < remain ? blocks(2 * v) + blocks(2 * v + 1) : blocks(v + remain); };
    const auto vrange = [&](int lo, int hi) {
      Bytes s = 0;
      for (int v = lo; v < hi; ++v) s += vblock(v);
      return s;
    };
    int send_index = 0, recv_index = 0, last_index = pof2;
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
      const int vpeer = vrank ^ mask;
      const RankId peer = vpeer < remain ? vpeer * 2 + 1 : vpeer + remain;
      Bytes send = 0, recv = 0;
      if (vrank < vpeer) {
        send_index = recv_index + mask;
        send = vrange(send_index, last_index);
        recv = vrange(recv_index, send_index);
      } else {
        recv_index = send_index + mask;
        send = vrange(send_index, recv_index);
        recv = vrange(recv_index, last_index);
      }
      if (send > 0 && recv > 0) prev = irecv_send_step(f, prev, peer, send, peer, recv);
      send_index = recv_index;
      last_index = recv_index + mask;
    }
  }
  if (rank < 2 * remain) {
    if (rank % 2 == 0 && blocks(rank) > 0)
      recv_step(f, prev, Side{rank + 1, blocks(rank), {}}, Combine::kReplace, ReduceCost{});
    else if (rank % 2 == 1 && blocks(rank - 1) > 0)
      send_step(f, prev, Side{rank - 1, blocks(rank - 1), {}});
  }
}

void smpi_ompi_ring_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks) {
  check(rank, size, blocks);
  if (size == 1) return;
  Bytes max_block = 0;
  for (RankId r = 0; r < size; ++r) max_block = std::max(max_block, blocks(r));
  const RankId to = (rank + 1) % size, from = (rank + size - 1) % size;
  uint32_t recv = f.recv(from, max_block);
  uint32_t send = f.send(to, blocks(from));
  f.irequire(send, recv);
  for (int k = 2; k < size; ++k) {
    const uint32_t next = f.recv(from, max_block);
    f.require(next, send);  // posted once the blocking send returned
    const uint32_t s = f.send(to, blocks((rank + size - k) % size));
    f.require(s, recv);  // waits for the previous block
    f.require(s, send);
    f.irequire(s, next);
    recv = next;
    send = s;
  }
}

void smpi_ompi_butterfly_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks) {
  check(rank, size, blocks);
  if (size < 2) return;
  int pof2 = 1, log2 = 0;
  while (pof2 * 2 <= size) pof2 <<= 1, ++log2;
  const int rem = size - pof2;
  // Virtual rank v's block of the folded vector: the blocks of ranks [lo(v), hi(v)].
  const auto lo = [&](int v) { return v < rem ? 2 * v : v + rem; };
  const auto hi = [&](int v) { return v < rem ? 2 * v + 1 : v + rem; };
  const auto real = [&](int v) { return v < rem ? 2 * v + 1 : v + rem; };  // the rank that plays v
  After prev;
  int vrank = rank - rem;
  if (rank < 2 * rem) {
    const Side whole{rank % 2 == 0 ? rank + 1 : rank - 1, range(blocks, size, 0, size), {}};
    if (rank % 2 == 0) {
      const After sent = send_step(f, prev, whole);
      // Excluded: its block comes from the rank that reduced it (the mirror of its partner's vrank).
      recv_step(f, sent, Side{real(mirror(rank / 2, log2)), blocks(rank), {}}, Combine::kReplace,
                ReduceCost{});
      return;
    }
    prev = recv_step(f, prev, whole, Combine::kReplace, ReduceCost{});
    vrank = rank / 2;
  }
  int nblocks = pof2, send_index = 0, recv_index = 0;
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const RankId peer = real(vrank ^ mask);
    nblocks /= 2;
    if ((vrank & mask) == 0) send_index += nblocks;
    else recv_index += nblocks;
    const Bytes out = range(blocks, size, lo(send_index), hi(send_index + nblocks - 1) + 1);
    const Bytes in = range(blocks, size, lo(recv_index), hi(recv_index + nblocks - 1) + 1);
    prev = smpi_sendrecv(f, prev, peer, out, peer, in);
    send_index = recv_index;
  }
  // Block `send_index` of the folded vector is reduced here; it belongs to mirror(vrank).
  const int vpeer = mirror(vrank, log2);
  const RankId peer = real(vpeer);
  int index = lo(send_index);
  if (vpeer < rem) prev = send_step(f, prev, Side{peer - 1, blocks(index++), {}});  // the excluded rank's block
  if (vpeer != vrank) smpi_sendrecv(f, prev, peer, blocks(index), peer, blocks(rank));
}

}  // namespace simfab::coll
