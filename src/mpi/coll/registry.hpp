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
// Selectors: --cfg mpi/coll-selector=ompi|mpich picks per call as OpenMPI 4.1's tuned component
// or MPICH 3.3 would (an explicit mpi/<collective> still wins).
// Fixed parameters (documented per algorithm): pipelined algorithms cut the buffer into segments
// of at most kSegmentBytes (a selector may ask for another size, or none); algorithms restricted to some sizes fall back as OpenMPI does
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

inline constexpr Bytes kSegmentBytes = 65536;

struct CollCall {
  RankId rank = 0;
  int size = 1;
  RankId root = 0;
  Bytes bytes = 0;                      // the whole buffer, or one block (see above)
  Bytes segment_bytes = kSegmentBytes;  // pipelined algorithms' segment size; 0 = unsegmented
};

struct CollAlgorithm {
  const char* name;
  const char* doc;
  void (*build)(Fragment& f, const CollCall& c);
};

const char* coll_op_name(CollOp op);  // "allreduce"
std::string coll_op_key(CollOp op);   // "mpi/allreduce"
// The algorithms of `op`, "schedgen" first.
std::span<const CollAlgorithm> coll_algorithms(CollOp op);

// Declares mpi/<collective> for every CollOp (a choice among its algorithm names).
void register_coll_keys(Config& cfg);

const CollAlgorithm* find_coll_algorithm(CollOp op, std::string_view name);

// How each collective picks its algorithm: a forced mpi/<collective> wins; otherwise the
// selector (mpi/coll-selector) decides per call from the communicator size and the bytes
// (select_ompi.hpp, select_mpich.hpp); `schedgen` leaves the caller's own pattern.
struct CollChoice {
  enum class Selector : uint8_t { kSchedgen, kOmpi, kMpich };
  Selector selector = Selector::kSchedgen;
  std::array<bool, static_cast<size_t>(CollOp::kCount)> forced{};
  std::array<const CollAlgorithm*, static_cast<size_t>(CollOp::kCount)> algorithm{};

  static CollChoice from(const Config& cfg);
  // Appends the chosen algorithm's ops for `call`; false when the choice is schedgen.
  bool build(CollOp op, Fragment& f, CollCall call) const;
};

}  // namespace simfab::coll
