#include "mpi/coll/smpi_linear.hpp"

#include "core/error.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

void check(RankId rank, int size, RankId root, PerRank a, PerRank b = {}) {
  SIMFAB_CHECK(rank >= 0 && rank < size && root >= 0 && root < size, "smpi linear collective: rank out of range");
  SIMFAB_CHECK((a.v.empty() || a.v.size() == static_cast<size_t>(size)) &&
                   (b.v.empty() || b.v.size() == static_cast<size_t>(size)),
               "smpi linear collective: counts must have one entry per rank");
}

Segs block(RankId r) { return Segs{static_cast<uint32_t>(r), 1}; }
Segs pair_block(RankId src, RankId dst, int size) {
  return Segs{static_cast<uint32_t>(src) * static_cast<uint32_t>(size) + static_cast<uint32_t>(dst), 1};
}

}  // namespace

void smpi_linear_to_root(Fragment& f, RankId rank, int size, RankId root, Bytes send, PerRank recv, bool reduce) {
  check(rank, size, root, recv);
  const auto data = [&](RankId r) { return reduce ? Segs{0, 1} : block(r); };
  if (rank != root) {
    f.send(root, send, data(rank));
    return;
  }
  for (RankId r = 0; r < size; ++r)
    if (r != root) f.recv(r, recv(r), data(r), reduce ? Combine::kReduce : Combine::kReplace);
}

void smpi_linear_from_root(Fragment& f, RankId rank, int size, RankId root, PerRank send, Bytes recv) {
  check(rank, size, root, send);
  if (rank != root) {
    f.recv(root, recv, block(rank));
    return;
  }
  for (RankId r = 0; r < size; ++r)
    if (r != root) f.send(r, send(r), block(r));
}

void smpi_linear_allgatherv(Fragment& f, RankId rank, int size, Bytes send, PerRank recv) {
  check(rank, size, 0, recv);
  for (RankId r = 0; r < size; ++r) {
    if (r == rank) continue;
    f.send(r, send, block(rank));
    f.recv(r, recv(r), block(r));
  }
}

void smpi_linear_alltoallv(Fragment& f, RankId rank, int size, PerRank send, PerRank recv) {
  check(rank, size, 0, send, recv);
  for (RankId r = 0; r < size; ++r)
    if (r != rank) f.recv(r, recv(r), pair_block(r, rank, size));
  for (RankId r = 0; r < size; ++r)
    if (r != rank) f.send(r, send(r), pair_block(rank, r, size));
}

void smpi_linear_scan(Fragment& f, RankId rank, int size, Bytes bytes) {
  check(rank, size, 0, {});
  for (RankId r = 0; r < rank; ++r) f.recv(r, bytes);
  for (RankId r = rank + 1; r < size; ++r) f.send(r, bytes);
}

void smpi_blocking(Fragment& f, uint32_t begin) {
  for (uint32_t i = begin + 1; i < f.size(); ++i) f.require(i, i - 1);
}

void smpi_default_reduce_scatter(Fragment& f, RankId rank, int size, PerRank blocks) {
  check(rank, size, 0, blocks);
  Bytes total = 0;
  for (RankId r = 0; r < size; ++r) total += blocks(r);
  const uint32_t begin = f.size();
  const Segs all{0, static_cast<uint32_t>(size)};
  if (rank != 0) {
    f.send(0, total, all);
  } else {
    for (RankId r = 1; r < size; ++r) f.recv(r, total, all, Combine::kReduce);
  }
  const uint32_t scatter = f.size();
  smpi_linear_from_root(f, rank, size, 0, blocks, blocks(rank));
  then_after(f, begin, scatter);
}

}  // namespace simfab::coll
