#include "mpi/coll/smpi_allgatherv.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "core/error.hpp"
#include "mpi/coll/smpi_steps.hpp"

namespace simfab::coll {

namespace {

void check(RankId rank, int size, PerRank recv) {
  SIMFAB_CHECK(size >= 1 && rank >= 0 && rank < size, "smpi allgatherv: rank out of range");
  SIMFAB_CHECK(recv.v.empty() || recv.v.size() == static_cast<size_t>(size),
               "smpi allgatherv: counts must have one entry per rank");
}

// The bytes of blocks [lo, hi) (clamped to [0, size)).
Bytes range(PerRank recv, int size, int lo, int hi) {
  Bytes s = 0;
  for (int j = std::max(lo, 0); j < std::min(hi, size); ++j) s += recv(j);
  return s;
}

// The bytes of the n blocks first, first+1, ... (mod size).
Bytes wrapped(PerRank recv, int size, int first, int n) {
  Bytes s = 0;
  for (int i = 0; i < n; ++i) s += recv((first + i) % size);
  return s;
}

}  // namespace

void smpi_allgatherv_ring(Fragment& f, RankId rank, int size, Bytes send, PerRank recv) {
  check(rank, size, recv);
  After prev;
  for (int i = 1; i < size; ++i) {
    const RankId src = (rank - i + size) % size, dst = (rank + i) % size;
    prev = smpi_sendrecv(f, prev, dst, send, src, recv(src));
  }
}

void smpi_allgatherv_pair(Fragment& f, RankId rank, int size, Bytes send, PerRank recv) {
  if (!std::has_single_bit(static_cast<unsigned>(size))) return smpi_allgatherv_ring(f, rank, size, send, recv);
  check(rank, size, recv);
  After prev;
  for (int i = 1; i < size; ++i) prev = smpi_sendrecv(f, prev, rank ^ i, send, rank ^ i, recv(rank ^ i));
}

void smpi_allgatherv_ompi_bruck(Fragment& f, RankId rank, int size, PerRank recv) {
  check(rank, size, recv);
  After prev;
  for (int d = 1; d < size; d <<= 1) {
    const RankId from = (rank + d) % size, to = (rank - d + size) % size;
    const int n = d <= size / 2 ? d : size - d;
    prev = smpi_sendrecv(f, prev, to, wrapped(recv, size, rank, n), from, wrapped(recv, size, from, n));
  }
}

void smpi_allgatherv_neighborexchange(Fragment& f, RankId rank, int size, Bytes send, PerRank recv) {
  if (size % 2) return smpi_allgatherv_ring(f, rank, size, send, recv);
  check(rank, size, recv);
  const bool even = rank % 2 == 0;
  const RankId n0 = even ? (rank + 1) % size : (rank - 1 + size) % size;
  const RankId n1 = even ? (rank - 1 + size) % size : (rank + 1) % size;
  const RankId neighbor[2] = {n0, n1};
  int from[2] = {even ? rank : n0, even ? rank : n0};
  const int offset[2] = {even ? 2 : -2, even ? -2 : 2};
  After prev = smpi_sendrecv(f, After{}, n0, recv(rank), n0, recv(n0));
  int send_from = even ? rank : from[0];
  for (int i = 1; i < size / 2; ++i) {
    const int par = i % 2;
    from[par] = (from[par] + offset[par] + size) % size;
    // SimGrid indexes block send_from + 1 without wrapping: send_from is even, so it stays < size.
    const Bytes out = recv(send_from) + recv(send_from + 1), in = recv(from[par]) + recv(from[par] + 1);
    prev = smpi_sendrecv(f, prev, neighbor[par], out, neighbor[par], in);
    send_from = from[par];
  }
}

void smpi_allgatherv_mpich_ring(Fragment& f, RankId rank, int size, PerRank recv, Bytes type_size) {
  check(rank, size, recv);
  const Bytes ts = std::max<Bytes>(1, type_size);
  const Bytes total = range(recv, size, 0, size);
  const RankId left = (size + rank - 1) % size, right = (rank + 1) % size;
  Bytes torecv = total - recv(rank), tosend = total - recv(right);
  Bytes chunk = recv(0);
  for (RankId j = 1; j < size; ++j) chunk = std::min(chunk, recv(j));
  if (chunk < 32768 * 8) chunk = 32768 * 8 / ts * ts;
  if (chunk == 0) chunk = ts;
  RankId sidx = rank, ridx = left;
  Bytes soff = 0, roff = 0;
  After prev;
  while (tosend > 0 || torecv > 0) {
    const Bytes sendnow = tosend ? std::min(chunk, recv(sidx) - soff) : 0;
    const Bytes recvnow = torecv ? std::min(chunk, recv(ridx) - roff) : 0;
    if (sendnow == 0 && recvnow > 0) {
      prev = recv_step(f, prev, Side{left, recvnow, {}}, Combine::kReplace, ReduceCost{});
    } else if (recvnow == 0 && sendnow > 0) {
      prev = send_step(f, prev, Side{right, sendnow, {}});
    } else if (sendnow > 0) {
      prev = smpi_sendrecv(f, prev, right, sendnow, left, recvnow);
    }
    tosend -= sendnow;
    torecv -= recvnow;
    soff += sendnow;
    roff += recvnow;
    if (soff == recv(sidx)) {
      soff = 0;
      sidx = (sidx + size - 1) % size;
    }
    if (roff == recv(ridx)) {
      roff = 0;
      ridx = (ridx + size - 1) % size;
    }
  }
}

void smpi_allgatherv_mpich_rdb(Fragment& f, RankId rank, int size, PerRank recv, bool allgather) {
  check(rank, size, recv);
  const Bytes total = range(recv, size, 0, size);
  if (total == 0) return;
  // Every rank's held bytes (curr_cnt) and last received bytes (last_recv_cnt), step by step: a
  // send carries the sender's, so rank `rank` needs its peers' too.
  std::vector<Bytes> cnt(static_cast<size_t>(size)), last(static_cast<size_t>(size), 0), next;
  for (int r = 0; r < size; ++r) cnt[static_cast<size_t>(r)] = recv(r);
  const auto at = [](std::vector<Bytes>& v, int r) -> Bytes& { return v[static_cast<size_t>(r)]; };
  After prev;
  for (int mask = 1, i = 0; mask < size; mask <<= 1, ++i) {
    next = cnt;
    for (int r = 0; r < size; ++r)
      if ((r ^ mask) < size) {
        at(last, r) = at(cnt, r ^ mask);
        at(next, r) += at(last, r);
      }
    const int dst = rank ^ mask, dst_root = (dst >> i) << i;
    const Bytes posted = allgather ? static_cast<Bytes>(mask) * recv(0) : total - range(recv, size, 0, dst_root);
    if (dst < size) prev = smpi_sendrecv(f, prev, dst, at(cnt, rank), dst, posted);
    cnt.swap(next);
    // Non-power of two: in each subtree whose partner subtree passes P, the holders forward what they
    // last received, in a halving tree (every rank follows its own subtree's rule).
    int k = 0;
    for (int j = mask; j > 1; j >>= 1) ++k;
    for (int tmp = mask >> 1; tmp > 0; tmp >>= 1, --k) {
      for (int r = 0; r < size; ++r) {
        const int rd = r ^ mask, rroot = (r >> i) << i, rdroot = (rd >> i) << i;
        if (rdroot + mask <= size) continue;
        const int completed = size - rroot - mask, peer = r ^ tmp, tree_root = (r >> k) << k;
        const Bytes missing = allgather ? static_cast<Bytes>(completed) * recv(0) : total - range(recv, size, 0, rroot + mask);
        if (peer > r && r < tree_root + completed && peer >= tree_root + completed) {
          if (r == rank) prev = send_step(f, prev, Side{peer, at(last, r), {}});
        } else if (peer < r && peer < tree_root + completed && r >= tree_root + completed) {
          at(last, r) = at(last, peer);
          at(cnt, r) += at(last, r);
          if (r == rank) prev = recv_step(f, prev, Side{peer, missing, {}}, Combine::kReplace, ReduceCost{});
        }
      }
    }
  }
}

}  // namespace simfab::coll
