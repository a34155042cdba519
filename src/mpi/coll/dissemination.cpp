#include "mpi/coll/dissemination.hpp"

#include "core/error.hpp"

namespace simfab::coll {

namespace {

void rounds(Fragment& f, RankId rank, int size, Bytes bytes, bool ordered_receives) {
  SIMFAB_CHECK(rank >= 0 && rank < size, "dissemination: rank out of range");
  const int64_t p = size;
  int64_t recv = -1;
  for (int64_t dist = 1; dist < p; dist <<= 1) {
    const uint32_t send = f.send(static_cast<RankId>((rank + dist) % p), bytes);
    if (recv >= 0) f.require(send, static_cast<uint32_t>(recv));
    const uint32_t next = f.recv(static_cast<RankId>((rank - dist % p + p) % p), bytes);
    if (recv >= 0 && ordered_receives) f.require(next, static_cast<uint32_t>(recv));
    recv = next;
  }
}

}  // namespace

void dissemination(Fragment& f, RankId rank, int size, Bytes bytes) { rounds(f, rank, size, bytes, false); }
void dissemination_barrier(Fragment& f, RankId rank, int size, Bytes bytes) { rounds(f, rank, size, bytes, true); }

}  // namespace simfab::coll
