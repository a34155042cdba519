// check_collective: does an algorithm compute its collective? A dataflow run of every rank's
// Fragment (mpi/coll/fragment.hpp) that tracks which ranks' contributions each rank holds in each
// segment of the buffer, and compares the end state with the collective's definition (issue 4:
// "each algorithm moves the right data ... for communicator sizes 1-33").
//
// The value of a segment is the set of ranks whose input it combines (a bitset: at most 64
// ranks). Layout and definition per collective, with P ranks, k >= 1 segments per block, and
// ALL = {0 .. P-1}:
//   kind            segments   initial value at rank r                final value at rank r
//   barrier         0          -                                      (knows every rank, below)
//   bcast           k          root: every segment = {root}           every segment = {root}
//   reduce          k          every segment = {r}                    root: every segment = ALL
//   allreduce       k          every segment = {r}                    every segment = ALL
//   scan            2k         every segment = {r}                    segments [0, k) = {0..r}
//   exscan          2k         [0, k) = {} (recvbuf), [k, 2k) = {r}   r > 0: segments [0, k) = {0..r-1}
//   reduce_scatter  P*k        every segment = {r}                    block r = ALL
//   gather          P*k        block r = {r}                          root: block i = {i}
//   allgather       P*k        block r = {r}                          block i = {i}
//   scatter         P*k        root: every segment = {root}           block r = {root}
//   alltoall        P*P*k      block (r, j) = {r} for every j          block (i, r) = {i}
// Block b of a P*k layout is segments [b*k, (b+1)*k); block (i, j) of alltoall is block i*P + j.
// Other segments may hold anything at the end (scratch data, partial sums). Scan and exscan get
// k scratch segments [k, 2k) for the second buffer their recursive-doubling forms keep (the
// partial result beside the prefix).
//
// The run: an op starts once its `requires` predecessors completed and its `irequires`
// predecessors started. A send starts by taking a snapshot of its segments (an empty one is an
// error: the rank sends data it does not hold) and completes at once. A recv is posted when it
// starts and matches messages from its peer in order (MPI's non-overtaking rule); it then checks
// the message has the same size and that the receive lists the segments the send lists, then
// possibly more runs of the same length (fan-out: one received buffer merged into several of the
// receiver's, as MPICH's scan reduces tmp_buf into partial_scan and recvbuf); it merges into
// each run: kReplace copies, kReduce unions and fails if a contribution would be counted twice.
// Every message also carries the sender's causal knowledge (the ranks whose start it has heard
// of); a barrier is correct when every rank knows every rank at its end.
// Matching order (checked on each rank's fragment before the run): the executor matches
// messages per (source, tag, context) in FIFO order (MPI's non-overtaking rule), so the k-th
// receive rank r posts from peer q takes the k-th message q sent r. Every two sends of a fragment
// to the same peer must therefore be ordered by its edges, and every two receives from the same
// peer too; otherwise timing (skew, a busy CPU) picks the order and a message lands in the wrong
// receive: MPI_ERR_TRUNCATE when the sizes differ, a silent mix-up when they agree. "Ordered"
// means one op reaches the other through a chain of `requires` and `irequires` edges, in any
// mix: `requires` starts the successor after the predecessor completed, hence after it started;
// `irequires` starts it no earlier than the predecessor started, and the executor starts a
// released op only in a later event, after the predecessor has issued its message (send) or
// posted its receive (recv). So along any chain the later op is issued strictly after the
// earlier one, and issue order is what matters: MPI orders two sends by the order of the calls
// that issue them (not their completions), and two receives by the order they are posted. A
// real library's program order is such a chain (a blocking send returns before the next call;
// MPI_Isend/MPI_Irecv calls follow each other), so a generator states it with edges (an irequire
// for consecutive nonblocking calls). Sends to different peers, and a send and a receive with
// the same peer, use different matching queues and need no order.
// Failures (the first one found): same-peer sends or receives left unordered (the text names
// the rank, the peer and both ops), unmatched or leftover messages (deadlock), size or segment
// mismatches, double counting, wrong final values; the text names the rank, the op and the
// segment.
// Complexity: O(ops * (segments per message) * P/64) per run, plus O(ops * edges + ops^2 / 64)
// per rank for the orders (edge closures as bitsets); P <= 64. For tests, not replay.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "mpi/coll/fragment.hpp"

namespace simfab::coll {

enum class CollKind : uint8_t {
  kBarrier, kBcast, kReduce, kAllreduce, kScan, kExscan, kReduceScatter, kGather, kAllgather, kScatter, kAlltoall,
};
const char* coll_kind_name(CollKind k);

struct CheckReport {
  std::string error;                   // empty: the algorithm computes the collective
  uint64_t messages = 0;               // sends over all ranks
  Bytes bytes = 0;                     // their bytes
  std::vector<uint32_t> sends;         // per rank
  std::vector<Bytes> sent_bytes;       // per rank
  uint32_t rounds = 0;                 // longest chain of messages (the critical path, in hops)
};

// `gen(f, rank)` appends rank's share of the collective to the cleared fragment `f`;
// `segments_per_block` is k in the table above. REQUIRES: 1 <= size <= 64, 0 <= root < size.
using CollGenerator = std::function<void(Fragment& f, RankId rank)>;
CheckReport check_collective(CollKind kind, int size, RankId root, uint32_t segments_per_block,
                             const CollGenerator& gen);

}  // namespace simfab::coll
