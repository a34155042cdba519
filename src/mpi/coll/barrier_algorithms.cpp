#include "mpi/coll/barrier_algorithms.hpp"

#include "core/error.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

void tree_barrier(Fragment& f, RankId rank, int size, Bytes bytes) {
  TreeNode node;
  tree_node(TreeSpec{TreeShape::kKnomial, 2}, rank, size, 0, node);
  tree_up(f, node, bytes, Segs{}, ReduceCost{});
  const uint32_t down = f.size();
  tree_down(f, node, bytes, Segs{});
  then_after(f, 0, down);
}

void recursive_doubling_barrier(Fragment& f, RankId rank, int size, Bytes bytes) {
  SIMFAB_CHECK(rank >= 0 && rank < size, "recursive_doubling_barrier: rank out of range");
  int64_t q = 1;
  while (q * 2 <= size) q *= 2;
  if (rank >= q) {  // an extra rank: report to rank - Q, wait for the release
    const uint32_t report = f.send(static_cast<RankId>(rank - q), bytes);
    f.require(f.recv(static_cast<RankId>(rank - q), bytes), report);
    return;
  }
  const bool has_extra = rank + q < size;
  int64_t prev_send = -1, prev_recv = -1;
  if (has_extra) prev_recv = f.recv(static_cast<RankId>(rank + q), bytes);
  const auto after_previous = [&](uint32_t op) {
    if (prev_send >= 0) f.require(op, static_cast<uint32_t>(prev_send));
    if (prev_recv >= 0) f.require(op, static_cast<uint32_t>(prev_recv));
  };
  for (int64_t mask = 1; mask < q; mask <<= 1) {
    const auto peer = static_cast<RankId>(rank ^ mask);
    const uint32_t send = f.send(peer, bytes), recv = f.recv(peer, bytes);
    after_previous(send);
    after_previous(recv);
    prev_send = send;
    prev_recv = recv;
  }
  if (has_extra) after_previous(f.send(static_cast<RankId>(rank + q), bytes));
}

void double_ring_barrier(Fragment& f, RankId rank, int size, Bytes bytes) {
  SIMFAB_CHECK(rank >= 0 && rank < size, "double_ring_barrier: rank out of range");
  if (size == 1) return;
  const RankId left = (rank - 1 + size) % size, right = (rank + 1) % size;
  int64_t prev = -1;  // each op of a lap follows the previous one (blocking calls)
  const auto then = [&](uint32_t op) {
    if (prev >= 0) f.require(op, static_cast<uint32_t>(prev));
    prev = op;
  };
  for (int lap = 0; lap < 2; ++lap) {
    if (rank > 0) then(f.recv(left, bytes));
    then(f.send(right, bytes));
    if (rank == 0) then(f.recv(left, bytes));
  }
}

}  // namespace simfab::coll
