#include "mpi/coll/binomial.hpp"

#include "core/error.hpp"

namespace simfab::coll {

void binomial_bcast(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, Segs data) {
  SIMFAB_CHECK(rank >= 0 && rank < size && root >= 0 && root < size, "binomial_bcast: rank out of range");
  const int64_t p = size;
  const int64_t v = binomial_vrank(rank, root);
  int64_t recv = -1;
  for (int64_t d = 1; d < p; d <<= 1) {
    if (v < d && v + d < p) {
      const uint32_t send = f.send(binomial_vrank(static_cast<RankId>(v + d), root), bytes, data);
      if (recv >= 0) f.require(send, static_cast<uint32_t>(recv));
    }
    if (v >= d && v < 2 * d) recv = f.recv(binomial_vrank(static_cast<RankId>(v - d), root), bytes, data);
  }
}

void binomial_reduce(Fragment& f, RankId rank, int size, RankId root, Bytes bytes, Segs data) {
  SIMFAB_CHECK(rank >= 0 && rank < size && root >= 0 && root < size, "binomial_reduce: rank out of range");
  const int64_t p = size;
  const int64_t v = binomial_vrank(rank, root);
  int64_t send = -1;
  for (int64_t d = 1; d < p; d <<= 1) {
    if (v < d && v + d < p) {
      const uint32_t recv = f.recv(binomial_vrank(static_cast<RankId>(v + d), root), bytes, data, Combine::kReduce);
      if (send >= 0) f.require(static_cast<uint32_t>(send), recv);
    }
    if (v >= d && v < 2 * d) send = f.send(binomial_vrank(static_cast<RankId>(v - d), root), bytes, data);
  }
}

}  // namespace simfab::coll
