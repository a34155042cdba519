// The allreduce, reduce_scatter and scan families (mpi/coll/allreduce_algorithms.hpp,
// reduce_scatter_algorithms.hpp, scan_algorithms.hpp): check_collective proves each computes its
// collective on every communicator size 1-33; message counts, volumes and reduction work match
// the closed forms in the headers; and the checker rejects broken variants.
#include <gtest/gtest.h>

#include <bit>

#include "mpi/coll/allreduce_algorithms.hpp"
#include "mpi/coll/check.hpp"
#include "mpi/coll/pof2_fold.hpp"
#include "mpi/coll/recursive_halving.hpp"
#include "mpi/coll/reduce_scatter_algorithms.hpp"
#include "mpi/coll/scan_algorithms.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {
namespace {

constexpr int kMaxRanks = 33;
const ReduceCost kFree{};
const ReduceCost kCost{2.0};  // 2 ps per reduced byte

bool pow2(int p) { return std::has_single_bit(static_cast<unsigned>(p)); }
uint32_t log2i(int p) { return static_cast<uint32_t>(std::countr_zero(std::bit_floor(static_cast<unsigned>(p)))); }
int floor_pow2(int p) { return static_cast<int>(std::bit_floor(static_cast<unsigned>(p))); }

// Every rank sends `sends` messages of `bytes_each` bytes.
void expect_per_rank(const CheckReport& r, int p, uint32_t sends, Bytes bytes) {
  for (int i = 0; i < p; ++i) {
    EXPECT_EQ(r.sends[static_cast<size_t>(i)], sends) << "p=" << p << " rank " << i;
    EXPECT_EQ(r.sent_bytes[static_cast<size_t>(i)], bytes) << "p=" << p << " rank " << i;
  }
}

// The reduction calcs of every rank's fragment: their count and total picoseconds.
struct CalcTotals {
  uint32_t calcs = 0;
  int64_t ps = 0;
};
CalcTotals calc_totals(int p, const CollGenerator& gen) {
  CalcTotals t;
  Fragment f;
  for (RankId r = 0; r < p; ++r) {
    f.clear();
    gen(f, r);
    for (const FragOp& op : f.ops())
      if (op.kind == OpKind::kCalc) {
        ++t.calcs;
        t.ps += static_cast<int64_t>(op.amount);
      }
  }
  return t;
}

// ---- allreduce ----

TEST(CollAllreduce, RecursiveDoublingOnEverySize) {
  for (int p = 1; p <= kMaxRanks; ++p) {
    const Bytes n = 256;
    for (const ReduceCost& cost : {kFree, kCost}) {
      CheckReport r = check_collective(CollKind::kAllreduce, p, 0, 1, [&](Fragment& f, RankId rank) {
        allreduce_recursive_doubling(f, rank, p, n, cost);
      });
      ASSERT_EQ(r.error, "") << "p=" << p;
      // pof2 log2(pof2) in the core, one message in and one out per folded pair.
      const int pof2 = floor_pow2(p), rem = p - pof2;
      EXPECT_EQ(r.messages, static_cast<uint64_t>(pof2) * log2i(p) + 2u * static_cast<uint64_t>(rem)) << "p=" << p;
      if (pow2(p)) expect_per_rank(r, p, log2i(p), n * log2i(p));  // log2 p messages of n bytes
    }
  }
}

TEST(CollAllreduce, RabenseifnerOnEverySize) {
  for (int p = 1; p <= kMaxRanks; ++p) {
    const Bytes n = 32 * 60;  // divisible by every pof2 <= 32
    const uint32_t k = allreduce_rabenseifner_segments(p);
    EXPECT_EQ(k, static_cast<uint32_t>(floor_pow2(p)));
    for (const ReduceCost& cost : {kFree, kCost}) {
      CheckReport r = check_collective(CollKind::kAllreduce, p, 0, k, [&](Fragment& f, RankId rank) {
        allreduce_rabenseifner(f, rank, p, n, cost);
      });
      ASSERT_EQ(r.error, "") << "p=" << p;
      const int pof2 = floor_pow2(p), rem = p - pof2;
      EXPECT_EQ(r.messages, 2u * static_cast<uint64_t>(pof2) * log2i(p) + 2u * static_cast<uint64_t>(rem));
      // 2 log2 p messages, 2 n (p-1)/p bytes per rank.
      if (pow2(p)) expect_per_rank(r, p, 2 * log2i(p), 2 * n * static_cast<Bytes>(p - 1) / static_cast<Bytes>(p));
    }
    // Byte counts that do not divide evenly (and fewer bytes than chunks) still move the right data.
    for (Bytes odd : {Bytes{0}, Bytes{3}, Bytes{1001}})
      EXPECT_EQ(check_collective(CollKind::kAllreduce, p, 0, k,
                                 [&](Fragment& f, RankId rank) { allreduce_rabenseifner(f, rank, p, odd, kFree); })
                    .error,
                "")
          << "p=" << p << " n=" << odd;
  }
}

TEST(CollAllreduce, RingOnEverySize) {
  for (int p = 1; p <= kMaxRanks; ++p) {
    const Bytes n = 48 * static_cast<Bytes>(p);
    for (const ReduceCost& cost : {kFree, kCost}) {
      CheckReport r = check_collective(CollKind::kAllreduce, p, 0, allreduce_ring_segments(p),
                                       [&](Fragment& f, RankId rank) { allreduce_ring(f, rank, p, n, cost); });
      ASSERT_EQ(r.error, "") << "p=" << p;
      // 2(p-1) messages of n/p bytes per rank.
      expect_per_rank(r, p, 2 * static_cast<uint32_t>(p - 1), 2 * static_cast<Bytes>(p - 1) * (n / static_cast<Bytes>(p)));
      EXPECT_EQ(r.rounds, 2 * static_cast<uint32_t>(p - 1)) << "p=" << p;
    }
    EXPECT_EQ(check_collective(CollKind::kAllreduce, p, 0, allreduce_ring_segments(p),
                               [&](Fragment& f, RankId rank) { allreduce_ring(f, rank, p, 1001, kFree); })
                  .error,
              "");
  }
}

TEST(CollAllreduce, SegmentedRingOnEverySize) {
  for (uint32_t s : {1u, 2u, 5u}) {
    for (int p = 1; p <= kMaxRanks; ++p) {
      const Bytes n = 12 * s * static_cast<Bytes>(p);
      CheckReport r = check_collective(CollKind::kAllreduce, p, 0, allreduce_ring_segments(p, s),
                                       [&](Fragment& f, RankId rank) { allreduce_ring_segmented(f, rank, p, n, kCost, s); });
      ASSERT_EQ(r.error, "") << "p=" << p << " segments=" << s;
      // s (p-1) messages of n/(p s) bytes, then p-1 of n/p: 2 n (p-1)/p bytes per rank.
      expect_per_rank(r, p, (s + 1) * static_cast<uint32_t>(p - 1), 2 * n * static_cast<Bytes>(p - 1) / static_cast<Bytes>(p));
      EXPECT_EQ(check_collective(CollKind::kAllreduce, p, 0, allreduce_ring_segments(p, s),
                                 [&](Fragment& f, RankId rank) { allreduce_ring_segmented(f, rank, p, 7, kFree, s); })
                    .error,
                "")
          << "p=" << p << " segments=" << s;
    }
  }
}

TEST(CollAllreduce, ReduceThenBcastOnEverySize) {
  for (int p = 1; p <= kMaxRanks; ++p) {
    for (const ReduceCost& cost : {kFree, kCost}) {
      CheckReport r = check_collective(CollKind::kAllreduce, p, 0, 1,
                                       [&](Fragment& f, RankId rank) { allreduce_reduce_bcast(f, rank, p, 64, cost); });
      ASSERT_EQ(r.error, "") << "p=" << p;
      EXPECT_EQ(r.messages, 2 * static_cast<uint64_t>(p - 1));  // p-1 in each tree
      EXPECT_EQ(r.bytes, 2 * 64 * static_cast<Bytes>(p - 1));
    }
  }
}

TEST(CollAllreduce, ReductionWorkIsChargedOncePerReducedByte) {
  for (int p : {1, 2, 3, 6, 8, 13, 16, 32}) {
    const auto up = static_cast<int64_t>(p);
    const int64_t pof2 = floor_pow2(p), rem = p - pof2, lg = log2i(p);
    const Bytes n = 32 * 60 * 7;  // divisible by p and by every pof2 here... except 13
    // Ring: every rank reduces p-1 blocks (n/p each when p divides n; the total is exact anyway).
    const CalcTotals ring = calc_totals(p, [&](Fragment& f, RankId r) { allreduce_ring(f, r, p, n, kCost); });
    EXPECT_EQ(ring.calcs, static_cast<uint32_t>(up * (up - 1)));
    EXPECT_EQ(ring.ps, 2 * (up - 1) * static_cast<int64_t>(n)) << "p=" << p;  // sum over ranks: (p-1) n
    // Recursive doubling: pof2 ranks reduce n per round, survivors once more in the fold.
    const CalcTotals rd = calc_totals(p, [&](Fragment& f, RankId r) { allreduce_recursive_doubling(f, r, p, n, kCost); });
    EXPECT_EQ(rd.calcs, static_cast<uint32_t>(pof2 * lg + rem));
    EXPECT_EQ(rd.ps, 2 * static_cast<int64_t>(n) * (pof2 * lg + rem)) << "p=" << p;
    // Rabenseifner: (pof2-1)/pof2 n per survivor in the halving, n per fold.
    const CalcTotals rab = calc_totals(p, [&](Fragment& f, RankId r) { allreduce_rabenseifner(f, r, p, n, kCost); });
    EXPECT_EQ(rab.calcs, static_cast<uint32_t>(pof2 * lg + rem));
    EXPECT_EQ(rab.ps, 2 * (static_cast<int64_t>(n) * (pof2 - 1) + rem * static_cast<int64_t>(n))) << "p=" << p;
    // Reduce + bcast: every reduce message is reduced once.
    const CalcTotals rb = calc_totals(p, [&](Fragment& f, RankId r) { allreduce_reduce_bcast(f, r, p, n, kCost); });
    EXPECT_EQ(rb.calcs, static_cast<uint32_t>(up - 1));
    EXPECT_EQ(rb.ps, 2 * (up - 1) * static_cast<int64_t>(n));
    // Reduce-scatter pairwise and ring: p-1 blocks per rank.
    const CalcTotals pw = calc_totals(p, [&](Fragment& f, RankId r) { reduce_scatter_pairwise(f, r, p, 100, kCost); });
    EXPECT_EQ(pw.ps, 2 * up * (up - 1) * 100);
    const CalcTotals rsr = calc_totals(p, [&](Fragment& f, RankId r) { reduce_scatter_ring(f, r, p, 100, kCost); });
    EXPECT_EQ(rsr.ps, 2 * up * (up - 1) * 100);
    // Scan: ranks 1..p-1 reduce once.
    const CalcTotals sc = calc_totals(p, [&](Fragment& f, RankId r) { scan_linear(f, r, p, 100, kCost); });
    EXPECT_EQ(sc.calcs, static_cast<uint32_t>(up - 1));
    // Free reductions add no calcs at all.
    EXPECT_EQ(calc_totals(p, [&](Fragment& f, RankId r) { allreduce_ring(f, r, p, n, kFree); }).calcs, 0u);
  }
}

// ---- reduce_scatter ----

TEST(CollAllreduce, ReduceScatterOnEverySize) {
  for (int p = 1; p <= kMaxRanks; ++p) {
    const Bytes block = 40;
    const auto bp = static_cast<Bytes>(p);
    for (const ReduceCost& cost : {kFree, kCost}) {
      CheckReport halving = check_collective(CollKind::kReduceScatter, p, 0, 1, [&](Fragment& f, RankId r) {
        reduce_scatter_recursive_halving(f, r, p, block, cost);
      });
      ASSERT_EQ(halving.error, "") << "p=" << p;
      // log2 p messages, block (p-1) bytes per rank.
      if (pow2(p)) expect_per_rank(halving, p, log2i(p), block * (bp - 1));
      const int rem = p - floor_pow2(p);
      EXPECT_EQ(halving.messages, static_cast<uint64_t>(floor_pow2(p)) * log2i(p) + 2u * static_cast<uint64_t>(rem));

      CheckReport ring = check_collective(CollKind::kReduceScatter, p, 0, 1,
                                          [&](Fragment& f, RankId r) { reduce_scatter_ring(f, r, p, block, cost); });
      ASSERT_EQ(ring.error, "") << "p=" << p;
      expect_per_rank(ring, p, static_cast<uint32_t>(p - 1), block * (bp - 1));

      CheckReport pair = check_collective(CollKind::kReduceScatter, p, 0, 1, [&](Fragment& f, RankId r) {
        reduce_scatter_pairwise(f, r, p, block, cost);
      });
      ASSERT_EQ(pair.error, "") << "p=" << p;
      expect_per_rank(pair, p, static_cast<uint32_t>(p - 1), block * (bp - 1));
      EXPECT_EQ(pair.rounds, static_cast<uint32_t>(p - 1));  // each step waits for the previous one
    }
  }
}

// ---- scan ----

TEST(CollAllreduce, LinearScanOnEverySize) {
  for (int p = 1; p <= kMaxRanks; ++p) {
    CheckReport r =
        check_collective(CollKind::kScan, p, 0, 1, [&](Fragment& f, RankId rank) { scan_linear(f, rank, p, 64, kCost); });
    ASSERT_EQ(r.error, "") << "p=" << p;
    EXPECT_EQ(r.messages, static_cast<uint64_t>(p - 1));
    EXPECT_EQ(r.rounds, static_cast<uint32_t>(p - 1));  // a chain
  }
}

// ---- the fold ----

TEST(CollAllreduce, Pof2FoldMapsRanksLikeMpich) {
  // 6 ranks: pof2 4, rem 2; even ranks 0 and 2 sit out; virtual 0 1 2 3 = real 1 3 4 5.
  const Pof2Fold fold(6);
  EXPECT_EQ(fold.pof2(), 4);
  EXPECT_EQ(fold.rem(), 2);
  const int want[6] = {-1, 0, -1, 1, 2, 3};
  for (RankId r = 0; r < 6; ++r) {
    EXPECT_EQ(fold.vrank(r), want[r]) << r;
    if (want[r] >= 0) {
      EXPECT_EQ(fold.rank_of(want[r]), r);
    }
  }
  // The mirror (MPICH's reduce, OpenMPI): odd ranks sit out.
  const Pof2Fold even(6, FoldKeeps::kEven);
  EXPECT_EQ(even.vrank(0), 0);
  EXPECT_EQ(even.vrank(1), -1);
  EXPECT_EQ(even.rank_of(1), 2);
  EXPECT_EQ(even.rank_of(2), 4);
}

// ---- the checker is meaningful ----

TEST(CollAllreduce, CheckerRejectsRecursiveDoublingWithoutTheFold) {
  // Pair with rank ^ mask while that rank exists: on 6 ranks, ranks 2 and 3 never hear from 4, 5.
  const auto no_fold = [](int p) {
    return [p](Fragment& f, RankId rank) {
      After prev;
      for (int mask = 1; mask < p; mask <<= 1) {
        const RankId dst = rank ^ mask;
        if (dst >= p) continue;
        const Side peer{dst, 8, Segs{0, 1}};
        prev = sendrecv_step(f, prev, peer, peer, Combine::kReduce, ReduceCost{});
      }
    };
  };
  EXPECT_EQ(check_collective(CollKind::kAllreduce, 8, 0, 1, no_fold(8)).error, "");
  const CheckReport r = check_collective(CollKind::kAllreduce, 6, 0, 1, no_fold(6));
  EXPECT_NE(r.error.find("rank 2 op 0: ends with segment 0 = {0,1,2,3}, expected {0,1,2,3,4,5}"), std::string::npos)
      << r.error;
}

TEST(CollAllreduce, CheckerRejectsRabenseifnerWithTheAllgatherInTheWrongOrder) {
  // The allgather must undo the halving's masks in reverse; running it far-first after a
  // near-first halving asks partners for chunks they do not hold.
  const auto wrong = [](int p) {
    return [p](Fragment& f, RankId rank) {
      const Pof2Fold fold(p);
      const HalvingChunks chunks{static_cast<uint32_t>(p), 64, 1, 0};
      ChunkRange held;
      After prev = halving_reduce_scatter(f, fold, rank, chunks, MaskOrder::kNearFirst, ReduceCost{}, After{}, held);
      doubling_allgather(f, fold, rank, chunks, MaskOrder::kFarFirst, held, prev);
    };
  };
  EXPECT_EQ(check_collective(CollKind::kAllreduce, 2, 0, 2, wrong(2)).error, "");  // one round: no order
  EXPECT_NE(check_collective(CollKind::kAllreduce, 4, 0, 4, wrong(4)).error, "");
}

TEST(CollAllreduce, CheckerRejectsARingWithoutTheReduction) {
  // The reduce-scatter pass receiving with kReplace loses contributions: not an allreduce.
  const int p = 5;
  const CheckReport r = check_collective(CollKind::kAllreduce, p, 0, 1, [p](Fragment& f, RankId rank) {
    After prev;
    for (int j = 0; j < p - 1; ++j)
      prev = sendrecv_step(f, prev, Side{(rank + 1) % p, 8, Segs{0, 1}}, Side{(rank + p - 1) % p, 8, Segs{0, 1}},
                           Combine::kReplace, ReduceCost{});
  });
  EXPECT_NE(r.error.find("expected {0,1,2,3,4}"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace simfab::coll
