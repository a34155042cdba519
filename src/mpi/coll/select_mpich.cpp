#include "mpi/coll/select_mpich.hpp"

#include <algorithm>
#include <bit>

namespace simfab::coll {

namespace {

bool is_pof2(int p) { return p > 0 && std::has_single_bit(static_cast<unsigned>(p)); }

// comm_ptr->pof2 in MPICH: the largest power of two <= comm_size.
Bytes pof2_floor(int p) { return p <= 1 ? 1 : std::bit_floor(static_cast<uint64_t>(p)); }

CollDecision unsegmented(const char* name) { return CollDecision{name, 0}; }

}  // namespace

Bytes mpich_total_bytes(CollOp op, int comm_size, Bytes call_bytes) {
  return op == CollOp::kAllgather ? call_bytes * static_cast<Bytes>(std::max(1, comm_size)) : call_bytes;
}

CollDecision select_mpich(CollOp op, int comm_size, Bytes total_bytes, Bytes type_size) {
  return select_mpich(op, comm_size, total_bytes, type_size, MpichCvars{});
}

CollDecision select_mpich(CollOp op, int comm_size, Bytes total_bytes, Bytes type_size, const MpichCvars& cv) {
  const int p = std::max(1, comm_size);
  const Bytes count = total_bytes / std::max<Bytes>(1, type_size);
  switch (op) {
    case CollOp::kBarrier:
      // MPIR_Barrier_intra_auto: dissemination (the SMP variant is not modelled).
      return unsegmented("dissemination");

    case CollOp::kBcast:
      // MPIR_Bcast_intra_auto: short message or small communicator -> binomial; medium message on a
      // power-of-two communicator -> scatter + recursive-doubling allgather; else scatter + ring.
      if (total_bytes < cv.bcast_short_msg_size || p < cv.bcast_min_procs) return unsegmented("binomial");
      // Both scatter variants map to simfab's scatter + ring allgather (header note 1).
      return unsegmented("scatter-allgather");

    case CollOp::kReduce:
      // MPIR_Reduce_intra_auto: count * type_size > SHORT && builtin op && count >= pof2.
      if (total_bytes > cv.reduce_short_msg_size && count >= pof2_floor(p)) return unsegmented("rabenseifner");
      return unsegmented("binomial");

    case CollOp::kAllreduce:
      // MPIR_Allreduce_intra_auto: nbytes <= SHORT || user op || count < pof2 -> recursive doubling.
      if (total_bytes <= cv.allreduce_short_msg_size || count < pof2_floor(p)) return unsegmented("recursive-doubling");
      return unsegmented("rabenseifner");

    case CollOp::kAllgather:
      // MPIR_Allgather_intra_auto, tot_bytes = recvcount * comm_size * type_size.
      if (total_bytes < cv.allgather_long_msg_size && is_pof2(p)) return unsegmented("recursive-doubling");
      if (total_bytes < cv.allgather_short_msg_size) return unsegmented("bruck");
      return unsegmented("ring");

    case CollOp::kAlltoall:
      // MPIR_Alltoall_intra_auto, nbytes = sendcount * type_size (one destination's block).
      if (total_bytes <= cv.alltoall_short_msg_size && p >= cv.alltoall_bruck_min_procs) return unsegmented("bruck");
      if (total_bytes <= cv.alltoall_medium_msg_size) return unsegmented("basic-linear");  // "scattered"
      return unsegmented("pairwise");

    case CollOp::kGather:   // MPIR_Gather_intra_auto: always binomial
    case CollOp::kScatter:  // MPIR_Scatter_intra_auto: always binomial
      return unsegmented("binomial");

    default: break;  // no OpenMPI/MPICH table (the v-variants, reduce_scatter, scans)
  }
  return unsegmented("schedgen");
}

}  // namespace simfab::coll
