#include "mpi/coll/scan_algorithms.hpp"

#include <string>
#include <vector>

#include "core/error.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {

namespace {

void check_args(RankId rank, int size, uint32_t segments, const char* who) {
  SIMFAB_CHECK(size >= 1 && rank >= 0 && rank < size && segments >= 1, std::string(who) + ": rank out of range or no segments");
}

// check.hpp's scan/exscan layout with k segments per run.
Segs result_run(uint32_t k) { return {0, k}; }
Segs partial_run(uint32_t k) { return {k, k}; }

// A receive of the peer's partial run (n bytes) into this rank's partial run and, when
// `into_result`, into its result run as well (fan-out); no segment list unless tracking.
uint32_t recv_partial(Fragment& f, RankId peer, Bytes bytes, uint32_t k, bool into_result, Combine combine) {
  if (!f.tracking()) return f.recv(peer, bytes, Segs{}, combine);
  std::vector<uint32_t> ids;
  ids.reserve(2 * k);
  for (uint32_t s = k; s < 2 * k; ++s) ids.push_back(s);
  if (into_result)
    for (uint32_t s = 0; s < k; ++s) ids.push_back(s);
  return f.recv(peer, bytes, ids, combine);
}

// Recursive doubling, shared by scan and exscan: each round an MPIC_Sendrecv of partial_scan
// with rank ^ mask (sendrecv_step's edges, step.hpp, with a fan-out receive), then the round's
// reductions as one calc. `exclusive`: recvbuf starts empty, so the first upper round copies.
void recursive_doubling(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost, uint32_t k,
                        bool exclusive) {
  After prev;
  bool copied = false;  // exscan: recvbuf written (MPICH's flag)
  for (int mask = 1; mask < size; mask <<= 1) {
    const RankId dst = rank ^ mask;
    if (dst >= size) continue;
    const bool upper = rank > dst;
    const uint32_t s = send_step(f, prev, Side{dst, bytes, partial_run(k)}).a;
    const uint32_t r = recv_partial(f, dst, bytes, k, upper, Combine::kReduce);
    require_after(f, r, prev);
    f.irequire(r, s);
    // partial_scan always; recvbuf too at the upper rank, unless this is exscan's first copy.
    const Bytes reduced = upper && !(exclusive && !copied) ? 2 * bytes : bytes;
    if (upper) copied = true;
    prev = After{s, reduce_after(f, r, reduced, cost)};
  }
}

}  // namespace

void scan_linear(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost, uint32_t segments) {
  check_args(rank, size, segments, "scan_linear");
  const Segs all = result_run(segments);
  After prev;
  if (rank > 0) prev = recv_step(f, prev, Side{rank - 1, bytes, all}, Combine::kReduce, cost);
  if (rank + 1 < size) send_step(f, prev, Side{rank + 1, bytes, all});
}

void exscan_linear(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost, uint32_t segments) {
  check_args(rank, size, segments, "exscan_linear");
  const bool last = rank + 1 == size;
  After prev;
  if (rank > 0) {
    // The last rank only receives into recvbuf: nothing to reduce (its scratch run is replaced).
    const uint32_t r = recv_partial(f, rank - 1, bytes, segments, true, last ? Combine::kReplace : Combine::kReduce);
    prev = After{last ? r : reduce_after(f, r, bytes, cost)};
  }
  if (!last) send_step(f, prev, Side{rank + 1, bytes, partial_run(segments)});
}

void scan_recursive_doubling(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost,
                             uint32_t segments) {
  check_args(rank, size, segments, "scan_recursive_doubling");
  recursive_doubling(f, rank, size, bytes, cost, segments, false);
}

void exscan_recursive_doubling(Fragment& f, RankId rank, int size, Bytes bytes, const ReduceCost& cost,
                               uint32_t segments) {
  check_args(rank, size, segments, "exscan_recursive_doubling");
  recursive_doubling(f, rank, size, bytes, cost, segments, true);
}

}  // namespace simfab::coll
