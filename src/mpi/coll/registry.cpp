#include "mpi/coll/registry.hpp"

#include <algorithm>
#include <bit>

#include "mpi/coll/allgather_algorithms.hpp"
#include "mpi/coll/allreduce_algorithms.hpp"
#include "mpi/coll/alltoall_algorithms.hpp"
#include "mpi/coll/barrier_algorithms.hpp"
#include "mpi/coll/bcast_algorithms.hpp"
#include "mpi/coll/dissemination.hpp"
#include "mpi/coll/gather_scatter_algorithms.hpp"
#include "mpi/coll/reduce_algorithms.hpp"
#include "mpi/coll/select_mpich.hpp"
#include "mpi/coll/select_ompi.hpp"
#include "mpi/coll/select_smpi.hpp"
#include "mpi/coll/smpi_bcast.hpp"
#include "mpi/coll/smpi_bcast_large.hpp"
#include "mpi/coll/smpi_linear.hpp"
#include "mpi/coll/smpi_reduce.hpp"
#include "mpi/coll/smpi_allgather.hpp"
#include "mpi/coll/smpi_allgatherv.hpp"
#include "mpi/coll/smpi_alltoallv.hpp"
#include "mpi/coll/smpi_names.hpp"
#include "mpi/coll/smpi_reduce_scatter.hpp"
#include "mpi/coll/smpi_reduce_scatter_gather.hpp"
#include "mpi/coll/smpi_refusals.hpp"
#include "mpi/coll/smpi_split_bintree.hpp"
#include "mpi/coll/split.hpp"
#include "mpi/coll/step.hpp"
#include "mpi/coll/tree_shapes.hpp"

