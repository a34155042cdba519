// Tree shapes shared by the rooted collectives (bcast, reduce, gather, scatter, tree barrier),
// and the two pipelined walks over them. One rank's place in a tree is a TreeNode: its parent
// and its children in the order it sends to them. Every shape is built on virtual ranks
// v = (rank - root) mod P, the rotation OpenMPI and MPICH use (vrank_of / rank_of_vrank), so
// the root is v = 0 and any root works for any P >= 1.
//
//   shape    arity            parent of v > 0                     children of v       source
//   flat     -                0                                   v = 0: 1 .. P-1      OpenMPI coll_base_bcast.c / coll_base_reduce.c basic_linear
//   knomial  radix k >= 2     v minus its lowest non-zero base-k  v + j*k^i, for every  OpenMPI 4.1 coll_base_topo.c build_in_order_bmtree (k=2),
//                             digit                               k^i below that digit  MPICH 4.x treealgo/treeutil.c knomial_1
//                                                                 (j = 1 .. k-1)
//   kary     fanout f >= 2    first(L-1) + (v - first(L-1))        v + f^L * (i + 1),    OpenMPI 4.1 coll_base_topo.c build_tree
//                             mod f^(L-1), L = level of v          i = 0 .. f-1          (f = 2: the binary tree of bintree/split_bintree)
//   chain    chains c >= 1    v - 1, or 0 for a chain's head      v + 1 (the root: the  OpenMPI 4.1 coll_base_topo.c build_chain
//                                                                 c chain heads)        (c = 1: the pipeline)
// where level L holds f^L vranks starting at first(L) = (f^L - 1) / (f - 1). In the k-ary
// tree every subtree of the root's i-th child holds the vranks = i+1 mod f, so the binary tree's
// left subtree is the odd vranks and its right subtree the even ones (split_binary_bcast).
// The k-nomial tree is "in order": the subtree of v is the contiguous vranks
// [v, v + knomial_subtree(v)), which is what lets a binomial gather/scatter move one contiguous
// run of blocks per message. Children come largest subtree first (highest digit first), as
// MPICH's binomial loops send them. Radix 2 is the binomial tree; its depth at v is popcount(v).
//
// Walks (the segmented/pipelined pattern of OpenMPI's ompi_coll_base_bcast_intra_generic and
// ompi_coll_base_reduce_generic), with the buffer cut into n = max(data.count, 1) pieces by
// share() and piece s carrying segment data.first + s (none when data.count = 0: a barrier):
//   tree_down   per piece s: recv s from the parent; send s to every child, each send requiring
//               that recv. The receives are posted at once (in piece order), so piece s+1 arrives
//               while piece s is forwarded. Messages per rank: n per child.
//   tree_up     per piece s: recv s from every child (Combine::kReduce) followed by its
//               reduce_after(); send s to the parent requiring every child's piece s.
// A send waits only for its data; the network model's per-message overhead and gap serialise
// one rank's sends. Messages over all ranks: (P-1) * n for either walk, (P-1) * bytes volume.
// Program order (what MPI's FIFO matching needs, check.hpp): OpenMPI posts irecv s after irecv
// s-1 and issues the sends of piece s after those of piece s-1 (bcast_intra_generic: "post irecv
// for the next segment, wait on the previous segment", then isend to every child; reduce_generic:
// per segment an irecv from each child in turn, then the send to the parent). So piece s's recv
// from a peer `irequires` piece s-1's recv from it, and piece s's send to a peer `irequires`
// piece s-1's send to it: issue order only. OpenMPI also waits for all of piece s-1's sends
// (wait_all) before issuing piece s; that flow control stays unmodelled, as above.
//
// tree_down_blocking is tree_down with one piece and blocking calls, as SimGrid's
// bcast__binomial_tree (src/smpi/colls/bcast/bcast-binomial-tree.cpp) and ompi_coll_tuned_topo's
// unsegmented walks issue them: Request::recv from the parent, then Request::send to each child in
// turn, so each op requires the previous one.
//
// then_after(f, begin, mid) sequences two phases of one rank, as two blocking calls would: every
// op of [mid, size()) with no predecessor inside that phase requires every end op of [begin, mid).
// When that is kJoinThreshold edges or more (ends x heads), a zero-time calc appended to the
// fragment joins them instead (ends + heads edges): the same start times, linear memory.
//
// Complexity: tree_node O(children + log P); the walks O(n * children) ops and edges.
#pragma once

#include <vector>

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/reduce_cost.hpp"

namespace simfab::coll {

inline RankId vrank_of(RankId rank, RankId root, int size) { return (rank - root + size) % size; }
inline RankId rank_of_vrank(RankId v, RankId root, int size) { return (v + root) % size; }

enum class TreeShape : uint8_t { kFlat, kKnomial, kKary, kChain };

struct TreeSpec {
  TreeShape shape = TreeShape::kKnomial;
  int arity = 2;  // radix (knomial), fanout (kary), number of chains (chain); unused for flat
};

struct TreeNode {
  RankId parent = -1;            // -1 at the root
  std::vector<RankId> children;  // real ranks, in send order
};

// REQUIRES: 0 <= rank, root < size; arity >= 2 (knomial, kary) or >= 1 (chain).
void tree_node(TreeSpec spec, RankId rank, int size, RankId root, TreeNode& out);

// The number of vranks in the subtree of vrank v of the in-order k-nomial tree on `size` ranks
// (the vranks v .. v + result - 1); `size` for v = 0.
int knomial_subtree(RankId v, int size, int radix);

// The walks above. `data.count` is 0 (no data, one message per edge) or the number of pieces.
void tree_down(Fragment& f, const TreeNode& node, Bytes bytes, Segs data);
void tree_up(Fragment& f, const TreeNode& node, Bytes bytes, Segs data, const ReduceCost& cost);
void tree_down_blocking(Fragment& f, const TreeNode& node, Bytes bytes, Segs data);

// REQUIRES: begin <= mid <= f.size().
inline constexpr size_t kJoinThreshold = 4096;
void then_after(Fragment& f, uint32_t begin, uint32_t mid);

}  // namespace simfab::coll
