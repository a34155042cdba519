#include "mpi/coll/alltoall_algorithms.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "core/error.hpp"
#include "mpi/coll/list_step.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

namespace {

void check(RankId rank, int size) { SIMFAB_CHECK(rank >= 0 && rank < size, "alltoall: rank out of range"); }

RankId mod(int64_t x, int64_t p) { return static_cast<RankId>(((x % p) + p) % p); }

// Segment of block (src, dst) (check.hpp: block i*P + j).
uint32_t block_id(int64_t src, int64_t dst, int64_t p) { return static_cast<uint32_t>(mod(src, p) * p + mod(dst, p)); }
Segs block(int64_t src, int64_t dst, int64_t p) { return Segs{block_id(src, dst, p), 1}; }
Side block_side(RankId peer, int64_t src, int64_t dst, int64_t p, Bytes block_bytes) {
  return Side{peer, block_bytes, block(src, dst, p)};
}

// The blocks a Bruck message of step distance d holds at rank `holder` (the sender).
void bruck_blocks(std::vector<uint32_t>& out, int64_t holder, int64_t d, int64_t p) {
  out.clear();
  for (int64_t j = d; j < p; ++j) {
    if (!(j & d)) continue;
    const int64_t src = holder - (j & (d - 1));
    out.push_back(block_id(src, src + j, p));
  }
}

// The blocks a ring message of step t holds at rank `holder` (the sender): from src holder-t+1,
// for every destination o = t .. p-1 hops away from src.
void ring_blocks(std::vector<uint32_t>& out, int64_t holder, int64_t t, int64_t p) {
  out.clear();
  const int64_t src = holder - t + 1;
  for (int64_t o = t; o < p; ++o) out.push_back(block_id(src, src + o, p));
}

}  // namespace

uint32_t alltoall_bruck_blocks(int size, int d) {
  SIMFAB_CHECK(size >= 1 && d >= 1 && std::has_single_bit(static_cast<unsigned>(d)), "alltoall_bruck_blocks: d = 2^i");
  return static_cast<uint32_t>((size / (2 * d)) * d + std::max(0, size % (2 * d) - d));
}

void alltoall_pairwise(Fragment& f, RankId rank, int size, Bytes block_bytes, PairwisePartner partner) {
  check(rank, size);
  const int64_t p = size;
  const bool use_xor = partner == PairwisePartner::kXor && std::has_single_bit(static_cast<unsigned>(size));
  After prev;
  for (int64_t s = 1; s < p; ++s) {
    const RankId to = use_xor ? static_cast<RankId>(rank ^ s) : mod(rank + s, p);
    const RankId from = use_xor ? to : mod(rank - s, p);
    prev = sendrecv_step(f, prev, block_side(to, rank, to, p, block_bytes), block_side(from, from, rank, p, block_bytes),
                         Combine::kReplace, ReduceCost{});
  }
}

void alltoall_bruck(Fragment& f, RankId rank, int size, Bytes block_bytes) {
  check(rank, size);
  const int64_t p = size;
  std::vector<uint32_t> out, in;
  After prev;
  for (int64_t d = 1; d < p; d *= 2) {
    const RankId to = mod(rank + d, p), from = mod(rank - d, p);
    if (f.tracking()) {
      bruck_blocks(out, rank, d, p);
      bruck_blocks(in, from, d, p);
    }
    const Bytes bytes = block_bytes * alltoall_bruck_blocks(size, static_cast<int>(d));
    prev = sendrecv_list_step(f, prev, to, bytes, out, from, bytes, in);
  }
}

void alltoall_basic_linear(Fragment& f, RankId rank, int size, Bytes block_bytes) {
  alltoall_linear_sync(f, rank, size, block_bytes, 0);
}

void alltoall_linear_sync(Fragment& f, RankId rank, int size, Bytes block_bytes, int max_outstanding) {
  check(rank, size);
  const int64_t p = size, n = p - 1;
  if (n == 0) return;
  const int64_t m = (max_outstanding <= 0 || max_outstanding > n) ? n : max_outstanding;
  const uint32_t first_recv = f.size();
  for (int64_t k = 0; k < n; ++k) {  // receive k: from r+1+k
    const RankId from = mod(rank + 1 + k, p);
    const uint32_t op = f.recv(from, block_bytes, block(from, rank, p));
    if (k >= m) f.require(op, op - static_cast<uint32_t>(m));
  }
  const uint32_t last_posted_recv = first_recv + static_cast<uint32_t>(m - 1);
  for (int64_t k = 0; k < n; ++k) {  // send k: to r-1-k
    const RankId to = mod(rank - 1 - k, p);
    const uint32_t op = f.send(to, block_bytes, block(rank, to, p));
    if (k < m) f.irequire(op, last_posted_recv);
    else f.require(op, op - static_cast<uint32_t>(m));
  }
}

void alltoall_ring(Fragment& f, RankId rank, int size, Bytes block_bytes) {
  check(rank, size);
  const int64_t p = size;
  std::vector<uint32_t> out, in;
  After prev;
  for (int64_t t = 1; t < p; ++t) {
    const RankId to = mod(rank + 1, p), from = mod(rank - 1, p);
    if (f.tracking()) {
      ring_blocks(out, rank, t, p);
      ring_blocks(in, from, t, p);
    }
    const Bytes bytes = block_bytes * static_cast<Bytes>(p - t);
    prev = sendrecv_list_step(f, prev, to, bytes, out, from, bytes, in);
  }
}

}  // namespace simfab::coll
