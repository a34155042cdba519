#include "mpi/coll/linear.hpp"

#include "core/error.hpp"
#include "mpi/coll/binomial.hpp"

namespace simfab::coll {

namespace {

void check(RankId rank, int size, RankId root) {
  SIMFAB_CHECK(rank >= 0 && rank < size && root >= 0 && root < size, "linear collective: rank out of range");
}

// Pairwise pattern: step = 1 .. P-1, send to r+step, recv from r-step. SendSize/RecvSize map a
// peer to its message size; `alltoall` selects the data layout (check.hpp): block (r, to) out and
// (from, r) in, else (allgather) block r out and block from in.
template <typename SendSize, typename RecvSize>
void pairwise(Fragment& f, RankId rank, int size, SendSize send_size, RecvSize recv_size, bool alltoall) {
  check(rank, size, 0);
  const int64_t p = size;
  const auto block = [&](int64_t owner, int64_t dest) {
    return Segs{static_cast<uint32_t>(alltoall ? owner * p + dest : owner), 1};
  };
  for (int64_t step = 1; step < p; ++step) {
    const auto to = static_cast<RankId>((rank + step) % p);
    const auto from = static_cast<RankId>((rank - step + p) % p);
    f.send(to, send_size(to), block(rank, to));
    f.recv(from, recv_size(from), block(from, rank));
  }
}

// Root talks to virtual ranks 1 .. P-1 in order; others talk to the root once.
template <typename RootSize>
void rooted(Fragment& f, RankId rank, int size, RankId root, bool root_sends, RootSize root_size,
            Bytes leaf_bytes) {
  check(rank, size, root);
  if (rank == root) {
    for (RankId v = 1; v < size; ++v) {
      const RankId peer = binomial_vrank(v, root);
      const Segs block{static_cast<uint32_t>(peer), 1};
      if (root_sends) f.send(peer, root_size(peer), block);
      else f.recv(peer, root_size(peer), block);
    }
  } else if (root_sends) {
    f.recv(root, leaf_bytes, Segs{static_cast<uint32_t>(rank), 1});
  } else {
    f.send(root, leaf_bytes, Segs{static_cast<uint32_t>(rank), 1});
  }
}

}  // namespace

void linear_alltoall(Fragment& f, RankId rank, int size, Bytes send_bytes, Bytes recv_bytes) {
  pairwise(f, rank, size, [=](RankId) { return send_bytes; }, [=](RankId) { return recv_bytes; }, true);
}

void linear_alltoallv(Fragment& f, RankId rank, int size, std::span<const Bytes> send,
                      std::span<const Bytes> recv) {
  SIMFAB_CHECK(send.size() == static_cast<size_t>(size) && recv.size() == static_cast<size_t>(size),
               "linear_alltoallv: counts must have one entry per rank");
  pairwise(f, rank, size, [&](RankId p) { return send[static_cast<size_t>(p)]; },
           [&](RankId p) { return recv[static_cast<size_t>(p)]; }, true);
}

void linear_allgatherv(Fragment& f, RankId rank, int size, Bytes send_bytes, std::span<const Bytes> recv) {
  SIMFAB_CHECK(recv.size() == static_cast<size_t>(size), "linear_allgatherv: counts must have one entry per rank");
  pairwise(f, rank, size, [=](RankId) { return send_bytes; }, [&](RankId p) { return recv[static_cast<size_t>(p)]; },
           false);
}

void linear_gather(Fragment& f, RankId rank, int size, RankId root, Bytes send_bytes, Bytes recv_each) {
  rooted(f, rank, size, root, false, [=](RankId) { return recv_each; }, send_bytes);
}

void linear_gatherv(Fragment& f, RankId rank, int size, RankId root, Bytes send_bytes,
                    std::span<const Bytes> recv) {
  SIMFAB_CHECK(recv.size() == static_cast<size_t>(size), "linear_gatherv: counts must have one entry per rank");
  rooted(f, rank, size, root, false, [&](RankId p) { return recv[static_cast<size_t>(p)]; }, send_bytes);
}

void linear_scatter(Fragment& f, RankId rank, int size, RankId root, Bytes send_each, Bytes recv_bytes) {
  rooted(f, rank, size, root, true, [=](RankId) { return send_each; }, recv_bytes);
}

void linear_scatterv(Fragment& f, RankId rank, int size, RankId root, std::span<const Bytes> send,
                     Bytes recv_bytes) {
  SIMFAB_CHECK(send.size() == static_cast<size_t>(size), "linear_scatterv: counts must have one entry per rank");
  rooted(f, rank, size, root, true, [&](RankId p) { return send[static_cast<size_t>(p)]; }, recv_bytes);
}

}  // namespace simfab::coll
