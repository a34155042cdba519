#include "mpi/coll/barrier_algorithms.hpp"

#include "core/error.hpp"
#include "mpi/coll/step.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

// Fan-in to rank 0 over `spec`'s tree, then fan-out down the same tree.
void up_then_down(Fragment& f, RankId rank, int size, Bytes bytes, TreeSpec spec) {
  TreeNode node;
  tree_node(spec, rank, size, 0, node);
  tree_up(f, node, bytes, Segs{}, ReduceCost{});
  const uint32_t down = f.size();
  tree_down(f, node, bytes, Segs{});
  then_after(f, 0, down);
}

}  // namespace

void tree_barrier(Fragment& f, RankId rank, int size, Bytes bytes) {
  up_then_down(f, rank, size, bytes, TreeSpec{TreeShape::kKnomial, 2});
}

void linear_barrier(Fragment& f, RankId rank, int size, Bytes bytes) {
  up_then_down(f, rank, size, bytes, TreeSpec{TreeShape::kFlat, 1});
}

void smpi_ompi_tree_barrier(Fragment& f, RankId rank, int size, Bytes bytes) {
  SIMFAB_CHECK(rank >= 0 && rank < size, "smpi_ompi_tree_barrier: rank out of range");
  int64_t depth = 1;
  while (depth < size) depth <<= 1;
  After prev;
  const auto step = [&](int64_t jump, bool up) {
    const int64_t partner = rank ^ jump;
    if ((partner & (jump - 1)) != 0 || partner >= size) return;
    const Side side{static_cast<RankId>(partner), bytes, {}};
    if ((partner > rank) == up) prev = recv_step(f, prev, side, Combine::kReplace, ReduceCost{});
    else prev = send_step(f, prev, side);
  };
  for (int64_t jump = 1; jump < depth; jump <<= 1) step(jump, true);
  for (int64_t jump = depth >> 1; jump > 0; jump >>= 1) step(jump, false);
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
