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
// OpenMPI's COLL_BASE_COMPUTED_SEGCOUNT (coll_base_util.h; SimGrid's COLL_TUNED_COMPUTED_SEGCOUNT):
// the elements of one `segment`-byte segment, rounded to the nearest element, or `count` when the
// segment holds the whole buffer (or less than one element). REQUIRES: type_size >= 1.
inline Bytes computed_segcount(Bytes segment, Bytes type_size, Bytes count) {
  if (segment < type_size || segment >= type_size * count) return count;
  Bytes segcount = segment / type_size;
  if (segment - segcount * type_size > type_size / 2) ++segcount;
  return segcount;
}
// The first byte of piece i (the sum of the shares before it).
inline Bytes share_offset(Bytes total, uint32_t parts, uint32_t i) {
  const Bytes base = total / parts, extra = total % parts;
  return base * i + (i < extra ? i : extra);
}

}  // namespace simfab::coll
