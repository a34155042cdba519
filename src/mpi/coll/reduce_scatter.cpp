#include "mpi/coll/reduce_scatter.hpp"

#include "core/error.hpp"
#include "mpi/coll/binomial.hpp"
#include "mpi/coll/linear.hpp"

namespace simfab::coll {

void reduce_scatter_reduce_then_scatterv(Fragment& f, RankId rank, int size, std::span<const Bytes> recv,
                                         Bytes total) {
  SIMFAB_CHECK(recv.size() == static_cast<size_t>(size), "reduce_scatter: counts must have one entry per rank");
  const uint32_t reduce_begin = f.size();
  binomial_reduce(f, rank, size, 0, total, Segs{0, static_cast<uint32_t>(size)});
  const uint32_t reduce_end = f.size();
  linear_scatterv(f, rank, size, 0, recv, recv[static_cast<size_t>(rank)]);
  const uint32_t scatter_end = f.size();
  // end_ops() returns a view of a scratch buffer that require() does not touch.
  std::span<const uint32_t> ends = f.end_ops(reduce_begin, reduce_end);
  for (uint32_t s = reduce_end; s < scatter_end; ++s)
    for (uint32_t e : ends) f.require(s, e);
}

}  // namespace simfab::coll
