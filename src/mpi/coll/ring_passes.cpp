#include "mpi/coll/ring_passes.hpp"

#include "core/error.hpp"

namespace simfab::coll {

namespace {

uint32_t wrap(int64_t b, int size) { return static_cast<uint32_t>(((b % size) + size) % size); }

void check(RankId rank, int size, const RingBlocks& blocks) {
  SIMFAB_CHECK(rank >= 0 && rank < size && blocks.blocks == static_cast<uint32_t>(size) && blocks.pieces >= 1 &&
                   blocks.stride % blocks.pieces == 0,
               "ring pass: rank out of range or bad blocks");
}

}  // namespace

After ring_reduce_scatter_pass(Fragment& f, RankId rank, int size, const RingBlocks& blocks, uint32_t ph,
                               int first, const ReduceCost& cost, After prev) {
  check(rank, size, blocks);
  if (size == 1) return prev;
  const RankId to = (rank + 1) % size, from = (rank + size - 1) % size;
  const Side in0 = blocks.piece(from, wrap(first - 1, size), ph);
  uint32_t recv = f.recv(from, in0.bytes, in0.segs, Combine::kReduce);
  require_after(f, recv, prev);
  uint32_t send = send_step(f, prev, blocks.piece(to, wrap(first, size), ph)).a;
  for (int j = 1; j <= size - 2; ++j) {
    const Side in = blocks.piece(from, wrap(first - 1 - j, size), ph);
    const uint32_t next = f.recv(from, in.bytes, in.segs, Combine::kReduce);
    f.require(next, send);
    f.irequire(next, recv);  // posted after irecv j-1 (program order; the FIFO match needs it)
    const uint32_t reduced = received(f, recv, blocks.piece(from, wrap(first - j, size), ph), Combine::kReduce, cost);
    send = send_step(f, After{reduced, send}, blocks.piece(to, wrap(first - j, size), ph)).a;
    recv = next;
  }
  return After{send, received(f, recv, blocks.piece(from, wrap(first + 1, size), ph), Combine::kReduce, cost)};
}

After ring_allgather_pass(Fragment& f, RankId rank, int size, const RingBlocks& blocks, int first, After prev) {
  check(rank, size, blocks);
  const RankId to = (rank + 1) % size, from = (rank + size - 1) % size;
  for (int j = 0; j <= size - 2; ++j)
    prev = sendrecv_step(f, prev, blocks.whole(to, wrap(first - j, size)), blocks.whole(from, wrap(first - 1 - j, size)),
                         Combine::kReplace, ReduceCost{});
  return prev;
}

}  // namespace simfab::coll