namespace simfab::coll {

namespace {

constexpr Bytes kMaxSegments = Bytes{1} << 20;

// Segments of `bytes` cut into whole-element segments of about `segment` bytes (0: one segment,
// unsegmented): ceil(count / segcount), as OpenMPI's pipelined trees count them.
uint32_t segments_of(Bytes bytes, Bytes segment, Bytes type_size) {
  if (segment == 0) return 1;
  const Bytes ts = std::max<Bytes>(1, type_size);
  const Bytes count = bytes / ts;
  const Bytes segcount = computed_segcount(segment, ts, count);
  if (segcount == 0) return 1;
  return static_cast<uint32_t>(std::clamp<Bytes>((count + segcount - 1) / segcount, 1, kMaxSegments));
}
uint32_t segments_of(const CollCall& c) { return segments_of(c.bytes, c.segment_bytes, c.type_size); }
bool pow2(int p) { return std::has_single_bit(static_cast<unsigned>(p)); }

// OpenMPI allreduce_intra_ring: fewer elements than ranks -> recursive doubling.
void ompi_allreduce_ring(Fragment& f, const CollCall& c) {
  if (c.elements() < static_cast<Bytes>(c.size)) allreduce_recursive_doubling(f, c.rank, c.size, c.bytes, {});
  else allreduce_ring(f, c.rank, c.size, c.bytes, {});
}

// OpenMPI allreduce_intra_ring_segmented with segsize = c.segment_bytes: segcount elements per
// segment (COLL_BASE_COMPUTED_SEGCOUNT); count < P * segcount -> the plain ring; otherwise
// num_phases = count / (P segcount), plus one when the remainder is >= P and more than half of
// P segcount. Each block is cut into num_phases pieces.
void ompi_allreduce_ring_segmented(Fragment& f, const CollCall& c) {
  const Bytes ts = std::max<Bytes>(1, c.type_size);
  const Bytes count = c.elements();
  const Bytes p = static_cast<Bytes>(std::max(1, c.size));
  const Bytes segcount = c.segment_bytes == 0 ? count : computed_segcount(c.segment_bytes, ts, count);
  if (c.size <= 1 || segcount == 0 || count < p * segcount) return ompi_allreduce_ring(f, c);
  Bytes phases = count / (p * segcount);
  const Bytes rest = count % (p * segcount);
  if (rest >= p && rest > p * segcount / 2) ++phases;
  allreduce_ring_segmented(f, c.rank, c.size, c.bytes, {},
                           static_cast<uint32_t>(std::clamp<Bytes>(phases, 1, kMaxSegments)));
}

// OpenMPI bcast_intra_split_bintree: the buffer is cut into halves of ceil(count/2) and
// floor(count/2) elements, each pipelined in segments of segment_bytes / type_size elements
// (simfab uses the larger half's segment count for both); a count below 2 leaves a half empty
// and OpenMPI runs the chain (fanout 1) instead.
void ompi_split_binary_bcast(Fragment& f, const CollCall& c) {
  const Bytes ts = std::max<Bytes>(1, c.type_size);
  const Bytes count = c.elements();
  if (count < 2) return chain_bcast(f, c.rank, c.size, c.root, c.bytes, segments_of(c));
  uint32_t segments = 1;
  if (c.segment_bytes > 0) {
    const Bytes half = (count + 1) / 2;
    const Bytes segcount = std::max<Bytes>(1, std::max(c.segment_bytes, ts) / ts);
    segments = static_cast<uint32_t>(std::clamp<Bytes>((half + segcount - 1) / segcount, 1, kMaxSegments));
  }
  split_binary_bcast(f, c.rank, c.size, c.root, c.bytes, segments);
}

// SMPI's colls::<op> inside a SimGrid algorithm: what the active smpi selector picks for `c`.
void smpi_selected(CollOp op, Fragment& f, const CollCall& c) {
  const char* name = select_smpi(c.smpi, op, c);
  const CollAlgorithm* a = smpi_algorithm(op, name);
  SIMFAB_CHECK(a && a->build, std::string("smpi selector chose an unknown algorithm: ") + name);
  a->build(f, c);
}

// SimGrid's bcast__NTSL / NTSB (smpi_bcast.hpp), then their count % segment remainder: one more
// colls::bcast of it from the same root, as the active selector picks it (a blocking phase).
void smpi_relay_then_rest(Fragment& f, const CollCall& c, RelayTree tree) {
  const uint32_t begin = f.size();
  const Bytes rest = smpi_relay_bcast(f, c, tree);
  if (rest == 0) return;
  const uint32_t mid = f.size();
  CollCall r = c;
  r.bytes = rest;
  smpi_selected(CollOp::kBcast, f, r);
  then_after(f, begin, mid);
}

// SimGrid's barrier__mpich_smp with one rank per host: the communicator's init_smp on its first
// SMP call (smpi_bcast.hpp), then barrier__mpich (ompi_bruck: dissemination) among the leaders,
// which are every rank; the intra-host barrier and release move nothing. Recorded (P = 5,
// --cfg=smpi/send-is-detached-thresh:0, as init_smp's replay needs): init_smp's messages, then
// S1:0 R4:0 S2:0 R3:0 S4:0 R1:0 on rank 0.
void smpi_mpich_smp_barrier(Fragment& f, const CollCall& c) {
  const uint32_t begin = f.size();
  smpi_smp_setup_once(f, c);
  const uint32_t barrier = f.size();
  dissemination_barrier(f, c.rank, c.size, 0);
  then_after(f, begin, barrier);
}

// SimGrid's allreduce__default / allreduce__redbcast: colls::reduce to rank 0, then colls::bcast
// from rank 0, one after the other (blocking calls).
void smpi_reduce_then_bcast(Fragment& f, CollCall c) {
  c.root = 0;
  const uint32_t begin = f.size();
  smpi_selected(CollOp::kReduce, f, c);
  const uint32_t bcast = f.size();
  smpi_selected(CollOp::kBcast, f, c);
  then_after(f, begin, bcast);
}

// SimGrid's allgatherv__GB: colls::gatherv to rank 0 (SimGrid's linear gatherv), then colls::bcast
// from 0 of max(disps[i] + counts[i]) elements, the displacements being 0 in replay.
void smpi_gb_allgatherv(Fragment& f, const CollCall& c) {
  const uint32_t begin = f.size();
  smpi_linear_to_root(f, c.rank, c.size, 0, c.bytes, PerRank{c.counts}, false);
  const uint32_t bcast = f.size();
  CollCall b = c;
  b.root = 0;
  b.bytes = c.counts.empty() ? c.bytes : *std::max_element(c.counts.begin(), c.counts.end());
  b.counts = {};
  smpi_selected(CollOp::kBcast, f, b);
  then_after(f, begin, bcast);
}

// SimGrid's allreduce__lr (allreduce-lr.cpp): count < P -> allreduce__default; else the
// count/P-element blocks go round the ring in P-1 MPI_Sendrecv steps of reduce-scatter (send
// block r-1-i to r+1, receive block r-2-i from r-1) and P-1 of allgather (send r-i, receive
// r-1-i); then a count % P remainder is one more colls::allreduce of it (the active selector's).
// Messages carry no segment lists (the remainder's algorithm numbers its own segments).
void smpi_lr_allreduce(Fragment& f, CollCall c) {
  const Bytes ts = std::max<Bytes>(1, c.type_size), count = c.elements(), p = static_cast<Bytes>(c.size);
  if (count < p) return smpi_reduce_then_bcast(f, c);
  const Bytes block = count / p * ts;
  const RankId right = (c.rank + 1) % c.size, left = (c.rank + c.size - 1) % c.size;
  const uint32_t begin = f.size();
  After prev;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i + 1 < c.size; ++i)
      prev = sendrecv_step(f, prev, Side{right, block, {}}, Side{left, block, {}},
                           pass == 0 ? Combine::kReduce : Combine::kReplace, ReduceCost{});
  if (count % p == 0) return;
  const uint32_t rest = f.size();
  CollCall r = c;
  r.bytes = count % p * ts;
  smpi_selected(CollOp::kAllreduce, f, r);
  then_after(f, begin, rest);
}

// SimGrid's allreduce__ompi_ring_segmented (allreduce-ompi-ring-segmented.cpp): Open MPI's
// segmented ring with a fixed 1 MiB segment, but below P segments' worth of elements it runs
// allreduce__lr (and that, below P elements, allreduce__default), not Open MPI's plain ring.
void smpi_ompi_allreduce_ring_segmented(Fragment& f, const CollCall& c) {
  constexpr Bytes kSegment = Bytes{1} << 20;
  const Bytes ts = std::max<Bytes>(1, c.type_size), count = c.elements();
  if (c.size <= 1 || count < static_cast<Bytes>(c.size) * computed_segcount(kSegment, ts, count))
    return smpi_lr_allreduce(f, c);
  CollCall s = c;
  s.segment_bytes = kSegment;
  ompi_allreduce_ring_segmented(f, s);
}

// "schedgen" is a marker: the caller keeps its own (Schedgen) expansion.
constexpr CollAlgorithm kSchedgen{"schedgen", "LogGOPSim's Schedgen pattern (default; what TI replay has always used)",
                                  nullptr};

const CollAlgorithm kBarrier[] = {
    kSchedgen,
    {"dissemination", "dissemination with ordered rounds (MPICH), a causal barrier",
     [](Fragment& f, const CollCall& c) { dissemination_barrier(f, c.rank, c.size, 0); }},
    {"tree", "binomial fan-in to rank 0, then fan-out",
     [](Fragment& f, const CollCall& c) { tree_barrier(f, c.rank, c.size); }},
    {"recursive-doubling", "recursive doubling with the non-power-of-two fold",
     [](Fragment& f, const CollCall& c) { recursive_doubling_barrier(f, c.rank, c.size); }},
    {"double-ring", "a token twice around the ring (OpenMPI)",
     [](Fragment& f, const CollCall& c) { double_ring_barrier(f, c.rank, c.size); }},
    {"smpi-ompi_basic_linear", "SimGrid's default (barrier__ompi_basic_linear): rank 0 hears from all, then releases all",
     [](Fragment& f, const CollCall& c) { linear_barrier(f, c.rank, c.size); }},
    {"smpi-mpich_smp", "SimGrid's barrier__mpich_smp (one rank per host): first call's init_smp, then dissemination",
     [](Fragment& f, const CollCall& c) { smpi_mpich_smp_barrier(f, c); }},
    {"smpi-ompi_tree", "SimGrid's barrier__ompi_tree: binomial fan-in/fan-out, nearest partner first, blocking",
     [](Fragment& f, const CollCall& c) { smpi_ompi_tree_barrier(f, c.rank, c.size); }},
};
const CollAlgorithm kBcast[] = {
    kSchedgen,
    {"linear", "the root sends to every rank",
     [](Fragment& f, const CollCall& c) { linear_bcast(f, c.rank, c.size, c.root, c.bytes); }},
    {"binomial", "binomial tree (in-order, OpenMPI)",
     [](Fragment& f, const CollCall& c) { knomial_bcast(f, c.rank, c.size, c.root, c.bytes, 2); }},
    {"knomial4", "4-nomial tree (MPICH knomial, radix 4)",
     [](Fragment& f, const CollCall& c) { knomial_bcast(f, c.rank, c.size, c.root, c.bytes, 4); }},
    {"binary", "binary tree, pipelined in 64 KiB segments",
     [](Fragment& f, const CollCall& c) { binary_bcast(f, c.rank, c.size, c.root, c.bytes, segments_of(c)); }},
    {"split-binary", "split-binary tree (OpenMPI), 64 KiB segments per half (chain when count < 2)",
     [](Fragment& f, const CollCall& c) { ompi_split_binary_bcast(f, c); }},
    {"pipeline", "chain, pipelined in 64 KiB segments",
     [](Fragment& f, const CollCall& c) { chain_bcast(f, c.rank, c.size, c.root, c.bytes, segments_of(c)); }},
    {"scatter-allgather", "binomial scatter then ring allgather (van de Geijn, MPICH large messages)",
     [](Fragment& f, const CollCall& c) { scatter_allgather_bcast(f, c.rank, c.size, c.root, c.bytes); }},
    {"smpi-scatter_rdb_allgather",
     "SimGrid's bcast__scatter_rdb_allgather: binomial scatter, recursive-doubling allgather, halving completion",
     [](Fragment& f, const CollCall& c) { smpi_scatter_rdb_allgather_bcast(f, c); }},
    {"smpi-scatter_LR_allgather", "SimGrid's bcast__scatter_LR_allgather: binomial scatter, then a ring allgather",
     [](Fragment& f, const CollCall& c) { smpi_scatter_lr_allgather_bcast(f, c); }},
    {"smpi-ompi_pipeline", "SimGrid's bcast__ompi_pipeline: chain from the root, 16/64/128 KiB segments, one at a time",
     [](Fragment& f, const CollCall& c) { smpi_ompi_pipeline_bcast(f, c); }},
    {"smpi-flattree", "SimGrid's bcast__flattree: the root isends to every rank in rank order, then waits",
     [](Fragment& f, const CollCall& c) { smpi_flattree_bcast(f, c); }},
    {"smpi-ompi_split_bintree", "SimGrid's bcast__ompi_split_bintree: a half down each subtree of the binary tree in "
                                "1/8 KiB segments, then pairs swap halves (split-binary below two segments)",
     [](Fragment& f, const CollCall& c) {
       if (smpi_split_bintree_splits(c)) smpi_split_bintree_bcast(f, c);
       else ompi_split_binary_bcast(f, c);
     }},
    {"smpi-binomial_tree", "SimGrid's default (bcast__binomial_tree): binomial tree, blocking sends, far child first",
     [](Fragment& f, const CollCall& c) {
       TreeNode node;
       tree_node(TreeSpec{TreeShape::kKnomial, 2}, c.rank, c.size, c.root, node);
       tree_down_blocking(f, node, c.bytes, Segs{0, 1});
     }},
    {"smpi-NTSL", "SimGrid's bcast__NTSL: chain 0 -> 1 -> .. on real ranks, 8 KiB pieces, remainder bcast apart",
     [](Fragment& f, const CollCall& c) { smpi_relay_then_rest(f, c, RelayTree::kChain); }},
    {"smpi-NTSB", "SimGrid's bcast__NTSB: binary heap tree on real ranks, 8 KiB pieces, remainder bcast apart",
     [](Fragment& f, const CollCall& c) { smpi_relay_then_rest(f, c, RelayTree::kHeapBinary); }},
    {"smpi-SMP_binomial", "SimGrid's mpich bcast (bcast__SMP_binomial, one rank per host): first call's init_smp, "
                          "root -> 0, binomial tree from 0",
     [](Fragment& f, const CollCall& c) { smpi_smp_binomial_bcast(f, c); }},
    {"smpi-mvapich2_knomial_intra_node", "SimGrid's bcast__mvapich2_knomial_intra_node (one rank per host): first "
                                         "call's init_smp, then a 4-nomial tree, a waitall per level",
     [](Fragment& f, const CollCall& c) { smpi_mvapich2_knomial_bcast(f, c); }},
};
const CollAlgorithm kReduce[] = {
    kSchedgen,
    {"linear", "every rank sends to the root",
     [](Fragment& f, const CollCall& c) { linear_reduce(f, c.rank, c.size, c.root, c.bytes); }},
    {"binomial", "binomial tree",
     [](Fragment& f, const CollCall& c) { knomial_reduce(f, c.rank, c.size, c.root, c.bytes, 2); }},
    {"binary", "binary tree, pipelined in 64 KiB segments",
     [](Fragment& f, const CollCall& c) { binary_reduce(f, c.rank, c.size, c.root, c.bytes, segments_of(c)); }},
    {"pipeline", "chain, pipelined in 64 KiB segments",
     [](Fragment& f, const CollCall& c) { chain_reduce(f, c.rank, c.size, c.root, c.bytes, segments_of(c)); }},
    {"rabenseifner", "reduce-scatter by recursive halving, then binomial gather (MPICH)",
     [](Fragment& f, const CollCall& c) { rabenseifner_reduce(f, c.rank, c.size, c.root, c.bytes); }},
    {"smpi-default", "SimGrid's default (ireduce): every rank isends to the root, which receives in rank order",
     [](Fragment& f, const CollCall& c) { smpi_linear_to_root(f, c.rank, c.size, c.root, c.bytes, PerRank{c.bytes}, true); }},
    {"smpi-ompi_basic_linear", "SimGrid's reduce__ompi_basic_linear: the root receives from P-1 down to 0, blocking",
     [](Fragment& f, const CollCall& c) { smpi_ompi_linear_reduce(f, c); }},
    {"smpi-binomial", "SimGrid's reduce__binomial: blocking binomial tree, nearest child first",
     [](Fragment& f, const CollCall& c) { smpi_binomial_reduce(f, c); }},
    {"smpi-scatter_gather", "SimGrid's reduce__scatter_gather (MPICH's): fold, recursive-halving reduce-scatter, "
                            "binomial gather, as SimGrid indexes them",
     [](Fragment& f, const CollCall& c) { smpi_scatter_gather_reduce(f, c); }},
    {"smpi-ompi_chain", "SimGrid's reduce__ompi_chain: reduce_generic on P/2 chains, 64 KiB segments",
     [](Fragment& f, const CollCall& c) { smpi_ompi_tree_reduce(f, c, SmpiReduceTree::kChain); }},
    {"smpi-ompi_pipeline", "SimGrid's reduce__ompi_pipeline: reduce_generic on one chain, 1/32/64 KiB segments",
     [](Fragment& f, const CollCall& c) { smpi_ompi_tree_reduce(f, c, SmpiReduceTree::kPipeline); }},
    {"smpi-ompi_binary", "SimGrid's reduce__ompi_binary: reduce_generic on the binary tree, 32 KiB segments",
     [](Fragment& f, const CollCall& c) { smpi_ompi_tree_reduce(f, c, SmpiReduceTree::kBinary); }},
    {"smpi-ompi_binomial", "SimGrid's reduce__ompi_binomial: reduce_generic on the in-order binomial tree, nearest "
                           "child first, 0 or 1 KiB segments",
     [](Fragment& f, const CollCall& c) { smpi_ompi_tree_reduce(f, c, SmpiReduceTree::kBinomial); }},
    {"smpi-ompi_in_order_binary", "SimGrid's reduce__ompi_in_order_binary: reduce_generic on the in-order binary "
                                  "tree to P-1, unsegmented, then P-1 -> root",
     [](Fragment& f, const CollCall& c) { smpi_ompi_in_order_binary_reduce(f, c); }},
};
const CollAlgorithm kAllreduce[] = {
    kSchedgen,
    {"recursive-doubling", "recursive doubling with the non-power-of-two fold (MPICH)",
     [](Fragment& f, const CollCall& c) { allreduce_recursive_doubling(f, c.rank, c.size, c.bytes, {}); }},
    {"rabenseifner", "recursive-halving reduce-scatter, recursive-doubling allgather (MPICH)",
     [](Fragment& f, const CollCall& c) { allreduce_rabenseifner(f, c.rank, c.size, c.bytes, {}); }},
    {"ring", "ring reduce-scatter then ring allgather (OpenMPI; recursive doubling when count < P)",
     [](Fragment& f, const CollCall& c) { ompi_allreduce_ring(f, c); }},
    {"segmented-ring",
     "ring with each block pipelined in 64 KiB segments (OpenMPI's phases; ring when count < P segcount)",
     [](Fragment& f, const CollCall& c) { ompi_allreduce_ring_segmented(f, c); }},
    {"reduce-bcast", "binomial reduce to rank 0, then binomial bcast",
     [](Fragment& f, const CollCall& c) { allreduce_reduce_bcast(f, c.rank, c.size, c.bytes, {}); }},
    {"smpi-default", "SimGrid's default/redbcast: reduce to 0 then bcast from 0, as the active smpi selector picks them",
     [](Fragment& f, const CollCall& c) { smpi_reduce_then_bcast(f, c); }},
    {"smpi-lr", "SimGrid's allreduce__lr: ring of sendrecv steps over count/P-element blocks, remainder apart",
     [](Fragment& f, const CollCall& c) { smpi_lr_allreduce(f, c); }},
    {"smpi-ompi_ring_segmented", "SimGrid's allreduce__ompi_ring_segmented: 1 MiB segments; allreduce__lr below P of them",
     [](Fragment& f, const CollCall& c) { smpi_ompi_allreduce_ring_segmented(f, c); }},
};
const CollAlgorithm kAllgather[] = {
    kSchedgen,
    {"ring", "p-1 steps around the ring",
     [](Fragment& f, const CollCall& c) { allgather_ring(f, c.rank, c.size, c.bytes); }},
    {"recursive-doubling", "recursive doubling (Bruck when P is not a power of two, as OpenMPI)",
     [](Fragment& f, const CollCall& c) {
       if (pow2(c.size)) allgather_recursive_doubling(f, c.rank, c.size, c.bytes);
       else allgather_bruck(f, c.rank, c.size, c.bytes);
     }},
    {"bruck", "Bruck: ceil(log2 P) steps of growing blocks",
     [](Fragment& f, const CollCall& c) { allgather_bruck(f, c.rank, c.size, c.bytes); }},
    {"neighbor-exchange", "neighbour exchange (ring when P is odd, as OpenMPI)",
     [](Fragment& f, const CollCall& c) {
       if (c.size % 2 == 0) allgather_neighbor_exchange(f, c.rank, c.size, c.bytes);
       else allgather_ring(f, c.rank, c.size, c.bytes);
     }},
    {"smpi-default", "SimGrid's default (iallgather): isend to and irecv from every rank, in rank order",
     [](Fragment& f, const CollCall& c) { smpi_linear_allgatherv(f, c.rank, c.size, c.bytes, PerRank{c.bytes}); }},
    {"smpi-rdb", "SimGrid's allgather__rdb: recursive doubling, holders forward when P is not a power of two",
     [](Fragment& f, const CollCall& c) { smpi_allgatherv_mpich_rdb(f, c.rank, c.size, PerRank{c.bytes}, true); }},
    {"smpi-bruck", "SimGrid's allgather__bruck: log2 P sendrecv steps of doubling block runs",
     [](Fragment& f, const CollCall& c) { smpi_allgatherv_ompi_bruck(f, c.rank, c.size, PerRank{c.bytes}); }},
    {"smpi-ring", "SimGrid's allgather__ring: P-1 sendrecv steps with r+i / r-i",
     [](Fragment& f, const CollCall& c) { smpi_allgatherv_ring(f, c.rank, c.size, c.bytes, PerRank{c.bytes}); }},
    {"smpi-pair", "SimGrid's allgather__pair: P-1 sendrecv steps with r^i (the ring unless P is a power of two)",
     [](Fragment& f, const CollCall& c) { smpi_allgatherv_pair(f, c.rank, c.size, c.bytes, PerRank{c.bytes}); }},
    {"smpi-ompi_neighborexchange", "SimGrid's allgather__ompi_neighborexchange (the ring when P is odd)",
     [](Fragment& f, const CollCall& c) {
       smpi_allgatherv_neighborexchange(f, c.rank, c.size, c.bytes, PerRank{c.bytes});
     }},
    {"smpi-NTSLR_NB", "SimGrid's allgather__NTSLR_NB: every irecv posted, then isend and wait around the ring",
     [](Fragment& f, const CollCall& c) { smpi_allgather_ntslr_nb(f, c.rank, c.size, c.bytes); }},
};
const CollAlgorithm kAlltoall[] = {
    kSchedgen,
    {"pairwise", "p-1 exchange steps with rank r+s (OpenMPI)",
     [](Fragment& f, const CollCall& c) { alltoall_pairwise(f, c.rank, c.size, c.bytes); }},
    {"bruck", "Bruck: ceil(log2 P) steps",
     [](Fragment& f, const CollCall& c) { alltoall_bruck(f, c.rank, c.size, c.bytes); }},
    {"basic-linear", "every receive posted, then every send (OpenMPI basic_linear)",
     [](Fragment& f, const CollCall& c) { alltoall_basic_linear(f, c.rank, c.size, c.bytes); }},
    {"linear-sync", "linear with at most 4 requests of each kind outstanding (OpenMPI linear_sync)",
     [](Fragment& f, const CollCall& c) { alltoall_linear_sync(f, c.rank, c.size, c.bytes, 4); }},
    {"ring", "blocks forwarded around the ring",
     [](Fragment& f, const CollCall& c) { alltoall_ring(f, c.rank, c.size, c.bytes); }},
    {"smpi-ring", "SimGrid's alltoall__ring: P-1 sendrecv steps with r+i / r-i",
     [](Fragment& f, const CollCall& c) { smpi_allgatherv_ring(f, c.rank, c.size, c.bytes, PerRank{c.bytes}); }},
    {"smpi-pair", "SimGrid's alltoall__pair: P-1 sendrecv steps with r^i (r+i / r-i unless P is a power of two)",
     [](Fragment& f, const CollCall& c) { alltoall_pairwise(f, c.rank, c.size, c.bytes, PairwisePartner::kXor); }},
    {"smpi-mvapich2_scatter_dest", "SimGrid's alltoall__mvapich2_scatter_dest: groups of 4 irecv/isend, self included",
     [](Fragment& f, const CollCall& c) {
       smpi_alltoallv_bruck(f, c.rank, c.size, PerRank{c.bytes}, PerRank{c.bytes}, true);
     }},
    {"smpi-default", "SimGrid's default (alltoall__ompi): OpenMPI's table over SimGrid's implementations",
     [](Fragment& f, const CollCall& c) {
       CollCall o = c;
       o.smpi = SmpiSelector::kOmpi;
       smpi_selected(CollOp::kAlltoall, f, o);
     }},
};
const CollAlgorithm kGather[] = {
    kSchedgen,
    {"binomial", "binomial tree, subtrees' blocks travel together (OpenMPI)",
     [](Fragment& f, const CollCall& c) { binomial_gather(f, c.rank, c.size, c.root, c.bytes); }},
    {"smpi-default", "SimGrid's default (igather): every rank isends to the root, which receives in rank order",
     [](Fragment& f, const CollCall& c) { smpi_linear_to_root(f, c.rank, c.size, c.root, c.bytes, PerRank{c.bytes}, false); }},
    {"smpi-ompi_basic_linear", "SimGrid's gather__ompi_basic_linear: the root receives in rank order, blocking",
     [](Fragment& f, const CollCall& c) {
       const uint32_t begin = f.size();
       smpi_linear_to_root(f, c.rank, c.size, c.root, c.bytes, PerRank{c.bytes}, false);
       smpi_blocking(f, begin);
     }},
    {"smpi-ompi_binomial", "SimGrid's gather__ompi_binomial: in-order binomial tree, nearest child first, blocking",
     [](Fragment& f, const CollCall& c) {
       binomial_blocks(f, c.rank, c.size, c.root, c.bytes, BlockFlow::kGather, BlockNaming::kRanks,
                       BlockOrder::kNearFirstBlocking);
     }},
    {"smpi-ompi_linear_sync", "SimGrid's gather__ompi_linear_sync: per rank a first segment (1 KiB, 32 KiB for blocks "
                              "over 90 KiB), a zero-byte sync, the rest",
     [](Fragment& f, const CollCall& c) {
       const Bytes ts = std::max<Bytes>(1, c.type_size);
       const Bytes first = computed_segcount(c.bytes > 92160 ? 32768 : 1024, ts, c.elements()) * ts;
       linear_sync_gather(f, c.rank, c.size, c.root, c.bytes, first);
     }},
};
const CollAlgorithm kScatter[] = {
    kSchedgen,
    {"binomial", "binomial tree (OpenMPI)",
     [](Fragment& f, const CollCall& c) { binomial_scatter(f, c.rank, c.size, c.root, c.bytes); }},
    {"smpi-default", "SimGrid's default (iscatter): the root isends to every rank in rank order",
     [](Fragment& f, const CollCall& c) { smpi_linear_from_root(f, c.rank, c.size, c.root, PerRank{c.bytes}, c.bytes); }},
    {"smpi-ompi_basic_linear", "SimGrid's scatter__ompi_basic_linear: the root sends in rank order, blocking",
     [](Fragment& f, const CollCall& c) {
       const uint32_t begin = f.size();
       smpi_linear_from_root(f, c.rank, c.size, c.root, PerRank{c.bytes}, c.bytes);
       smpi_blocking(f, begin);
     }},
    {"smpi-ompi_binomial", "SimGrid's scatter__ompi_binomial: in-order binomial tree, nearest child first, blocking",
     [](Fragment& f, const CollCall& c) {
       binomial_blocks(f, c.rank, c.size, c.root, c.bytes, BlockFlow::kScatter, BlockNaming::kRanks,
                       BlockOrder::kNearFirstBlocking);
     }},
};
const CollAlgorithm kAllgatherv[] = {
    kSchedgen,
    {"smpi-default", "SimGrid's default (iallgatherv): isend to and irecv from every rank, in rank order",
     [](Fragment& f, const CollCall& c) { smpi_linear_allgatherv(f, c.rank, c.size, c.bytes, PerRank{c.counts}); }},
    {"smpi-GB", "SimGrid's allgatherv__GB: gatherv to 0, then bcast of the largest block (the replay's displacements are 0)",
     [](Fragment& f, const CollCall& c) { smpi_gb_allgatherv(f, c); }},
    {"smpi-ring", "SimGrid's allgatherv__ring: P-1 sendrecv steps with r+i / r-i",
     [](Fragment& f, const CollCall& c) { smpi_allgatherv_ring(f, c.rank, c.size, c.bytes, PerRank{c.counts}); }},
    {"smpi-pair", "SimGrid's allgatherv__pair: P-1 sendrecv steps with r^i (the ring unless P is a power of two)",
     [](Fragment& f, const CollCall& c) { smpi_allgatherv_pair(f, c.rank, c.size, c.bytes, PerRank{c.counts}); }},
    {"smpi-ompi_bruck", "SimGrid's allgatherv__ompi_bruck: log2 P sendrecv steps of doubling block runs",
     [](Fragment& f, const CollCall& c) { smpi_allgatherv_ompi_bruck(f, c.rank, c.size, PerRank{c.counts}); }},
    {"smpi-ompi_neighborexchange", "SimGrid's allgatherv__ompi_neighborexchange (the ring when P is odd)",
     [](Fragment& f, const CollCall& c) {
       smpi_allgatherv_neighborexchange(f, c.rank, c.size, c.bytes, PerRank{c.counts});
     }},
    {"smpi-mpich_ring", "SimGrid's allgatherv__mpich_ring: blocks around the ring in chunks of at least 256 KiB",
     [](Fragment& f, const CollCall& c) { smpi_allgatherv_mpich_ring(f, c.rank, c.size, PerRank{c.counts}, c.type_size); }},
    {"smpi-mpich_rdb", "SimGrid's allgatherv__mpich_rdb: recursive doubling, holders forward when P is not a power of two",
     [](Fragment& f, const CollCall& c) { smpi_allgatherv_mpich_rdb(f, c.rank, c.size, PerRank{c.counts}); }},
};
const CollAlgorithm kAlltoallv[] = {
    kSchedgen,
    {"smpi-default", "SimGrid's default (ialltoallv): irecv from every rank, then isend to every rank, rank order",
     [](Fragment& f, const CollCall& c) { smpi_linear_alltoallv(f, c.rank, c.size, PerRank{c.counts}, PerRank{c.counts2}); }},
    {"smpi-bruck", "SimGrid's alltoallv__bruck: groups of 4 irecv/isend, each group waited for",
     [](Fragment& f, const CollCall& c) { smpi_alltoallv_bruck(f, c.rank, c.size, PerRank{c.counts}, PerRank{c.counts2}); }},
    {"smpi-pair", "SimGrid's alltoallv__pair: P-1 sendrecv steps with r^i (bruck unless P is a power of two)",
     [](Fragment& f, const CollCall& c) { smpi_alltoallv_pair(f, c.rank, c.size, PerRank{c.counts}, PerRank{c.counts2}); }},
};
const CollAlgorithm kGatherv[] = {
    kSchedgen,
    {"smpi-default", "SimGrid's gatherv: every rank isends to the root, which receives in rank order",
     [](Fragment& f, const CollCall& c) { smpi_linear_to_root(f, c.rank, c.size, c.root, c.bytes, PerRank{c.counts}, false); }},
};
const CollAlgorithm kScatterv[] = {
    kSchedgen,
    {"smpi-default", "SimGrid's scatterv: the root isends to every rank in rank order",
     [](Fragment& f, const CollCall& c) { smpi_linear_from_root(f, c.rank, c.size, c.root, PerRank{c.counts}, c.bytes); }},
};
const CollAlgorithm kReduceScatter[] = {
    kSchedgen,
    {"smpi-default", "SimGrid's default: ireduce of the whole vector to rank 0, then scatterv of the blocks",
     [](Fragment& f, const CollCall& c) { smpi_default_reduce_scatter(f, c.rank, c.size, PerRank{c.counts}); }},
    {"smpi-mpich_rdb", "SimGrid's reduce_scatter__mpich_rdb: recursive doubling of all blocks outside the subtrees",
     [](Fragment& f, const CollCall& c) { smpi_mpich_rdb_reduce_scatter(f, c.rank, c.size, PerRank{c.counts}); }},
    {"smpi-mpich_pair", "SimGrid's reduce_scatter__mpich_pair: P-1 sendrecv steps with r+i / r-i",
     [](Fragment& f, const CollCall& c) { smpi_mpich_pair_reduce_scatter(f, c.rank, c.size, PerRank{c.counts}); }},
    {"smpi-ompi_basic_recursivehalving", "SimGrid's reduce_scatter__ompi_basic_recursivehalving: fold, then halving",
     [](Fragment& f, const CollCall& c) {
       smpi_ompi_recursivehalving_reduce_scatter(f, c.rank, c.size, PerRank{c.counts});
     }},
    {"smpi-ompi_ring", "SimGrid's reduce_scatter__ompi_ring: blocks reduced around the ring",
     [](Fragment& f, const CollCall& c) { smpi_ompi_ring_reduce_scatter(f, c.rank, c.size, PerRank{c.counts}); }},
    {"smpi-ompi_butterfly", "SimGrid's reduce_scatter__ompi_butterfly: fold, butterfly halving, mirror exchange",
     [](Fragment& f, const CollCall& c) { smpi_ompi_butterfly_reduce_scatter(f, c.rank, c.size, PerRank{c.counts}); }},
};
const CollAlgorithm kScan[] = {
    kSchedgen,
    {"smpi-default", "SimGrid's scan: irecv from every lower rank, isend to every higher rank",
     [](Fragment& f, const CollCall& c) { smpi_linear_scan(f, c.rank, c.size, c.bytes); }},
};
const CollAlgorithm kExscan[] = {
    kSchedgen,
    {"smpi-default", "SimGrid's exscan: irecv from every lower rank, isend to every higher rank",
     [](Fragment& f, const CollCall& c) { smpi_linear_scan(f, c.rank, c.size, c.bytes); }},
};

}  // namespace

