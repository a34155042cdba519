// The scan and exscan family (mpi/coll/scan_algorithms.hpp): check_collective proves each
// computes its collective on every communicator size 1-33 with k = 1 and 3 segments per run;
// messages, rounds and reduction work match the closed forms in the header.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <string>
#include <utility>

#include "mpi/coll/check.hpp"
#include "mpi/coll/scan_algorithms.hpp"
#include "mpi/coll/step.hpp"

namespace simfab::coll {
namespace {

constexpr int kMaxRanks = 33;
const ReduceCost kFree{};
const ReduceCost kCost{2.0};  // 2 ps per reduced byte

using ScanFn = void (*)(Fragment&, RankId, int, Bytes, const ReduceCost&, uint32_t);

uint32_t ceil_log2(int p) { return static_cast<uint32_t>(std::bit_width(static_cast<unsigned>(p - 1))); }

// Recursive doubling's partners of rank r: the masks 2^i < p with r ^ 2^i < p.
uint32_t partners(RankId r, int p) {
  uint32_t n = 0;
  for (int mask = 1; mask < p; mask <<= 1) n += (r ^ mask) < p ? 1 : 0;
  return n;
}
uint64_t pairs(int p) {
  uint64_t twice = 0;
  for (RankId r = 0; r < p; ++r) twice += partners(r, p);
  return twice / 2;
}

struct CalcTotals {
  uint32_t calcs = 0;
  int64_t ps = 0;
};
CalcTotals calc_totals(int p, ScanFn fn, Bytes n, const ReduceCost& cost) {
  CalcTotals t;
  Fragment f;
  for (RankId r = 0; r < p; ++r) {
    f.clear();
    fn(f, r, p, n, cost, 1);
    for (const FragOp& op : f.ops())
      if (op.kind == OpKind::kCalc) {
        ++t.calcs;
        t.ps += static_cast<int64_t>(op.amount);
      }
  }
  return t;
}

CheckReport check(CollKind kind, ScanFn fn, int p, uint32_t k, Bytes n, const ReduceCost& cost) {
  return check_collective(kind, p, 0, k, [&](Fragment& f, RankId r) { fn(f, r, p, n, cost, k); });
}

TEST(CollScan, ChainsOnEverySize) {
  const Bytes n = 64;
  for (int p = 1; p <= kMaxRanks; ++p)
    for (uint32_t k : {1u, 3u})
      for (const ReduceCost& cost : {kFree, kCost})
        for (auto [kind, fn] : {std::pair{CollKind::kScan, ScanFn{scan_linear}}, std::pair{CollKind::kExscan, ScanFn{exscan_linear}}}) {
          const CheckReport r = check(kind, fn, p, k, n, cost);
          ASSERT_EQ(r.error, "") << coll_kind_name(kind) << " p=" << p << " k=" << k;
          EXPECT_EQ(r.messages, static_cast<uint64_t>(p - 1));
          EXPECT_EQ(r.bytes, n * static_cast<Bytes>(p - 1));
          EXPECT_EQ(r.rounds, static_cast<uint32_t>(p - 1));  // a chain
        }
}

TEST(CollScan, RecursiveDoublingOnEverySize) {
  const Bytes n = 64;
  for (int p = 1; p <= kMaxRanks; ++p)
    for (uint32_t k : {1u, 3u})
      for (const ReduceCost& cost : {kFree, kCost})
        for (auto [kind, fn] : {std::pair{CollKind::kScan, ScanFn{scan_recursive_doubling}},
                                std::pair{CollKind::kExscan, ScanFn{exscan_recursive_doubling}}}) {
          const CheckReport r = check(kind, fn, p, k, n, cost);
          ASSERT_EQ(r.error, "") << coll_kind_name(kind) << " p=" << p << " k=" << k;
          for (RankId rank = 0; rank < p; ++rank) {
            const auto i = static_cast<size_t>(rank);
            EXPECT_EQ(r.sends[i], partners(rank, p)) << "p=" << p << " rank " << rank;
            EXPECT_EQ(r.sent_bytes[i], n * partners(rank, p));
            if (std::has_single_bit(static_cast<unsigned>(p))) {
              EXPECT_EQ(r.sends[i], ceil_log2(p));  // log2 p partners each
            }
          }
          EXPECT_EQ(r.messages, 2 * pairs(p));
          EXPECT_EQ(r.rounds, ceil_log2(p)) << coll_kind_name(kind) << " p=" << p;
        }
}

TEST(CollScan, ReductionWorkMatchesTheClosedForms) {
  const Bytes n = 100;
  const auto bn = static_cast<int64_t>(n);
  for (int p = 1; p <= kMaxRanks; ++p) {
    const auto up = static_cast<int64_t>(p);
    const auto pr = static_cast<int64_t>(pairs(p));
    // Chains: ranks 1..p-1 reduce n (scan); ranks 1..p-2 (exscan).
    const CalcTotals sl = calc_totals(p, scan_linear, n, kCost);
    EXPECT_EQ(sl.calcs, static_cast<uint32_t>(up - 1));
    EXPECT_EQ(sl.ps, 2 * bn * (up - 1));
    const CalcTotals el = calc_totals(p, exscan_linear, n, kCost);
    EXPECT_EQ(el.calcs, static_cast<uint32_t>(std::max<int64_t>(up - 2, 0))) << "p=" << p;
    EXPECT_EQ(el.ps, 2 * bn * std::max<int64_t>(up - 2, 0));
    // Recursive doubling: one calc per rank and round; n at the lower rank, 2n at the upper one,
    // except exscan's first upper round (a copy) at every rank r > 0.
    const CalcTotals sr = calc_totals(p, scan_recursive_doubling, n, kCost);
    EXPECT_EQ(sr.calcs, static_cast<uint32_t>(2 * pr));
    EXPECT_EQ(sr.ps, 2 * 3 * bn * pr) << "p=" << p;
    const CalcTotals er = calc_totals(p, exscan_recursive_doubling, n, kCost);
    EXPECT_EQ(er.calcs, static_cast<uint32_t>(2 * pr));
    EXPECT_EQ(er.ps, 2 * (3 * bn * pr - bn * (up - 1))) << "p=" << p;
    // Free reductions add no calcs at all.
    for (ScanFn fn : {scan_linear, exscan_linear, scan_recursive_doubling, exscan_recursive_doubling})
      EXPECT_EQ(calc_totals(p, fn, n, kFree).calcs, 0u);
  }
}

TEST(CollScan, CheckerRejectsRecursiveDoublingThatForgetsRecvbuf) {
  // The upper rank reduces tmp_buf into partial_scan only: its recvbuf misses the lower half.
  const int p = 4;
  const CheckReport r = check_collective(CollKind::kScan, p, 0, 1, [&](Fragment& f, RankId rank) {
    After prev;
    for (int mask = 1; mask < p; mask <<= 1) {
      const Side peer{rank ^ mask, 8, Segs{1, 1}};
      prev = sendrecv_step(f, prev, peer, peer, Combine::kReduce, kFree);
    }
  });
  EXPECT_NE(r.error.find("ends with segment 0"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace simfab::coll
