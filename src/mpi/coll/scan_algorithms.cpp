#include "mpi/coll/scan_algorithms.hpp"

#include "core/error.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

void scan_linear(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost) {
  SIMFAB_CHECK(size >= 1 && rank >= 0 && rank < size, "scan_linear: rank out of range");
  const Segs all{0, 1};
  After prev;
  if (rank > 0) prev = recv_step(f, prev, Side{rank - 1, bytes, all}, Combine::kReduce, cost);
  if (rank + 1 < size) send_step(f, prev, Side{rank + 1, bytes, all});
}

}  // namespace simfab::coll