const char* coll_op_name(CollOp op) {
  static const char* const kNames[] = {"barrier",    "bcast",     "reduce",  "allreduce", "allgather",
                                       "alltoall",   "gather",    "scatter", "allgatherv", "alltoallv",
                                       "gatherv",    "scatterv",  "reduce_scatter", "scan", "exscan"};
  return kNames[static_cast<size_t>(op)];
}

std::string coll_op_key(CollOp op) { return std::string("mpi/") + coll_op_name(op); }

std::span<const CollAlgorithm> coll_algorithms(CollOp op) {
  switch (op) {
    case CollOp::kBarrier: return kBarrier;
    case CollOp::kBcast: return kBcast;
    case CollOp::kReduce: return kReduce;
    case CollOp::kAllreduce: return kAllreduce;
    case CollOp::kAllgather: return kAllgather;
    case CollOp::kAlltoall: return kAlltoall;
    case CollOp::kGather: return kGather;
    case CollOp::kScatter: return kScatter;
    case CollOp::kAllgatherv: return kAllgatherv;
    case CollOp::kAlltoallv: return kAlltoallv;
    case CollOp::kGatherv: return kGatherv;
    case CollOp::kScatterv: return kScatterv;
    case CollOp::kReduceScatter: return kReduceScatter;
    case CollOp::kScan: return kScan;
    case CollOp::kExscan: return kExscan;
    case CollOp::kCount: break;
  }
  return {};
}

