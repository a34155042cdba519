// Allgather and alltoall algorithms (mpi/coll/allgather_algorithms.hpp, alltoall_algorithms.hpp):
// each computes its collective (check_collective) on every size 1-33 it accepts, with the closed
// forms of its header: messages and blocks per rank, blocks per message, rounds.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

#include "mpi/coll/allgather_algorithms.hpp"
#include "mpi/coll/alltoall_algorithms.hpp"
#include "mpi/coll/check.hpp"

namespace simfab::coll {
namespace {

constexpr Bytes kBlock = 24;

uint32_t ceil_log2(int p) { return static_cast<uint32_t>(std::bit_width(static_cast<unsigned>(p - 1))); }

// One send of a rank's fragment: its peer, bytes and the segments it lists.
struct SentMessage {
  RankId to = 0;
  Bytes bytes = 0;
  std::vector<uint32_t> segs;
};
std::vector<SentMessage> sends_of(const CollGenerator& gen, RankId rank) {
  Fragment f;
  f.track_data(true);
  gen(f, rank);
  std::vector<SentMessage> out;
  for (uint32_t i = 0; i < f.size(); ++i)
    if (f.op(i).kind == OpKind::kSend) {
      const auto d = f.data(i);
      out.push_back({f.op(i).peer, f.op(i).amount, std::vector<uint32_t>(d.begin(), d.end())});
    }
  return out;
}

// Runs the checker and the per-rank closed forms every algorithm here shares: every rank sends
// `messages` messages and `blocks` blocks, and each message's bytes match the blocks it lists.
CheckReport expect_collective(CollKind kind, int p, const CollGenerator& gen, uint32_t messages, uint64_t blocks) {
  CheckReport rep = check_collective(kind, p, 0, 1, gen);
  EXPECT_EQ(rep.error, "") << "p=" << p;
  for (RankId r = 0; r < p; ++r) {
    EXPECT_EQ(rep.sends[static_cast<size_t>(r)], messages) << "p=" << p << " rank " << r;
    EXPECT_EQ(rep.sent_bytes[static_cast<size_t>(r)], blocks * kBlock) << "p=" << p << " rank " << r;
    for (const SentMessage& m : sends_of(gen, r)) EXPECT_EQ(m.bytes, m.segs.size() * kBlock) << "p=" << p;
  }
  return rep;
}

// ---- allgather ----

TEST(CollExchange, AllgatherRingSendsOneBlockPerStep) {
  for (int p = 1; p <= 33; ++p) {
    const CollGenerator gen = [&](Fragment& f, RankId r) { allgather_ring(f, r, p, kBlock); };
    CheckReport rep = expect_collective(CollKind::kAllgather, p, gen, p - 1, p - 1);
    EXPECT_EQ(rep.rounds, static_cast<uint32_t>(p - 1));
    for (RankId r = 0; r < p; ++r) {
      const auto sends = sends_of(gen, r);
      for (size_t i = 0; i < sends.size(); ++i) {  // step i forwards block r - i to r + 1
        EXPECT_EQ(sends[i].to, (r + 1) % p);
        EXPECT_EQ(sends[i].segs, std::vector<uint32_t>{static_cast<uint32_t>((r - static_cast<int>(i) + p) % p)});
      }
    }
  }
}

TEST(CollExchange, AllgatherRecursiveDoublingDoublesOnPowersOfTwo) {
  for (int p = 1; p <= 32; p *= 2) {
    const CollGenerator gen = [&](Fragment& f, RankId r) { allgather_recursive_doubling(f, r, p, kBlock); };
    CheckReport rep = expect_collective(CollKind::kAllgather, p, gen, ceil_log2(p), p - 1);
    EXPECT_EQ(rep.rounds, ceil_log2(p));
    for (RankId r = 0; r < p; ++r) {
      const auto sends = sends_of(gen, r);
      for (size_t i = 0; i < sends.size(); ++i) {
        EXPECT_EQ(sends[i].to, r ^ (1 << i));
        EXPECT_EQ(sends[i].segs.size(), size_t{1} << i);
      }
    }
  }
}

TEST(CollExchange, AllgatherRecursiveDoublingRejectsOtherSizes) {
  Fragment f;
  EXPECT_DEATH(allgather_recursive_doubling(f, 0, 6, kBlock), "power of two");
}

TEST(CollExchange, AllgatherBruckOnEverySize) {
  for (int p = 1; p <= 33; ++p) {
    const CollGenerator gen = [&](Fragment& f, RankId r) { allgather_bruck(f, r, p, kBlock); };
    CheckReport rep = expect_collective(CollKind::kAllgather, p, gen, ceil_log2(p), p - 1);
    EXPECT_EQ(rep.rounds, ceil_log2(p));
    for (RankId r = 0; r < p; ++r) {
      const auto sends = sends_of(gen, r);
      for (size_t i = 0; i < sends.size(); ++i) {  // message i: min(2^i, p - 2^i) blocks r, r+1, ...
        const int d = 1 << i;
        EXPECT_EQ(sends[i].to, (r - d + p) % p);
        ASSERT_EQ(sends[i].segs.size(), static_cast<size_t>(std::min(d, p - d)));
        for (size_t j = 0; j < sends[i].segs.size(); ++j)
          EXPECT_EQ(sends[i].segs[j], static_cast<uint32_t>((r + static_cast<int>(j)) % p));
      }
    }
  }
}

TEST(CollExchange, AllgatherNeighborExchangeOnEvenSizes) {
  for (int p = 2; p <= 32; p += 2) {
    const CollGenerator gen = [&](Fragment& f, RankId r) { allgather_neighbor_exchange(f, r, p, kBlock); };
    CheckReport rep = expect_collective(CollKind::kAllgather, p, gen, p / 2, p - 1);
    EXPECT_EQ(rep.rounds, static_cast<uint32_t>(p / 2));
    for (RankId r = 0; r < p; ++r) {
      const auto sends = sends_of(gen, r);
      for (size_t i = 0; i < sends.size(); ++i) {  // 1 block, then 2, alternating neighbours
        EXPECT_EQ(sends[i].segs.size(), i == 0 ? 1u : 2u);
        const bool right = (r % 2 == 0) == (i % 2 == 0);
        EXPECT_EQ(sends[i].to, (r + (right ? 1 : p - 1)) % p);
      }
    }
  }
}

TEST(CollExchange, AllgatherNeighborExchangeRejectsOddSizes) {
  Fragment f;
  EXPECT_DEATH(allgather_neighbor_exchange(f, 0, 5, kBlock), "even");
}

// ---- alltoall ----

TEST(CollExchange, AlltoallPairwiseOnEverySize) {
  for (PairwisePartner partner : {PairwisePartner::kShift, PairwisePartner::kXor}) {
    for (int p = 1; p <= 33; ++p) {
      const CollGenerator gen = [&](Fragment& f, RankId r) { alltoall_pairwise(f, r, p, kBlock, partner); };
      CheckReport rep = expect_collective(CollKind::kAlltoall, p, gen, p - 1, p - 1);
      EXPECT_EQ(rep.rounds, static_cast<uint32_t>(p - 1));
      const bool use_xor = partner == PairwisePartner::kXor && std::has_single_bit(static_cast<unsigned>(p));
      for (RankId r = 0; r < p; ++r) {
        const auto sends = sends_of(gen, r);
        for (size_t i = 0; i < sends.size(); ++i) {
          const int s = static_cast<int>(i) + 1;
          const RankId to = use_xor ? (r ^ s) : (r + s) % p;
          EXPECT_EQ(sends[i].to, to);
          EXPECT_EQ(sends[i].segs, std::vector<uint32_t>{static_cast<uint32_t>(r * p + to)});
        }
      }
    }
  }
}

TEST(CollExchange, AlltoallBruckOnEverySize) {
  for (int p = 1; p <= 33; ++p) {
    uint64_t blocks = 0;  // sum over j < p of popcount(j): block (r, r+j) travels popcount(j) hops
    for (int j = 0; j < p; ++j) blocks += static_cast<uint64_t>(std::popcount(static_cast<unsigned>(j)));
    if (std::has_single_bit(static_cast<unsigned>(p))) {
      EXPECT_EQ(blocks, static_cast<uint64_t>(p / 2) * ceil_log2(p));
    }
    const CollGenerator gen = [&](Fragment& f, RankId r) { alltoall_bruck(f, r, p, kBlock); };
    CheckReport rep = expect_collective(CollKind::kAlltoall, p, gen, ceil_log2(p), blocks);
    EXPECT_EQ(rep.rounds, ceil_log2(p));
    for (RankId r = 0; r < p; ++r) {
      const auto sends = sends_of(gen, r);
      for (size_t i = 0; i < sends.size(); ++i) {
        const int d = 1 << i;
        EXPECT_EQ(sends[i].to, (r + d) % p);
        EXPECT_EQ(sends[i].segs.size(), alltoall_bruck_blocks(p, d));
        for (uint32_t seg : sends[i].segs) {  // every block carried has bit i set in its offset
          const int src = static_cast<int>(seg) / p, dst = static_cast<int>(seg) % p;
          EXPECT_TRUE(((dst - src + p) % p) & d) << "p=" << p << " seg " << seg;
        }
      }
    }
  }
}

TEST(CollExchange, AlltoallBasicLinearPostsReceivesFirst) {
  for (int p = 1; p <= 33; ++p) {
    const CollGenerator gen = [&](Fragment& f, RankId r) { alltoall_basic_linear(f, r, p, kBlock); };
    CheckReport rep = expect_collective(CollKind::kAlltoall, p, gen, p - 1, p - 1);
    EXPECT_EQ(rep.rounds, p > 1 ? 1u : 0u);
    Fragment f;
    alltoall_basic_linear(f, p - 1, p, kBlock);
    ASSERT_EQ(f.size(), static_cast<uint32_t>(2 * (p - 1)));
    for (uint32_t i = 0; i < f.size(); ++i) {  // recvs from r+1 .., then sends to r-1 ..
      const bool recv = i < static_cast<uint32_t>(p - 1);
      const int k = static_cast<int>(recv ? i : i - static_cast<uint32_t>(p - 1));
      EXPECT_EQ(f.op(i).kind, recv ? OpKind::kRecv : OpKind::kSend);
      EXPECT_EQ(f.op(i).peer, recv ? k % p : (p - 2 - k + p) % p);
    }
    for (const FragDep& d : f.deps()) EXPECT_TRUE(d.immediate);
  }
}

TEST(CollExchange, AlltoallLinearSyncBoundsOutstandingRequests) {
  for (int p = 1; p <= 33; ++p) {
    for (int m : {-1, 0, 1, 2, 3, 5, p - 1, p + 3}) {
      const CollGenerator gen = [&](Fragment& f, RankId r) { alltoall_linear_sync(f, r, p, kBlock, m); };
      CheckReport rep = expect_collective(CollKind::kAlltoall, p, gen, p - 1, p - 1);
      EXPECT_EQ(rep.rounds, p > 1 ? 1u : 0u) << "p=" << p << " M=" << m;
      // Window edges: receive k and send k wait for op k-M of their kind.
      Fragment f;
      alltoall_linear_sync(f, 0, p, kBlock, m);
      const int n = p - 1, window = (m <= 0 || m > n) ? n : m;
      uint32_t requires_edges = 0;
      for (const FragDep& d : f.deps())
        if (!d.immediate) {
          ++requires_edges;
          EXPECT_EQ(d.succ - d.pred, static_cast<uint32_t>(window));
          EXPECT_EQ(f.op(d.succ).kind, f.op(d.pred).kind);
        }
      EXPECT_EQ(requires_edges, static_cast<uint32_t>(2 * (n - window))) << "p=" << p << " M=" << m;
    }
  }
}

TEST(CollExchange, AlltoallLinearSyncUnboundedIsBasicLinear) {
  Fragment a, b;
  alltoall_basic_linear(a, 3, 7, kBlock);
  alltoall_linear_sync(b, 3, 7, kBlock, 6);
  ASSERT_EQ(a.size(), b.size());
  for (uint32_t i = 0; i < a.size(); ++i) EXPECT_EQ(a.op(i).peer, b.op(i).peer);
  EXPECT_EQ(a.deps().size(), b.deps().size());
}

TEST(CollExchange, AlltoallRingForwardsQuadraticVolume) {
  for (int p = 1; p <= 33; ++p) {
    const CollGenerator gen = [&](Fragment& f, RankId r) { alltoall_ring(f, r, p, kBlock); };
    CheckReport rep =
        expect_collective(CollKind::kAlltoall, p, gen, p - 1, static_cast<uint64_t>(p) * static_cast<uint64_t>(p - 1) / 2);
    EXPECT_EQ(rep.rounds, static_cast<uint32_t>(p - 1));
    for (const SentMessage& m : sends_of(gen, 0)) EXPECT_EQ(m.to, 1 % p);
  }
}

// Replay generates with tracking off: no segment lists, same ops.
TEST(CollExchange, NoSegmentListsWithoutTracking) {
  const int p = 13;
  const std::vector<CollGenerator> gens = {
      [&](Fragment& f, RankId r) { allgather_bruck(f, r, p, kBlock); },
      [&](Fragment& f, RankId r) { allgather_ring(f, r, p, kBlock); },
      [&](Fragment& f, RankId r) { alltoall_bruck(f, r, p, kBlock); },
      [&](Fragment& f, RankId r) { alltoall_ring(f, r, p, kBlock); },
      [&](Fragment& f, RankId r) { alltoall_linear_sync(f, r, p, kBlock, 3); },
  };
  for (const CollGenerator& gen : gens) {
    Fragment plain, tracked;
    tracked.track_data(true);
    gen(plain, 5);
    gen(tracked, 5);
    ASSERT_EQ(plain.size(), tracked.size());
    EXPECT_EQ(plain.deps().size(), tracked.deps().size());
    for (uint32_t i = 0; i < plain.size(); ++i) {
      EXPECT_TRUE(plain.data(i).empty());
      EXPECT_EQ(plain.op(i).amount, tracked.op(i).amount);
      EXPECT_EQ(plain.op(i).peer, tracked.op(i).peer);
    }
  }
}

}  // namespace
}  // namespace simfab::coll
