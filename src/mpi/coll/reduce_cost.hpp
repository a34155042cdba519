// ReduceCost: the computation a reduction charges (issue 4: "reduction work is charged as
// computation, bytes x a configurable cost"). A generator that combines a received buffer with
// its own calls reduce_after(f, recv, bytes, cost): with a cost it appends a calc of
// bytes * ps_per_byte that requires the recv and returns it (what later sends of the combined
// data must require); without one it returns the recv itself, so the graph has no zero calcs.
#pragma once

#include <cmath>

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

struct ReduceCost {
  double ps_per_byte = 0;  // >= 0; 0 = free (Schedgen's graphs have no reduction calcs)
};

inline uint32_t reduce_after(Fragment& f, uint32_t recv, Bytes bytes, const ReduceCost& cost) {
  if (cost.ps_per_byte <= 0) return recv;
  const uint32_t c = f.calc(SimTime::ps(static_cast<int64_t>(std::llround(cost.ps_per_byte * static_cast<double>(bytes)))));
  f.require(c, recv);
  return c;
}

}  // namespace simfab::coll