void register_coll_keys(Config& cfg) {
  cfg.declare({"mpi/coll-selector", CfgType::kChoice, "schedgen",
               "how collectives pick their algorithm when mpi/<collective> is not set: schedgen (Schedgen's "
               "patterns), ompi (OpenMPI 4.1 tuned decision tables), mpich (MPICH 3.3 auto selection), "
               "smpi-default, smpi-ompi, smpi-mpich (what SimGrid 3.32's smpi/coll-selector default/ompi/mpich "
               "runs, with SimGrid's implementations); the selectors use the trace's bytes and element counts "
               "and assume commutative reduction operations (TI traces do not record the operation)",
               {"schedgen", "ompi", "mpich", "smpi-default", "smpi-ompi", "smpi-mpich"}});
  cfg.declare({"mpi/first-call", CfgType::kText, "none",
               "what each rank's first blocking call of a collective costs before it takes part (an MPI library's "
               "set-up; simfab calibrate measures it): '<collective>=<seconds>;...' with the names of simfab coll "
               "--list, e.g. 'allreduce=1.2e-05;bcast=7e-06'; none: nothing (TI replays)",
               {}});
  cfg.declare({"smpi/coll-selector", CfgType::kChoice, "default",
               "SimGrid's own key, when given: default|ompi|mpich mean mpi/coll-selector=smpi-default|smpi-ompi|"
               "smpi-mpich (and win over mpi/coll-selector)",
               {"default", "ompi", "mpich"}});
  for (size_t i = 0; i < static_cast<size_t>(CollOp::kCount); ++i) {
    const auto op = static_cast<CollOp>(i);
    std::vector<std::string> names;
    for (const CollAlgorithm& a : coll_algorithms(op)) names.emplace_back(a.name);
    cfg.declare({coll_op_key(op), CfgType::kChoice, "schedgen",
                 std::string("the algorithm of MPI_") + coll_op_name(op) + " (simfab coll --list)", names});
    const std::string key = smpi_key(op);
    if (key.empty()) continue;
    std::vector<std::string> sg{"selector", "ompi", "mpich"};
    for (const SmpiName& n : smpi_names(op)) sg.emplace_back(n.simgrid);
    cfg.declare({key, CfgType::kChoice, "selector",
                 std::string("SimGrid's own key: its algorithm name for MPI_") + coll_op_name(op) +
                     " (selector: as mpi/coll-selector picks; ompi/mpich: that smpi selector's choice); "
                     "when set, wins over mpi/" + coll_op_name(op) + " (simfab coll --list)",
                 sg});
  }
}

