#include "mpi/coll/dissemination.hpp"

#include "core/error.hpp"

namespace simfab::coll {

void dissemination(Fragment& f, RankId rank, int size, Bytes bytes) {
  SIMFAB_CHECK(rank >= 0 && rank < size, "dissemination: rank out of range");
  const int64_t p = size;
  int64_t recv = -1;
  for (int64_t dist = 1; dist < p; dist <<= 1) {
    const uint32_t send = f.send(static_cast<RankId>((rank + dist) % p), bytes);
    if (recv >= 0) f.require(send, static_cast<uint32_t>(recv));
    recv = f.recv(static_cast<RankId>((rank - dist % p + p) % p), bytes);
  }
}

}  // namespace simfab::coll
