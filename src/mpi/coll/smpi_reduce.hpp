// SimGrid 3.32's Open MPI reduces (src/smpi/colls/reduce/reduce-ompi.cpp), which its ompi
// selector picks (select_smpi.hpp), as `smpirun -replay` runs them.
//
// smpi_ompi_tree_reduce: smpi_coll_tuned_ompi_reduce_generic over a tree of virtual ranks
// (tree_shapes.hpp), the buffer cut into N = ceil(count / segcount) segments of segcount elements
// (the last one shorter), segcount = computed_segcount(segsize) (split.hpp):
//   tree       SimGrid          tree (tree_shapes.hpp)                   segsize
//   kChain     ompi_chain       P/2 chains                               64 KiB
//   kPipeline  ompi_pipeline    one chain                                1 KiB if P > 0.041/1024 m + 9.7128,
//                                                                        32 KiB if P > 0.0033/1024 m + 1.6761,
//                                                                        else 64 KiB (m = message bytes)
//   kBinary    ompi_binary      binary (kary 2)                          32 KiB
//   kInOrderBinary ompi_in_order_binary  Open MPI's in-order binary tree 0 (unsegmented)
//                               on real ranks, rooted at P-1 (smpi_ompi_in_order_binary_reduce)
//   kBinomial  ompi_binomial    in-order binomial, NEAREST child first   0 if (P < 8 && m < 20480) ||
//                                                                        m < 2048 || count <= 1; 1 KiB
//                                                                        if P > 0.6016/1024 m + 1.3496; else 0
//   A leaf sends its segments to its parent, one blocking Request::send after the other. A node
//   with n children walks the steps k = 0 .. N*n (segment s = k / n, child i = k % n): it posts
//   the irecv of (s, i) (while s < N), waits for the irecv posted at step k-1 (two buffers: at
//   most two receives are outstanding), and at i = 0, s > 0 sends segment s-1 to its parent (a
//   blocking send; not at the root), stopping after that send when s = N. So each irecv starts
//   once the step before ended (the receive two steps back and any send in between completed).
// smpi_ompi_in_order_binary_reduce (ompi_in_order_binary, which the ompi table picks on 256-511
//   ranks for 8-16 KiB and on 2048 ranks or more for some sizes): reduce_generic on the in-order
//   binary tree to rank P-1, then, when the root is another rank, one blocking message of the
//   result from P-1 to the root. Recorded: P = 7, root 2, 800 B: 6: R5 R2 S2   2: R1 R0 S6 R6
//   5: R4 R3 S6   others: one send to their parent (0, 1 -> 2; 3, 4 -> 5).
// smpi_ompi_linear_reduce (ompi_basic_linear): every non-root sends its buffer to the root
//   (blocking); the root receives from rank P-1, then P-2, ..., 0 (real ranks, itself skipped),
//   one blocking Request::recv after the other.
// smpi_binomial_reduce (reduce-binomial.cpp, what the mpich selector runs for small reduces, on
//   the leaders' communicator after init_smp): on vranks v = rank - root (mod P), for mask = 1,
//   2, 4, ...: while v's bit `mask` is clear, a blocking recv from v | mask (if < P), NEAREST
//   child first; at v's lowest set bit, a blocking send to v & ~mask, and done.
// Recorded (smpirun -replay --log=smpi_request.thres:verbose, coll_smpi_test.cpp):
//   ompi, P = 4, 4096 B, root 0 (chain, 2 chains):   0: R1 R3   1: R2 S0   2: S1   3: S0
//   ompi, P = 7, 16384 B, root 3 (chain, 3 chains):  3: R4 R6 R1   4: R5 S3   6: R0 S3   1: R2 S3
//   ompi, P = 4, 262144 B, root 0 (basic_linear):    0: R3 R2 R1   r: S0
// The reductions themselves cost nothing here (SimGrid's replay applies MPI_OP_NULL); the
// replay's closing calc charges the trace's compute amount.
#pragma once

#include "mpi/coll/fragment.hpp"
#include "mpi/coll/registry.hpp"

namespace simfab::coll {

enum class SmpiReduceTree : uint8_t { kChain, kPipeline, kBinary, kBinomial, kInOrderBinary };

// The segment size SimGrid's reduce__ompi_<tree> picks (bytes; 0 = unsegmented) and the number of
// segments N it cuts c's buffer into (the checker's k).
Bytes smpi_ompi_reduce_segsize(SmpiReduceTree tree, int size, Bytes bytes, Bytes type_size);
uint32_t smpi_ompi_reduce_segments(SmpiReduceTree tree, const CollCall& c);

// REQUIRES (both): 0 <= c.rank, c.root < c.size.
void smpi_ompi_tree_reduce(Fragment& f, const CollCall& c, SmpiReduceTree tree);
void smpi_ompi_in_order_binary_reduce(Fragment& f, const CollCall& c);
void smpi_ompi_linear_reduce(Fragment& f, const CollCall& c);
void smpi_binomial_reduce(Fragment& f, const CollCall& c);

}  // namespace simfab::coll