const char* library_coll_selector(std::string_view library) {
  const auto names = [&](std::string_view what) { return library.find(what) != std::string_view::npos; };
  return names("Open MPI")                                                ? "ompi"
         : names("MPICH") || names("MVAPICH") || names("Intel(R) MPI") ? "mpich"
                                                                           : nullptr;
}

std::string select_library_collectives(Config& cfg, std::string_view library, const SourceLoc& where) {
  const char* selector = library_coll_selector(library);
  if (!selector || cfg.is_explicit("mpi/coll-selector") || cfg.is_explicit("smpi/coll-selector")) return {};
  cfg.set("mpi/coll-selector", selector, where);
  return selector;
}

const CollAlgorithm* find_coll_algorithm(CollOp op, std::string_view name) {
  for (const CollAlgorithm& a : coll_algorithms(op))
    if (name == a.name) return &a;
  return nullptr;
}

CollChoice CollChoice::from(const Config& cfg) {
  CollChoice c;
  const std::string& selector = cfg.choice("mpi/coll-selector");
  c.selector = selector == "ompi"           ? Selector::kOmpi
               : selector == "mpich"        ? Selector::kMpich
               : selector == "smpi-default" ? Selector::kSmpiDefault
               : selector == "smpi-ompi"    ? Selector::kSmpiOmpi
               : selector == "smpi-mpich"   ? Selector::kSmpiMpich
                                            : Selector::kSchedgen;
  if (cfg.is_explicit("smpi/coll-selector")) {
    const std::string& sg = cfg.choice("smpi/coll-selector");
    c.selector = sg == "ompi" ? Selector::kSmpiOmpi : sg == "mpich" ? Selector::kSmpiMpich : Selector::kSmpiDefault;
  }
  c.warn_smpi_refusals = cfg.keys().contains("network/model") && cfg.choice("network/model") == "smpi";
  for (size_t i = 0; i < static_cast<size_t>(CollOp::kCount); ++i) {
    const auto op = static_cast<CollOp>(i);
    const std::string key = coll_op_key(op);
    c.forced[i] = cfg.is_explicit(key) || cfg.choice(key) != "schedgen";
    c.algorithm[i] = find_coll_algorithm(op, cfg.choice(key));
    const std::string sgkey = smpi_key(op);
    if (sgkey.empty() || !cfg.is_explicit(sgkey) || cfg.choice(sgkey) == "selector") continue;
    const std::string& name = cfg.choice(sgkey);
    c.forced[i] = true;
    if (name == "ompi" || name == "mpich") {
      c.smpi_forced[i] = name == "ompi" ? SmpiSelector::kOmpi : SmpiSelector::kMpich;
      c.algorithm[i] = nullptr;
    } else {
      c.algorithm[i] = smpi_algorithm(op, name);
      SIMFAB_CHECK(c.algorithm[i], "smpi name without a simfab algorithm: " + name);
    }
  }
  return c;
}

