#include "mpi/coll/allgather_algorithms.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "core/error.hpp"
#include "mpi/coll/list_step.hpp"
#include "mpi/coll/ring_passes.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

namespace {

void check(RankId rank, int size) { SIMFAB_CHECK(rank >= 0 && rank < size, "allgather: rank out of range"); }

RankId mod(int64_t x, int64_t p) { return static_cast<RankId>(((x % p) + p) % p); }

// `count` blocks from block `first`, contiguous (no wrap), `block_bytes` each, to or from `peer`.
Side blocks(RankId peer, int64_t first, int64_t count, Bytes block_bytes) {
  return Side{peer, block_bytes * static_cast<Bytes>(count),
              Segs{static_cast<uint32_t>(first), static_cast<uint32_t>(count)}};
}

// Blocks first, first+1, ..., first+count-1 (mod p): a run of the ring that may wrap.
void ring_run(std::vector<uint32_t>& out, int64_t first, int64_t count, int64_t p) {
  out.clear();
  for (int64_t j = 0; j < count; ++j) out.push_back(static_cast<uint32_t>(mod(first + j, p)));
}

}  // namespace

void allgather_ring(Fragment& f, RankId rank, int size, Bytes block_bytes) {
  check(rank, size);
  // The allgather pass of OpenMPI's ring allreduce is this algorithm: P blocks of one segment,
  // starting with the own block.
  const RingBlocks ring{block_bytes * static_cast<Bytes>(size), static_cast<uint32_t>(size), 1, 1};
  ring_allgather_pass(f, rank, size, ring, rank, After{});
}

void allgather_recursive_doubling(Fragment& f, RankId rank, int size, Bytes block_bytes) {
  check(rank, size);
  SIMFAB_CHECK(std::has_single_bit(static_cast<unsigned>(size)),
               "allgather_recursive_doubling: size must be a power of two (fall back to Bruck)");
  After prev;
  for (int64_t d = 1; d < size; d *= 2) {
    const auto partner = static_cast<RankId>(rank ^ d);
    prev = sendrecv_step(f, prev, blocks(partner, rank & ~(d - 1), d, block_bytes),
                         blocks(partner, partner & ~(d - 1), d, block_bytes), Combine::kReplace, ReduceCost{});
  }
}

void allgather_bruck(Fragment& f, RankId rank, int size, Bytes block_bytes) {
  check(rank, size);
  const int64_t p = size;
  std::vector<uint32_t> out, in;
  After prev;
  for (int64_t d = 1; d < p; d *= 2) {
    const int64_t count = std::min(d, p - d);
    if (f.tracking()) {
      ring_run(out, rank, count, p);
      ring_run(in, rank + d, count, p);
    }
    const Bytes bytes = block_bytes * static_cast<Bytes>(count);
    prev = sendrecv_list_step(f, prev, mod(rank - d, p), bytes, out, mod(rank + d, p), bytes, in);
  }
}

void allgather_neighbor_exchange(Fragment& f, RankId rank, int size, Bytes block_bytes) {
  check(rank, size);
  SIMFAB_CHECK(size % 2 == 0, "allgather_neighbor_exchange: size must be even (fall back to ring)");
  const int64_t p = size;
  const bool even = rank % 2 == 0;
  // neighbor[0] is the partner of steps 0, 2, 4, ...; the pair received from neighbor[s] moves by
  // offset[s] blocks every other step (OpenMPI's recv_data_from / offset_at_step).
  const RankId neighbor[2] = {mod(rank + (even ? 1 : -1), p), mod(rank + (even ? -1 : 1), p)};
  const int64_t offset[2] = {even ? 2 : -2, even ? -2 : 2};
  int64_t recv_from[2] = {even ? rank : neighbor[0], even ? rank : neighbor[0]};
  After prev = sendrecv_step(f, After{}, blocks(neighbor[0], rank, 1, block_bytes),
                             blocks(neighbor[0], neighbor[0], 1, block_bytes), Combine::kReplace, ReduceCost{});
  int64_t send_from = recv_from[0];  // the even block of the pair {rank, neighbor[0]}
  for (int64_t i = 1; i < p / 2; ++i) {
    const size_t s = static_cast<size_t>(i % 2);
    recv_from[s] = mod(recv_from[s] + offset[s], p);
    prev = sendrecv_step(f, prev, blocks(neighbor[s], send_from, 2, block_bytes),
                         blocks(neighbor[s], recv_from[s], 2, block_bytes), Combine::kReplace, ReduceCost{});
    send_from = recv_from[s];
  }
}

}  // namespace simfab::coll
