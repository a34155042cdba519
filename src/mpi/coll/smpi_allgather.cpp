#include "mpi/coll/smpi_allgather.hpp"

#include "core/error.hpp"

namespace simfab::coll {

void smpi_allgather_ntslr_nb(Fragment& f, RankId rank, int size, Bytes block) {
  SIMFAB_CHECK(size >= 1 && rank >= 0 && rank < size, "smpi allgather NTSLR_NB: rank out of range");
  const RankId to = (rank + 1) % size, from = (rank + size - 1) % size;
  const uint32_t first = f.size();
  for (int i = 0; i + 1 < size; ++i) f.recv(from, block);
  uint32_t prev_send = 0;
  for (int i = 0; i + 1 < size; ++i) {
    const uint32_t s = f.send(to, block);
    f.irequire(s, first + static_cast<uint32_t>(size - 2));  // every irecv was posted first
    if (i > 0) {  // waited for irecv i-1 and isend i-1
      f.require(s, prev_send);
      f.require(s, first + static_cast<uint32_t>(i - 1));
    }
    prev_send = s;
  }
}

}  // namespace simfab::coll
