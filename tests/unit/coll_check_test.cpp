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

}  // namespace
}  // namespace simfab::coll
