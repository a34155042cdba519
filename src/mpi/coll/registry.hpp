// The collective algorithms a user can pick by name (issue 4 part 4, first half: forcing an
// algorithm; the OpenMPI/MPICH decision-table selectors come next).
//
//   --cfg mpi/<collective>=<algorithm>      e.g. mpi/allreduce=ring, mpi/alltoall=bruck
//   simfab coll --list                      every collective, its key and its algorithms
//
// `schedgen` (the default of every key) keeps LogGOPSim's Schedgen patterns that TI replay has
// always used (dissemination for barrier/allreduce/allgather, binomial for bcast/reduce, linear
// for the rest), so results of existing traces do not change unless a key is set. Every other
// algorithm is one of the checked generators of mpi/coll/*_algorithms.hpp, called with:
//   bcast, reduce, allreduce   the whole buffer (the trace's count x datatype size)
//   allgather, alltoall, gather, scatter   one rank's block
// Fixed parameters (documented per algorithm): pipelined algorithms cut the buffer into segments
// of at most kSegmentBytes; algorithms restricted to some sizes fall back as OpenMPI does
// (recursive-doubling allgather -> Bruck when P is not a power of two, neighbour exchange -> ring
// when P is odd). Reductions charge no extra calc here: TI replay closes a reducing collective
// with the trace's own compute amount, as before.
// The v-variants (alltoallv, gatherv, ...) and reduce_scatter always use their Schedgen pattern.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "core/config.hpp"
#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

enum class CollOp : uint8_t { kBarrier, kBcast, kReduce, kAllreduce, kAllgather, kAlltoall, kGather, kScatter, kCount };

struct CollCall {
  RankId rank = 0;
  int size = 1;
  RankId root = 0;
  Bytes bytes = 0;  // the whole buffer, or one block (see above)
};

struct CollAlgorithm {
  const char* name;
  const char* doc;
  void (*build)(Fragment& f, const CollCall& c);
};

inline constexpr Bytes kSegmentBytes = 65536;

const char* coll_op_name(CollOp op);  // "allreduce"
std::string coll_op_key(CollOp op);   // "mpi/allreduce"
// The algorithms of `op`, "schedgen" first.
std::span<const CollAlgorithm> coll_algorithms(CollOp op);

// Declares mpi/<collective> for every CollOp (a choice among its algorithm names).
void register_coll_keys(Config& cfg);

// The algorithm configured for each collective; nullptr = schedgen (the caller's own pattern).
struct CollChoice {
  std::array<const CollAlgorithm*, static_cast<size_t>(CollOp::kCount)> algorithm{};
  static CollChoice from(const Config& cfg);
  const CollAlgorithm* of(CollOp op) const { return algorithm[static_cast<size_t>(op)]; }
};

}  // namespace simfab::coll
