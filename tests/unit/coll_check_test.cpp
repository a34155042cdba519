// check_collective (mpi/coll/check.hpp): the existing algorithms compute their collectives for
// every communicator size 1-33 and several roots, with the closed-form message counts; and the
// checker catches each class of broken algorithm.
#include <gtest/gtest.h>

#include "mpi/coll/binomial.hpp"
#include "mpi/coll/check.hpp"
#include "mpi/coll/dissemination.hpp"
#include "mpi/coll/linear.hpp"
#include "mpi/coll/reduce_scatter.hpp"

namespace simfab::coll {
namespace {

std::vector<RankId> roots(int p) {
  std::vector<RankId> r{0};
  if (p > 1) r.push_back(p - 1);
  if (p > 2) r.push_back(p / 2);
  return r;
}

TEST(CollCheck, BinomialBcastAndReduceOnEverySize) {
  for (int p = 1; p <= 33; ++p) {
    for (RankId root : roots(p)) {
      CheckReport b = check_collective(CollKind::kBcast, p, root, 1,
                                       [&](Fragment& f, RankId r) { binomial_bcast(f, r, p, root, 64); });
      EXPECT_EQ(b.error, "") << "p=" << p;
      EXPECT_EQ(b.messages, static_cast<uint64_t>(p - 1));
      int depth = 0;  // the deepest rank of the tree: the most one bits of a virtual rank
      for (int v = 0; v < p; ++v) depth = std::max(depth, std::popcount(static_cast<unsigned>(v)));
      EXPECT_EQ(b.rounds, static_cast<uint32_t>(depth));
      CheckReport red = check_collective(CollKind::kReduce, p, root, 1,
                                         [&](Fragment& f, RankId r) { binomial_reduce(f, r, p, root, 64); });
      EXPECT_EQ(red.error, "") << "p=" << p;
      EXPECT_EQ(red.messages, static_cast<uint64_t>(p - 1));
      EXPECT_EQ(red.bytes, static_cast<Bytes>(64 * (p - 1)));
    }
  }
}

TEST(CollCheck, LinearGatherScatterAlltoallAllgathervOnEverySize) {
  for (int p = 1; p <= 33; ++p) {
    for (RankId root : roots(p)) {
      EXPECT_EQ(check_collective(CollKind::kGather, p, root, 1,
                                 [&](Fragment& f, RankId r) { linear_gather(f, r, p, root, 8, 8); })
                    .error,
                "");
      EXPECT_EQ(check_collective(CollKind::kScatter, p, root, 1,
                                 [&](Fragment& f, RankId r) { linear_scatter(f, r, p, root, 8, 8); })
                    .error,
                "");
    }
    CheckReport a = check_collective(CollKind::kAlltoall, p, 0, 1,
                                     [&](Fragment& f, RankId r) { linear_alltoall(f, r, p, 8, 8); });
    EXPECT_EQ(a.error, "") << "p=" << p;
    EXPECT_EQ(a.messages, static_cast<uint64_t>(p) * static_cast<uint64_t>(p - 1));  // P(P-1)
    const std::vector<Bytes> counts(static_cast<size_t>(p), 8);
    EXPECT_EQ(check_collective(CollKind::kAllgather, p, 0, 1,
                               [&](Fragment& f, RankId r) { linear_allgatherv(f, r, p, 8, counts); })
                  .error,
              "");
  }
}

TEST(CollCheck, ReduceThenScatterIsAReduceScatter) {
  for (int p = 1; p <= 33; ++p) {
    const std::vector<Bytes> counts(static_cast<size_t>(p), 16);
    CheckReport rs = check_collective(CollKind::kReduceScatter, p, 0, 1, [&](Fragment& f, RankId r) {
      reduce_scatter_reduce_then_scatterv(f, r, p, counts, 16 * static_cast<Bytes>(p));
    });
    EXPECT_EQ(rs.error, "") << "p=" << p;
  }
}

TEST(CollCheck, DisseminationBarrierIsABarrier) {
  for (int p = 1; p <= 33; ++p) {
    CheckReport b =
        check_collective(CollKind::kBarrier, p, 0, 1, [&](Fragment& f, RankId r) { dissemination_barrier(f, r, p, 0); });
    EXPECT_EQ(b.error, "") << "p=" << p;
    EXPECT_EQ(b.messages, static_cast<uint64_t>(p) * static_cast<uint64_t>(std::bit_width(static_cast<unsigned>(p - 1))));
  }
}

TEST(CollCheck, SchedgensDisseminationGraphIsNotCausallyABarrier) {
  // Its send_k waits for recv_{k-1} only (dissemination.hpp): on 6 ranks rank 0 can leave without
  // hearing from rank 1. Small sizes where the chain covers everyone pass.
  EXPECT_EQ(check_collective(CollKind::kBarrier, 4, 0, 1, [](Fragment& f, RankId r) { dissemination(f, r, 4, 0); }).error,
            "");
  EXPECT_NE(check_collective(CollKind::kBarrier, 6, 0, 1, [](Fragment& f, RankId r) { dissemination(f, r, 6, 0); })
                .error.find("leaves the barrier without hearing from rank 1"),
            std::string::npos);
}

// Broken algorithms, one per failure class.
TEST(CollCheck, CatchesAForwardBeforeTheReceive) {
  // Chain bcast 0 -> 1 -> 2 where rank 1 forwards without waiting for its receive.
  CheckReport r = check_collective(CollKind::kBcast, 3, 0, 1, [](Fragment& f, RankId rank) {
    if (rank == 0) f.send(1, 8, Segs{0, 1});
    if (rank == 1) {
      f.recv(0, 8, Segs{0, 1});
      f.send(2, 8, Segs{0, 1});
    }
    if (rank == 2) f.recv(1, 8, Segs{0, 1});
  });
  EXPECT_NE(r.error.find("rank 1 op 1: sends segment 0 that it does not hold"), std::string::npos) << r.error;
}

TEST(CollCheck, CatchesDoubleCounting) {
  // Dissemination is not an allreduce on 3 ranks: round 2 brings a contribution back.
  CheckReport r = check_collective(CollKind::kAllreduce, 3, 0, 1, [](Fragment& f, RankId rank) {
    uint32_t prev = UINT32_MAX;
    for (int d = 1; d < 3; d *= 2) {
      const uint32_t s = f.send((rank + d) % 3, 8, Segs{0, 1});
      if (prev != UINT32_MAX) f.require(s, prev);
      prev = f.recv((rank - d + 3) % 3, 8, Segs{0, 1}, Combine::kReduce);
    }
  });
  EXPECT_NE(r.error.find("twice in segment 0"), std::string::npos) << r.error;
}

TEST(CollCheck, CatchesDeadlocksSizeMismatchesAndWrongResults) {
  CheckReport dead = check_collective(CollKind::kBcast, 2, 0, 1, [](Fragment& f, RankId rank) {
    if (rank == 1) f.recv(0, 8, Segs{0, 1});
  });
  EXPECT_NE(dead.error.find("never completes"), std::string::npos) << dead.error;
  CheckReport size = check_collective(CollKind::kBcast, 2, 0, 1, [](Fragment& f, RankId rank) {
    if (rank == 0) f.send(1, 8, Segs{0, 1});
    else f.recv(0, 16, Segs{0, 1});
  });
  EXPECT_NE(size.error.find("receives 16 B from rank 0 but op 0 there sends 8 B"), std::string::npos) << size.error;
  // A gather that forgets rank 2's block.
  CheckReport wrong = check_collective(CollKind::kGather, 3, 0, 1, [](Fragment& f, RankId rank) {
    if (rank == 0) f.recv(1, 8, Segs{1, 1});
    if (rank == 1) f.send(0, 8, Segs{1, 1});
  });
  EXPECT_NE(wrong.error.find("rank 0 op 0: ends with segment 2 = {}, expected {2}"), std::string::npos) << wrong.error;
  // A barrier where rank 2 never hears from rank 0.
  CheckReport barrier = check_collective(CollKind::kBarrier, 3, 0, 1, [](Fragment& f, RankId rank) {
    if (rank == 0) f.send(1, 0);
    if (rank == 1) f.recv(0, 0);
  });
  EXPECT_NE(barrier.error.find("without hearing from rank"), std::string::npos) << barrier.error;
}

// The matching-order rule (check.hpp): two sends to one peer, or two receives from one peer,
// must be ordered by the fragment's edges, or timing decides which message each receive takes.
TEST(CollCheck, RejectsSendsOrReceivesOfOnePeerThatTheEdgesLeaveUnordered) {
  // Two pieces 0 -> 1 (a pipelined bcast on 2 ranks); `edges` orders them on either side.
  const auto pieces = [](bool order_sends, bool order_recvs, bool immediate) {
    return check_collective(CollKind::kBcast, 2, 0, 2, [=](Fragment& f, RankId rank) {
      const auto order = [&](uint32_t later, uint32_t earlier) {
        if (immediate) f.irequire(later, earlier);
        else f.require(later, earlier);
      };
      if (rank == 0) {
        const uint32_t a = f.send(1, 8, Segs{0, 1});
        const uint32_t b = f.send(1, 9, Segs{1, 1});
        if (order_sends) order(b, a);
      } else {
        const uint32_t a = f.recv(0, 8, Segs{0, 1});
        const uint32_t b = f.recv(0, 9, Segs{1, 1});
        if (order_recvs) order(b, a);
      }
    });
  };
  EXPECT_EQ(pieces(true, true, false).error, "");
  EXPECT_EQ(pieces(true, true, true).error, "");  // irequires orders issue and posting too
  EXPECT_EQ(pieces(false, true, false).error,
            "bcast on 2 ranks (root 0): rank 0 op 0: sends to rank 1, and so does op 1, but no chain of "
            "requires/irequires edges orders the two (send 8 B to rank 1; send 9 B to rank 1): timing decides which "
            "receive of rank 1 each one matches");
  EXPECT_NE(pieces(true, false, true).error.find("rank 1 op 0: receives from rank 0, and so does op 1, but no chain"),
            std::string::npos);
  // Order through other ops counts (a chain mixing requires and irequires), and ops with other
  // peers or of the other kind need none: the ring step's send to r+1 and recv from r-1.
  CheckReport chained = check_collective(CollKind::kAllgather, 3, 0, 1, [](Fragment& f, RankId rank) {
    const RankId to = (rank + 1) % 3, from = (rank + 2) % 3;
    const uint32_t s0 = f.send(to, 8, Segs{static_cast<uint32_t>(rank), 1});
    const uint32_t r0 = f.recv(from, 8, Segs{static_cast<uint32_t>(from), 1});
    f.irequire(r0, s0);
    const uint32_t s1 = f.send(to, 8, Segs{static_cast<uint32_t>(from), 1});
    f.require(s1, r0);  // s0 -irequires-> r0 -requires-> s1
    const uint32_t r1 = f.recv(from, 8, Segs{static_cast<uint32_t>((from + 2) % 3), 1});
    f.irequire(r1, s1);
  });
  EXPECT_EQ(chained.error, "");
  // Without "r0 irequires s0" the sends are unordered (the ring bug): s1 waits for r0, and r0 for
  // nothing, so s1 can leave before s0 when the left neighbour is early.
  CheckReport loose = check_collective(CollKind::kAllgather, 3, 0, 1, [](Fragment& f, RankId rank) {
    const RankId to = (rank + 1) % 3, from = (rank + 2) % 3;
    f.send(to, 8, Segs{static_cast<uint32_t>(rank), 1});
    const uint32_t r0 = f.recv(from, 8, Segs{static_cast<uint32_t>(from), 1});
    f.require(f.send(to, 8, Segs{static_cast<uint32_t>(from), 1}), r0);
    f.require(f.recv(from, 8, Segs{static_cast<uint32_t>((from + 2) % 3), 1}), r0);
  });
  EXPECT_NE(loose.error.find("rank 0 op 0: sends to rank 1, and so does op 2, but no chain"), std::string::npos)
      << loose.error;
}

}  // namespace
}  // namespace simfab::coll