SmpiSelector CollChoice::smpi_selector() const {
  switch (selector) {
    case Selector::kSmpiOmpi: return SmpiSelector::kOmpi;
    case Selector::kSmpiMpich: return SmpiSelector::kMpich;
    case Selector::kSmpiDefault: return SmpiSelector::kDefault;
    default: return SmpiSelector::kNone;
  }
}

bool CollChoice::uses_smp_setup() const {
  const CollAlgorithm* bcast = algorithm[static_cast<size_t>(CollOp::kBcast)];
  const CollAlgorithm* barrier = algorithm[static_cast<size_t>(CollOp::kBarrier)];
  const SmpiSelector bcast_forced = smpi_forced[static_cast<size_t>(CollOp::kBcast)];
  return smpi_selector() == SmpiSelector::kMpich || smpi_selector() == SmpiSelector::kOmpi ||
         std::find(smpi_forced.begin(), smpi_forced.end(), SmpiSelector::kMpich) != smpi_forced.end() ||
         bcast_forced == SmpiSelector::kOmpi || (barrier && std::string_view(barrier->name) == "smpi-mpich_smp") ||
         (bcast && (std::string_view(bcast->name) == "smpi-SMP_binomial" ||
                    std::string_view(bcast->name) == "smpi-mvapich2_knomial_intra_node"));
}

