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
// plus the size of one element (CollCall::type_size: the trace's datatype size; elements =
// bytes / type_size), because the libraries decide some things by element count, not bytes.
// Selectors: --cfg mpi/coll-selector=ompi|mpich picks per call as OpenMPI 4.1's tuned component
// or MPICH 3.3 would (an explicit mpi/<collective> still wins), from P, the bytes and, where the
// library looks at it, the element count (select_ompi.hpp, select_mpich.hpp).
// Reduction operations are assumed commutative (and predefined): TI traces do not record the
// operation, so the libraries' non-commutative branches (in-order trees, no ring/Rabenseifner)
// are never taken.
// Fixed parameters (documented per algorithm): pipelined algorithms cut the buffer into segments
// of at most kSegmentBytes (a selector may ask for another size, or none), counted in whole
// elements as OpenMPI does (segcount = segment / type_size, rounded to the nearest element,
// COLL_BASE_COMPUTED_SEGCOUNT). Algorithms restricted to some sizes fall back as OpenMPI does:
//   allgather recursive-doubling -> bruck            when P is not a power of two
//   allgather neighbor-exchange  -> ring             when P is odd
//   allreduce ring               -> recursive-doubling  when count < P (allreduce_intra_ring)
//   allreduce segmented-ring     -> ring             when count < P * segcount; otherwise
//             OpenMPI's num_phases = count / (P segcount), +1 when the remainder is >= P and
//             more than half of P segcount (allreduce_intra_ring_segmented)
//   bcast split-binary           -> pipeline (chain)  when count < 2 (a half is empty); otherwise
//             each half (ceil(count/2) elements for both) is cut into segment / type_size elements
// (count = elements). Rabenseifner and scatter-allgather are shared with MPICH, whose versions
// do not fall back; OpenMPI's count fallbacks for them are applied by select_ompi only.
// Reductions charge no extra calc here: TI replay closes a reducing collective with the trace's
// own compute amount, as before.
// The v-variants (alltoallv, gatherv, ...) and reduce_scatter always use their Schedgen pattern.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "core/config.hpp"
#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

// The first eight have OpenMPI/MPICH algorithms; the v-variants, reduce_scatter, scan and exscan
// have only Schedgen's pattern and SimGrid's (the smpi-* selectors, select_smpi.hpp).
enum class CollOp : uint8_t {
  kBarrier, kBcast, kReduce, kAllreduce, kAllgather, kAlltoall, kGather, kScatter,
  kAllgatherv, kAlltoallv, kGatherv, kScatterv, kReduceScatter, kScan, kExscan, kCount
};

// Which SimGrid 3.32 selector runs (the smpi-* selectors, select_smpi.hpp). SimGrid algorithms
// that call another collective (allreduce = reduce + bcast, the remainder of allreduce-lr) call
// the one this selector picks, as SMPI's colls::reduce etc. do.
enum class SmpiSelector : uint8_t { kNone, kDefault, kOmpi, kMpich };

inline constexpr Bytes kSegmentBytes = 65536;

struct CollCall {
  RankId rank = 0;
  int size = 1;
  RankId root = 0;
  Bytes bytes = 0;                      // the whole buffer, or one block (see above)
  Bytes type_size = 1;                  // bytes per element (elements = bytes / type_size); >= 1
  Bytes segment_bytes = kSegmentBytes;  // pipelined algorithms' segment size; 0 = unsegmented
  // Per-rank byte counts of the v-variants and reduce_scatter (P entries each; empty otherwise):
  //   allgatherv, gatherv   counts = received from each rank (bytes = what this rank sends)
  //   scatterv              counts = sent to each rank (bytes = what this rank receives)
  //   alltoallv             counts = sent to each rank, counts2 = received from each
  //   reduce_scatter        counts = each rank's block (bytes = their sum)
  std::span<const Bytes> counts{};
  std::span<const Bytes> counts2{};
  SmpiSelector smpi = SmpiSelector::kNone;  // set by CollChoice for smpi-* algorithms
  // SimGrid's per-communicator SMP set-up (Comm::init_smp, smpi_bcast.hpp) has run for this rank
  // on this communicator; the caller owns it (one per rank and communicator). nullptr: untracked.
  bool* smp_ready = nullptr;

  // The element count of `bytes` (MPI's `count`). A type_size of 0 counts as 1.
  Bytes elements() const { return bytes / (type_size ? type_size : 1); }
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

// The collectives of the MPI library that ran a traced or calibrated program (issue 28): a
// capture or calibration names its library (MPI_Get_library_version), and the replay then runs
// that library's decision rules unless the run chose a selector itself. "Open MPI ..." gives
// mpi/coll-selector=ompi; MPICH and its derivatives (MVAPICH, Intel MPI) give mpich; any other
// library (or "") leaves the default. library_coll_selector gives that selector (nullptr: none);
// select_library_collectives sets it in cfg and returns it, or "" when it set nothing.
const char* library_coll_selector(std::string_view library);
std::string select_library_collectives(Config& cfg, std::string_view library, const SourceLoc& where);

const CollAlgorithm* find_coll_algorithm(CollOp op, std::string_view name);

// How each collective picks its algorithm: SimGrid's smpi/<collective> wins when set, then a
// forced mpi/<collective>; otherwise the
// selector (mpi/coll-selector) decides per call from the communicator size, the bytes and the
// element count (select_ompi.hpp, select_mpich.hpp); `schedgen` leaves the caller's own pattern.
struct CollChoice {
  enum class Selector : uint8_t { kSchedgen, kOmpi, kMpich, kSmpiDefault, kSmpiOmpi, kSmpiMpich };
  Selector selector = Selector::kSchedgen;
  std::array<bool, static_cast<size_t>(CollOp::kCount)> forced{};
  std::array<const CollAlgorithm*, static_cast<size_t>(CollOp::kCount)> algorithm{};
  // smpi/<collective>=ompi|mpich: that collective follows that smpi selector.
  std::array<SmpiSelector, static_cast<size_t>(CollOp::kCount)> smpi_forced{};
  // network/model=smpi: build() warns, once each, about calls SimGrid 3.32 refuses (smpi_refusals.hpp).
  bool warn_smpi_refusals = false;
  // The SimGrid selector behind `selector` (kNone unless it is an smpi-* one).
  SmpiSelector smpi_selector() const;
  // Whether a call may run SimGrid's per-communicator SMP set-up (smpi-mpich or smpi-ompi anywhere,
  // bcast forced to SMP_binomial or mvapich2_knomial_intra_node, barrier to mpich_smp), i.e.
  // whether a caller needs to keep CollCall::smp_ready.
  bool uses_smp_setup() const;

  static CollChoice from(const Config& cfg);
  bool operator==(const CollChoice&) const = default;
  // Appends the chosen algorithm's ops for `call` and returns it; nullptr (nothing appended) when
  // the choice is schedgen.
  const CollAlgorithm* build(CollOp op, Fragment& f, CollCall call) const;
};

}  // namespace simfab::coll
