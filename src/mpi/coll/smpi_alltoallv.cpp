#include "mpi/coll/smpi_alltoallv.hpp"

#include <algorithm>
#include <bit>

#include "core/error.hpp"
#include "mpi/coll/smpi_steps.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

void check(RankId rank, int size, PerRank a, PerRank b) {
  SIMFAB_CHECK(size >= 1 && rank >= 0 && rank < size, "smpi alltoallv: rank out of range");
  SIMFAB_CHECK((a.v.empty() || a.v.size() == static_cast<size_t>(size)) &&
                   (b.v.empty() || b.v.size() == static_cast<size_t>(size)),
               "smpi alltoallv: counts must have one entry per rank");
}

constexpr int kThrottle = 4;  // MPIR_PARAM_ALLTOALL_THROTTLE in alltoallv-bruck.cpp

}  // namespace

void smpi_alltoallv_bruck(Fragment& f, RankId rank, int size, PerRank send, PerRank recv, bool to_self) {
  check(rank, size, send, recv);
  uint32_t group = f.size();
  for (int ii = 0; ii < size; ii += kThrottle) {
    const uint32_t begin = f.size();
    const int ss = std::min(kThrottle, size - ii);
    for (int i = 0; i < ss; ++i)
      if (const RankId src = (rank + i + ii) % size; to_self || src != rank) f.recv(src, recv(src));
    for (int i = 0; i < ss; ++i)
      if (const RankId dst = (rank - i - ii + size) % size; to_self || dst != rank) f.send(dst, send(dst));
    if (ii > 0) then_after(f, group, begin);  // waitall before the next group
    group = begin;
  }
}

void smpi_alltoallv_pair(Fragment& f, RankId rank, int size, PerRank send, PerRank recv) {
  if (!std::has_single_bit(static_cast<unsigned>(size))) return smpi_alltoallv_bruck(f, rank, size, send, recv);
  check(rank, size, send, recv);
  After prev;
  for (int i = 1; i < size; ++i) prev = smpi_sendrecv(f, prev, rank ^ i, send(rank ^ i), rank ^ i, recv(rank ^ i));
}

}  // namespace simfab::coll