const CollAlgorithm* CollChoice::build(CollOp op, Fragment& f, CollCall call) const {
  const size_t i = static_cast<size_t>(op);
  const CollAlgorithm* a = algorithm[i];
  call.smpi = smpi_selector();
  if (smpi_forced[i] != SmpiSelector::kNone) {  // smpi/<collective>=ompi|mpich
    call.smpi = smpi_forced[i];
    a = smpi_algorithm(op, select_smpi(call.smpi, op, call));
  } else if (!forced[i] && call.smpi != SmpiSelector::kNone) {
    const char* name = select_smpi(call.smpi, op, call);
    a = smpi_algorithm(op, name);
    SIMFAB_CHECK(a, std::string("smpi selector chose an unknown algorithm: ") + name);
  } else if (!forced[i] && selector != Selector::kSchedgen && i < static_cast<size_t>(CollOp::kAllgatherv)) {
    const CollDecision d =
        selector == Selector::kOmpi
            ? select_ompi(op, call.size, call.bytes, call.type_size)
            : select_mpich(op, call.size, mpich_total_bytes(op, call.size, call.bytes), call.type_size);
    a = find_coll_algorithm(op, d.algorithm);
    SIMFAB_CHECK(a, std::string("selector chose an unknown algorithm: ") + d.algorithm);
    call.segment_bytes = d.segment_bytes;
  }
  if (!a || !a->build) return nullptr;  // schedgen: the caller's own pattern
  if (warn_smpi_refusals) warn_smpi_refusal_once(op, *a, call);
  // SimGrid's reduce__mpich / allreduce__mpich start with the communicator's init_smp (and then
  // run two-level algorithms, not reproduced: select_smpi.hpp); bcast's SMP_binomial runs its own.
  const uint32_t begin = f.size();
  const bool smp = call.smpi == SmpiSelector::kMpich && (op == CollOp::kReduce || op == CollOp::kAllreduce) &&
                   (!forced[i] || smpi_forced[i] == SmpiSelector::kMpich) && smpi_smp_setup_once(f, call);
  const uint32_t mid = f.size();
  a->build(f, call);
  if (smp) then_after(f, begin, mid);
  return a;
}

}  // namespace simfab::coll
