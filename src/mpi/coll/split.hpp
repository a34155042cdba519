// share(): how algorithms cut a buffer of `total` bytes into `parts` nearly equal pieces (the
// blocks of a ring or Rabenseifner allreduce, the segments of a pipelined bcast): piece i gets
// total / parts bytes, plus one for the first total % parts pieces (MPICH and OpenMPI cut the same
// way, in elements; simfab counts bytes). Pieces of a zero-byte buffer are empty.
#pragma once

#include <cstdint>

#include "core/sim_time.hpp"

namespace simfab::coll {

// REQUIRES: parts > 0, i < parts.
inline Bytes share(Bytes total, uint32_t parts, uint32_t i) {
  return total / parts + (i < total % parts ? 1 : 0);
}
// The first byte of piece i (the sum of the shares before it).
inline Bytes share_offset(Bytes total, uint32_t parts, uint32_t i) {
  const Bytes base = total / parts, extra = total % parts;
  return base * i + (i < extra ? i : extra);
}

}  // namespace simfab::coll
